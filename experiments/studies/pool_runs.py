"""Pool finished duplicate-set runs of the same agents into one paired comparison.

Each folder is a tournament output (``games.jsonl``, as `mcts_vs_greedy.py` or `rummyai
tournament` writes it). Set numbers are made distinct per folder, so a set stays one unit of the
bootstrap, and the arena's own statistics (`rummyai.arena.stats.pairwise`) give the win rate and
mean score margin of every pair with their 95% intervals over all sets together.

    python experiments/studies/pool_runs.py results/mcts_pimc/rummikub-2p-* results/mcts_pimc_replication/rummikub-2p-*
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rummyai.arena.stats import pairwise
from rummyai.arena.store import GAMES_FILE, load_records, read_manifest
from rummyai.errors import RummyError


def pooled_records(folders: list[Path]) -> tuple[list[dict[str, Any]], bool]:
    """The games of every folder with set numbers offset per folder, and whether low scores win
    (refused when the folders hold different agents or variants: they would not be one study)."""
    records: list[dict[str, Any]] = []
    offset, plans = 0, set()
    low_wins = False
    if len({folder.resolve() for folder in folders}) < len(folders):
        raise RummyError("a folder is named twice: its games would count twice")
    for folder in folders:
        if not (folder / "tournament.json").is_file():
            raise RummyError(f"{folder} holds no tournament (no tournament.json)")
        manifest = read_manifest(folder / "tournament.json")
        plans.add((manifest["variant"], tuple(manifest["agents"]), manifest["players"]))
        low_wins = bool(manifest["low_score_wins"])
        games = load_records(folder / GAMES_FILE)
        records.extend({**r, "set": int(r["set"]) + offset} for r in games)
        offset += 1 + max((int(r["set"]) for r in games), default=-1)
    if len(plans) > 1:
        raise RummyError(f"the folders hold different tournaments: {sorted(plans)}")
    return records, low_wins


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folders", nargs="+", type=Path, help="tournament output folders")
    parser.add_argument("--json", action="store_true", help="print the pair statistics as JSON")
    args = parser.parse_args()
    try:
        records, low_wins = pooled_records(args.folders)
    except RummyError as error:
        raise SystemExit(f"pool_runs: error: {error}") from None
    pairs = pairwise(records, low_wins)
    sets = len({r["set"] for r in records})
    if args.json:
        print(json.dumps([vars(p) for p in pairs]))
        return
    print(f"{len(args.folders)} runs pooled: {sets} duplicate sets, {len(records)} games")
    for p in pairs:
        print(
            f"{p.a} vs {p.b}: win rate {p.win_rate:.3f} [{p.win_ci[0]:.3f}, {p.win_ci[1]:.3f}], "
            f"margin {p.margin:+.2f} [{p.margin_ci[0]:+.2f}, {p.margin_ci[1]:+.2f}] (95% CI)"
        )


if __name__ == "__main__":
    main()
