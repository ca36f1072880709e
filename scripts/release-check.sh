#!/usr/bin/env bash
# Validates .goreleaser.yaml and builds every release target locally, without
# publishing anything: `goreleaser check`, then a snapshot release into dist/.
set -euo pipefail
cd "$(dirname "$0")/.."

GORELEASER_VERSION=v2.16.0 # newest that installs with our Go toolchain and module proxy
if ! command -v goreleaser >/dev/null 2>&1; then
  echo "--- installing goreleaser $GORELEASER_VERSION"
  GOFLAGS=-buildvcs=false go install "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION"
  export PATH="$(go env GOPATH)/bin:$PATH"
fi

echo "--- goreleaser check"
goreleaser check

echo "--- goreleaser release --snapshot --clean"
# A snapshot needs no tag and no token; it builds archives, packages and checksums.
goreleaser release --snapshot --clean --skip=publish

echo "--- artefacts"
missing=0
for target in linux_amd64 linux_arm64 darwin_amd64 darwin_arm64 windows_amd64 windows_arm64; do
  if ls dist/testctl_*_"$target".* >/dev/null 2>&1; then
    echo "ok  $target"
  else
    echo "MISSING $target"; missing=1
  fi
done
for fmt in deb rpm apk; do
  if ls dist/*."$fmt" >/dev/null 2>&1; then echo "ok  $fmt"; else echo "MISSING $fmt"; missing=1; fi
done
exit $missing
