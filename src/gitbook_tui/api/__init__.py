"""Async client for the workspace API."""
