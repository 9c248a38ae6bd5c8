"""Joker rules, one rule object per policy (rules §1.5, §2.5, §3.5, §4.5, §6.5, §8.2).

A `Variant` names its policy (`Variant.joker_policy`) and hands out the rule object
(`Variant.joker_rules`). Every layer asks that object instead of comparing policy names: the engine
for the end-of-turn check, the solver for what its model relaxes or must add, the hint engine
and the agents for what a move may do with a joker. Changing a joker rule means changing one
module here.
"""

from __future__ import annotations

from rummyai.jokers.base import JokerRules
from rummyai.jokers.free import FREE, NONE
from rummyai.jokers.official import OFFICIAL
from rummyai.jokers.rhine import RHINE
from rummyai.jokers.swaps import DIAMOND_SWAP, EXACT_SWAP
from rummyai.jokers.tiles import TILES_LOCKED

RULES: dict[str, JokerRules] = {
    r.id: r for r in (FREE, NONE, RHINE, TILES_LOCKED, OFFICIAL, EXACT_SWAP, DIAMOND_SWAP)
}


def joker_rules(policy: str) -> JokerRules:
    """The rule object of a joker policy id."""
    return RULES[policy]


__all__ = ["RULES", "JokerRules", "joker_rules"]
