"""Free table jokers (rules §3.5, §8.2 default) and variants without jokers (§5)."""

from __future__ import annotations

from rummyai.jokers.base import JokerRules

FREE = JokerRules("free", free_table_jokers=True)
NONE = JokerRules("none", free_table_jokers=True)
