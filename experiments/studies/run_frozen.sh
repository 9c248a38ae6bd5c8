#!/bin/sh
# Run `rummyai study run` from a frozen copy of a commit, at the lowest priority, detached, so that
# editing or switching this checkout never changes the code of a running study.
#   experiments/studies/run_frozen.sh PLAN.toml CELL[,CELL...] [COMMIT [STUDY-RUN OPTIONS...]]
# (default commit: HEAD; options such as --allow-mixed-versions are passed to `study run`)
# The copy (git archive, which stamps the commit into rummyai/arena/version.py) is installed under
# results/frozen/<commit>/lib and put ahead of this checkout on .venv's path; the log goes to
# results/study-logs/<cells>.log. Rerun the same command to resume.
set -eu
plan=$(realpath "$1")
cells=$2
commit=$(git rev-parse "${3:-HEAD}")
[ $# -ge 3 ] && shift 3 || shift $#
root=$(git rev-parse --show-toplevel)
frozen="$root/results/frozen/$commit"
if [ ! -d "$frozen/lib/rummyai" ]; then
    rm -rf "$frozen"
    mkdir -p "$frozen/src"
    git archive "$commit" | tar -x -C "$frozen/src"
    "$root/.venv/bin/pip" install --quiet --no-deps --target "$frozen/lib" "$frozen/src"
fi
mkdir -p "$root/results/study-logs"
log="$root/results/study-logs/$(echo "$cells" | tr ',' '+').log"
cd "$frozen"  # not the checkout: python -m puts the working folder first on the path
PYTHONPATH="$frozen/lib" setsid nohup nice -n 19 "$root/.venv/bin/python" -m rummyai.cli study run "$plan" --cells "$cells" --workers 1 \
    --no-progress "$@" >>"$log" 2>&1 </dev/null &
pid=$!
sleep 1
echo 19 >"/proc/$pid/autogroup" 2>/dev/null || true
echo "$pid $commit $cells" >>"$root/results/study-logs/pids"
echo "started pid $pid (log $log)"
