#!/usr/bin/env bash
# Builds the release archive: a static Linux x86_64 referee (no shared library needed, so it
# runs on any x86_64 Linux with a C compiler), with the cases compiled in.
#
#   tools/release.sh [OUT_DIR]     (default: target/release-archive)
#
# Writes OUT_DIR/referee-<version>-x86_64-linux.tar.gz and its .sha256, checks with ldd that
# the binary is static, that the binary from the archive, alone in an empty folder, grades
# every game's model solution to full marks (`referee check-reference`), that the GitHub
# Classroom workflow and the Gradescope bundle grade with it as `referee grade` does (their
# tests, run on this archive), and that the crate packages (`cargo package`, which builds the
# packaged crate on its own) with its data and without the tests' files.
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

# The classroom workflow downloads this archive and grades with it; the Gradescope bundle
# ships its binary.
REFEREE_RELEASE_ARCHIVE=$(realpath "$out/$name.tar.gz") cargo test --release --locked \
  --test lms --test reports -- the_classroom_workflow_runs gradescope_bundle_grades

# `cargo install referee` builds from this package: it must build alone and hold the data.
cargo package --locked --allow-dirty --target-dir target/package-check
crate=target/package-check/package/referee-$version.crate
listing=$(tar -tzf "$crate")
for data in specs/reversi/spec.toml cases/reversi/program.toml reference/reversi/Lab6.c; do
  grep -qx "referee-$version/$data" <<<"$listing" || {
    echo "release: the package lacks $data" >&2
    exit 1
  }
done
if grep -q "^referee-$version/tests/" <<<"$listing"; then
  echo "release: the package holds the test suite's files" >&2
  exit 1
fi
echo "release: $out/$name.tar.gz ($(du -h "$out/$name.tar.gz" | cut -f1)), sha256 in $name.tar.gz.sha256"
echo "release: crate $crate ($(du -h "$crate" | cut -f1))"
