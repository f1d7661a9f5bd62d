// SPDX-License-Identifier: GPL-2.0
/*
 * ibsw: an emulated InfiniBand fabric. Software switches whose ports are
 * netdevs forward RoCEv2 frames as IB packets between soft-RoCE (rxe)
 * hosts in network namespaces.
 *
 * This file is only the module init/exit ladder.
 */

#include <linux/init.h>
#include <linux/module.h>

#define IBSW_VERSION	"0.1.0"

static int __init ibsw_init(void)
{
	return 0;
}

static void __exit ibsw_exit(void)
{
}

module_init(ibsw_init);
module_exit(ibsw_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Emulated InfiniBand switch fabric over RoCEv2");
MODULE_VERSION(IBSW_VERSION);
