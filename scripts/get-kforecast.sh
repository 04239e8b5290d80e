#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Puts kforecast in PREFIX/bin for the GitHub action (action.yml): the release's prebuilt binary
# when the action is used at a release tag, else a build of this checkout. Usage:
#   scripts/get-kforecast.sh PREFIX
# Environment (the action sets the first two from its github context):
#   KF_ACTION_REPOSITORY  owner/name the action was taken from
#   KF_ACTION_REF         the ref it was taken at; a tag vX.Y.Z with a published release downloads
#   KF_RELEASE_URL        where releases live (default https://github.com; tests point it at a fake)
#   KF_BUILD_FALLBACK=0   fail instead of building when the download fails
# A download is checked against the release's .sha256 and its `kforecast --version`; any failure
# (no such release, a network error, a bad checksum) is said and falls back to building.
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:?usage: scripts/get-kforecast.sh PREFIX}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

if [ -x "$prefix/bin/kforecast" ] && "$prefix/bin/kforecast" --version >/dev/null 2>&1; then
  echo "kforecast: $("$prefix/bin/kforecast" --version) (cached in $prefix)"
  exit 0
fi

download() {
  local repository=$1 tag=$2 version=${2#v}
  local name="kforecast-$version-linux-$(uname -m)"
  local url="${KF_RELEASE_URL:-https://github.com}/$repository/releases/download/$tag/$name.tar.gz"
  local work
  work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  echo "kforecast: downloading $url"
  curl -fsSL --retry 3 -o "$work/$name.tar.gz" "$url" || { echo "kforecast: download failed" >&2; return 1; }
  curl -fsSL --retry 3 -o "$work/$name.tar.gz.sha256" "$url.sha256" || { echo "kforecast: no checksum at $url.sha256" >&2; return 1; }
  (cd "$work" && sha256sum --quiet -c "$name.tar.gz.sha256") || { echo "kforecast: checksum mismatch for $name.tar.gz" >&2; return 1; }
  tar -C "$work" -xzf "$work/$name.tar.gz"
  local got
  got=$("$work/$name/bin/kforecast" --version 2>&1) || { echo "kforecast: the downloaded binary does not run here: $got" >&2; return 1; }
  [ "$got" = "kforecast $version" ] || { echo "kforecast: the download says '$got', not 'kforecast $version'" >&2; return 1; }
  cp -R "$work/$name/." "$prefix/"
  echo "kforecast: $got (release $tag)"
}

if [[ "${KF_ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] && [ -n "${KF_ACTION_REPOSITORY:-}" ]; then
  download "$KF_ACTION_REPOSITORY" "$KF_ACTION_REF" && exit 0
  [ "${KF_BUILD_FALLBACK:-1}" = 0 ] && { echo "kforecast: no release binary, and KF_BUILD_FALLBACK=0" >&2; exit 1; }
  echo "kforecast: building from source instead"
else
  echo "kforecast: '${KF_ACTION_REF:-}' is not a release tag; building from source"
fi

# No -Werror here: a user's compiler (GCC 13 on ubuntu-24.04, say) may warn where ours does not.
"$source_dir/scripts/setup.sh" --build-only
build=$(mktemp -d)
cmake -S "$source_dir" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DKFORECAST_WERROR=OFF >/dev/null
cmake --build "$build" --target kforecast kforecast_capture
cmake --install "$build" --prefix "$prefix" --strip >/dev/null
rm -rf "$build"
echo "kforecast: $("$prefix/bin/kforecast" --version) (built from source)"
