"""Length limits every text body the app sends and the local server accepts share."""

from __future__ import annotations

# One limit for every markdown/plain body a person types and the app sends (comments,
# replies, review messages, change-request descriptions): the server refuses longer ones
# with a 400 naming the field, and the app counts against it as the text is typed.
MAX_BODY_CHARS = 100_000
