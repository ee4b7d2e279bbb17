"""StructureList: the structure pane's rows (groups, sections, site spaces), one line each."""

from __future__ import annotations

from typing import Protocol

from ..common.pager import PagerOptionList

__all__ = ["Stepper", "StructureList"]


class Stepper(Protocol):
    """What the list asks of its pane for ``j``/``k`` (:class:`.structure_pane.StructurePane`)."""

    def action_step(self, step: int) -> None:
        """One row down (1) or up (-1), carrying a grabbed row with it."""
        ...


class StructureList(PagerOptionList):
    """Groups, sections and site spaces, one line each, with the kit's list motion keys;
    ``j``/``k`` go through the pane, which carries a grabbed row with them."""

    def __init__(self, stepper: Stepper, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.stepper = stepper

    def action_pager_lines(self, step: int) -> None:
        self.stepper.action_step(step)
