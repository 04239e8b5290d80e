#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes a bare Debian root file system (debootstrap, variant minbase: no compiler, no C++ runtime
# beyond what apt needs) for the portability test: the shipped binary must run on a distribution
# other than the build machine's (tests/e2e/other_distro_test.sh). Needs root and network.
#   scripts/distro-root.sh SUITE DIR         e.g. scripts/distro-root.sh trixie /var/tmp/trixie
#   KF_OTHER_DISTRO_ROOT=DIR ctest --preset release -R other_distro
set -euo pipefail
suite=${1:?usage: scripts/distro-root.sh SUITE DIR}
dir=${2:?usage: scripts/distro-root.sh SUITE DIR}
[ "$(id -u)" -eq 0 ] || { echo "distro-root: debootstrap needs root" >&2; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
debootstrap --variant=minbase "$suite" "$dir" http://deb.debian.org/debian >/dev/null
echo "$dir: $(cat "$dir/etc/debian_version"), glibc $(chroot "$dir" ldd --version | head -1 | awk '{print $NF}')"
