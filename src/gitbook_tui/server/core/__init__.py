"""The local server's core family."""
