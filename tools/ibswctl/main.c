// SPDX-License-Identifier: GPL-2.0
/* ibswctl: the program; everything else is in the library the tests link. */
#include "ibswctl.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	struct ctl ctl;
	int ret;

	ctl_init(&ctl, &ctl_sys_ops, stdout, stderr);
	ret = ctl_main(&ctl, argc, argv);
	ctl_fini(&ctl);
	if (fflush(stdout) && !ret)
		ret = CTL_FAIL;
	return ret;
}
