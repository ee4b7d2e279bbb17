"""The workspace tree widget and its parts (model, state, loading, drawing)."""
