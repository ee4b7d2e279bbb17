"""The demo workspace: content and the seeding that loads it."""
