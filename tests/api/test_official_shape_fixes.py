"""Official answers the client once refused, each read by the client method that asks for it."""

# Fractional counts and leap seconds.

from __future__ import annotations

import random
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest
from official_calls import client_for
from official_instances import Instances
from official_spec import COMPONENT, response_pointers, validator

from gitbook_tui.api import AsyncGitBook, ResponseValidationError
from gitbook_tui.models.lenient import read_timestamp

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
