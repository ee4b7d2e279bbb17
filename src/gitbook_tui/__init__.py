"""gitbook-tui: a keyboard-driven terminal app for GitBook documentation workspaces."""

__version__ = "0.1.0"
