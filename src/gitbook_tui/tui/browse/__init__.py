"""Browse view: the workspace tree beside the page viewer, and what they need."""
