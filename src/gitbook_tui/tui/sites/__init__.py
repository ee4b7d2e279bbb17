"""The site editor (view 4): sites, structure, redirects and settings."""
