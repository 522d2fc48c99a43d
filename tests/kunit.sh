#!/bin/bash
# kunit.sh ARCH MODE LOGDIR: boot once; every KUnit suite built into the
# kernel runs during boot; the console is parsed by the tree's kunit.py.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$(test_log kunit)

boot_or_fail kunit "$log" jtcfi.run=kunit || exit 0
kunit_verdict kunit "$log"
