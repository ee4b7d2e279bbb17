"""Markdown fragments that several suites feed to the parser, the diff and the official
document converter, kept here so that each block is written once."""

from __future__ import annotations

# GitBook's two-column block: a column "Left" and a column "Right", then a blank line
COLUMNS = """{% columns %}
{% column %}
Left
{% endcolumn %}
{% column %}
Right
{% endcolumn %}
{% endcolumns %}

"""
