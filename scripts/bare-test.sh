#!/usr/bin/env bash
# The README's test command as on a fresh machine: `go test -count=1 ./...`
# with a PATH of go, gofmt, git, bash, sh and coreutils only, CI unset and
# nothing else of this environment (no MCP_SDK_DIR, no TESTCTL_BROWSER), so
# every test that needs another tool must skip as a whole, saying which.
# Go's own settings are kept: HOME, GOPATH, GOCACHE, GOMODCACHE, GOFLAGS,
# GOPROXY and the module fetch settings beside it. Arguments go to go test
# (scripts/bare-test.sh -v -run TestAct).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

# link PATH...: each program in the directory, first of a name wins.
link() {
  local p
  for p in "$@"; do
    [ -e "$bin/${p##*/}" ] || ln -s "$p" "$bin/${p##*/}"
  done
}

goroot=$(go env GOROOT)
link "$goroot/bin/go" "$goroot/bin/gofmt"
for name in git bash sh; do
  p=$(type -P "$name") || { echo "bare-test: $name is not on PATH" >&2; exit 1; }
  link "$p"
done
# Coreutils: Debian's package's programs, and a fixed list where there is
# no dpkg (or the package holds none, as where Rust's coreutils replace it).
if command -v dpkg >/dev/null 2>&1; then
  while read -r p; do
    case "$p" in */bin/* | */sbin/*) if [ -f "$p" ] && [ -x "$p" ]; then link "$p"; fi ;; esac
  done < <(dpkg -L coreutils 2>/dev/null || true)
fi
for name in '[' basename cat chmod cp cut date dd df dirname du echo env expr false head id ln ls \
  mkdir mktemp mv nproc od printf pwd readlink realpath rm rmdir seq sha256sum sleep sort stat \
  tail tee test timeout touch tr true uname uniq wc yes; do
  if p=$(type -P "$name"); then link "$p"; fi
done
echo "PATH holds $(ls "$bin" | wc -l) programs: go, gofmt, git, bash, sh and coreutils"

keep=(HOME="$HOME" PATH="$bin" LANG=C.UTF-8)
[ -z "${TMPDIR:-}" ] || keep+=(TMPDIR="$TMPDIR")
for v in GOPATH GOCACHE GOMODCACHE GOFLAGS GOPROXY GOSUMDB GOPRIVATE GONOPROXY GONOSUMDB GOINSECURE GOTOOLCHAIN; do
  val=$(go env "$v")
  [ -z "$val" ] || keep+=("$v=$val")
done

start=$SECONDS
status=0
env -i "${keep[@]}" "$bin/go" test -count=1 "$@" ./... || status=$?
echo "bare go test took $((SECONDS - start))s (exit $status)"
exit "$status"
