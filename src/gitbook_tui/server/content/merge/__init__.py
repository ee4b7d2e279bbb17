"""The local server's content.merge family."""
