/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VL arbitration (IBA vol 1, 7.6.9; VLArbitrationTable, 14.2.5.9),
 * SL-to-VL tables (the SLtoVLMappingTable attribute) and the round-robin
 * over the input ports of one VL (design §4.4).
 *
 * Each output port owns a struct ibsw_vlarb: its arbitration table and the
 * arbiter state, both protected by the port lock, which the callers hold.
 * Nothing here sleeps or allocates.
 */
#ifndef _IBSW_VLARB_H
#define _IBSW_VLARB_H

#include <linux/bitmap.h>
#include <linux/types.h>

#include <uapi/linux/ibsw.h>

/*
 * Data VLs are 0..IBSW_NR_DATA_VLS - 1 (uapi: 15); VL15 carries only subnet
 * management. IBSW_NR_SLS and IBSW_VLARB_MAX_ENTRIES are the uapi's too.
 */
#define IBSW_VL15			15
#define IBSW_VLARB_LIMIT_UNIT		4096
#define IBSW_VLARB_LIMIT_UNBOUNDED	255

/*
 * Default weight, in 64-byte units: 4 KiB, about one packet of the largest
 * MTU per turn, so the default VLs share a link in bytes, not in packets.
 */
#define IBSW_VLARB_DEFAULT_WEIGHT	64

/**
 * struct ibsw_vlarb_entry - one VL/Weight pair of an arbitration list
 * @vl: data VL, 0 to 14
 * @weight: 64-byte units the VL may send per turn; 0 skips the entry
 */
struct ibsw_vlarb_entry {
	u8	vl;
	u8	weight;
};

/**
 * struct ibsw_vlarb_table - VL arbitration configuration of an output port
 * @high: high-priority list
 * @low: low-priority list
 * @nr_high: entries in @high, 0 to %IBSW_VLARB_MAX_ENTRIES
 * @nr_low: entries in @low, likewise
 * @high_limit: LimitOfHighPriority: how many 4 KiB of high-priority data
 *	may be sent before a low-priority packet gets a chance; 0 allows one
 *	packet, %IBSW_VLARB_LIMIT_UNBOUNDED any amount
 */
struct ibsw_vlarb_table {
	struct ibsw_vlarb_entry	high[IBSW_VLARB_MAX_ENTRIES];
	struct ibsw_vlarb_entry	low[IBSW_VLARB_MAX_ENTRIES];
	u8			nr_high;
	u8			nr_low;
	u8			high_limit;
};

/**
 * struct ibsw_vlarb_cursor - where one list's weighted round-robin stands
 * @entry: the current entry
 * @left: 64-byte units its VL may still send in this turn; a packet is
 *	always sent whole, and the one that uses up @left ends the turn
 */
struct ibsw_vlarb_cursor {
	u8	entry;
	u8	left;
};

/**
 * struct ibsw_vlarb - VL arbiter of an output port
 * @table: configuration, a copy owned by the arbiter
 * @high: state of the high-priority list
 * @low: state of the low-priority list
 * @high_bytes: high-priority bytes sent since the low-priority list last
 *	had a chance
 * @chosen: list of the last ibsw_vlarb_next() answer: 0 none, 1 high, 2 low
 * @chosen_vl: VL of that answer
 */
struct ibsw_vlarb {
	struct ibsw_vlarb_table		table;
	struct ibsw_vlarb_cursor	high;
	struct ibsw_vlarb_cursor	low;
	u32				high_bytes;
	u8				chosen;
	u8				chosen_vl;
};

/**
 * struct ibsw_sl2vl - SL-to-VL mapping table
 * @vl: VL of each SL; %IBSW_VL15 means the packet is dropped
 */
struct ibsw_sl2vl {
	u8	vl[IBSW_NR_SLS];
};

int ibsw_vlarb_table_check(const struct ibsw_vlarb_table *table);
u16 ibsw_vlarb_table_served(const struct ibsw_vlarb_table *table);
void ibsw_vlarb_table_default(struct ibsw_vlarb_table *table,
			      unsigned int nr_vls);
void ibsw_vlarb_init(struct ibsw_vlarb *arb,
		     const struct ibsw_vlarb_table *table);
int ibsw_vlarb_next(struct ibsw_vlarb *arb, u16 eligible);
void ibsw_vlarb_account(struct ibsw_vlarb *arb, unsigned int vl,
			unsigned int len);

void ibsw_sl2vl_default(struct ibsw_sl2vl *map, unsigned int nr_vls);
int ibsw_sl2vl_set(struct ibsw_sl2vl *map, unsigned int sl, unsigned int vl);

/**
 * ibsw_sl2vl_get() - VL of an SL
 * @map: SL-to-VL table
 * @sl: service level; only its low 4 bits count
 *
 * Context: any; @map is read-only for the datapath (RCU or the port lock).
 * Return: the VL, 0 to 15. Check it with ibsw_vl_drop().
 */
static inline unsigned int ibsw_sl2vl_get(const struct ibsw_sl2vl *map,
					  unsigned int sl)
{
	return map->vl[sl % IBSW_NR_SLS];
}

/**
 * ibsw_vl_drop() - must a packet mapped to this VL be dropped?
 * @vl: result of ibsw_sl2vl_get()
 * @nr_vls: data VLs the output port operates (OperVLs), 1 to 15
 *
 * An SL mapped to VL15 drops the data packets of that SL (IBA vol 1, 7.6),
 * and so does a VL the port does not operate.
 *
 * Return: true if the packet must be dropped.
 */
static inline bool ibsw_vl_drop(unsigned int vl, unsigned int nr_vls)
{
	return vl >= nr_vls || vl >= IBSW_NR_DATA_VLS;
}

/**
 * ibsw_dscp_to_sl() - service level of a RoCEv2 packet
 * @dscp: DSCP of its IP header, 0 to 63
 *
 * Return: @dscp >> 2 (design §3): DSCP 0..63 to SL 0..15.
 */
static inline unsigned int ibsw_dscp_to_sl(unsigned int dscp)
{
	return (dscp >> 2) % IBSW_NR_SLS;
}

/**
 * ibsw_vlarb_rr_next() - next input port to serve within a VL
 * @busy: bitmap of the input ports with a packet queued for this output
 *	port and VL
 * @nr_ports: bits in @busy
 * @last: the input port served last; at or beyond @nr_ports to start
 *	from port 0
 *
 * One packet per input port per turn, in port order after @last, wrapping
 * around; @last itself comes last.
 *
 * Context: the caller owns @busy (the output port lock).
 * Return: the input port, or @nr_ports if @busy is empty.
 */
static inline unsigned int ibsw_vlarb_rr_next(const unsigned long *busy,
					      unsigned int nr_ports,
					      unsigned int last)
{
	unsigned int start = last + 1;

	if (last >= nr_ports || start >= nr_ports)
		start = 0;
	/* Most switches' ports fit in a word: no call, per packet */
	if (nr_ports <= BITS_PER_LONG) {
		unsigned long w = busy[0] & BITMAP_LAST_WORD_MASK(nr_ports);
		unsigned long from = w & (~0UL << start);

		if (from)
			return __ffs(from);
		return w ? __ffs(w) : nr_ports;
	}
	return find_next_bit_wrap(busy, nr_ports, start);
}

/**
 * ibsw_vlarb_rr_none() - no input port has a packet for a VL
 * @busy: as ibsw_vlarb_rr_next()'s
 * @nr_ports: bits in @busy
 *
 * Context: the caller owns @busy.
 * Return: true if @busy is empty.
 */
static inline bool ibsw_vlarb_rr_none(const unsigned long *busy,
				      unsigned int nr_ports)
{
	if (nr_ports <= BITS_PER_LONG)
		return !(busy[0] & BITMAP_LAST_WORD_MASK(nr_ports));
	return bitmap_empty(busy, nr_ports);
}

#endif /* _IBSW_VLARB_H */
