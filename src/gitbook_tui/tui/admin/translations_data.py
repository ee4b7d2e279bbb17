"""Translations data: an organization's translation settings (a title and the languages
content is translated into), the language codes the API takes, and the wording of a change
(no Textual here)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from ...api import AsyncGitBook
from ...markdown.sanitize import clean_text
from ...models import TranslationSettings

__all__ = [
    "LANGUAGES",
    "TranslationRow",
    "delete_effect",
    "delete_translation",
    "language_names",
    "load_translations",
    "parse_languages",
    "save_translation",
]

LANGUAGES: dict[str, str] = {
    "en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian",
    "pt": "Portuguese", "pt-br": "Portuguese (Brazil)", "ru": "Russian", "ja": "Japanese",
    "zh": "Chinese", "zh-tw": "Chinese (Taiwan)", "yue": "Cantonese", "ko": "Korean",
    "ar": "Arabic", "hi": "Hindi", "nl": "Dutch", "pl": "Polish", "tr": "Turkish",
    "sv": "Swedish", "no": "Norwegian", "da": "Danish", "fi": "Finnish", "el": "Greek",
    "cs": "Czech", "hu": "Hungarian", "ro": "Romanian", "th": "Thai", "vi": "Vietnamese",
    "id": "Indonesian", "ms": "Malay", "he": "Hebrew", "uk": "Ukrainian", "sk": "Slovak",
    "bg": "Bulgarian", "hr": "Croatian", "lt": "Lithuanian", "lv": "Latvian", "et": "Estonian",
    "sl": "Slovenian",
}  # fmt: skip
"""The language codes the API takes (its ``TranslationLanguage``), with their names."""


@dataclass(frozen=True)
class TranslationRow:
    """Translation settings as the tab lists them."""

    id: str
    title: str
    languages: tuple[str, ...]
    updated: datetime | None
    can_edit: bool

    @property
    def state(self) -> str:
        """``2 languages`` / ``no language yet`` (nothing is translated without one)."""
        count = len(self.languages)
        if not count:
            return "no language yet"
        return f"{count} language{'s' if count != 1 else ''}"


def language_names(codes: tuple[str, ...] | list[str]) -> str:
    """``ja Japanese, de German`` (an unknown code shown cleaned, as it came)."""
    return ", ".join(f"{clean_text(c)} {LANGUAGES.get(c, '(unknown)')}" for c in codes)


def _row(item: TranslationSettings) -> TranslationRow:
    return TranslationRow(
        id=item.id,
        title=clean_text(item.title or item.id),
        languages=tuple(item.languages),
        updated=item.updatedAt or item.createdAt,
        can_edit=bool(item.permissions and item.permissions.edit),
    )


async def load_translations(client: AsyncGitBook, org_id: str) -> list[TranslationRow]:
    """Every translation setting, by title."""
    found = await client.org_admin.translations(org_id, limit=1000).to_list()
    rows = [_row(t) for t in found]
    rows.sort(key=lambda r: (r.title.lower(), r.id))
    return rows


def parse_languages(text: str) -> tuple[list[str], str | None]:
    """The codes typed (``"ja, de"``, names work too: ``"Japanese German"``), in order and
    once each, or why some are not languages the API takes."""
    by_name = {name.lower(): code for code, name in LANGUAGES.items()}
    codes: list[str] = []
    unknown: list[str] = []
    for word in (w for w in re.split(r"[\s,;]+", text.strip()) if w):
        code = word.lower() if word.lower() in LANGUAGES else by_name.get(word.lower())
        if code is None:
            unknown.append(clean_text(word))
        elif code not in codes:
            codes.append(code)
    if unknown:
        return codes, f"Not a language code: {', '.join(unknown)} (e.g. ja, de, pt-br)"
    return codes, None


def delete_effect(row: TranslationRow) -> str:
    into = f" into {language_names(row.languages)}" if row.languages else ""
    return f"The translation settings “{row.title}”{into} are deleted for everyone."


async def save_translation(
    client: AsyncGitBook, org_id: str, row: TranslationRow | None, title: str, codes: list[str]
) -> None:
    """Create translation settings (``row`` ``None``), or replace ``row``'s title and
    target languages."""
    if row is None:
        await client.org_admin.create_translation(org_id, title, languages=codes)
    else:
        await client.org_admin.update_translation(org_id, row.id, title, languages=codes)


async def delete_translation(client: AsyncGitBook, org_id: str, row: TranslationRow) -> None:
    await client.org_admin.delete_translation(org_id, row.id)
