"""The local server's comments family."""
