"""Importing this module loads the solver and answers a tiny position per lane, so the first real
request of a process is not slow. The worker pool's fork server imports it once; every worker
process forked from there starts warm (`rummyai.hint.pool`)."""

from __future__ import annotations

import gc

from rummyai.hint.pool import warm_up

warm_up()
gc.freeze()  # what is loaded now lives as long as the process: keep it out of every collection
