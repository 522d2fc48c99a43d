// SPDX-License-Identifier: GPL-2.0
/*
 * The control of tests/jt-code-pointers.sh: an object whose data holds
 * the code of a function, as a module's would if LTO left a pointer
 * without its jump-table entry.  Compiled without LTO, it has no jump
 * table; jt-code-pointers.py --module must find planted_pointer, or it
 * could not find a real one either.
 */
void planted_target(void)
{
}

void (*planted_pointer)(void) = planted_target;
