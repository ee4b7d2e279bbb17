"""Search view: workspace-wide search screen."""
