#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The shipped binary runs on another distribution than the one that built it: copied, as the
# release archive lays it out, into a bare Debian root (KF_OTHER_DISTRO_ROOT, made by
# scripts/distro-root.sh; Debian 13 was used, with a newer glibc and libstdc++ than Debian 12's and no
# libfmt or JSON library at all), it starts, reads its embedded rules, lints a file and runs
# doctor there. Skipped (exit 77, with the reason) without such a root or without root rights.
# Usage: other_distro_test.sh KFORECAST SOURCE_DIR
set -euo pipefail
kforecast=$1 source_dir=$2
root=${KF_OTHER_DISTRO_ROOT:-}
[ -n "$root" ] || { echo "SKIPPED: set KF_OTHER_DISTRO_ROOT to a Debian root (scripts/distro-root.sh trixie DIR makes one)"; exit 77; }
[ -x "$root/bin/sh" ] || { echo "KF_OTHER_DISTRO_ROOT=$root is not a root file system (no bin/sh)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "SKIPPED: chroot into $root needs root"; exit 77; }

work=$(mktemp -d "$root/tmp/kforecast.XXXXXX")
trap 'rm -rf "$work"' EXIT
inside=/tmp/${work##*/}
mkdir -p "$work/bin" "$work/lib/kforecast"
cp "$kforecast" "$work/bin/kforecast"
cp "$(dirname "$kforecast")"/../src/capture/libkforecast_capture.so "$work/lib/kforecast/" 2>/dev/null || true
cp "$source_dir/fixtures/lint/double-literal.cu" "$work/"
fail() { echo "FAILED: $*"; exit 1; }
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/tmp "$@"; }

echo "root: Debian $(cat "$root/etc/debian_version"), $(in_root ldd --version | head -1)"
version=$(in_root "$inside/bin/kforecast" --version) || fail "kforecast --version did not run: $version"
[[ $version == "kforecast "* ]] || fail "unexpected --version: $version"
rules=$(in_root "$inside/bin/kforecast" rules) || fail "kforecast rules failed"
[[ $rules == *fp64* || $rules == *double* ]] || fail "kforecast rules lists no rule: $rules"
lint=$(in_root "$inside/bin/kforecast" lint --format json "$inside/double-literal.cu") || [ $? -eq 1 ] || fail "lint crashed"
[[ $lint == *'"rule"'* ]] || fail "lint found nothing in double-literal.cu: $lint"
# No GPU and no NVRTC in a bare root: doctor says so and still exits normally.
doctor=$(in_root "$inside/bin/kforecast" doctor 2>&1) || true
[[ $doctor == *NVRTC* ]] || fail "doctor did not report on NVRTC: $doctor"
echo "ran in the other root: $version; rules, lint and doctor work"
