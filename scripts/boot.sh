#!/bin/bash
# boot.sh ARCH MODE LOG [KERNEL-ARGS...]: boot the (arch, mode) kernel and
# initramfs in QEMU under TCG, console to LOG, and stop it after
# $JTCFI_BOOT_TIMEOUT seconds.  LOG "-" boots interactively on this terminal.
# Fails, naming the cause, when the guest times out or never reaches init.
# LOG's first line is the QEMU command, after "# jtcfi: " (JTCFI_LOG_HEADER).
# $JTCFI_QEMU_MACHINE overrides the machine (e.g. virt,virtualization=on),
# $JTCFI_SMP the number of CPUs (2), $JTCFI_TCG_THREAD TCG's threading
# (multi: a host thread per CPU; single: one for all; unset: QEMU's
# choice), $JTCFI_MEM the memory (1G), $JTCFI_QEMU_EXTRA adds options (the
# benchmarks' -icount, a system image's disk), and $JTCFI_BOOT_KERNEL and
# $JTCFI_BOOT_INITRD replace the build's kernel and initramfs (a system
# image's own, installed from the packages).
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
log=$3
shift 3
timeout=${JTCFI_BOOT_TIMEOUT:-300}
qemu_bin=$(arch_field "$arch" qemu)
need_tool "$qemu_bin" timeout

out=$(build_dir "$arch" "$mode")
kernel=${JTCFI_BOOT_KERNEL:-$out/kernel-image}
initrd=${JTCFI_BOOT_INITRD:-$out/initramfs.cpio.gz}
[ -e "$kernel" ] || die "no kernel built for $arch/$mode: no $kernel"
[ -f "$initrd" ] || die "no initramfs for $arch/$mode: no $initrd"

machine=${JTCFI_QEMU_MACHINE:-$(arch_field "$arch" machine)}
cpu=$(arch_field "$arch" cpu)
bios=$(arch_field "$arch" bios)
console=$(arch_field "$arch" console)
# -no-reboot: a panic (panic=-1) or a guest reboot ends QEMU at once.
args="console=$console panic=-1 $*"
qemu=("$qemu_bin" -M "$machine" -cpu "$cpu")
[ -n "$bios" ] && [ -f "/usr/share/qemu/$bios" ] && qemu+=(-bios "$bios")
# shellcheck disable=SC2206
# QEMU's own default when unset (-icount, the benchmarks', allows no other).
accel=tcg
case "${JTCFI_TCG_THREAD:-}" in
'') ;;
multi|single) accel=tcg,thread=$JTCFI_TCG_THREAD ;;
*) die "JTCFI_TCG_THREAD is multi or single, not '$JTCFI_TCG_THREAD'" ;;
esac
qemu+=(-accel "$accel" -smp "${JTCFI_SMP:-2}" -m "${JTCFI_MEM:-1G}" -nographic -no-reboot ${JTCFI_QEMU_EXTRA:-}
       -kernel "$kernel" -initrd "$initrd"
       -append "$args")

if [ "$log" = - ]; then
	note "booting $arch/$mode interactively; Ctrl-A X quits QEMU"
	note "$(shell_quote "${qemu[@]}")"
	exec "${qemu[@]}"
fi

mkdir -p "$(dirname "$log")"
# The command first, so that a console can be reproduced by hand.
echo "$JTCFI_LOG_HEADER$(shell_quote "${qemu[@]}")" > "$log"
status=0
# The serial console ends lines with CR LF; keep the log plain text.
timeout -k 10 "$timeout" "${qemu[@]}" < /dev/null 2>&1 | tr -d '\r' >> "$log" ||
	true
status=${PIPESTATUS[0]}
if [ $status = 124 ] || [ $status = 137 ]; then
	die "$arch/$mode guest did not finish within ${timeout}s (console: $log)"
fi
[ $status = 0 ] || die "QEMU failed with status $status for $arch/$mode (console: $log)"
[ -n "$(guest_start_line "$log")" ] ||
	die "$arch/$mode guest never reached init: $(python3 "$JTCFI_TOP/scripts/console.py" find no-init "$log" || echo 'no panic line either') (console: $log)"
