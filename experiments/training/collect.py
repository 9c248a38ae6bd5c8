"""Label decisions with an expert (`mcts-pimc` by default) for behaviour cloning and DAgger.

Plays seeded 2-player games in `rummyai/Rummikub-v2` (or `--env`; one round, the learner's seat
alternating, `greedy` in the other seat). At every learner decision with more than one candidate the expert
chooses from the seat's view; its move is matched to a candidate slot (the label; -1 when the
expert played a move outside the candidates) and recorded with the observation, beside the
expert's mean rollout utility of every slot it searched (`expert_values`). Which move is
then played: the expert's (behaviour cloning, `--beta 1`), or with probability 1 - beta the
choice of the policy in `--weights` (DAgger: the expert labels the states the learner reaches).
A decision with one candidate plays it unlabelled; a label outside the candidates plays greedy's.

Each game is written to ``<out>/game_<n>.npz`` when it ends (observations without the ``melds``
array, labels, the expert's seconds), so the same command resumes after an interruption and
several commands with other `--first` ranges can run side by side.

    nice -n 19 .venv/bin/python experiments/training/collect.py --games 400 --out runs/learn/bc
    .venv/bin/python experiments/training/collect.py --games 2 --out /tmp/bc --expert greedy-points  # smoke
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, cast

import gymnasium as gym
import numpy as np
from script_guard import check_env_id, check_out_dir, guarded
from tqdm import tqdm

import rummyai.envs
from rummyai.agents import make_agent_from_spec
from rummyai.agents.learned import CandidateScorer, load_scorer
from rummyai.engine.game import legal_moves, view
from rummyai.envs import RummyEnv
from rummyai.envs.candidates import FEATURES, _dedupe_key
from rummyai.variants import ONE_ROUND

#: Observation keys kept per decision (``melds`` is left out: large, and the scorer does not read it).
SKIP_KEYS = ("melds",)
#: Base of the training deals' seeds (far from every pre-registered evaluation seed).
SEED_BASE = 7_000_000
IS_GREEDY = FEATURES.index("is_greedy")


def expert_values(state: Any, keys: list[Any], stats: list[tuple[Any, int, float]], slots: int) -> np.ndarray:
    """The expert's mean rollout utility of each candidate slot it searched (NaN elsewhere): a
    richer target than its choice alone (`mcts-pimc` keeps them in ``last_stats``)."""
    values = np.full(slots, np.nan)
    for move, _, utility in stats:
        key = _dedupe_key(state, move)
        for slot, candidate in enumerate(keys):
            if candidate == key:
                values[slot] = utility
    return values


def play_game(
    game: int, expert_spec: str, beta: float, scorer: CandidateScorer | None, env_id: str
) -> dict[str, Any]:
    """One labelled game; returns the arrays to save."""
    options = ONE_ROUND.get(rummyai.envs.ENV_IDS[env_id])
    env = cast(RummyEnv, gym.make(env_id, opponents="greedy", seat=game % 2, options=options).unwrapped)
    expert = make_agent_from_spec(expert_spec)
    expert.reset(SEED_BASE + game)
    rng = np.random.default_rng(SEED_BASE + game)
    obs, _ = env.reset(seed=SEED_BASE + game)
    rows: list[dict[str, Any]] = []
    labels: list[int] = []
    seconds: list[float] = []
    values: list[np.ndarray] = []
    done = False
    while not done:
        valid = np.flatnonzero(obs["action_mask"])
        if len(valid) == 1:
            action = int(valid[0])
        else:
            state = env.state
            assert state is not None
            start = time.perf_counter()
            move = expert.act(view(state, env.seat), legal_moves(state))
            seconds.append(time.perf_counter() - start)
            keys = [_dedupe_key(state, c.move) for c in env.candidates]
            key = _dedupe_key(state, move)
            label = next((i for i, k in enumerate(keys) if k == key), -1)
            values.append(expert_values(state, keys, getattr(expert, "last_stats", []), env.slots))
            rows.append({k: v for k, v in obs.items() if k not in SKIP_KEYS})
            labels.append(label)
            greedy = int(np.flatnonzero(obs["candidates"][:, IS_GREEDY] == 1.0)[0])
            action = label if label >= 0 else greedy
            if scorer is not None and rng.random() >= beta:
                action = int(scorer.choose(obs))
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    out: dict[str, Any] = {k: np.stack([r[k] for r in rows]) for k in (rows[0] if rows else {})}
    out.update(
        labels=np.array(labels, dtype=np.int16),
        expert_values=np.array(values).reshape(len(labels), env.slots),
        expert_seconds=np.array(seconds),
        seat=np.array(env.seat),
        final_scores=np.array(info["scores"]),
        winners=np.array(info["winners"]),
    )
    return out


def main(argv: list[str] | None = None) -> int:
    """Play and save the games still missing in `--out`."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400, help="games numbered first .. first+games-1")
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--out", required=True, help="folder of game files")
    parser.add_argument("--expert", default="mcts-pimc", help="agent spec of the labelling expert")
    parser.add_argument("--beta", type=float, default=1.0, help="probability of playing the expert's move")
    parser.add_argument("--weights", default="", help="learner weights (.npz) for DAgger (beta < 1)")
    parser.add_argument("--env", default="rummyai/Rummikub-v2")
    args = parser.parse_args(argv)
    check_env_id(parser, args.env)
    if args.games < 0:
        parser.error(f"--games must be at least 0, got {args.games}")
    if not 0 <= args.beta <= 1:
        parser.error(f"--beta must be in [0, 1], got {args.beta}")
    if args.beta < 1 and not args.weights:
        parser.error("--beta below 1 needs --weights (the learner's policy)")
    scorer = load_scorer(args.weights) if args.weights else None
    make_agent_from_spec(args.expert)  # an unknown expert is refused before the first game
    out = check_out_dir(parser, args.out)
    settings = {"expert": args.expert, "beta": args.beta, "weights": args.weights, "env": args.env}
    recorded = out / "collect.json"  # what labelled the games already there: a rerun must match
    if recorded.exists() and (before := json.loads(recorded.read_text())) != settings:
        parser.error(f"{out} holds games collected with {before}; use another --out for {settings}")
    recorded.write_text(json.dumps(settings) + "\n")
    todo = [g for g in range(args.first, args.first + args.games) if not (out / f"game_{g:06d}.npz").exists()]
    labelled = 0
    with tqdm(todo, desc="games", unit="game") as bar:
        for game in bar:
            arrays = play_game(game, args.expert, args.beta, scorer, args.env)
            partial = out / f"game_{game:06d}.partial.npz"
            np.savez_compressed(partial, **arrays)
            partial.replace(out / f"game_{game:06d}.npz")
            labelled += len(arrays["labels"])
            spent = arrays["expert_seconds"]
            bar.set_postfix(
                decisions=labelled, expert_s=f"{float(np.mean(spent)) if len(spent) else 0.0:.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
