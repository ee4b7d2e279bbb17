"""Route modules of the local workspace server, one per resource family."""
