"""Local persistence of unsent work, per account: drafts, their debounced saving, the outbox."""

from .debounce import Debouncer
from .files import default_data_dir
from .keys import DraftKey
from .store import Draft, DraftStore, default_drafts_root

__all__ = [
    "Debouncer",
    "Draft",
    "DraftKey",
    "DraftStore",
    "default_data_dir",
    "default_drafts_root",
]
