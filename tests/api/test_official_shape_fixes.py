"""Official answers the client once refused, each read by the client method that asks for it."""

# A deleted page named by its id, a publish checkout, a content security policy as directives,
# strings among a rendered UI's text, envelopes with extra members, fractional counts and leap
# seconds.

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest

from gitbook_tui.api import AsyncGitBook, ResponseValidationError
from gitbook_tui.models import (
    ChangeRequestContentChange,
    ChangeRequestContentUpdate,
    PublishCheckout,
    Site,
)
from gitbook_tui.models.lenient import read_timestamp
from support.official_calls import client_for
from support.official_instances import Instances
from support.official_spec import COMPONENT, response_pointers, validator

Change = ChangeRequestContentChange
NAMES = ("ChangeRequest", "Space", "Organization", "Integration", "Site", "RevisionFile")
LEAP = "2016-12-31T23:59:60Z"


@cache
def _instances() -> Instances:
    instances = Instances()
    for name in NAMES:
        assert instances.prepare(COMPONENT + name)
    instances.draw_scalars()
    return instances


def official(component: str, /, **members: Any) -> dict[str, Any]:
    """An instance of ``component`` with its required members only, then ``members``; valid
    by the official description."""
    ptr = COMPONENT + component
    value: dict[str, Any] = _instances().make(ptr, random.Random(component), (0.0,))
    value.update(members)
    assert validator(ptr).is_valid(value), list(validator(ptr).iter_errors(value))[:1]
    return value


def answering(method: str, template: str, body: Any, status: int = 200) -> AsyncGitBook:
    """A client whose ``method template`` is answered ``body`` (checked against the official
    answer schema first)."""
    schema = response_pointers(method, template)[status]
    assert validator(schema).is_valid(body), list(validator(schema).iter_errors(body))[:1]
    return client_for(lambda m, t: (status, body) if (m, t) == (method, template) else (404, {}))


CONTENT = "/spaces/{spaceId}/change-requests/{changeRequestId}/content"
URLS = {"location": "https://api.example/v1/spaces/s1/change-requests/cr1/content/page/p2"}


# -- content batches -----------------------------------------------------------------------------
@pytest.mark.slow
async def test_a_deleted_page_is_named_by_its_id() -> None:
    """A deleted page in an edit's answer is named by its id. Slow: builds instances of the official
    schema's ChangeRequest with hypothesis-jsonschema."""
    body = {
        "changeRequest": official("ChangeRequest"),
        "changes": [
            {"object": "deleted_page", "page": "page-gone"},
            {
                "object": "created_page",
                "ref": "new",
                "page": {"object": "page", "id": "p2", "urls": URLS},
            },
        ],
    }
    client = answering("POST", CONTENT, body)
    update = await client.change_requests.edit_content("s1", "cr1", [Change.delete("page-gone")])
    assert [c.object for c in update.changes] == ["deleted_page", "created_page"]
    assert [c.page_id for c in update.changes] == ["page-gone", "p2"]


async def test_deleting_a_page_on_this_server_answers_and_reads(
    gb: AsyncGitBook, world: Any
) -> None:
    space = await gb.spaces.create_in_org(world.org, title="Batches")
    cr = await gb.change_requests.create(space.id, subject="Add then remove")
    added = await gb.change_requests.edit_content(
        space.id, cr.id, [Change.insert_markdown("Tmp", "x")]
    )
    page_id = added.changes[0].page_id
    assert page_id is not None
    removed = await gb.change_requests.edit_content(space.id, cr.id, [Change.delete(page_id)])
    assert [(c.object, c.page_id) for c in removed.changes] == [("deleted_page", page_id)]
    pages = await gb.content.pages(space.id, change_request=cr.id)
    assert page_id not in {p.id for p in pages.pages}


async def test_the_change_request_form_of_the_answer_names_no_pages() -> None:
    change_request = official("ChangeRequest")
    client = answering("POST", CONTENT, change_request)
    update = await client.change_requests.edit_content("s1", "cr1", [Change.delete("p1")])
    assert update.changeRequest is not None and update.changeRequest.id == change_request["id"]
    assert update.changes == []


async def test_an_unreadable_answer_of_a_landed_batch_is_no_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sent: list[tuple[str, str | None]] = []
    client = client_for(lambda m, t: (200, {"changes": "all of them"}), sent)
    with caplog.at_level(logging.WARNING, logger="gitbook_tui.api"):
        update = await client.change_requests.edit_content("s1", "cr1", [Change.delete("p1")])
    assert update == ChangeRequestContentUpdate()
    assert sent == [("POST", CONTENT)]  # sent once: not retried, not reported as failed
    assert "landed" in caplog.text and "changes" in caplog.text


# -- publishing ---------------------------------------------------------------------------------
PUBLISH = "/orgs/{organizationId}/sites/{siteId}/publish"


async def test_publishing_answers_a_site_or_a_checkout() -> None:
    checkout = {"type": "checkout", "sessionId": "cs_test_a1"}
    answer = await answering("POST", PUBLISH, checkout).sites.publish("o1", "s1")
    assert isinstance(answer, PublishCheckout) and answer.sessionId == "cs_test_a1"
    site = official("Site", type="premium")
    published = await answering("POST", PUBLISH, site).sites.publish("o1", "s1")
    assert isinstance(published, Site) and published.id == site["id"]


# -- integrations -------------------------------------------------------------------------------
async def test_a_content_security_policy_may_be_directives() -> None:
    directives = {"script-src": "'self' https://cdn.example", "img-src": "*"}
    plain = official("Integration", name="plain", contentSecurityPolicy="default-src 'self'")
    strict = official("Integration", name="strict", contentSecurityPolicy=directives)
    page = await answering("GET", "/integrations", {"items": [plain, strict]}).integrations.list()
    assert [i.contentSecurityPolicy for i in page.items] == ["default-src 'self'", directives]


async def test_text_elements_of_a_rendered_ui_may_hold_strings() -> None:
    words = ["Hello ", {"type": "text", "style": "bold", "children": "world"}]
    block = {"type": "block", "children": [{"type": "text", "children": words}]}
    body = {"type": "element", "element": block, "state": {}, "props": {}}
    client = answering("POST", "/integrations/{integrationName}/render", body)
    output = await client.integrations.render("tool", "block", props={}, context={})
    assert output.element is not None
    text = output.element.children[0]
    assert not isinstance(text, str) and text.children[0] == "Hello "
    assert not isinstance(text.children[1], str) and text.children[1].children == "world"


# -- envelopes ----------------------------------------------------------------------------------
async def test_envelopes_keep_their_extra_members() -> None:
    org = official("Organization")
    orgs = {"organizations": [org], "next": {"page": "2"}, "count": 3}
    found = await answering(
        "GET", "/email-domains/{emailDomain}/orgs", orgs
    ).orgs.list_for_email_domain("acme.test")
    assert [o.id for o in found] == [org["id"]]
    conditions = {
        "items": [{"condition": "visitor.claims.beta", "description": "beta"}],
        "count": 1.0,
        "next": None,
    }
    template = "/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions"
    read = await answering("GET", template, conditions).sites.template_conditions("o1", "s1")
    assert [c.condition for c in read] == ["visitor.claims.beta"]


# -- numbers and date-times ---------------------------------------------------------------------
async def test_fractional_counts_and_leap_seconds_do_not_fail_a_page() -> None:
    odd = official(
        "Space", comments=2.5, changeRequests=1e21, changeRequestsOpen=3.0, createdAt=LEAP
    )
    usual = official("Space", comments=4)
    page = await answering(
        "GET", "/orgs/{organizationId}/spaces", {"items": [usual, odd], "count": 2.5}
    ).spaces.list_in_org("o1")
    assert page.count == 2 and len(page.items) == 2
    space = page.items[1]
    assert (space.comments, space.changeRequests, space.changeRequestsOpen) == (2, 10**21, 3)
    assert space.createdAt == datetime(2016, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)


async def test_a_change_request_number_and_a_file_size_may_be_fractional() -> None:
    cr = official("ChangeRequest", number=7.0, comments=1.5, updatedAt="1990-12-31T15:59:60-08:00")
    read = await answering(
        "GET", "/spaces/{spaceId}/change-requests/{changeRequestId}", cr
    ).change_requests.get("s1", "cr1")
    assert (read.number, read.comments) == (7, 2)
    assert read.updatedAt is not None and read.updatedAt.second == 59
    file = official("RevisionFile", size=1536.5)
    got = await answering("GET", "/spaces/{spaceId}/content/files/{fileId}", file).content.file(
        "s1", "f1"
    )
    assert got.size == 1536


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (LEAP, datetime(2016, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        ("2016-12-31t23:59:60.5z", datetime(2016, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        ("0000-01-01T00:00:00Z", datetime.min.replace(tzinfo=UTC)),
    ],
)
def test_date_times_python_cannot_hold_are_read(text: str, expected: datetime) -> None:
    assert read_timestamp(text) == expected


async def test_a_date_time_that_is_not_one_still_fails() -> None:
    space = official("Space")
    space["createdAt"] = "yesterday"  # not RFC 3339: not an official answer
    client = client_for(lambda m, t: (200, space))
    with pytest.raises(ResponseValidationError, match="createdAt"):
        await client.spaces.get("s1")
