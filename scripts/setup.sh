#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every build and test dependency of kforecast from Debian's packages. Idempotent:
# when everything is present it changes nothing and does not touch the network.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config git   # toolchain; git is also run by kforecast and its tests
  libcurl4-openssl-dev                    # HTTP: LLM endpoints, GitHub/GitLab APIs
  libsimdjson-dev                         # JSON: endpoint answers, datasets, reports
  libtomlplusplus-dev                     # .kforecast.toml
  libfmt-dev                              # formatting (std::format is missing from GCC 12)
  catch2                                  # unit tests (Catch2 v2)
  pre-commit                              # e2e test of .pre-commit-hooks.yaml with the real framework
  clang-tidy-19                           # .clang-tidy in CI and the debug preset: 19 is the first that parses GCC 12's <expected>
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
