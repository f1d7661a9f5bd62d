// SPDX-License-Identifier: GPL-2.0
/*
 * The rdma subsystem's network namespace mode ("rdma system show").
 *
 * ib_core has one mode for the whole system. In the shared mode (its
 * default) every rdma device is seen in every network namespace, and the
 * initial namespace's sysfs shows every host's rxe device. In the
 * exclusive mode a device is seen only in its own namespace (the patched
 * rxe binds a device to its netdev's), so a host's device is in the sysfs
 * of the host's namespace only.
 */
#include "ibswctl.h"

const char *ctl_rdma_netns_name(int mode)
{
	return mode == CTL_RDMA_SHARED ? "shared" : "exclusive";
}

int ctl_rdma_netns_mode(struct ctl *ctl)
{
	int mode = ctl->ops->rdma_netns(ctl, -1);

	return mode < 0 ? CTL_RDMA_SHARED : mode;
}
