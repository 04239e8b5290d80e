#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Packs a release build into the archive the release workflow publishes and the GitHub action
# downloads (scripts/get-kforecast.sh): kforecast-VERSION-linux-x86_64.tar.gz, holding
# bin/kforecast (stripped) and lib/kforecast/libkforecast_capture.so as `cmake --install` lays
# them out (kforecast finds the capture library at bin/../lib/kforecast), plus README.md, and
# beside it the archive's .sha256. Usage:
#   scripts/package-release.sh BUILD_DIR OUT_DIR      (BUILD_DIR: a configured, built release build)
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/package-release.sh BUILD_DIR OUT_DIR}
out=${2:?usage: scripts/package-release.sh BUILD_DIR OUT_DIR}
[ -x "$build/src/kforecast" ] || { echo "package-release: no $build/src/kforecast; build it first (cmake --build $build --target kforecast kforecast_capture)" >&2; exit 1; }
version=$("$build/src/kforecast" --version | awk '{print $2}')
name=kforecast-$version-linux-$(uname -m)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cmake --install "$build" --prefix "$stage/$name" --strip >/dev/null
cp "$source_dir/README.md" "$stage/$name/"
mkdir -p "$out"
# Reproducible: the same build gives the same archive (sorted names, fixed owner and times).
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -czf "$out/$name.tar.gz" "$name"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
