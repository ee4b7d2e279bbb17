"""Which posts are "new" to me: only others' — told from a comment's repliers in the list."""

from __future__ import annotations

from typing import Any

from gitbook_tui.models import Comment
from gitbook_tui.tui.comments.thread_data import mine, more_replies_from_others


def comment(replies: int, repliers: list[dict[str, Any]] | None = None) -> Comment:
    return Comment.model_validate(
        {"id": "c1", "postedBy": {"id": "cody"}, "replies": replies, "repliers": repliers or []}
    )


def r(user: str, count: int | None) -> dict[str, Any]:
    return {"user": {"id": user}, "count": count}


def test_my_own_posts_are_never_new_to_me() -> None:
    assert mine(comment(0), "cody") and not mine(comment(0), "eve") and not mine(comment(0), None)


def test_more_replies_count_only_when_someone_else_posted_them() -> None:
    before = comment(1, [r("cody", 1)])
    assert not more_replies_from_others(before, comment(2, [r("cody", 1), r("eve", 1)]), "eve")
    assert more_replies_from_others(before, comment(2, [r("cody", 2)]), "eve")
    assert more_replies_from_others(before, comment(3, [r("cody", 2), r("eve", 1)]), "eve")
    assert not more_replies_from_others(before, comment(1, [r("cody", 1)]), "eve")  # no more


def test_without_the_repliers_counts_any_more_is_new_unless_only_i_replied() -> None:
    before = comment(0)
    assert more_replies_from_others(before, comment(1), "eve")  # the server did not say who
    assert more_replies_from_others(before, comment(1, [r("eve", 1)]), None)  # nor who I am
    assert not more_replies_from_others(before, comment(1, [r("eve", None)]), "eve")
    assert more_replies_from_others(before, comment(2, [r("eve", None), r("al", None)]), "eve")
