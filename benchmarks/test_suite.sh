#!/bin/bash
# `make test` at several commits, measured in one run on this machine (issue 40): each
# commit is checked out into a temporary worktree and its own Makefile's `test` command
# is run (pytest only: the venv is this checkout's .venv, so every run uses the same
# toolchain and nothing is installed), one after the other, then again in reverse order
# when ROUNDS=2. Prints, per run: tests passed/failed, pytest's wall time, and the CPU
# time of the whole run (user + sys, from /usr/bin/time).
#
# Usage: benchmarks/test_suite.sh COMMIT...   e.g.
#   benchmarks/test_suite.sh b8a05c3 HEAD
# Needs _build/upstream staged in this checkout (copied into each worktree) and the
# pinned upstream at ../shared/upstream, as `make test` does. Logs:
# _build/test-suite-<commit>-<n>.log.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=${ROUNDS:-1}
commits=()
for c in "$@"; do commits+=("$(git rev-parse --short "$c")"); done
run() {
  local commit=$1 n=$2 tree log command
  # Beside this checkout, as a clone is: the tests read the pinned upstream at ../shared.
  tree=$(mktemp -d "$ROOT/../jaxko-suite-XXXX")
  git worktree add -q --detach "$tree" "$commit"
  mkdir -p "$tree/_build" && cp -r "$ROOT/_build/upstream" "$tree/_build/"
  ln -s "$ROOT/.venv" "$tree/.venv"
  # The commit's own `make test` recipe, with its $(BIN) spelled out.
  command=$(git show "$commit:Makefile" | sed -n '/^test: /{n;p}' | sed 's/\$(BIN)/.venv\/bin/; s/^\t//')
  log=$ROOT/_build/test-suite-$commit-$n.log
  (cd "$tree" && PYTHONPATH="$tree/tools" JAX_PLATFORMS=cpu PATH="$ROOT/.venv/bin:$PATH" \
    /usr/bin/time -f "cpu %U user %S sys" $command -p no:cacheprovider > "$log" 2>&1)
  echo "$commit (run $n): $command -> $(grep -E '^[0-9]+ (passed|failed)|^=+ .*(passed|failed)' "$log" | tail -1 | tr -d '='); $(grep '^cpu ' "$log")"
  git worktree remove --force "$tree"
}
for n in $(seq 1 "$ROUNDS"); do
  if [ $((n % 2)) = 1 ]; then order=("${commits[@]}"); else
    order=(); for ((i=${#commits[@]}-1; i>=0; i--)); do order+=("${commits[$i]}"); done; fi
  for c in "${order[@]}"; do run "$c" "$n"; done
done
