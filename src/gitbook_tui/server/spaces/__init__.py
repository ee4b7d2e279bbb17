"""The local server's spaces family."""
