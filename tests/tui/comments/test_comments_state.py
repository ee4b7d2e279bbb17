"""What the Comments view holds, on its own (no app, no screen): how a read of the threads
merges into what is shown, the scope, the selection and the empty-list wording."""

from __future__ import annotations

from typing import Any

from gitbook_tui.models import Comment, CommentReply, User
from gitbook_tui.tui.comments.comments_state import CommentsState
from gitbook_tui.tui.comments.thread_data import ThreadState


def comment(
    cid: str, *, by: str = "cody", replies: int = 0, page: str | None = None, **more: Any
) -> Comment:
    target = {"page": {"id": page, "title": page.title()}} if page else None
    return Comment.model_validate(
        {"id": cid, "postedBy": {"id": by}, "replies": replies, "target": target, **more}
    )


def loaded(*comments: Comment, me: str = "eve") -> CommentsState:
    state = CommentsState(space_id="s", me=User(id=me))
    state.merge(list(comments), live=False)
    return state


def test_a_first_read_marks_nothing_new_and_notes_page_titles() -> None:
    state = loaded(comment("a", page="welcome"), comment("b"))
    assert state.loaded and state.order == ["a", "b"]
    assert not any(t.new for t in state.threads.values())
    assert state.page_titles == {"welcome": "Welcome"}


def test_a_refresh_marks_others_new_threads_and_replies_but_not_mine() -> None:
    state = loaded(comment("a", replies=1))
    state.threads["a"].replies = []  # shown, before the reply arrived
    state.merge([comment("a", replies=2), comment("b"), comment("c", by="eve")], live=True)
    a, b, c = (state.threads[i] for i in ("a", "b", "c"))
    assert b.new and not c.new  # my own thread (sent from the outbox) is not new to me
    assert a.new and a.new_replies_from == 1 and a.stale  # its replies read again


def test_a_thread_being_written_to_stays_and_one_deleted_here_does_not_come_back() -> None:
    state = loaded(comment("a"), comment("b"), comment("c"))
    state.threads["a"].pending.add("a")
    state.gone.add("c")
    state.merge([comment("b"), comment("c")], live=True)  # a read sent before the delete
    assert state.order == ["b", "a"]


def test_forget_drops_the_thread_and_the_selection() -> None:
    state = loaded(comment("a"), comment("b"))
    state.selected_id = "a"
    assert state.forget("a") and state.order == ["b"] and state.selected_id is None
    assert not state.forget("a") and "a" in state.gone


def test_selecting_another_thread_clears_the_new_marks_of_the_one_left() -> None:
    state = loaded(comment("a"), comment("b"))
    state.threads["a"].new, state.threads["a"].new_replies_from = True, 0
    state.selected_id = "a"
    seen = state.select("b")
    assert seen is state.threads["a"] and not seen.new and seen.new_replies_from is None
    assert state.select("a") is None and state.selected_id == "a"


def test_replayed_local_posts_give_way_to_the_server_copies() -> None:
    state = loaded(comment("a"))
    thread = state.threads["a"]
    thread.replies = [CommentReply(id="local-1")]
    thread.pending |= {"local-1", "a"}
    state.settle_local_posts()
    assert thread.pending == {"a"} and thread.stale


def test_rescope_follows_the_space_and_page_unless_it_shows_a_change_request() -> None:
    state = loaded(comment("a"))
    assert not state.rescope("s", "p1", None)  # shown again as it was
    assert state.rescope("s", "p1", "page") and state.page_scope == "p1"
    assert not state.rescope("s", "p1", "page")
    assert state.rescope("s", "p1", "") and state.page_scope is None
    state.gone.add("x")
    assert state.rescope("t", None, None) and state.threads == {} and state.gone == set()
    review = CommentsState(space_id="s", change_request="cr")
    assert not review.rescope("other", "p1", "page") and review.space_id == "s"


def test_the_empty_list_offers_only_what_the_caller_may_do() -> None:
    state = loaded()
    assert state.no_threads_text(may_start=True) == (
        "No open threads in this space — c starts one, f shows resolved ones."
    )
    state.status, state.page_scope = "resolved", "p1"
    assert state.no_threads_text(may_start=False) == "No resolved threads on this page."
    state.cycle_status()
    assert state.status == "all"
    state.author, state.author_picked = "u9", "Cody"
    assert state.no_threads_text(may_start=False) == "No threads on this page by Cody."


def test_the_author_label_prefers_the_name_on_their_threads() -> None:
    state = loaded(comment("a", by="u1", postedBy={"id": "u1", "displayName": "Alice"}))
    assert state.author_label() == "anyone"
    state.author, state.author_picked = "u1", "Alice (picked)"
    assert state.author_label() == "Alice"
    state.threads = {"b": ThreadState(comment("b"))}
    assert state.author_label() == "Alice (picked)"
