"""The Reviews view (2): the review inbox, the review pane of a change request, suggest-edit."""
