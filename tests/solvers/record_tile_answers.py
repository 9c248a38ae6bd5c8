"""Record what the tile solver path answers on seeded mid-game positions, so speed work on the
model build and the judge can be checked to change nothing (`test_tile_recorded.py`).

Per variant (Tile Rummy, Rhine, official-jokers Rummikub): the SHA-256 of the text of each CP-SAT
model the solver builds for a position (first model with and without the fewest-changes
tie-break, the witness, strict and both always-legal models, and Rhine's proof model; same
model, same CP-SAT answer) for `MODELS` positions, and the full answer (cards played, table, status) of `solve` under a
deterministic work limit for the first `ANSWERS` of them, with and without the tie-break. The
model hashes are also kept for the other variants the model serves (`OTHERS`).

    .venv/bin/python tests/solvers/record_tile_answers.py  # rewrites tile_answers.json
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from rummyai.cards import Slot, card_str
from rummyai.solvers import make_position, solve
from rummyai.solvers.random_positions import joker_positions
from rummyai.solvers.tile_model import TileModel
from rummyai.variants import get_variant

VARIANTS = ("rummy-tiles", "rhine", "rummikub+official_jokers")
OTHERS = ("rummikub", "rummy-board", "rummy-palace", "standard")
# the models of one position: first model (tie-break on, off), witness, strict, always-legal,
# Rhine's proof model (the witness model without claims a swap of copies undoes)
KINDS: tuple[dict[str, bool], ...] = (
    {"minimize_changes": True},
    {"minimize_changes": False},
    {"minimize_changes": False, "witnesses": True},
    {"minimize_changes": True, "strict": True},
    {"minimize_changes": False, "safe": True},
    {"minimize_changes": False, "safe_fixed": True},
    {"minimize_changes": False, "witnesses": True, "read_swaps": True},
)
MODELS = 40
ANSWERS = 12
WORK = 5.0  # the agents' deterministic budget per solve
OUT = Path(__file__).with_name("tile_answers.json")


def positions(name: str, count: int, seed: int) -> list[tuple[list[int], list[tuple[Slot, ...]]]]:
    """Seeded mid-game positions with a joker on the table where the variant has jokers (the
    recipe of `tiles_bench.py`, `joker_positions`)."""
    base, *options = name.split("+")
    return joker_positions(get_variant(base, options), count, seed)


def model_hashes(name: str, hand: list[int], table: list[tuple[Slot, ...]]) -> list[str]:
    """SHA-256 of each `KINDS` model's text form (variables, constraints, objective, names)."""
    base, *options = name.split("+")
    position = make_position(get_variant(base, options), hand, table)
    out = []
    for kind in KINDS:
        tm = TileModel(position, "cards", None, **kind)
        out.append(hashlib.sha256(str(tm.model.proto).encode()).hexdigest())
    return out


def answer(
    name: str, hand: list[int], table: list[tuple[Slot, ...]], minimize_changes: bool
) -> dict[str, Any]:
    """`solve`'s answer in card text: played cards, melds (slot texts) and status."""
    base, *options = name.split("+")
    sol = solve(get_variant(base, options), hand, table, work_limit=WORK, minimize_changes=minimize_changes)
    return {
        "played": [card_str(c) for c in sol.played],
        "melds": [[str(slot) for slot in meld] for meld in sol.melds],
        "status": sol.status,
    }


def record() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for n, name in enumerate(VARIANTS + OTHERS):
        cases = positions(name, MODELS, 1000 + n)
        out[name] = {"models": [model_hashes(name, h, t) for h, t in cases]}
        if name in VARIANTS:
            out[name]["answers"] = [
                answer(name, h, t, mc) for h, t in cases[:ANSWERS] for mc in (True, False)
            ]
    return out


if __name__ == "__main__":
    OUT.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {OUT}")
