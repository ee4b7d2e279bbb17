"""Schemas of the official description as plain schemas that must hold together, cycles cut."""

# ``$ref``, ``allOf``, ``oneOf`` and ``anyOf`` are taken apart into alternatives. A path (steps
# from ``official_spec.edges``) can be forced through a schema: down to one branch of a
# one-of/any-of, with the members and items on the way made present.

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any

from support.official_spec import COMPONENT, Step, cycle_of, join, node

CYCLE_LIMIT = 3  # how many objects deep a reference cycle is followed
COMBINATORS = ("$ref", "allOf", "oneOf", "anyOf")
ANNOTATIONS = {"description", "title", "deprecated", "example", "default", "readOnly"}

Plan = tuple[Step, ...]


@dataclass(frozen=True)
class Ctx:
    """Where a schema is met: for each reference cycle, how many of its objects (schemas with
    members) were followed to get there."""

    cycles: tuple[tuple[str, int], ...] = ()

    def enter(self, name: str, forced: bool) -> Ctx | None:
        """The context inside component ``name`` (None: the cycle is followed deep enough).
        Only objects count: in the document cycle a block is reached through one-ofs of
        kinds of blocks, which would use the limit up at once."""
        cycle = cycle_of(name)
        if cycle is None or forced:  # forced: what hangs off the forced path starts afresh
            return self
        if "properties" not in node(COMPONENT + name):
            return self
        key = min(cycle)
        counts = dict(self.cycles)
        if counts.get(key, 0) >= CYCLE_LIMIT:
            return None
        counts[key] = counts.get(key, 0) + 1
        return Ctx(tuple(sorted(counts.items())))

    def deeper(self, other: Ctx) -> Ctx:
        if not other.cycles or other.cycles == self.cycles:
            return self
        if not self.cycles:
            return other
        counts = dict(self.cycles)
        for key, n in other.cycles:
            counts[key] = max(n, counts.get(key, 0))
        return Ctx(tuple(sorted(counts.items())))


@dataclass(frozen=True)
class Alt:
    """One way to satisfy a schema: plain schemas that must all hold (pointers), one-ofs to
    check, the context, and path steps still to take inside (pointer, step, rest of plan)."""

    conj: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()
    ctx: Ctx = field(default_factory=Ctx)
    pending: tuple[tuple[str, tuple[Any, ...], Plan], ...] = ()

    def __and__(self, other: Alt) -> Alt:
        return Alt(
            self.conj + other.conj,
            self.checks + other.checks,
            self.ctx.deeper(other.ctx),
            self.pending + other.pending,
        )


def products(groups: list[list[Alt]]) -> list[Alt]:
    """Every way to satisfy all the groups at once (one alternative of each)."""
    if len(groups) == 1:
        return groups[0]
    out = []
    for combo in product(*groups):
        alt = Alt()
        for part in combo:
            alt = alt & part
        out.append(alt)
    return out


class Walk:
    """Alternatives of each schema (by pointer and context), computed once."""

    def __init__(self) -> None:
        self._expanded: dict[tuple[str, Ctx], list[Alt]] = {}
        self._open: set[tuple[str, Ctx]] = set()

    def alternatives(self, ptrs: tuple[str, ...], ctx: Ctx, plans: dict[str, Plan]) -> list[Alt]:
        """The ways to satisfy every schema of ``ptrs`` (following ``plans`` from them)."""
        return products([self.expand(p, ctx, plans.get(p, ())) for p in ptrs])

    def expand(self, ptr: str, ctx: Ctx, plan: Plan) -> list[Alt]:
        if plan:
            return self._expand(ptr, ctx, plan)
        key = (ptr, ctx)
        if key not in self._expanded:
            if key in self._open:  # one-ofs of one-ofs back to this one: no instance that way
                return []
            self._open.add(key)
            self._expanded[key] = self._expand(ptr, ctx, plan)
            self._open.discard(key)
        return self._expanded[key]

    def _expand(self, ptr: str, ctx: Ctx, plan: Plan) -> list[Alt]:
        schema = node(ptr)
        if schema is False:
            return []
        if schema is True:
            return [Alt(ctx=ctx)]
        step = plan[0][1] if plan and plan[0][0] == ptr else None
        rest = plan[1:] if step is not None else ()
        plain = any(k not in COMBINATORS and k not in ANNOTATIONS for k in schema)
        base = Alt(conj=(ptr,) if plain else (), ctx=ctx)
        if step is not None and step[0] in ("prop", "item", "value", "name"):
            base = replace(base, pending=((ptr, step, rest),))
        groups: list[list[Alt]] = [[base]]
        if "$ref" in schema:
            name = schema["$ref"].removeprefix(COMPONENT)
            inner = ctx.enter(name, forced=step == ("ref",))
            if inner is None:
                return []
            groups.append(self.expand(schema["$ref"], inner, rest if step == ("ref",) else ()))
        for i, _ in enumerate(schema.get("allOf", ())):
            member = rest if step == ("member", i) else ()
            groups.append(self.expand(join(ptr, "allOf", i), ctx, member))
        for key in ("oneOf", "anyOf"):
            if key not in schema:
                continue
            chosen = step[1] if step is not None and step[0] == "branch" else None
            alts: list[Alt] = []
            for i, _ in enumerate(schema[key]):
                if chosen is None or i == chosen:
                    alts += self.expand(join(ptr, key, i), ctx, rest if chosen == i else ())
            if key == "oneOf" and chosen is None:
                # A one-of on a forced path is read as an any-of: some branches of the
                # description are never the only match (see relaxed_validator).
                alts = [replace(a, checks=(*a.checks, ptr)) for a in alts]
            groups.append(alts)
        return products(groups)
