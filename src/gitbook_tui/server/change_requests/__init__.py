"""The local server's change_requests family."""
