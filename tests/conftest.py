"""Shared test settings: under CI (``CI=true``) hypothesis runs derandomized, so a given commit always
tests the same examples and main stays reproducibly green; elsewhere it explores new examples."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
