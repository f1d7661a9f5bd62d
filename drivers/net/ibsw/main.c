// SPDX-License-Identifier: GPL-2.0
/*
 * ibsw: an emulated InfiniBand fabric. Software switches whose ports are
 * netdevs forward RoCEv2 frames as IB packets between soft-RoCE (rxe)
 * hosts in network namespaces.
 *
 * This file is only the module init/exit ladder: the objects first, the
 * netlink family, the way in for userspace, last; and the reverse on exit,
 * so no request can arrive while the objects are being torn down.
 */

#include <linux/init.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "ctl.h"

#define IBSW_VERSION	"0.2.0"

static int __init ibsw_init(void)
{
	int err;

	err = ibsw_core_init();
	if (err)
		return err;
	err = ibsw_nl_init();
	if (err)
		goto err_core;
	return 0;

err_core:
	ibsw_core_exit();
	return err;
}

static void __exit ibsw_exit(void)
{
	ibsw_nl_exit();
	ibsw_core_exit();
}

module_init(ibsw_init);
module_exit(ibsw_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Emulated InfiniBand switch fabric over RoCEv2");
MODULE_VERSION(IBSW_VERSION);
MODULE_ALIAS_GENL_FAMILY(IBSW_FAMILY_NAME);
