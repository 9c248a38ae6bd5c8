#!/bin/sh
# The runs of studies/learned/features-v2/plan.md (PPO with the -v1 and the -v2 candidate
# columns, Rummy Palace and standard rummy), resumable; results copied into that folder.
set -eu
cd "$(git rev-parse --show-toplevel)"
py=.venv/bin/python
for v in 1 2; do
  for pair in RummyPalace:rummy-palace StandardRummy:standard; do
    env=${pair%%:*}
    variant=${pair##*:}
    out=runs/learn/$variant-v$v
    nice -n 19 $py -W ignore experiments/training/ppo_selfplay.py --init greedy \
        --env rummyai/$env-v$v --updates 100 --lr 1e-3 --seed 0 --out "$out"
    nice -n 19 $py experiments/training/curve.py --scorers "$out" --sets 100 --every 20 --variant "$variant"
    dest=studies/learned/features-v2/$variant-v$v
    mkdir -p "$dest"
    cp "$out/log.jsonl" "$out/curve.jsonl" "$out/curve.png" "$dest/"
  done
done
