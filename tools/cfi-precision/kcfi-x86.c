// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-precision, the check sequences of kCFI on x86-64 (kcfi.c counts
 * the targets).
 */
#include <string.h>

#include "precision.h"

/*
 * x86_64: movl $-hash, %r10d; addl disp8(%reg), %r10d; je/jne.  The add is
 * 44 03 5x or 45 03 5x (REX.R for r10, REX.B for r8-r15 bases).
 */
void scan_kcfi_x86(const struct section *sec, struct site **sites,
		   size_t *n, size_t *cap)
{
	const unsigned char *p = sec->data;
	size_t k, len = sec->size;

	for (k = 0; k + 12 <= len; k++) {
		struct site s;
		u32 imm;

		if (p[k] != 0x41 || p[k + 1] != 0xba ||
		    (p[k + 6] != 0x44 && p[k + 6] != 0x45) || p[k + 7] != 0x03 ||
		    (p[k + 8] & 0xf8) != 0x50 || (p[k + 8] & 7) == 4 ||
		    (p[k + 10] != 0x74 && p[k + 10] != 0x75))
			continue;
		memcpy(&imm, p + k + 2, 4);
		s.addr = sec->addr + k;
		s.type = (u32)-imm;
		s.off = (signed char)p[k + 9];
		s.resolved = true;
		PUSH(*sites, *n, *cap, s);
		k += 11;
	}
}
