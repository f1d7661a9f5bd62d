/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forwarding: the fabric's address table (destination address -> DLID)
 * and each switch's linear forwarding table (DLID -> output port).
 *
 * Both are read-mostly and replaced whole: the control plane builds a new
 * table (GFP_KERNEL, may sleep, outside RCU read sections), publishes it
 * with ibsw_*_replace() under its own lock, and the old one is freed after
 * a grace period. The datapath looks up under rcu_read_lock(), on the
 * pointer it got from rcu_dereference(), without locks or allocation.
 */
#ifndef _IBSW_FWD_H
#define _IBSW_FWD_H

#include <linux/in6.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include <uapi/linux/ibsw.h>

/* Unicast LIDs; 0 is reserved, 0xc000 to 0xfffe multicast, 0xffff permissive */
#define IBSW_LID_UNICAST_MIN	0x0001
/* IBSW_LID_UNICAST_MAX (0xbfff): uapi */

/*
 * LFT entries without a route hold 255, as OpenSM writes them (OSM_NO_PATH):
 * no switch has that port. Port 0 is the switch's own management port,
 * which ibsw does not emulate: no route either.
 */
#define IBSW_LFT_NO_ROUTE	255
#define IBSW_PORT_NONE		0

/**
 * struct ibsw_addr - one address of a host
 * @addr: IPv6 address, or IPv4 mapped into ::ffff:0:0/96 as RoCEv2 GIDs
 *	and ibsw_pkt_parse() have them
 * @lid: LID of the host's port, unicast
 */
struct ibsw_addr {
	struct in6_addr	addr;
	u16		lid;
};

/**
 * struct ibsw_addr_table - the fabric's address table
 * @rcu: frees it after a grace period
 * @nr: number of entries
 * @entries: sorted by address, no duplicates
 *
 * A sorted array searched by bisection: a few thousand hosts take a dozen
 * comparisons, the table is one allocation, and the fabric builder, which
 * sets all addresses at once, replaces it whole. A hash table would only
 * pay off for frequent single-address updates, which never happen.
 */
struct ibsw_addr_table {
	struct rcu_head		rcu;
	unsigned int		nr;
	struct ibsw_addr	entries[] __counted_by(nr);
};

/**
 * struct ibsw_lft - linear forwarding table of a switch
 * @rcu: frees it after a grace period
 * @top: highest LID it holds an entry for (LinearFDBTop)
 * @port: output port of each LID 0..@top; %IBSW_LFT_NO_ROUTE or
 *	%IBSW_PORT_NONE for none
 */
struct ibsw_lft {
	struct rcu_head		rcu;
	u16			top;
	u8			port[];
};

struct ibsw_addr_table *ibsw_addr_table_build(const struct ibsw_addr *addrs,
					      unsigned int nr);
u16 ibsw_addr_lookup(const struct ibsw_addr_table *table,
		     const struct in6_addr *addr);
const struct in6_addr *ibsw_addr_of_lid(const struct ibsw_addr_table *table,
					u16 lid, bool v4);
void ibsw_addr_table_replace(struct ibsw_addr_table __rcu **slot,
			     struct ibsw_addr_table *table, bool held);
void ibsw_addr_table_free(struct ibsw_addr_table *table);

struct ibsw_lft *ibsw_lft_alloc(unsigned int top, const struct ibsw_lft *from);
int ibsw_lft_set(struct ibsw_lft *lft, unsigned int lid, unsigned int port);
void ibsw_lft_replace(struct ibsw_lft __rcu **slot, struct ibsw_lft *lft,
		      bool held);
void ibsw_lft_free(struct ibsw_lft *lft);

/**
 * ibsw_lft_lookup() - output port of a DLID
 * @lft: rcu_dereference() of the switch's LFT, may be NULL
 * @dlid: destination LID
 *
 * Context: rcu_read_lock() (or the lock that publishes @lft).
 * Return: the port, 1 to 254; %IBSW_PORT_NONE if there is no table, @dlid
 * is 0, above the table's top (multicast and the permissive LID always
 * are) or its entry is 0 or %IBSW_LFT_NO_ROUTE.
 */
static inline unsigned int ibsw_lft_lookup(const struct ibsw_lft *lft,
					   u16 dlid)
{
	unsigned int port;

	if (!lft || !dlid || dlid > lft->top)
		return IBSW_PORT_NONE;
	port = lft->port[dlid];
	return port == IBSW_LFT_NO_ROUTE ? IBSW_PORT_NONE : port;
}

#endif /* _IBSW_FWD_H */
