"""The local server's integrations family."""
