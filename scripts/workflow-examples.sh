#!/usr/bin/env bash
# Writes every complete GitHub Actions workflow shown in the README and
# docs/ci.md (a ```yaml block with top-level on: and jobs: keys) to a file of its
# own in DIR, for actionlint: an example that does not lint is a recipe
# that fails for whoever copies it.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/workflow-examples.sh DIR}
mkdir -p "$dir"
for md in README.md docs/ci.md; do
  awk -v dir="$dir" -v base="$(basename "$md" .md)" '
    /^```yaml$/ { inblock = 1; text = ""; next }
    /^```$/ && inblock {
      inblock = 0
      if (text ~ /(^|\n)on:/ && text ~ /(^|\n)jobs:/) { n++; file = dir "/" base "-" n ".yml"; printf "%s", text > file; close(file); print file }
      next
    }
    inblock { text = text $0 "\n" }
  ' "$md"
done
