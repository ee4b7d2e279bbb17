"""theme_style: theme colours filled into Rich styles, readable on the theme's background."""

from __future__ import annotations

from textual.app import App
from textual.color import Color

from gitbook_tui.tui.common.contrast import TEXT_CONTRAST, contrast
from gitbook_tui.tui.common.theme_style import theme_style


async def test_every_builtin_theme_gives_readable_error_success_and_warning_text() -> None:
    app = App()
    async with app.run_test():
        for name in sorted(app.available_themes):
            app.theme = name
            variables = app.theme_variables
            try:
                background = Color.parse(variables["background"])
            except Exception:
                continue  # an ANSI theme: see the test below
            for token in ("$text-error", "$text-success", "$text-warning"):
                style = theme_style(variables, f"bold {token}")
                bold, colour = style.split()
                assert bold == "bold"
                ratio = contrast(Color.parse(colour), background)
                assert ratio >= TEXT_CONTRAST - 0.05, (name, token, colour, ratio)


def test_an_ansi_theme_falls_back_to_the_terminals_colours() -> None:
    assert theme_style({"background": "ansi_default"}, "$text-error") == "red"
    assert theme_style({}, "italic $text-success") == "italic green"


def test_styles_without_theme_colours_are_left_alone() -> None:
    assert theme_style({}, "bold") == "bold"
    assert theme_style({}, "") == ""
