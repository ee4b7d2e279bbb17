"""Persistent response cache for the API client."""
