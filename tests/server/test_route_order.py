"""The order routes are matched in: the routers of the reads that come by the hundred are
tried first (app.MATCHED_FIRST), which may change no request's route, nor the OpenAPI
document (its paths stay in the order of ROUTE_MODULES)."""

from __future__ import annotations

from pathlib import Path

from gitbook_tui.server.app import MATCHED_FIRST, ROUTE_MODULES, create_app


def _can_both_match(a: str, b: str) -> bool:
    """Whether some request path could match both route paths (``{x}``: one segment,
    ``{x:path}``: the rest of the path)."""
    left, right = a.strip("/").split("/"), b.strip("/").split("/")
    for i in range(max(len(left), len(right))):
        x = left[i] if i < len(left) else None
        y = right[i] if i < len(right) else None
        if (x or "").endswith(":path}") or (y or "").endswith(":path}"):
            return True
        if x is None or y is None:
            return False
        if not (x.startswith("{") or y.startswith("{")) and x != y:
            return False
    return True


def test_the_overlap_rule() -> None:
    assert _can_both_match("/spaces/{spaceId}", "/spaces/{other}")
    assert _can_both_match("/spaces/{spaceId}/x", "/spaces/literal/x")
    assert _can_both_match("/spaces/{id}/content/path/{p:path}", "/spaces/{s}/content/path/a/b")
    assert not _can_both_match("/spaces/{spaceId}", "/spaces/{spaceId}/revisions")
    assert not _can_both_match("/spaces/{id}/revisions/{r}", "/spaces/{id}/changes/{c}")


def test_no_request_can_be_taken_by_a_router_matched_first_from_one_it_passes() -> None:
    """Any method: a route whose path matches but not its method answers 405, and the
    first such route gives the Allow header."""
    passed = []
    for module in ROUTE_MODULES:
        if module in MATCHED_FIRST:
            for route in module.router.routes:
                for other_module, other in passed:
                    assert not _can_both_match(route.path, other.path), (
                        f"{module.__name__} {route.path} would now win over "
                        f"{other_module.__name__} {other.path}"
                    )
        else:
            passed += [(module, route) for route in module.router.routes]


def test_the_openapi_document_lists_paths_in_the_order_of_the_route_modules(
    tmp_path: Path,
) -> None:
    app = create_app(tmp_path / "db.sqlite")
    documented = [
        "/v1" + route.path_format  # type: ignore[attr-defined]
        for module in ROUTE_MODULES
        for route in module.router.routes
        if getattr(route, "include_in_schema", True)
    ]
    assert list(app.openapi()["paths"]) == list(dict.fromkeys(documented))
