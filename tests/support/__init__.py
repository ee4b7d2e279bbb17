"""Shared test support: waits, worlds (seeded servers), app builders, hostile text."""
