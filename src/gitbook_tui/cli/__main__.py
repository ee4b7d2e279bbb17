"""``python -m gitbook_tui.cli``: the ``gitbook-tui`` command."""

import sys

from . import main

sys.exit(main())
