#!/usr/bin/env bash
# The suite's verdict must not depend on the machine's speed (issue 41, item 2): run `npm test` while
# CPU-bound processes compete for the cores, several times in a row, and stop at the first failure.
#   npm run test:busy                 two busy processes, three runs
#   BUSY_PROCESSES=4 BUSY_RUNS=1 npm run test:busy
set -euo pipefail
cd "$(dirname "$0")/../.."
processes="${BUSY_PROCESSES:-2}"
runs="${BUSY_RUNS:-3}"
pids=()
stop_busy() { kill "${pids[@]}" 2>/dev/null || true; }
trap stop_busy EXIT
for _ in $(seq "$processes"); do
  node -e 'for (;;) {}' &
  pids+=("$!")
done
echo "test:busy: ${processes} CPU-bound processes beside the suite (pids ${pids[*]})"
for run in $(seq "$runs"); do
  started=$(date +%s)
  echo "test:busy: run ${run} of ${runs}"
  npm test
  echo "test:busy: run ${run} of ${runs} passed in $(($(date +%s) - started)) s"
done
echo "test:busy: ${runs} of ${runs} passed beside ${processes} busy processes"
