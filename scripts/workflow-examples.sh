#!/usr/bin/env bash
# Lays out every complete GitHub Actions workflow shown in the README and
# docs/ci.md (a ```yaml block with top-level on: and jobs: keys) as a
# repository in DIR for actionlint: DIR/.github/workflows/*.yml, with this
# action.yml at DIR's root and `uses: testctl/testctl@…` pointing at it
# (`uses: ./`), so actionlint also checks each example's inputs and outputs
# against action.yml. An example that does not lint is a recipe that fails
# for whoever copies it.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/workflow-examples.sh DIR}
mkdir -p "$dir/.git" "$dir/.github/workflows" # .git marks the repository's root
cp action.yml "$dir/"
for md in README.md docs/ci.md; do
  awk -v dir="$dir/.github/workflows" -v base="$(basename "$md" .md)" '
    /^```yaml$/ { inblock = 1; text = ""; next }
    /^```$/ && inblock {
      inblock = 0
      if (text ~ /(^|\n)on:/ && text ~ /(^|\n)jobs:/) { n++; file = dir "/" base "-" n ".yml"; printf "%s", text > file; close(file); print file }
      next
    }
    inblock { text = text $0 "\n" }
  ' "$md"
done
sed -i.orig -E 's#uses: testctl/testctl@[^[:space:]]+#uses: ./#' "$dir"/.github/workflows/*.yml
rm -f "$dir"/.github/workflows/*.orig
