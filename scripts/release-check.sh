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

echo "--- artefacts: what the GitHub Action and the GitLab component install"
# They download <tag>/testctl_<version>_<os>_<arch>.tar.gz (.zip on Windows)
# and verify it against <tag>/checksums.txt, then unpack testctl from its root.
version=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' dist/metadata.json | head -n 1)
missing=0
for target in linux_amd64 linux_arm64 darwin_amd64 darwin_arm64 windows_amd64 windows_arm64; do
  ext=tar.gz bin=testctl
  if [ "${target%_*}" = windows ]; then ext=zip bin=testctl.exe; fi
  archive="testctl_${version}_${target}.${ext}"
  if [ ! -f "dist/$archive" ]; then
    echo "MISSING $archive"; missing=1; continue
  fi
  if ! (cd dist && grep -E "^[0-9a-f]{64}  $archive\$" checksums.txt | sha256sum -c --quiet -); then
    echo "NOT IN checksums.txt (or not matching) $archive"; missing=1; continue
  fi
  if [ "$ext" = zip ]; then members=$(unzip -Z1 "dist/$archive"); else members=$(tar -tzf "dist/$archive"); fi
  if ! grep -qx "$bin" <<<"$members"; then
    echo "NO $bin AT THE ROOT OF $archive"; missing=1; continue
  fi
  echo "ok  $archive"
done
for fmt in deb rpm apk; do
  if ls dist/*."$fmt" >/dev/null 2>&1; then echo "ok  $fmt"; else echo "MISSING $fmt"; missing=1; fi
done
exit $missing
