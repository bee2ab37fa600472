"""The terminal app's tests keep its config folder (the player key, docs/protocol.md "Players and
names") in a temporary folder, not in the home folder of whoever runs them."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_config_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
