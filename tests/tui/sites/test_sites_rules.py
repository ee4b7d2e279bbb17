"""Unit tests of the widget-free redirect rules: validation, tracing, lint, import, export."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gitbook_tui.tui.sites import redirect_files, redirect_rules
from gitbook_tui.tui.sites.redirect_files import (
    export_csv,
    export_yaml,
    parse_import,
    plan_import,
)
from gitbook_tui.tui.sites.redirect_rules import (
    Destination,
    RedirectEntry,
    SiteMap,
    fix_effect,
    lint,
    lint_diff,
    shown_source,
    source_error,
    trace,
    url_error,
)

BASE = "https://acme.gitbook.io/docs"


def site() -> SiteMap:
    m = SiteMap(base_url=BASE)
    m.sections = {"sec-guides": BASE, "sec-ref": f"{BASE}/reference"}
    m.site_spaces = {"ss-guide": BASE, "ss-api": f"{BASE}/reference"}
    m.pages = {
        ("ss-guide", "p-install"): f"{BASE}/install",
        ("ss-guide", "p-config"): f"{BASE}/configure",
        ("ss-api", "p-auth"): f"{BASE}/reference/auth",
    }
    m.titles = {"p-install": "Install", "p-config": "Configure", "ss-guide": "Guide"}
    return m


def page(ss: str, page_id: str) -> Destination:
    return Destination("site-page", site_space=ss, page=page_id)


def entry(i: str, source: str, dest: Destination, **kw: bool) -> RedirectEntry:
    return RedirectEntry(i, source, dest, **kw)


@pytest.mark.parametrize("module", [redirect_rules, redirect_files])
def test_module_has_no_textual_import(module: object) -> None:
    tree = ast.parse(Path(module.__file__).read_text())  # type: ignore[attr-defined]
    names = [
        n.module if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in (n.names if isinstance(n, ast.Import) else [n])
    ]
    assert not any(str(name).startswith("textual") for name in names)


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("", "required"),
        ("old/page", "start with '/'"),
        ("https://x.test/a", "start with '/'"),
        ("/a//b", "empty segment"),
        ("/a/", "empty segment"),
        ("/a b", "' '"),
        ("/a%zz", "%XX"),
        ("/" + "a" * 600, "at most 512"),
        ("/OLD-Install", "Already redirected as /old-install"),
    ],
)
def test_source_errors(value: str, fragment: str) -> None:
    others = [entry("r1", "/old-install", page("ss-guide", "p-install"))]
    message = source_error(value, others)
    assert message is not None and fragment in message


def test_source_ok_and_own_source_while_editing() -> None:
    others = [entry("r1", "/old-install", page("ss-guide", "p-install"))]
    assert source_error("/new/place-%20x", others) is None
    assert source_error("/Old-Install", others, editing="r1") is None


def test_url_errors() -> None:
    assert url_error("https://example.com/a") is None
    assert "http" in (url_error("ftp://x") or "")
    assert "at most" in (url_error("https://x.test/" + "a" * 2100) or "")


def test_trace_follows_a_chain_and_stops_at_a_page() -> None:
    redirects = [
        entry("a", "/a", Destination("external", url=f"{BASE}/b")),
        entry("b", "/b", page("ss-guide", "p-install")),
    ]
    result = trace("/A", redirects, site())
    assert [h[0].id for h in result.hops] == ["a", "b"]
    assert result.lands == f"{BASE}/install"
    assert trace("/install", redirects, site()).page
    assert trace("/nowhere", redirects, site()).hops == ()


def test_trace_wildcard_and_drafts_ignored() -> None:
    redirects = [
        entry("w", "/v1", Destination("external", url="https://old.test"), wildcard=True),
        entry("d", "/v1/x", page("ss-guide", "p-install"), draft=True),
    ]
    result = trace("/v1/x/y", redirects, site())
    assert [h[0].id for h in result.hops] == ["w"]


def test_lint_finds_chain_loop_gone_shadowed_duplicate() -> None:
    redirects = [
        entry("c1", "/chain-a", Destination("external", url=f"{BASE}/chain-b")),
        entry("c2", "/chain-b", page("ss-guide", "p-config")),
        entry("l1", "/loop-a", Destination("external", url=f"{BASE}/loop-b")),
        entry("l2", "/loop-b", Destination("external", url=f"{BASE}/loop-a")),
        entry("g", "/gone", page("ss-guide", "p-deleted")),
        entry("s", "/install", page("ss-guide", "p-config")),
        entry("d1", "/dup", page("ss-guide", "p-config")),
        entry("d2", "/DUP", page("ss-guide", "p-install")),
    ]
    found = {(f.kind, f.redirect.id) for f in lint(redirects, site())}
    assert ("chain", "c1") in found
    assert ("loop", "l1") in found and ("loop", "l2") in found
    assert ("gone", "g") in found
    assert ("shadowed", "s") in found
    assert ("duplicate", "d1") in found or ("duplicate", "d2") in found
    chain = next(f for f in lint(redirects, site()) if f.kind == "chain")
    assert chain.suggestion == page("ss-guide", "p-config") and chain.fix == "edit"


def ext(path: str) -> Destination:
    """A redirect to a path of the site written as its URL."""
    return Destination("external", url=f"{BASE}{path}")


def test_fixing_the_middle_of_a_chain_names_what_it_changes_and_creates() -> None:
    """/v0/start → /legacy/start → /start → Install: fixing /legacy/start (point it at the end)
    leaves /v0/start a chain of 2 — a changed finding, named — and creates none; pointing it
    back at /v0/start instead would create a loop, named as new."""
    redirects = [
        entry("r-start", "/start", page("ss-guide", "p-install")),
        entry("r-legacy", "/legacy/start", ext("/start")),
        entry("r-v0", "/v0/start", ext("/legacy/start")),
    ]
    before = lint(redirects, site())
    chains = {f.redirect.source: f for f in before if f.kind == "chain"}
    assert set(chains) == {"/legacy/start", "/v0/start"}
    effect = fix_effect(chains["/legacy/start"], "edit", redirects, site(), before)
    assert effect is not None and effect.new == ()
    assert [f.redirect.source for f in effect.fixed] == ["/legacy/start"]
    [(was, now)] = effect.changed
    assert "chain of 3" in was.message and now.message.startswith("/v0/start is a chain of 2")
    # a user's own edit: compared after the fix, the loop is new
    looped = [
        r if r.id != "r-legacy" else entry("r-legacy", "/legacy/start", ext("/v0/start"))
        for r in redirects
    ]
    diff = lint_diff(before, lint(looped, site()))
    assert {(f.kind, f.redirect.source) for f in diff.new} == {
        ("loop", "/legacy/start"),
        ("loop", "/v0/start"),
    }
    # an edit with no suggestion (a gone page): the user chooses, nothing to foresee
    gone = entry("r-gone", "/old", page("ss-guide", "p-deleted"))
    [finding] = lint([gone], site())
    assert fix_effect(finding, "edit", [gone], site()) is None
    deleted = fix_effect(finding, "delete", [gone], site())
    assert deleted is not None and len(deleted.fixed) == 1 and deleted.new == ()


def test_a_wildcard_source_is_shown_with_its_wildcard() -> None:
    dest = Destination("external", url="https://legacy.example.com/v1")
    assert shown_source(entry("w", "/v1", dest, wildcard=True)) == "/v1/*"
    assert shown_source(entry("x", "/v1", dest)) == "/v1"


def test_lint_clean_site_has_no_findings() -> None:
    redirects = [entry("a", "/old", page("ss-guide", "p-install"))]
    assert lint(redirects, site()) == []


def test_parse_csv_with_header_and_flags() -> None:
    text = "source,destination,permanent\n/a,/install,true\n/b,https://x.test/,no\n/c,/x,maybe\n"
    rows = parse_import(text, "r.csv")
    assert [(r.source, r.target, r.permanent) for r in rows[:2]] == [
        ("/a", "/install", True),
        ("/b", "https://x.test/", False),
    ]
    assert rows[2].error and "maybe" in rows[2].error


def test_parse_yaml_safe_and_errors() -> None:
    rows = parse_import("redirects:\n  - {source: /a, destination: /install}\n", "r.yaml")
    assert rows[0].source == "/a" and rows[0].error is None
    assert parse_import("- !!python/object:os.system {}\n", "r.yml")[0].error
    assert "YAML" in (parse_import("a: [", "r.yaml")[0].error or "")


def test_plan_import_dry_run() -> None:
    existing = [entry("r1", "/old", page("ss-guide", "p-install"))]
    rows = parse_import(
        "/new,/configure\n/OLD,/reference/auth\n/old2,/install\n/bad path,/install\n"
        "/x,/missing\n/new,/install\n/ext,https://example.com/a\n",
        "r.csv",
    )
    plan = plan_import(rows, existing, site())
    assert [p.action for p in plan] == [
        "create",
        "change",
        "create",
        "refuse",
        "refuse",
        "refuse",
        "create",
    ]
    assert plan[1].existing is existing[0]
    assert plan[4].reason == "no page at /missing"
    assert plan[5].reason == "appears earlier in the file"
    assert plan[6].destination == Destination("external", url="https://example.com/a")


def test_export_round_trips_through_import() -> None:
    redirects = [
        entry("a", "/b-old", page("ss-guide", "p-install"), permanent=True),
        entry("b", "/a-old", Destination("external", url="https://example.com/x")),
    ]
    text = export_csv(redirects, site())
    assert text.splitlines()[0] == "source,destination,permanent,draft,wildcard,kind,ref"
    assert text.splitlines()[1] == "/a-old,https://example.com/x,false,false,false,external,"
    plan = plan_import(parse_import(text, "r.csv"), redirects, site())
    assert [p.action for p in plan] == ["same", "same"]
    plan = plan_import(parse_import(export_yaml(redirects, site()), "r.yaml"), redirects, site())
    assert [p.action for p in plan] == ["same", "same"]


def test_export_keeps_kinds_flags_and_gone_pages() -> None:
    redirects = [
        entry("s", "/ref", Destination("site-section", site_section="sec-ref")),
        entry("d", "/beta", Destination("site-section", site_section="sec-ref"), draft=True),
        entry("w", "/v1", Destination("external", url="https://x.test/v1"), wildcard=True),
        entry("c", "/v0", Destination("external", url=f"{BASE}/legacy")),  # another redirect
        entry("g", "/faq", page("ss-guide", "p-deleted")),  # no URL any more
    ]
    for text, name in (
        (export_csv(redirects, site()), "r.csv"),
        (export_yaml(redirects, site()), "r.yaml"),
    ):
        plan = plan_import(parse_import(text, name), redirects, site())
        assert [(p.action, p.reason) for p in plan] == [("same", "already so")] * 5, name
    # a hand-written file (no kind, no flags) naming the same places changes nothing either
    plan = plan_import(
        parse_import("/ref,/reference\n/beta,/reference\n", "r.csv"), redirects, site()
    )
    assert [p.action for p in plan] == ["same", "same"]
    # but a flag that differs is a change, and a gone page is not created
    plan = plan_import(
        parse_import("/beta,/reference,,false\n/new,,,,,site-page,ss-guide/p-deleted\n", "r.csv"),
        redirects,
        site(),
    )
    assert [p.action for p in plan] == ["change", "refuse"]


def test_schema_problems() -> None:
    from gitbook_tui.tui.sites.schema_check import schema_problems

    good = (
        '{"type": "object", "properties": {"isBeta": {"type": "boolean"}, '
        '"unsigned": {"type": "object", "properties": {"plan": {"type": "boolean"}}}}}'
    )
    assert schema_problems(good)[1] == []
    assert "not JSON" in schema_problems("{")[1][0]
    assert "draft-07" in schema_problems('{"type": 5}')[1][0]
    problems = schema_problems('{"type": "object", "properties": {"x-y": {"type": "string"}}}')[1]
    assert any("identifiers" in p for p in problems) and any("boolean" in p for p in problems)


def test_pages_hidden_from_the_caller_are_not_gone() -> None:
    m = site()
    m.opaque.add("ss-api")
    hidden = entry("h", "/h", page("ss-api", "p-private"))
    assert lint([hidden], m) == []
    assert "not visible to you" in m.label_of(hidden.destination)
    assert [f.kind for f in lint([entry("g", "/g", page("ss-guide", "p-gone"))], m)] == ["gone"]


def test_structure_order_shift_anchors_and_snapshot() -> None:
    from gitbook_tui.models import Site, SiteSection, SiteSpace
    from gitbook_tui.tui.sites.site_data import SiteData
    from gitbook_tui.tui.sites.structure_order import Row, StructureOrder

    spaces = [SiteSpace(id="s1"), SiteSpace(id="s2")]
    data = SiteData(
        site=Site(id="site"),
        sections=[SiteSection(id="a", siteSpaces=spaces), SiteSection(id="b"), SiteSection(id="c")],
    )
    order = StructureOrder()
    order.load(data)
    assert [r.id for r, _, _ in order.rows()] == ["a", "s1", "s2", "b", "c"]
    before = order.snapshot()
    a = Row("section", "a", "a")
    assert order.shift(a, 1) and order.level(a) == [("section", i) for i in "bac"]
    assert order.changed(a, before)
    assert not order.shift(Row("section", "c", "c"), 1)
    s1 = Row("space", "s1", "a")
    order.shift(s1, 1)
    assert order.ids(s1) == ["s2", "s1"] and order.anchors(s1) == (None, "s2")
    order.shift(Row("space", "s1", "a"), -1)
    assert order.anchors(s1) == ("s2", None)  # first: placed before its next sibling
    order.restore(before)
    assert [r.id for r, _, _ in order.rows()] == ["a", "s1", "s2", "b", "c"]
