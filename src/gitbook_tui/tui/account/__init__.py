"""Signing in and choosing an organisation: welcome and organisation picker screens."""
