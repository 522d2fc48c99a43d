#!/bin/bash
# prepare-kernel.sh ARCH MODE: everything a boot of (arch, mode) needs:
# config, kernel and modules, the benchmark modules and programs,
# initramfs.  Each step is incremental.
set -eu
dir=$(dirname "$0")
. "$dir/lib.sh"
usage_check "$@"
"$dir/configure.sh" "$@"
"$dir/build-kernel.sh" "$@"
"$dir/build-guest-modules.sh" "$@"
"$dir/build-guest-programs.sh" "$1" "$JTCFI_TOP/guest/bench" "$JTCFI_GUEST_BENCH/$1"
"$dir/make-initramfs.sh" "$@"
