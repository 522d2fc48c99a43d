#!/bin/bash
# prepare-kernel.sh ARCH MODE: everything a boot of (arch, mode) needs:
# config, kernel and modules, the benchmark modules, the benchmark and
# BPF programs, initramfs.  Each step is incremental.
set -eu
dir=$(dirname "$0")
. "$dir/lib.sh"
usage_check "$@"
"$dir/configure.sh" "$@"
"$dir/build-kernel.sh" "$@"
"$dir/build-guest-modules.sh" "$@"
"$dir/build-guest-programs.sh" "$1" "$JTCFI_TOP/guest/bench" "$JTCFI_GUEST_BENCH/$1"
"$dir/build-guest-programs.sh" "$1" "$JTCFI_TOP/guest/audit" "$JTCFI_GUEST_AUDIT/$1"
"$dir/make-initramfs.sh" "$@"
