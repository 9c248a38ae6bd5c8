"""Improve the candidate scorer by self-play: PPO (CleanRL-style, one file, torch CPU).

The policy is the `learned` agent's network itself (`rummyai.agents.learned.inputs`: one row per
candidate slot, one shared MLP, a softmax over the valid slots), started from `--init` (the
behaviour-cloned weights); a small value network reads the position summary. The learner plays
`rummyai/Rummikub-v2` (2 players, one round, seat drawn per episode) against an opponent drawn
per episode: `greedy` or, with probability `--self-share`, a frozen copy of the policy itself
(refreshed every `--snapshot-every` updates) playing through `rummyai.envs.PolicyAgent`. The
reward is the learner's score change / 50 (zero-sum, so the return is the deal's margin / 50).

Every update writes ``<out>/checkpoint.pt`` (networks, optimiser, update, counters: the same
command resumes), ``<out>/scorer_<update>.npz`` (numpy weights, what `curve.py` evaluates) and a
line of ``<out>/log.jsonl``. Extra `learn`.

    nice -n 19 .venv/bin/python experiments/training/ppo_selfplay.py \\
        --init runs/learn/scorer/scorer_029.npz --out runs/learn/ppo --updates 200
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, cast

import gymnasium as gym
import numpy as np
from script_guard import check_env_id, guarded
from tqdm import tqdm

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.agents import make_agent
from rummyai.agents.learned import (
    STATE_FEATURES,
    CandidateScorer,
    from_torch,
    greedy_scorer,
    inputs,
    load_scorer,
    save_scorer,
    state_vector,
    to_torch,
)
from rummyai.engine.moves import Move
from rummyai.envs import FEATURES, RummyEnv
from rummyai.envs.policy_agent import PolicyAgent
from rummyai.variants import ONE_ROUND

REWARD_SCALE = 50.0


class EpisodeOpponent:
    """Greedy or a frozen copy of the policy, drawn anew at every `reset` from a seeded generator."""

    name = "greedy-or-self"

    def __init__(self, share: float, seed: int) -> None:
        self.share = share
        self.rng = np.random.default_rng(seed)
        self.greedy = make_agent("greedy")
        self.snapshot: PolicyAgent | None = None
        self.current: Any = self.greedy

    def freeze(self, scorer: CandidateScorer) -> None:
        """Play the given weights as the self-play opponent from now on."""
        self.snapshot = PolicyAgent(scorer.scores, name="self")

    def reset(self, seed: int) -> None:
        use_self = self.snapshot is not None and self.rng.random() < self.share
        self.current = self.snapshot if use_self else self.greedy
        self.current.reset(seed)

    def act(self, view: Any, legal: Any) -> Move:
        return cast(Move, self.current.act(view, legal))


def main(argv: list[str] | None = None) -> int:
    """Run (or resume) PPO updates."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--init",
        default="",
        help="starting weights (.npz; default the shipped rummikub ones; 'greedy': a network playing greedy's move)",
    )
    parser.add_argument("--env", default="rummyai/Rummikub-v2", help="environment id (2 players, one round)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--steps", type=int, default=512, help="learner steps per update")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--self-share", type=float, default=0.5)
    parser.add_argument("--snapshot-every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    variant = check_env_id(parser, args.env)
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    opponent = EpisodeOpponent(args.self_share, args.seed)
    env = cast(
        RummyEnv,
        gym.make(args.env, opponents=opponent, seat=None, options=ONE_ROUND[variant]).unwrapped,
    )
    # the candidate columns the network reads: the environment's (a v1 id has fewer) or the file's
    init = (
        greedy_scorer(seed=args.seed, features=FEATURES[: env.feature_width])
        if args.init == "greedy"
        else load_scorer(args.init or None)
    )
    features = init.features
    policy = to_torch(init)
    value = torch.nn.Sequential(
        torch.nn.Linear(len(STATE_FEATURES), 64), torch.nn.Tanh(), torch.nn.Linear(64, 1)
    )
    optimiser = torch.optim.Adam([*policy.parameters(), *value.parameters()], lr=args.lr)
    start, episodes = 0, 0
    checkpoint = out / "checkpoint.pt"
    if checkpoint.exists():
        saved = torch.load(checkpoint, weights_only=False)
        policy.load_state_dict(saved["policy"])
        value.load_state_dict(saved["value"])
        optimiser.load_state_dict(saved["optimiser"])
        start, episodes = saved["update"] + 1, saved["episodes"]
    opponent.freeze(from_torch(policy, {}, features))
    obs, _ = env.reset(seed=args.seed * 1_000_003 + episodes)
    returns: list[float] = []
    episode_return = 0.0
    for update in tqdm(range(start, args.updates), desc="updates", initial=start, total=args.updates):
        xs, masks, states, actions, logps, values, rewards, dones = [], [], [], [], [], [], [], []
        for _ in range(args.steps):
            x = torch.tensor(inputs(obs, features), dtype=torch.float32)
            mask = torch.tensor(obs["action_mask"].astype(bool))
            s = torch.tensor(state_vector(obs), dtype=torch.float32)
            with torch.no_grad():
                logits = policy(x).squeeze(-1).masked_fill(~mask, -1e9)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
                v = value(s).squeeze(-1)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
            episode_return += float(reward)
            xs.append(x)
            masks.append(mask)
            states.append(s)
            actions.append(action)
            logps.append(dist.log_prob(action))
            values.append(v)
            rewards.append(float(reward) / REWARD_SCALE)
            dones.append(done)
            if done:
                returns.append(episode_return)
                episode_return = 0.0
                episodes += 1
                obs, _ = env.reset(seed=args.seed * 1_000_003 + episodes)
        with torch.no_grad():
            next_value = value(torch.tensor(state_vector(obs), dtype=torch.float32)).squeeze(-1)
        advantages = torch.zeros(args.steps)
        last = 0.0
        for t in reversed(range(args.steps)):
            following = next_value if t == args.steps - 1 else values[t + 1]
            alive = 0.0 if dones[t] else 1.0
            delta = rewards[t] + args.gamma * following * alive - values[t]
            last = delta + args.gamma * args.gae_lambda * alive * last
            advantages[t] = last
        b_x, b_mask, b_s = torch.stack(xs), torch.stack(masks), torch.stack(states)
        b_a, b_logp, b_v = torch.stack(actions), torch.stack(logps), torch.stack(values)
        b_ret = advantages + b_v
        for _ in range(args.epochs):
            for idx in torch.randperm(args.steps).split(args.minibatch):
                logits = policy(b_x[idx]).squeeze(-1).masked_fill(~b_mask[idx], -1e9)
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(b_a[idx]) - b_logp[idx]).exp()
                adv = advantages[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                v_loss = 0.5 * (value(b_s[idx]).squeeze(-1) - b_ret[idx]).pow(2).mean()
                loss = pg + 0.5 * v_loss - args.ent_coef * dist.entropy().mean()
                optimiser.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_([*policy.parameters(), *value.parameters()], 0.5)
                optimiser.step()
        if (update + 1) % args.snapshot_every == 0:
            opponent.freeze(from_torch(policy, {}, features))
        meta = {"update": update, "episodes": episodes, "init": args.init or "shipped", "env": args.env}
        save_scorer(out / f"scorer_{update:04d}.npz", from_torch(policy, meta, features))
        torch.save(
            {
                "policy": policy.state_dict(),
                "value": value.state_dict(),
                "optimiser": optimiser.state_dict(),
                "update": update,
                "episodes": episodes,
            },
            checkpoint,
        )
        line = {"update": update, "episodes": episodes, "mean_return": float(np.mean(returns[-50:] or [0.0]))}
        with open(out / "log.jsonl", "a") as log:
            log.write(json.dumps(line) + "\n")
        tqdm.write(json.dumps(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
