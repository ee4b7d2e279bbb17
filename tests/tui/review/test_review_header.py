"""The review pane's header and "changed under you" banner text."""

from __future__ import annotations

from gitbook_tui.models import ChangeRequest, RevisionSemanticChange
from gitbook_tui.tui.review.review_header import change_title, changed_under_you


def cr(**fields: object) -> ChangeRequest:
    base = {"id": "cr1", "number": 3, "status": "open", "revision": "r1", "outdated": False}
    return ChangeRequest.model_validate({**base, **fields})


def test_nothing_a_reviewer_must_know_changed_means_no_banner() -> None:
    assert changed_under_you(cr(), cr(subject="retitled")) is None


def test_the_banner_names_every_change_and_how_to_reload() -> None:
    banner = changed_under_you(cr(), cr(revision="r2", status="merged", outdated=True))
    assert banner == (
        "This change request changed under you (new commits, now merged, became outdated)."
        " R reloads."
    )


def test_a_change_is_named_by_its_page_else_its_file() -> None:
    page = RevisionSemanticChange.model_validate(
        {"type": "page_edited", "page": {"id": "p1", "title": "Streams"}}
    )
    file = RevisionSemanticChange.model_validate(
        {"type": "file_created", "file": {"id": "f1", "name": "logo.png"}}
    )
    assert change_title(page) == "Streams" and change_title(file) == "logo.png"
