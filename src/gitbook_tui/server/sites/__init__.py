"""The local server's sites family."""
