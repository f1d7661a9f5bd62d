// SPDX-License-Identifier: GPL-2.0
/*
 * VL arbitration and SL-to-VL tables.
 *
 * The arbiter follows IBA vol 1, 7.6.9. Where the specification leaves
 * room, this is what it does:
 *
 * - A list is a weighted round-robin. The current entry keeps its turn
 *   while it has weight left and its VL is eligible (a packet queued and
 *   downstream credit for it). A packet costs its credits, its wire length
 *   in 64-byte units rounded up, and is always sent whole: it may start
 *   with 1 unit left, and the packet that uses up the weight ends the turn.
 *   The next turn of an entry starts from its full weight; no deficit or
 *   surplus is carried over.
 * - Entries with weight 0 are skipped, and so are entries for VL15 or a VL
 *   that is not eligible; an entry whose VL stops being eligible loses the
 *   rest of its turn.
 * - high_bytes counts the bytes of high-priority packets sent since the
 *   low-priority list last had a chance. The high list may start a packet
 *   while high_bytes is below LimitOfHighPriority x 4096, so the packet
 *   that crosses the limit is sent whole; limit 0 allows exactly one packet
 *   and 255 any number. Over the limit, the low list gets its chance: if it
 *   sends a packet, high_bytes is reset; if it has nothing eligible, the
 *   chance is passed, high_bytes is reset as well, and the high list goes
 *   on. The link never idles while some listed VL is eligible.
 * - Every low-priority packet resets high_bytes, also one sent because no
 *   high-priority VL was eligible.
 * - A VL in neither list is never served.
 *
 * Why no packet lengths are passed in: a turn's weight only decides
 * whether the entry may start another packet, whatever its size, and the
 * high-priority limit is checked before a packet just the same.
 */

#include <kunit/visibility.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "rate.h"
#include "vlarb.h"

enum {
	IBSW_VLARB_NONE,
	IBSW_VLARB_HIGH,
	IBSW_VLARB_LOW,
};

#define IBSW_DATA_VLS_MASK	GENMASK(IBSW_NR_DATA_VLS - 1, 0)

/**
 * ibsw_vlarb_table_check() - validate an arbitration table
 * @table: table from the control plane
 *
 * IBA lets a port either skip entries for VL15 or serve any VL for them;
 * ibsw skips them, but refuses them in configuration, where they can only
 * be a mistake.
 *
 * Context: any.
 * Return: 0, or -EINVAL if a list is too long or names a VL above 14.
 */
int ibsw_vlarb_table_check(const struct ibsw_vlarb_table *table)
{
	unsigned int i;

	if (table->nr_high > IBSW_VLARB_MAX_ENTRIES ||
	    table->nr_low > IBSW_VLARB_MAX_ENTRIES)
		return -EINVAL;
	for (i = 0; i < table->nr_high; i++)
		if (table->high[i].vl >= IBSW_NR_DATA_VLS)
			return -EINVAL;
	for (i = 0; i < table->nr_low; i++)
		if (table->low[i].vl >= IBSW_NR_DATA_VLS)
			return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_vlarb_table_check);

/**
 * ibsw_vlarb_table_served() - the VLs an arbitration table ever serves
 * @table: a checked table
 *
 * Context: any.
 * Return: bit v set if VL v has an entry of non-zero weight in either
 * list. A VL without one is never sent: its packets wait until their
 * head-of-queue lifetime ends.
 */
u16 ibsw_vlarb_table_served(const struct ibsw_vlarb_table *table)
{
	unsigned int i;
	u16 served = 0;

	for (i = 0; i < table->nr_high; i++)
		if (table->high[i].weight)
			served |= BIT(table->high[i].vl);
	for (i = 0; i < table->nr_low; i++)
		if (table->low[i].weight)
			served |= BIT(table->low[i].vl);
	return served;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_vlarb_table_served);

/**
 * ibsw_vlarb_table_default() - arbitration table of a new port
 * @table: filled in
 * @nr_vls: data VLs the port operates, clamped to 1..15
 *
 * Every data VL once in the low-priority list, in VL order, with weight
 * %IBSW_VLARB_DEFAULT_WEIGHT; an empty high-priority list and limit 0.
 * The VLs share the link equally in bytes.
 *
 * Context: any.
 */
void ibsw_vlarb_table_default(struct ibsw_vlarb_table *table,
			      unsigned int nr_vls)
{
	unsigned int i;

	nr_vls = clamp(nr_vls, 1U, IBSW_NR_DATA_VLS);
	memset(table, 0, sizeof(*table));
	for (i = 0; i < nr_vls; i++) {
		table->low[i].vl = i;
		table->low[i].weight = IBSW_VLARB_DEFAULT_WEIGHT;
	}
	table->nr_low = nr_vls;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_vlarb_table_default);

static void ibsw_vlarb_cursor_init(struct ibsw_vlarb_cursor *cur,
				   unsigned int nr)
{
	/* On the last entry with nothing left: the first turn is entry 0's */
	cur->entry = nr ? nr - 1 : 0;
	cur->left = 0;
}

/**
 * ibsw_vlarb_init() - (re)start an arbiter with a table
 * @arb: the arbiter
 * @table: configuration, checked with ibsw_vlarb_table_check(); copied
 *
 * Context: the output port lock, or @arb not yet in use.
 */
void ibsw_vlarb_init(struct ibsw_vlarb *arb,
		     const struct ibsw_vlarb_table *table)
{
	arb->table = *table;
	ibsw_vlarb_cursor_init(&arb->high, table->nr_high);
	ibsw_vlarb_cursor_init(&arb->low, table->nr_low);
	arb->high_bytes = 0;
	arb->chosen = IBSW_VLARB_NONE;
	arb->chosen_vl = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_vlarb_init);

static bool ibsw_vlarb_entry_ok(const struct ibsw_vlarb_entry *e,
				u16 eligible)
{
	return e->weight && e->vl < IBSW_NR_DATA_VLS && (eligible & BIT(e->vl));
}

/* One list's weighted round-robin: the VL whose turn it is, or -ENOENT */
static int ibsw_vlarb_pick(const struct ibsw_vlarb_entry *list,
			   unsigned int nr, struct ibsw_vlarb_cursor *cur,
			   u16 eligible)
{
	unsigned int idx = cur->entry;
	unsigned int i;

	if (!nr)
		return -ENOENT;
	if (cur->left && ibsw_vlarb_entry_ok(&list[idx], eligible))
		return list[idx].vl;

	/* The last candidate is the current entry itself, for a new turn */
	for (i = 0; i < nr; i++) {
		idx = idx + 1 < nr ? idx + 1 : 0;
		if (ibsw_vlarb_entry_ok(&list[idx], eligible)) {
			cur->entry = idx;
			cur->left = list[idx].weight;
			return list[idx].vl;
		}
	}
	return -ENOENT;
}

static bool ibsw_vlarb_high_allowed(const struct ibsw_vlarb *arb)
{
	unsigned int limit = arb->table.high_limit;

	if (limit == IBSW_VLARB_LIMIT_UNBOUNDED)
		return true;
	/* Limit 0: one packet, as if the limit were 1 byte */
	return arb->high_bytes < max(limit * IBSW_VLARB_LIMIT_UNIT, 1U);
}

/**
 * ibsw_vlarb_next() - VL of the next packet to send
 * @arb: the output port's arbiter
 * @eligible: bitmap of the data VLs that have a packet queued for the port
 *	and downstream credit for it; bit 15 (VL15) is ignored
 *
 * Send one packet of the VL returned, then call ibsw_vlarb_account(). The
 * answer holds until then, or until the next call, which re-arbitrates.
 *
 * Context: the output port lock.
 * Return: the VL, or -ENOENT if no listed VL is eligible.
 */
int ibsw_vlarb_next(struct ibsw_vlarb *arb, u16 eligible)
{
	const struct ibsw_vlarb_table *t = &arb->table;
	bool high_allowed;
	int vl;

	arb->chosen = IBSW_VLARB_NONE;
	eligible &= IBSW_DATA_VLS_MASK;
	if (!eligible)
		return -ENOENT;

	high_allowed = ibsw_vlarb_high_allowed(arb);
	if (high_allowed) {
		vl = ibsw_vlarb_pick(t->high, t->nr_high, &arb->high, eligible);
		if (vl >= 0)
			goto high;
	}

	vl = ibsw_vlarb_pick(t->low, t->nr_low, &arb->low, eligible);
	if (vl >= 0) {
		arb->chosen = IBSW_VLARB_LOW;
		arb->chosen_vl = vl;
		return vl;
	}
	if (high_allowed)
		return -ENOENT;

	/* The low-priority list had its chance and nothing to send */
	arb->high_bytes = 0;
	vl = ibsw_vlarb_pick(t->high, t->nr_high, &arb->high, eligible);
	if (vl < 0)
		return -ENOENT;
high:
	arb->chosen = IBSW_VLARB_HIGH;
	arb->chosen_vl = vl;
	return vl;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_vlarb_next);

/**
 * ibsw_vlarb_account() - charge a sent packet to the arbiter
 * @arb: the output port's arbiter
 * @vl: VL of the packet
 * @len: its wire length
 *
 * Charges the entry that ibsw_vlarb_next() chose. A packet it did not
 * choose (another VL, or a second packet without a new ibsw_vlarb_next())
 * is not charged: VL15 would bypass arbitration this way.
 *
 * Context: the output port lock.
 */
void ibsw_vlarb_account(struct ibsw_vlarb *arb, unsigned int vl,
			unsigned int len)
{
	unsigned int units = ibsw_wire_credits(len);
	struct ibsw_vlarb_cursor *cur;

	if (arb->chosen == IBSW_VLARB_NONE || vl != arb->chosen_vl)
		return;
	if (arb->chosen == IBSW_VLARB_HIGH) {
		cur = &arb->high;
		/* Saturates; counts only up to the limit that matters anyway */
		arb->high_bytes = len < U32_MAX - arb->high_bytes ?
				  arb->high_bytes + len : U32_MAX;
	} else {
		cur = &arb->low;
		arb->high_bytes = 0;
	}
	cur->left = units < cur->left ? cur->left - units : 0;
	arb->chosen = IBSW_VLARB_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_vlarb_account);

/**
 * ibsw_sl2vl_default() - SL-to-VL table of a new port
 * @map: filled in
 * @nr_vls: data VLs the port operates, clamped to 1..15
 *
 * SL s goes to VL s modulo @nr_vls: SLs spread over the port's VLs.
 *
 * Context: any.
 */
void ibsw_sl2vl_default(struct ibsw_sl2vl *map, unsigned int nr_vls)
{
	unsigned int sl;

	nr_vls = clamp(nr_vls, 1U, IBSW_NR_DATA_VLS);
	for (sl = 0; sl < IBSW_NR_SLS; sl++)
		map->vl[sl] = sl % nr_vls;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_sl2vl_default);

/**
 * ibsw_sl2vl_set() - map an SL to a VL
 * @map: SL-to-VL table, not yet published to the datapath
 * @sl: service level, 0 to 15
 * @vl: VL, 0 to 14, or %IBSW_VL15 to drop the SL's packets
 *
 * Context: control plane.
 * Return: 0, or -EINVAL if @sl or @vl is out of range.
 */
int ibsw_sl2vl_set(struct ibsw_sl2vl *map, unsigned int sl, unsigned int vl)
{
	if (sl >= IBSW_NR_SLS || vl > IBSW_VL15)
		return -EINVAL;
	map->vl[sl] = vl;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_sl2vl_set);
