"""What every joker rule object offers: declared capabilities and the end-of-turn check."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummyai.engine.moves import Violation
    from rummyai.engine.tile_rules import Resolved
    from rummyai.variants import Variant


@dataclass(frozen=True)
class JokerRules:
    """A joker policy. The flags say what the other layers may rely on:

    * `free_table_jokers`: a table joker may move to any meld and mean anything, so a turn is
      legal as soon as its melds are valid (the compiled dynamic program's ground);
    * `reads_origins`: the end-of-turn check asks which start meld a card came from, so it is
      read on the canonical copy assignment (§7.1);
    * `model_relaxed`: the solver's CP-SAT model only relaxes the rule; its answers are judged by
      the engine and repaired when refused;
    * `hand_joker_joins`: a joker from the hand may join a table meld on its own;
    * `accompaniment`, `locked_melds`, `replacement_takes`: the rule families the CP-SAT model
      adds constraints for (Rhine R3-R5, Tile Rummy T3, official Rummikub's taken jokers);
    * `exact_swaps`, `diamond_swaps`: the draw-and-discard swap operations (§4.5, §6.5);
    * `replacement_source_option`: the variant option `joker_replacement_from` applies.
    """

    id: str
    free_table_jokers: bool = False
    reads_origins: bool = False
    model_relaxed: bool = False
    hand_joker_joins: bool = True
    accompaniment: bool = False
    locked_melds: bool = False
    replacement_takes: bool = False
    exact_swaps: bool = False
    diamond_swaps: bool = False
    replacement_source_option: bool = False

    def check(
        self, variant: Variant, start: Sequence[Resolved], final: Sequence[Resolved], played: set[int]
    ) -> Violation | None:
        """The joker rules' verdict on an opened tile-style turn (physical ids on the canonical
        copy assignment); None when they pass."""
        return None
