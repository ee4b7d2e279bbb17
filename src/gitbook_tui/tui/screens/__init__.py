"""Screens of the Textual application, one per file."""
