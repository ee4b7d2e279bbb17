"""Pydantic v2 models of every resource of the workspace API."""
