"""Train sb3-contrib's MaskablePPO on `rummyai/Rummikub-v2` for a short run; win rate before and after.

Needs the `learn` extra (``pip install -e '.[learn]'``: CPU torch 2.13.0 and sb3-contrib). The
policy is `MultiInputPolicy` on the environment's own `Dict` observation (own hand, table, melds,
public counts, history and every candidate's features), picking a candidate slot under the action
mask, so a saved model (`--save`) plays in tournaments as the `policy` agent. Opponents are the
`random` agent unless `--opponents` names others. Win rate = share of evaluation matches where
the learner's seat is among the winners, on seeds never used in training.

    .venv/bin/python experiments/train_ppo.py                   # about 10 minutes
    .venv/bin/python experiments/train_ppo.py --timesteps 20000 --eval-episodes 100
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from typing import Any

import gymnasium as gym
import numpy as np

import rummyai.envs  # noqa: F401  (registers the ids)


@dataclass
class Args:
    """Arguments of the run (all settable from the command line)."""

    env_id: str = "rummyai/Rummikub-v2"
    timesteps: int = 40_000  # learner steps of training
    eval_episodes: int = 100  # matches per evaluation (before and after)
    opponents: str = "random"
    reward: str = "score"  # "score" or "shaped"
    seed: int = 0
    n_steps: int = 256  # PPO rollout length per environment
    batch_size: int = 256
    learning_rate: float = 3e-4
    ent_coef: float = 0.01
    n_envs: int = 8  # environments stepped in lockstep (one policy call serves them all)
    threads: int = 1  # torch threads
    save: str = ""  # optional path for the trained model (.zip)


def make_env(args: Args) -> gym.Env[Any, Any]:
    """The environment as the learner sees it (its mask through `action_masks()`)."""
    return gym.make(args.env_id, opponents=args.opponents, reward=args.reward)


def evaluate(model: Any, args: Args, episodes: int, seed_offset: int) -> dict[str, float]:
    """Win rate and mean final score of `model` (None: uniform masked random) against the opponents."""
    env = make_env(args)
    rng = np.random.default_rng(seed_offset)
    wins = 0
    total = 0.0
    steps = 0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed_offset + episode)
        done = False
        while not done:
            mask = env.get_wrapper_attr("action_masks")()
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            obs, _, terminated, truncated, info = env.step(int(action))
            steps += 1
            done = terminated or truncated
        wins += info["seat"] in info["winners"]
        total += info["scores"][info["seat"]]
    return {"win_rate": wins / episodes, "mean_score": total / episodes, "steps": steps}


def main(argv: list[str] | None = None) -> int:
    """Evaluate, train, evaluate again; print a JSON summary."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    for name, value in asdict(Args()).items():
        parser.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    args = Args(**vars(parser.parse_args(argv)))
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(args.threads)
    eval_seed = 1_000_000  # evaluation deals never seen in training
    model = MaskablePPO(
        "MultiInputPolicy",
        make_vec_env(lambda: make_env(args), n_envs=args.n_envs, seed=args.seed),
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        ent_coef=args.ent_coef,
        seed=args.seed,
        verbose=0,
    )
    start = time.perf_counter()
    random_policy = evaluate(None, args, args.eval_episodes, eval_seed)
    before = evaluate(model, args, args.eval_episodes, eval_seed)
    print(
        json.dumps({"stage": "before", "masked_random": random_policy, "untrained_ppo": before}), flush=True
    )
    train_start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    train_seconds = time.perf_counter() - train_start
    after = evaluate(model, args, args.eval_episodes, eval_seed)
    summary = {
        "stage": "after",
        "args": asdict(args),
        "masked_random": random_policy,
        "untrained_ppo": before,
        "trained_ppo": after,
        "train_seconds": round(train_seconds, 1),
        "train_steps_per_second": round(args.timesteps / train_seconds, 1),
        "total_seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(summary), flush=True)
    if args.save:
        model.save(args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
