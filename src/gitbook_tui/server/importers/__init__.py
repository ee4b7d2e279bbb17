"""The local server's importers family."""
