"""Widgets of the Textual application, one per file."""
