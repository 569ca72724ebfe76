#!/usr/bin/env bash
# Builds the release archive: a static Linux x86_64 referee (no shared library needed, so it
# runs on any x86_64 Linux with a C compiler), with the cases compiled in.
#
#   tools/release.sh [OUT_DIR]     (default: target/release-archive)
#
# Writes OUT_DIR/referee-<version>-x86_64-linux.tar.gz and its .sha256, checks with ldd that
# the binary is static, and that the binary from the archive, alone in an empty folder,
# grades every game's model solution to full marks (`referee check-reference`).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/release-archive}
target=x86_64-unknown-linux-gnu
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)

# glibc's static libraries (libc6-dev) make a binary with no dynamic loader.
RUSTFLAGS="-C target-feature=+crt-static" cargo build --release --locked --target "$target"
binary=target/$target/release/referee
if ldd "$binary" 2>&1 | grep -q '=>'; then
  echo "release: $binary links shared libraries:" >&2
  ldd "$binary" >&2
  exit 1
fi

name=referee-$version-x86_64-linux
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$binary" "$stage/$name/referee"
cp README.md "$stage/$name/"
mkdir -p "$out"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")

# The archive's binary, alone: no checkout, no cache, an empty folder.
check=$(mktemp -d)
trap 'rm -rf "$stage" "$check"' EXIT
chmod 755 "$check"
tar -C "$check" -xzf "$out/$name.tar.gz"
(cd "$check" && env -u REFEREE_ROOT -u REFEREE_PRIVATE HOME="$check/home" \
  REFEREE_CACHE="$check/cache" "./$name/referee" check-reference)
"$check/$name/referee" --version
echo "release: $out/$name.tar.gz ($(du -h "$out/$name.tar.gz" | cut -f1)), sha256 in $name.tar.gz.sha256"
