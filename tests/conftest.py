"""Shared test settings: under CI (``CI=true``) hypothesis runs derandomized, so a given commit always
tests the same examples and main stays reproducibly green; elsewhere it explores new examples.
Stable-Baselines3 writes a log folder per training run (in the system temp folder unless
``SB3_LOGDIR`` names one): the tests point it into their own temporary folder."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _sb3_logs_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """SB3's per-run log folders go under pytest's temporary folder, not the system's."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path_factory.getbasetemp() / "sb3-logs"))
