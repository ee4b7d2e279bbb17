"""Local persistence of unsent work, per account: drafts, their debounced saving, the outbox."""

from .debounce import Debouncer, flush_all_now
from .files import default_data_dir
from .keys import DraftKey
from .outbox import ACTION_KINDS, ActionKind, Outbox, OutboxAction, OutboxItem
from .replay import Handler, Replayer, ReplayResult, client_handlers, refused
from .replay_check import client_landed
from .replay_loop import ReplayLoop
from .store import Draft, DraftStore, default_drafts_root

__all__ = [
    "ACTION_KINDS",
    "ActionKind",
    "Debouncer",
    "Draft",
    "DraftKey",
    "DraftStore",
    "Handler",
    "Outbox",
    "OutboxAction",
    "OutboxItem",
    "ReplayLoop",
    "ReplayResult",
    "Replayer",
    "client_handlers",
    "client_landed",
    "default_data_dir",
    "default_drafts_root",
    "flush_all_now",
    "refused",
]
