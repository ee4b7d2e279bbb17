"""The Admin view (5): members, teams, invites, permissions, integrations, OpenAPI specs, translations."""
