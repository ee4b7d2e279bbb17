"""The local workspace server: the workspace API on SQLite."""
