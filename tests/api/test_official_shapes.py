"""The client reads every answer the official description allows and every branch of its one-ofs."""

# For every operation the client shares with the official GitBook description: instances made
# from the description (``official_instances``: scalars by hypothesis-jsonschema, derandomized;
# structure by a seeded walk), validated by the description, answered to each client method
# through a mock transport and read by the method itself. Every one-of/any-of of those answers
# is swept too: for each branch, an answer that takes it.

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from gitbook_tui.api.resource import OPERATIONS
from support.official_calls import Call, calls, client_for, perform
from support.official_instances import Instances, NoInstance, Rates
from support.official_shape import shape_of
from support.official_spec import (
    node,
    official_template,
    relaxed_validator,
    response_pointers,
    sites_and_paths,
    validator,
    weight,
)
from support.official_walk import Plan

# Chances of optional members by object depth: every member of the top two levels; some;
# a few; only what is required.
RATES: tuple[Rates, ...] = ((1.0, 1.0, 0.3, 0.1), (0.6, 0.4, 0.2), (0.3, 0.15), (0.0,))
BRANCH_RATES: tuple[Rates, ...] = ((1.0, 0.5, 0.2), (0.0,))
_BUTTON = (
    "DocumentInlineButton's `data` cannot be satisfied: its allOf requires `label` and `kind`, "
    "and each branch of its one-of allows only `ref` or only `action` (additionalProperties "
    "false), so no inline button is valid"
)
# Branches no instance takes, and why (checked both ways: each is still impossible).
IMPOSSIBLE: dict[tuple[str, int], str] = {
    ("#/components/schemas/DocumentInlineButton/properties/data/allOf/1", 0): _BUTTON,
    ("#/components/schemas/DocumentInlineButton/properties/data/allOf/1", 1): _BUTTON,
    ("#/components/schemas/DocumentInline", 8): _BUTTON + " (the button is this branch)",
    ("#/components/schemas/DocumentAction", 0): _BUTTON + " (actions are a button's)",
    ("#/components/schemas/DocumentAction", 1): _BUTTON + " (actions are a button's)",
    ("#/components/schemas/DocumentAction", 2): _BUTTON + " (actions are a button's)",
}


def _answered(call: Call) -> dict[int, str]:
    return response_pointers(call.method, call.template)


CALLS = [c for c in calls() if _answered(c)]


@cache
def _roots() -> dict[str, Call]:
    """Pointer of each answer schema -> a call that reads it (lighter answers first)."""
    out: dict[str, Call] = {}
    for call in CALLS:
        for ptr in _answered(call).values():
            out.setdefault(ptr, call)
    return dict(sorted(out.items(), key=lambda item: weight(item[0])))


@cache
def _sites() -> dict[str, tuple[str, Plan]]:
    return sites_and_paths(list(_roots()))


def _branches(site: str) -> range:
    return range(len(node(site).get("oneOf", node(site).get("anyOf", []))))


@cache
def _instances() -> tuple[Instances, frozenset[tuple[str, int]]]:
    """Instances of every answer and branch, the scalars drawn; and the impossible branches."""
    instances = Instances()
    for ptr in _roots():
        assert instances.prepare(ptr), f"no instance of {ptr}"
    impossible = set()
    for site, (root, path) in _sites().items():
        for i in _branches(site):
            if not instances.prepare(root, (*path, (site, ("branch", i)))):
                impossible.add((site, i))
    instances.draw_scalars()
    return instances, frozenset(impossible)


@pytest.fixture(scope="module", autouse=True)
def _release() -> Iterator[None]:
    """The walk's caches hold ~400,000 objects: dropped once this module is done, so that the
    session's later full garbage collections do not walk them."""
    yield
    for cached in (_instances, shape_of, node, validator, relaxed_validator):
        cached.cache_clear()


@pytest.fixture(scope="module")
def runner() -> Iterator[asyncio.Runner]:
    with asyncio.Runner() as loop:
        yield loop


def _read(runner: asyncio.Runner, call: Call, status: int, body: Any, rng: random.Random) -> None:
    """``call`` answered ``body`` (other operations it performs: instances of theirs)."""
    instances, _ = _instances()

    def answer(method: str, template: str) -> tuple[int, Any]:
        if (method, template) == (call.method, call.template):
            return status, body
        other = response_pointers(method, template)
        first = min(other)
        return first, instances.make(other[first], rng, RATES[1])

    async def run() -> None:
        client = client_for(answer)
        try:
            await perform(call, client)
        finally:
            await client.close()

    try:
        runner.run(run())
    except Exception as exc:
        text = json.dumps(body)
        pytest.fail(f"{call.id} could not read a {status} answer: {exc!r}\n{text[:3000]}")


def test_every_shared_operation_is_called() -> None:
    called = {(c.method, c.template) for c in calls()}
    shared = {}
    for signature in OPERATIONS:
        method, path = signature.split(" ", 1)
        template = official_template(method, path)
        if template is not None:
            shared[signature] = (method, template)
    assert len(shared) >= 150
    assert sorted(s for s, op in shared.items() if op not in called) == []


@pytest.mark.parametrize("call", CALLS, ids=lambda c: c.id)
def test_client_reads_official_answers(call: Call, runner: asyncio.Runner) -> None:
    """Over 5 s for the largest answers under load: every answered status of the operation, read at every rate of official fields, each a generated instance."""
    instances, _ = _instances()
    for status, ptr in sorted(_answered(call).items()):
        for k, rates in enumerate(RATES):
            rng = random.Random(f"{call.id} {status} {k}")
            body = instances.make(ptr, rng, rates)
            assert validator(ptr).is_valid(body), list(validator(ptr).iter_errors(body))[:1]
            _read(runner, call, status, body, rng)


def test_impossible_branches_are_the_known_ones() -> None:
    _, impossible = _instances()
    assert {k: IMPOSSIBLE.get(k, "?") for k in impossible} == IMPOSSIBLE


@pytest.mark.parametrize("site", list(_sites()), ids=lambda s: s.removeprefix("#/components/"))
def test_client_reads_every_branch(site: str, runner: asyncio.Runner) -> None:
    instances, impossible = _instances()
    root, path = _sites()[site]
    call = _roots()[root]
    status = next(s for s, p in sorted(_answered(call).items()) if p == root)
    for i in _branches(site):
        if (site, i) in impossible:
            continue
        for k, rates in enumerate(BRANCH_RATES):
            rng = random.Random(f"{site} {i} {k}")
            try:
                body = instances.make(root, rng, rates, (*path, (site, ("branch", i))))
            except NoInstance as exc:
                pytest.fail(f"branch {i}: {exc}")
            check = relaxed_validator(root)
            assert check.is_valid(body), list(check.iter_errors(body))[:1]
            _read(runner, call, status, body, rng)
