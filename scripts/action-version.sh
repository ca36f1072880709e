#!/usr/bin/env bash
# The testctl release that the GitHub Action (action.yml) and the GitLab
# component (templates/run.yml) install by default: the release they are
# pinned at, never "latest". Each holds it as the one `default: 'X.Y.Z'`
# line of its version input.
#
#   scripts/action-version.sh set X.Y.Z    before tagging vX.Y.Z
#   scripts/action-version.sh check X.Y.Z  goreleaser runs it for a release
set -euo pipefail
cd "$(dirname "$0")/.."
files=(action.yml templates/run.yml)
line="^( +default: ')[0-9]+\.[0-9]+\.[0-9]+(')$"
mode=${1:-} version=${2:-}
version=${version#v}
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || [[ $mode != set && $mode != check ]]; then
  echo "usage: scripts/action-version.sh set|check X.Y.Z" >&2
  exit 2
fi
status=0
for f in "${files[@]}"; do
  if [ "$(grep -cE "$line" "$f")" != 1 ]; then
    echo "$f: want exactly one line like \"default: 'X.Y.Z'\" (the version input's)" >&2
    exit 1
  fi
  if [ "$mode" = set ]; then
    sed -E "s/$line/\1$version\2/" "$f" > "$f.tmp" && mv "$f.tmp" "$f"
    echo "$f: installs testctl $version by default"
  else
    pinned=$(grep -E "$line" "$f" | sed -E "s/.*'(.*)'/\1/")
    if [ "$pinned" != "$version" ]; then
      echo "$f installs testctl $pinned by default, not $version: run 'bash scripts/action-version.sh set $version', commit, and tag that commit" >&2
      status=1
    fi
  fi
done
exit $status
