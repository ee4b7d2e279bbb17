"""The local server's content family."""
