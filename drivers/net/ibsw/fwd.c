// SPDX-License-Identifier: GPL-2.0
/*
 * Address table and linear forwarding tables: build, publish, look up.
 *
 * Tables are built in process context by the control plane and replaced
 * whole under RCU; see fwd.h.
 */

#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "compat.h"
#include "fwd.h"

/* memcmp()'s order, in two word compares: looked up per packet, twice */
static inline int ibsw_addr_cmp(const struct in6_addr *a,
				const struct in6_addr *b)
{
	u64 x = get_unaligned_be64(&a->s6_addr[0]);
	u64 y = get_unaligned_be64(&b->s6_addr[0]);

	if (x == y) {
		x = get_unaligned_be64(&a->s6_addr[8]);
		y = get_unaligned_be64(&b->s6_addr[8]);
	}
	return x < y ? -1 : x > y;
}

static int ibsw_addr_sort_cmp(const void *a, const void *b)
{
	const struct ibsw_addr *x = a, *y = b;

	return ibsw_addr_cmp(&x->addr, &y->addr);
}

static bool ibsw_lid_unicast(unsigned int lid)
{
	return lid >= IBSW_LID_UNICAST_MIN && lid <= IBSW_LID_UNICAST_MAX;
}

/**
 * ibsw_addr_table_build() - build an address table
 * @addrs: the fabric's host addresses, in any order
 * @nr: number of @addrs; 0 builds an empty table
 *
 * Context: process context, may sleep.
 * Return: the new table, to publish with ibsw_addr_table_replace(), or
 * ERR_PTR(-EINVAL) if a LID is not unicast, ERR_PTR(-EEXIST) if an
 * address appears twice, ERR_PTR(-ENOMEM).
 */
struct ibsw_addr_table *ibsw_addr_table_build(const struct ibsw_addr *addrs,
					      unsigned int nr)
{
	struct ibsw_addr_table *table;
	unsigned int i;

	might_sleep();
	for (i = 0; i < nr; i++)
		if (!ibsw_lid_unicast(addrs[i].lid))
			return ERR_PTR(-EINVAL);

	table = kvmalloc(struct_size(table, entries, nr), GFP_KERNEL);
	if (!table)
		return ERR_PTR(-ENOMEM);
	table->nr = nr;
	if (nr)
		memcpy(table->entries, addrs, flex_array_size(table, entries, nr));
	sort(table->entries, nr, sizeof(table->entries[0]),
	     ibsw_addr_sort_cmp, NULL);

	for (i = 1; i < nr; i++) {
		if (!ibsw_addr_cmp(&table->entries[i - 1].addr,
				   &table->entries[i].addr)) {
			kvfree(table);
			return ERR_PTR(-EEXIST);
		}
	}
	return table;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_addr_table_build);

/**
 * ibsw_addr_lookup() - DLID of a destination address
 * @table: rcu_dereference() of the fabric's address table, may be NULL
 * @addr: destination address; IPv4 mapped into ::ffff:0:0/96
 *
 * Context: rcu_read_lock() (or the lock that publishes @table).
 * Return: the LID, or 0 if @addr is not in @table.
 */
u16 ibsw_addr_lookup(const struct ibsw_addr_table *table,
		     const struct in6_addr *addr)
{
	unsigned int lo = 0, hi;

	if (!table)
		return 0;
	hi = table->nr;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		const struct ibsw_addr *e = &table->entries[mid];
		int cmp = ibsw_addr_cmp(addr, &e->addr);

		if (!cmp)
			return e->lid;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_addr_lookup);

/**
 * ibsw_addr_of_lid() - an address that leads to a LID
 * @table: rcu_dereference() of the fabric's address table, may be NULL
 * @lid: the LID
 * @v4: an IPv4 address (v4-mapped) rather than an IPv6 one
 *
 * For the rare packet the fabric makes itself (a GMP to a host): a walk
 * of the table.
 *
 * Context: rcu_read_lock() (or the lock that publishes @table).
 * Return: the first such address in the table, or NULL.
 */
const struct in6_addr *ibsw_addr_of_lid(const struct ibsw_addr_table *table,
					u16 lid, bool v4)
{
	static const u8 v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	unsigned int i;

	for (i = 0; table && i < table->nr; i++) {
		const struct ibsw_addr *e = &table->entries[i];

		if (e->lid == lid &&
		    !memcmp(e->addr.s6_addr, v4mapped, sizeof(v4mapped)) == v4)
			return &e->addr;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_addr_of_lid);

/**
 * ibsw_addr_table_replace() - publish an address table
 * @slot: where the datapath finds it
 * @table: the new table, or NULL for none
 * @held: whether the caller holds the lock that serialises updates of
 *	@slot, for RCU lockdep: pass lockdep_is_held(&that_lock)
 *
 * The old table is freed after a grace period.
 *
 * Context: process context, under the lock that serialises updates.
 */
void ibsw_addr_table_replace(struct ibsw_addr_table __rcu **slot,
			     struct ibsw_addr_table *table, bool held)
{
	struct ibsw_addr_table *old = rcu_replace_pointer(*slot, table, held);

	if (old)
		kvfree_rcu(old, rcu);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_addr_table_replace);

/**
 * ibsw_addr_table_free() - free an address table at once
 * @table: a table never published, or one no reader can see any more;
 *	may be NULL
 *
 * Context: process context.
 */
void ibsw_addr_table_free(struct ibsw_addr_table *table)
{
	kvfree(table);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_addr_table_free);

/**
 * ibsw_lft_alloc() - allocate a linear forwarding table
 * @top: highest LID it will hold, at most %IBSW_LID_UNICAST_MAX
 * @from: table to copy the entries up to @top from, or NULL
 *
 * Entries not copied have no route. Copying from the published table,
 * changing some entries and replacing it is how single routes change.
 *
 * Context: process context, may sleep; with @from, under the lock that
 * publishes it.
 * Return: the table, or ERR_PTR(-EINVAL) if @top is too large,
 * ERR_PTR(-ENOMEM).
 */
struct ibsw_lft *ibsw_lft_alloc(unsigned int top, const struct ibsw_lft *from)
{
	unsigned int copied = 0;
	struct ibsw_lft *lft;

	might_sleep();
	if (top > IBSW_LID_UNICAST_MAX)
		return ERR_PTR(-EINVAL);
	/* At most 48 KiB: kvmalloc() falls back to vmalloc() when fragmented */
	lft = kvmalloc(struct_size(lft, port, top + 1), GFP_KERNEL);
	if (!lft)
		return ERR_PTR(-ENOMEM);
	lft->top = top;
	if (from) {
		copied = min(top, from->top) + 1;
		memcpy(lft->port, from->port, copied);
	}
	memset(lft->port + copied, IBSW_LFT_NO_ROUTE, top + 1 - copied);
	return lft;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_lft_alloc);

/**
 * ibsw_lft_set() - set the output port of a LID
 * @lft: a table not yet published
 * @lid: unicast LID, at most @lft->top
 * @port: output port 1 to 254, or %IBSW_LFT_NO_ROUTE (or 0) for none
 *
 * Context: any; the caller owns @lft.
 * Return: 0, or -EINVAL if @lid is 0 or above the top, or @port above 255.
 */
int ibsw_lft_set(struct ibsw_lft *lft, unsigned int lid, unsigned int port)
{
	if (!ibsw_lid_unicast(lid) || lid > lft->top ||
	    port > IBSW_LFT_NO_ROUTE)
		return -EINVAL;
	lft->port[lid] = port;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_lft_set);

/**
 * ibsw_lft_replace() - publish a linear forwarding table
 * @slot: where the switch's datapath finds it
 * @lft: the new table, or NULL for none
 * @held: as for ibsw_addr_table_replace()
 *
 * The old table is freed after a grace period.
 *
 * Context: process context, under the lock that serialises updates.
 */
void ibsw_lft_replace(struct ibsw_lft __rcu **slot, struct ibsw_lft *lft,
		      bool held)
{
	struct ibsw_lft *old = rcu_replace_pointer(*slot, lft, held);

	if (old)
		kvfree_rcu(old, rcu);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_lft_replace);

/**
 * ibsw_lft_free() - free a linear forwarding table at once
 * @lft: a table never published, or one no reader can see any more; may
 *	be NULL
 *
 * Context: process context.
 */
void ibsw_lft_free(struct ibsw_lft *lft)
{
	kvfree(lft);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_lft_free);
