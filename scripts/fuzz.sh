#!/usr/bin/env bash
# Runs every fuzz target of the repository for a bounded time each
# (FUZZTIME, default 30s). CI does not run this: `go test ./...` already
# replays each target's committed seed corpus (testdata/fuzz/...).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-30s}

grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
  dir=$(dirname "$file")
  for target in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
    echo "--- $dir $target ($fuzztime)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$dir"
  done
done
