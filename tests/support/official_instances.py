"""Official-valid instances of any schema of the official description, made from a seed."""

# In full, or forced down a path to one branch of a one-of/any-of. Every scalar value comes
# from hypothesis-jsonschema (formats, patterns, lengths, bounds), drawn once per distinct
# scalar schema in one derandomized Hypothesis run, plus edge values the usual generators
# never make (fractions, leap seconds). The structure around them (which members, items and
# branches) is picked by a seeded random walk of ``official_walk``: hypothesis-jsonschema
# needs references inlined (the description's cycles make that infinite, its 30-schema
# document cycle astronomically large once cut), re-merges every object's subschemas at each
# draw (measured: seconds per example of one ``Integration``), and Hypothesis itself spends
# ~0.1-0.3 ms a choice (~1 s an example of a revision): far beyond the suite's budget for
# ~1,700 instances.
#
# Every one-of is checked with the description's own validator (exactly one branch), and the
# tests validate every instance with it: they are valid by the description, not by this walk.

from __future__ import annotations

import base64
import contextlib
import json
import random
import warnings
from typing import Any

import jsonschema_rs
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning
from hypothesis_jsonschema import from_schema

from support.official_shape import DATE_TIME, Shape, canonical, shape_of
from support.official_spec import validator
from support.official_walk import Alt, Ctx, Plan, Walk

POOL_SIZE = 6  # values drawn for each scalar schema
ATTEMPTS = 6  # tries of a schema before it counts as impossible here
BUDGET = 3000  # schemas made for one instance at most (ambiguous one-ofs nest retries)
Rates = tuple[float, ...]  # chance of each optional member, by object depth (last repeats)
# Members the description does not name, allowed wherever it allows extra members: neutral
# names, so that no model field of the client happens to be named like one.
EXTRA_NAMES = ("extraMember", "x-unknown")
ANY_VALUES: list[Any] = [None, True, 0, -7, 2.5, "", "text", [], [1, "a"], {}, {"k": [None]}]
MAP_KEYS = ["a", "key-1", "Ünïcode key", "0"]
DATE_TIME_EDGES = ["1990-12-31T23:59:60Z", "1990-12-31T15:59:60.5-08:00", "0000-01-01T00:00:00Z"]
NUMBER_EDGES = [2.5, -0.25, 1e21]
FORMATS: dict[str, st.SearchStrategy[str]] = {
    "uri": st.from_regex(r"https://[a-z]{1,8}\.example/[a-z0-9]{0,8}", fullmatch=True),
    "email": st.from_regex(r"[a-z]{1,6}@[a-z]{1,6}\.example", fullmatch=True),
    "uuid": st.uuids().map(str),
    "byte": st.binary(max_size=9).map(lambda b: base64.b64encode(b).decode()),
    "emoji": st.sampled_from(["😀", "1f600", "🏳️‍🌈"]),
    "icon": st.sampled_from(["book", "star", "house"]),
}


def _date_times() -> st.SearchStrategy[str]:
    """RFC 3339 date-times (jsonschema's checker, which hypothesis-jsonschema asks, refuses
    leap seconds; the edges add them)."""
    return st.builds(
        "{}T{:02}:{:02}:{:02}{}{}".format,
        st.dates().map(str),
        st.integers(0, 23),
        st.integers(0, 59),
        st.integers(0, 59),
        st.sampled_from(["", ".5", ".123456", ".123456789"]),
        st.sampled_from(["Z", "z", "+00:00", "+05:30", "-08:00", "-23:59"]),
    )


class NoInstance(Exception):
    """The walk found no instance of a schema (here, with these choices)."""


class Instances:
    """Makes instances; ``prepare`` every schema first (it finds the scalars to draw)."""

    def __init__(self) -> None:
        self.walk = Walk()
        self._alts: dict[tuple[tuple[str, ...], Ctx, Any], list[Alt]] = {}
        self._known: dict[tuple[tuple[str, ...], Ctx, Any], bool] = {}
        self._leaves: dict[str, dict[str, Any]] = {}
        self._pools: dict[str, list[Any]] = {}
        self._budget = 0
        self._exact = True

    # -- public ----------------------------------------------------------------------------
    def prepare(self, ptr: str, plan: Plan = ()) -> bool:
        """Whether ``ptr`` has instances (following ``plan``); learns its scalars."""
        return bool(self._options((ptr,), Ctx(), {ptr: plan} if plan else {}))

    def draw_scalars(self) -> None:
        """Draw the values of every scalar schema met by ``prepare`` (one Hypothesis run)."""
        strategies = {}
        for key, schema in self._leaves.items():
            with warnings.catch_warnings():  # uri, email: ours (cheaper)
                warnings.simplefilter("ignore", HypothesisWarning)
                strategy = _leaf_strategy(schema)
            if not strategy.is_empty:
                strategies[key] = strategy
        pools: dict[str, list[Any]] = {key: [] for key in self._leaves}

        @settings(
            max_examples=POOL_SIZE,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(st.fixed_dictionaries(strategies))
        def collect(values: dict[str, Any]) -> None:
            for key, value in values.items():
                pools[key].append(value)

        collect()
        for key, schema in self._leaves.items():
            check = jsonschema_rs.validator_for(schema, validate_formats=True)
            edges = DATE_TIME_EDGES if schema.get("format") == DATE_TIME else NUMBER_EDGES
            pools[key] += [e for e in edges if check.is_valid(e) and e not in pools[key]]
        self._pools = pools

    def make(self, ptr: str, rng: random.Random, rates: Rates, plan: Plan = ()) -> Any:
        """An instance of ``ptr``, its optional members picked by ``rates``. Following a
        ``plan``, it goes down to that branch (made as if it were the top, the rest only
        what is required), and every one-of is read as an any-of: a branch may be nobody's
        only match (see ``relaxed_validator``)."""
        self._budget = BUDGET
        self._exact = not plan
        plans = {ptr: plan} if plan else {}
        return self._make((ptr,), Ctx(), plans, rng, rates, 0)

    # -- what can be made ---------------------------------------------------------------------
    def _options(self, ptrs: tuple[str, ...], ctx: Ctx, plans: dict[str, Plan]) -> list[Alt]:
        key = (ptrs, ctx, tuple(sorted(plans.items())))
        if key not in self._alts:
            self._alts[key] = [a for a in self.walk.alternatives(ptrs, ctx, plans) if self._can(a)]
        return self._alts[key]

    def _possible(self, ptrs: tuple[str, ...], ctx: Ctx, plans: dict[str, Plan]) -> bool:
        key = (ptrs, ctx, tuple(sorted(plans.items())))
        if key not in self._known:
            self._known[key] = False  # a schema met again inside itself: not that way
            self._known[key] = bool(self._options(ptrs, ctx, plans))
        return self._known[key]

    def _can(self, alt: Alt) -> bool:
        shape = shape_of(alt)
        if shape.enum is not None:
            return bool(shape.enum)
        return shape.kinds is None or any(self._can_kind(alt, shape, k) for k in shape.kinds)

    def _can_kind(self, alt: Alt, shape: Shape, kind: str) -> bool:
        """Whether ``alt`` has instances of ``kind``. Looks at every member and item, even
        optional ones: that is how ``prepare`` learns every scalar to draw."""
        if kind == "object":
            for ptrs, plans in shape.optional.values():
                self._possible(ptrs, alt.ctx, plans)
            for extra in (shape.map_values, shape.map_keys):
                if extra:
                    self._possible(extra, alt.ctx, {})
            if shape.required is None:
                return False
            ok = all(self._possible(p, alt.ctx, plans) for p, plans in shape.required.values())
            if shape.forced_map is not None:
                ok = ok and self._possible(
                    (shape.forced_map[0],), alt.ctx, dict([shape.forced_map])
                )
            return ok
        if kind == "array":
            some = not shape.items or self._possible(shape.items, alt.ctx, {})
            if shape.forced_item:
                return self._possible(shape.items, alt.ctx, shape.forced_item)
            return shape.count[0] == 0 or some
        if alt.pending:
            return False
        key, schema = shape.leaves[kind]
        self._leaves.setdefault(key, schema)
        return True

    # -- making ---------------------------------------------------------------------------
    def _make(
        self,
        ptrs: tuple[str, ...],
        ctx: Ctx,
        plans: dict[str, Plan],
        rng: random.Random,
        rates: Rates,
        depth: int,
    ) -> Any:
        options = self._options(ptrs, ctx, plans)
        # Each alternative in turn, in a random order: a one-of's branch may never be its
        # only match (PlainObject's string is also a PlainObject), so another one is tried.
        order = rng.sample(options, len(options)) * ATTEMPTS
        failure = NoInstance(f"no instance of {ptrs}")
        for alt in order[: max(ATTEMPTS, len(options))]:
            if self._budget <= 0:
                break
            self._budget -= 1
            # the end of a forced path: its branch is made as if it were the top
            level = 0 if plans and not alt.pending else depth
            try:
                value = self._make_alt(alt, rng, rates, level)
            except NoInstance as exc:
                failure = exc
                continue
            if not self._exact or all(validator(p).is_valid(value) for p in alt.checks):
                return value
        raise failure

    def _make_alt(self, alt: Alt, rng: random.Random, rates: Rates, depth: int) -> Any:
        shape = shape_of(alt)
        if shape.enum is not None:
            return rng.choice(shape.enum)
        if shape.kinds is None:
            return rng.choice(ANY_VALUES)
        kind = rng.choice([k for k in shape.kinds if self._can_kind(alt, shape, k)])
        if kind == "object":
            return self._object(alt, shape, rng, rates, depth)
        if kind == "array":
            return self._array(alt, shape, rng, rates, depth)
        pool = self._pools.get(shape.leaves[kind][0])
        if not pool:
            raise NoInstance(f"no {kind} value for {alt.conj}")
        return rng.choice(pool)

    def _object(
        self, alt: Alt, shape: Shape, rng: random.Random, rates: Rates, depth: int
    ) -> dict[str, Any]:
        assert shape.required is not None
        out: dict[str, Any] = {}
        for name, (ptrs, plans) in shape.required.items():
            out[name] = self._make(ptrs, alt.ctx, plans, rng, rates, depth + 1)
        rate = 0.0 if alt.pending else rates[min(depth, len(rates) - 1)]
        for name, (ptrs, plans) in shape.optional.items():
            if rng.random() < rate and self._possible(ptrs, alt.ctx, plans):
                with contextlib.suppress(NoInstance):  # left out, then
                    out[name] = self._make(ptrs, alt.ctx, plans, rng, rates, depth + 1)
        if not shape.closed:
            self._extras(alt, shape, out, rng, rates, depth, rate)
        if shape.forced_map is not None:
            ptr, plan = shape.forced_map
            out[MAP_KEYS[0]] = self._make((ptr,), alt.ctx, {ptr: plan}, rng, rates, depth)
        low, high = shape.members
        missing = [n for n in shape.optional if n not in out]
        rng.shuffle(missing)
        while len(out) < low and missing:  # RevisionPageDocumentChangeAttributes: one at least
            name = missing.pop()
            ptrs, plans = shape.optional[name]
            if self._possible(ptrs, alt.ctx, plans):
                out[name] = self._make(ptrs, alt.ctx, plans, rng, rates, depth + 1)
        if not low <= len(out) <= high:
            raise NoInstance(f"{len(out)} members for {alt.conj}")
        return out

    def _extras(
        self,
        alt: Alt,
        shape: Shape,
        out: dict[str, Any],
        rng: random.Random,
        rates: Rates,
        depth: int,
        rate: float,
    ) -> None:
        """Members the schema does not name: a map's entries, or a neutral extra member."""
        names = set(shape.required or ()) | set(shape.optional)
        if shape.map_values:
            if rng.random() >= rate or not self._possible(shape.map_values, alt.ctx, {}):
                return
            for _ in range(rng.randint(1, 2)):
                name = rng.choice(MAP_KEYS)
                if shape.map_keys:
                    name = self._make(shape.map_keys, alt.ctx, {}, rng, rates, depth)
                if name not in names:
                    with contextlib.suppress(NoInstance):  # no entry, then
                        out[name] = self._make(shape.map_values, alt.ctx, {}, rng, rates, depth)
        elif not shape.map_keys and rng.random() < 0.3:
            extra = rng.choice([n for n in EXTRA_NAMES if n not in names])
            out[extra] = rng.choice(ANY_VALUES)

    def _array(
        self, alt: Alt, shape: Shape, rng: random.Random, rates: Rates, depth: int
    ) -> list[Any]:
        low, high = shape.count
        out: list[Any] = []
        if shape.forced_item:
            out.append(self._make(shape.items, alt.ctx, shape.forced_item, rng, rates, depth))
        if not shape.items:
            return out + [rng.choice(ANY_VALUES) for _ in range(rng.randint(low, high))]
        if self._possible(shape.items, alt.ctx, {}):
            for _ in range(rng.randint(max(low - len(out), 0), max(high - len(out), 0))):
                try:
                    out.append(self._make(shape.items, alt.ctx, {}, rng, rates, depth))
                except NoInstance:
                    break  # fewer items, then (too few is checked below)
        if shape.unique:
            out = list({canonical(v): v for v in out}.values())
        if len(out) < low:
            raise NoInstance(f"too few items for {alt.conj}")
        return out


def _leaf_strategy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if schema == {"type": "string", "format": DATE_TIME}:
        return _date_times()
    # Patterns in ASCII: Python's and the validator's regex engines disagree on which other
    # characters are \w.
    codec = "ascii" if "pattern" in json.dumps(schema) else "utf-8"
    return from_schema(schema, custom_formats=FORMATS, codec=codec)
