"""Pieces shared by every view: status bar, footer, help, palette, text, config, state."""
