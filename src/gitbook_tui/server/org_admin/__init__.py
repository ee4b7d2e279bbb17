"""The local server's org_admin family."""
