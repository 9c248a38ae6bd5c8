"""The draw-and-discard swaps: Rummy Palace's exact-meaning joker swap (§4.5) and Black Heart's
diamond swap (§6.5). Both are single operations judged by the draw-and-discard engine on card
kinds; the table is never rearranged, so no end-of-turn check applies."""

from __future__ import annotations

from rummyai.jokers.base import JokerRules

EXACT_SWAP = JokerRules("swap_exact", exact_swaps=True)
DIAMOND_SWAP = JokerRules("diamond_swap", diamond_swaps=True)
