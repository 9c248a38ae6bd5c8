#!/bin/sh
# The second runs of studies/learned/features-v2/plan.md ("Seeds 1 and 2"): the same PPO with
# the -v1 and the -v2 candidate columns in standard rummy, seeds 1 and 2; resumable, results
# copied into studies/learned/features-v2/seeds/.
set -eu
cd "$(git rev-parse --show-toplevel)"
py=.venv/bin/python
for seed in 1 2; do
  for v in 1 2; do
    out=runs/learn/standard-v$v-s$seed
    nice -n 19 $py -W ignore experiments/training/ppo_selfplay.py --init greedy \
        --env rummyai/StandardRummy-v$v --updates 100 --lr 1e-3 --seed "$seed" --out "$out"
    nice -n 19 $py experiments/training/curve.py --scorers "$out" --sets 100 --every 20 --variant standard
    dest=studies/learned/features-v2/seeds/standard-v$v-s$seed
    mkdir -p "$dest"
    cp "$out/log.jsonl" "$out/curve.jsonl" "$out/curve.png" "$dest/"
  done
done
