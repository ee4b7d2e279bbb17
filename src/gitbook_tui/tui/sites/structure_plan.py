"""The move operations that turn one order of siblings into another (no Textual).

The API's moves reorder siblings one item at a time, "before" or "after" another: a group
may be placed relative to a section or a group, a section only relative to a section. So
where a section would need a group as its anchor, the group is moved past the section
instead.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Move", "plan_moves"]

Node = tuple[str, str]  # ("section" or "group", id)


@dataclass(frozen=True)
class Move:
    node: Node  # what moves
    where: str  # "before" or "after"
    anchor: Node


def plan_moves(start: list[Node], target: list[Node]) -> list[Move]:
    """Moves taking ``start`` to ``target`` (the same nodes in another order)."""
    order = list(start)
    moves: list[Move] = []

    def apply(move: Move) -> None:
        order.remove(move.node)
        at = order.index(move.anchor)
        order.insert(at + 1 if move.where == "after" else at, move.node)
        moves.append(move)

    for index, node in enumerate(target):
        while order[index] != node:
            previous = target[index - 1] if index > 0 else None
            if node[0] == "group" or (previous is not None and previous[0] == "section"):
                if previous is not None:
                    apply(Move(node, "after", previous))
                else:
                    apply(Move(node, "before", order[0]))
            elif order[index][0] == "section":
                apply(Move(node, "before", order[index]))
            else:  # a section cannot follow a group: move the group past the section
                apply(Move(order[index], "after", node))
    return moves
