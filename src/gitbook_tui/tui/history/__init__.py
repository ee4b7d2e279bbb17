"""The History view: a space's revisions, what each changed, diffs between any two."""
