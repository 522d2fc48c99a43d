#!/bin/bash
# prepare-kernel.sh ARCH MODE: everything a boot of (arch, mode) needs:
# config, kernel and modules, initramfs.  Each step is incremental.
set -eu
dir=$(dirname "$0")
"$dir/configure.sh" "$@"
"$dir/build-kernel.sh" "$@"
"$dir/make-initramfs.sh" "$@"
