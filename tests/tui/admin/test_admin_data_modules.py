"""The Admin view's network work lives in data modules that load without Textual (so they
can be used and tested without the app)."""

from __future__ import annotations

import subprocess
import sys

DATA_MODULES = (
    "admin_changes",
    "admin_data",
    "integration_places",
    "integrations_data",
    "openapi_data",
    "permissions_data",
    "translations_data",
)


def test_the_data_modules_load_without_textual() -> None:
    imports = "; ".join(f"import gitbook_tui.tui.admin.{m}" for m in DATA_MODULES)
    check = f"import sys; {imports}; print(sorted(m for m in sys.modules if m == 'textual'))"
    out = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
