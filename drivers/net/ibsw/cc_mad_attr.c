// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding and decoding of the switch Congestion Control attributes
 * (cc_mad_attr.h).
 *
 * Layouts as byte offsets into the attribute and masks within a byte, in
 * the order of each attribute's table (IBA vol 1, annex A10; the offsets
 * are those of infiniband-diags' libibmad and OpenSM's ib_types.h, which
 * agree for every switch attribute). The structs of ctl.h and cc.h keep
 * their meaning; where a wire field has no ibsw counterpart, the comment
 * at its put says what is sent.
 */

#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "cc_mad_attr.h"
#include "compat.h"

/* ---- Header and CC_Key checks ---- */

/* Attributes a switch answers, and whether they take a Set */
static bool ibsw_cc_attr_known(u16 attr, bool *settable)
{
	switch (attr) {
	case IBSW_CC_ATTR_CLASS_PORT_INFO:
	case IBSW_CC_ATTR_CONG_INFO:
	case IBSW_CC_ATTR_LOG:
	case IBSW_CC_ATTR_TIMESTAMP:
		*settable = false;
		return true;
	case IBSW_CC_ATTR_KEY_INFO:
	case IBSW_CC_ATTR_SW_SETTING:
	case IBSW_CC_ATTR_SW_PORT_SETTING:
		*settable = true;
		return true;
	}
	return false;
}

/**
 * ibsw_cc_check() - may the switch's CC agent answer this request?
 * @hdr: the MAD's header
 * @nr_ports: the switch's ports, 1 to @nr_ports
 *
 * In this order:
 *
 * - ibsw_gmp_check() for class CongestionControl, version 2: no reply to
 *   responses and notices, %IB_MGMT_MAD_STATUS_BAD_VERSION (a class
 *   version other than 2: as qib, which OpenSM then stops configuring),
 *   %IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD;
 * - an attribute a switch does not have (Notice, CACongestionSetting,
 *   CongestionControlTable: ibsw's port 0 is a base port 0, without CC;
 *   anything unknown), or a Set of a read-only one (ClassPortInfo,
 *   CongestionInfo, CongestionLog, TimeStamp):
 *   %IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
 * - an AttributeModifier other than 0, or for SwitchPortCongestionSetting
 *   a block past the switch's last port (block b holds ports 32 b to
 *   32 b + 31): %IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
 * - else 0: go on to ibsw_cc_key_check().
 *
 * Context: any.
 * Return: the MAD status to answer with, 0 to go on, or
 * %IBSW_MAD_NO_REPLY.
 */
int ibsw_cc_check(const struct ib_mad_hdr *hdr, unsigned int nr_ports)
{
	u16 attr = be16_to_cpu(hdr->attr_id);
	u32 mod = be32_to_cpu(hdr->attr_mod);
	bool settable;
	int status;

	status = ibsw_gmp_check(hdr, IB_MGMT_CLASS_CONG_MGMT,
				IBSW_CC_CLASS_VERSION);
	if (status)
		return status;
	if (!ibsw_cc_attr_known(attr, &settable) ||
	    (hdr->method == IB_MGMT_METHOD_SET && !settable))
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	if (attr == IBSW_CC_ATTR_SW_PORT_SETTING ?
	    mod > nr_ports / IBSW_CC_SW_PORT_BLOCK : mod)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_check);

/**
 * ibsw_cc_key_check() - the CC_Key check of a request
 * @k: the switch's CongestionKeyInfo; its lease and violations change
 * @mad: a request ibsw_cc_check() passed
 * @now: the time, in the clock of @k->lease_end (ns)
 *
 * The rules of the rxe series (Documentation/hca-cc-mads.md), modelled on
 * M_Key's, as annex A10's own text is not at hand:
 *
 * - a lease that has run out first clears CC_KeyProtectBit (the key
 *   stays), so a manager that lost the key can read it again;
 * - with CC_Key 0, or the right key in the MAD (bytes 24-31), the request
 *   passes, and the lease timer stops;
 * - a Get passes without the key while CC_KeyProtectBit is clear;
 * - anything else fails: CC_KeyViolations counts it (saturating at
 *   65535), and with the protect bit set and a non-zero
 *   CC_KeyLeasePeriod, the lease timer starts unless it runs already.
 *
 * Context: any; the caller serializes the checks of one switch.
 * Return: true if the request passes; false: answer with
 * %IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE and change nothing else (the
 * IBA would discard it and send a trap; like rxe, ibsw answers it).
 */
bool ibsw_cc_key_check(struct ibsw_cc_key *k, const struct ib_mad *mad,
		       u64 now)
{
	u64 key = get_unaligned_be64((const u8 *)mad + IBSW_CC_MAD_KEY_OFFSET);

	if (k->lease_end && now >= k->lease_end) {
		k->protect = false;
		k->lease_end = 0;
	}
	if (!k->key || key == k->key) {
		k->lease_end = 0;
		return true;
	}
	if (mad->mad_hdr.method == IB_MGMT_METHOD_GET && !k->protect)
		return true;

	if (k->violations < U16_MAX)
		k->violations++;
	if (k->protect && k->lease_period && !k->lease_end)
		k->lease_end = now + (u64)k->lease_period * NSEC_PER_SEC;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_key_check);

/* ---- ClassPortInfo (0x0001), CongestionInfo (0x0011) ---- */

/**
 * ibsw_cc_cpi_put() - encode the CC agent's ClassPortInfo
 * @data: the attribute area (192 bytes at MAD byte 64)
 *
 * ClassVersion 2, the version the agent takes (qib answers 1 there, which
 * no tool reads); CapabilityMask 0: no traps, and bit 8 (EnhancedPort0
 * CC) clear, ibsw's port 0 being a base port 0; CapabilityMask2 0;
 * RespTimeValue %IBSW_MAD_RESP_TIME_VALUE.
 *
 * Context: any.
 */
void ibsw_cc_cpi_put(u8 data[IBSW_CC_DATA_SIZE])
{
	ibsw_mad_cpi_put(data, IBSW_CC_CLASS_VERSION, 0, 0,
			 IBSW_MAD_RESP_TIME_VALUE);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_cpi_put);

enum {
	CI_INFO			= 0,	/* 16 bits */
	CI_CONTROL_TABLE_CAP	= 2,	/* 3 reserved */
};

/**
 * ibsw_cc_info_put() - encode a switch's CongestionInfo
 * @data: the attribute area
 * @info: CongestionInfo flags (struct ibsw_cc_info's @info; ibsw sets
 *	none, not %IBSW_CC_INFO_CREDIT_STARVATION)
 *
 * ControlTableCap 0: a switch has no CongestionControlTable.
 *
 * Context: any.
 */
void ibsw_cc_info_put(u8 data[IBSW_CC_DATA_SIZE], u16 info)
{
	memset(data, 0, IBSW_CC_DATA_SIZE);
	put_unaligned_be16(info, data + CI_INFO);
	data[CI_CONTROL_TABLE_CAP] = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_info_put);

/* ---- CongestionKeyInfo (0x0012) ---- */

enum {
	KI_KEY		= 0,
	KI_PROTECT	= 8,	/* bit 7; the rest and byte 9 reserved */
	KI_LEASE	= 10,
	KI_VIOLATIONS	= 12,	/* 14-15 reserved */
};

#define KI_PROTECT_BIT	BIT(7)

/**
 * ibsw_cc_key_info_put() - encode CongestionKeyInfo
 * @data: the attribute area
 * @k: the switch's key state (the lease timer is not on the wire)
 *
 * Context: any.
 */
void ibsw_cc_key_info_put(u8 data[IBSW_CC_DATA_SIZE],
			  const struct ibsw_cc_key *k)
{
	memset(data, 0, IBSW_CC_DATA_SIZE);
	put_unaligned_be64(k->key, data + KI_KEY);
	data[KI_PROTECT] = FIELD_PREP(KI_PROTECT_BIT, k->protect);
	put_unaligned_be16(k->lease_period, data + KI_LEASE);
	put_unaligned_be16(k->violations, data + KI_VIOLATIONS);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_key_info_put);

/**
 * ibsw_cc_key_info_set() - apply a Set of CongestionKeyInfo
 * @k: the switch's key state
 * @data: the attribute area of the Set (which passed the key check)
 *
 * Writes CC_Key, CC_KeyProtectBit and CC_KeyLeasePeriod and stops the
 * lease timer. A CC_KeyViolations of 0 clears the counter; any other
 * value leaves it alone (ibccconfig's reading of the IBA).
 *
 * Context: any.
 */
void ibsw_cc_key_info_set(struct ibsw_cc_key *k,
			  const u8 data[IBSW_CC_DATA_SIZE])
{
	k->key = get_unaligned_be64(data + KI_KEY);
	k->protect = FIELD_GET(KI_PROTECT_BIT, data[KI_PROTECT]);
	k->lease_period = get_unaligned_be16(data + KI_LEASE);
	if (!get_unaligned_be16(data + KI_VIOLATIONS))
		k->violations = 0;
	k->lease_end = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_key_info_set);

/* ---- CongestionLog (0x0013), switch ---- */

/* From MAD byte 32 */
enum {
	LOG_TYPE		= 0,
	LOG_FLAGS		= 1,
	LOG_EVENTS_COUNTER	= 2,
	LOG_CURRENT_TIMESTAMP	= 4,
	LOG_PORT_MAP		= 8,	/* 32 bytes */
	LOG_EVENT		= 40,	/* 15 events of 12 bytes, to 220 */
	LOG_EVENT_LEN		= 12,
};

/* In an event */
enum {
	EV_SLID		= 0,
	EV_DLID		= 2,
	EV_SL		= 4,	/* bits 7..4; the rest of 4-7 reserved */
	EV_TIMESTAMP	= 8,
};

#define EV_SL_BITS	GENMASK(7, 4)

static_assert(LOG_EVENT + IBSW_CC_LOG_SW_EVENTS * LOG_EVENT_LEN <=
	      IBSW_CC_LOG_SIZE);

/**
 * ibsw_cc_log_put() - encode a switch's CongestionLog
 * @log: the log area, MAD bytes 32-255
 * @hdr: the counter, time stamp and port map
 * @ev: marking events, oldest first, as ibsw_engine_cc_log_read() and
 *	ibsw_cc_recent_add() give them
 * @nr: entries of @ev; past %IBSW_CC_LOG_SW_EVENTS, only the most recent
 *	(last) ones fit
 *
 * LogType 1 (switch); CongestionFlags 0 (its meaning is not settled in
 * the sources we have); LogEventsCounter saturates at 65535. Each event
 * is SLID, DLID, SL and Timestamp; the port and VL that marked, ibsw's
 * additions, are not on the wire. Unused event slots are 0.
 *
 * Context: any.
 */
void ibsw_cc_log_put(u8 log[IBSW_CC_LOG_SIZE],
		     const struct ibsw_cc_log_hdr *hdr,
		     const struct ibsw_cc_event *ev, unsigned int nr)
{
	unsigned int i;

	memset(log, 0, IBSW_CC_LOG_SIZE);
	log[LOG_TYPE] = IBSW_CC_LOG_TYPE_SWITCH;
	log[LOG_FLAGS] = 0;
	put_unaligned_be16(min_t(u32, hdr->events_counter, U16_MAX),
			   log + LOG_EVENTS_COUNTER);
	put_unaligned_be32(hdr->current_timestamp,
			   log + LOG_CURRENT_TIMESTAMP);
	memcpy(log + LOG_PORT_MAP, hdr->port_map, IBSW_CC_MASK_LEN);
	if (nr > IBSW_CC_LOG_SW_EVENTS) {
		ev += nr - IBSW_CC_LOG_SW_EVENTS;
		nr = IBSW_CC_LOG_SW_EVENTS;
	}
	for (i = 0; i < nr; i++) {
		u8 *e = log + LOG_EVENT + i * LOG_EVENT_LEN;

		put_unaligned_be16(ev[i].slid, e + EV_SLID);
		put_unaligned_be16(ev[i].dlid, e + EV_DLID);
		e[EV_SL] = FIELD_PREP(EV_SL_BITS, ev[i].sl & 0xf);
		put_unaligned_be32(ev[i].timestamp, e + EV_TIMESTAMP);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_log_put);

/**
 * ibsw_cc_log_info_put() - encode a switch's CongestionLog from a cc-log
 * @log: the log area, MAD bytes 32-255
 * @info: the log as ibsw_cc_log_get() reads it (threshold-events, ibsw's
 *	own counter, is not on the wire)
 *
 * As ibsw_cc_log_put(); LIDs and SL are masked to their widths.
 *
 * Context: any.
 */
void ibsw_cc_log_info_put(u8 log[IBSW_CC_LOG_SIZE],
			  const struct ibsw_cc_log_info *info)
{
	struct ibsw_cc_event ev[IBSW_CC_LOG_EVENTS];
	struct ibsw_cc_log_hdr hdr;
	unsigned int i, nr = min_t(unsigned int, info->nr_events,
				   IBSW_CC_LOG_EVENTS);

	hdr.events_counter = info->events_counter;
	hdr.current_timestamp = info->current_timestamp;
	memcpy(hdr.port_map, info->port_map, IBSW_CC_MASK_LEN);
	memset(ev, 0, sizeof(ev));
	for (i = 0; i < nr; i++) {
		ev[i].slid = info->event[i].slid;
		ev[i].dlid = info->event[i].dlid;
		ev[i].sl = info->event[i].sl & 0xf;
		ev[i].timestamp = info->event[i].timestamp;
		ev[i].port = info->event[i].port;
		ev[i].vl = info->event[i].vl;
	}
	ibsw_cc_log_put(log, &hdr, ev, nr);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_log_info_put);

/* ---- SwitchCongestionSetting (0x0014), 76 bytes ---- */

enum {
	SS_CONTROL_MAP		= 0,
	SS_VICTIM_MASK		= 4,
	SS_CREDIT_MASK		= 36,
	SS_THRESHOLD		= 68,	/* bits 7..4 */
	SS_PACKET_SIZE		= 69,
	SS_CS_THRESHOLD		= 70,	/* bits 7..4; the rest of 70-71 rsvd */
	SS_CS_RETURN_DELAY	= 72,
	SS_MARKING_RATE		= 74,
	SS_LEN			= 76,
};

#define SS_NIBBLE	GENMASK(7, 4)

/* Control_Map bits on the wire are the uapi's (OpenSM's conf text) */
static_assert(IBSW_CC_CONTROL_MAP_VICTIM_MASK == 0x01);
static_assert(IBSW_CC_CONTROL_MAP_CREDIT_MASK == 0x02);
static_assert(IBSW_CC_CONTROL_MAP_THRESHOLD == 0x04);
static_assert(IBSW_CC_CONTROL_MAP_CS == 0x08);
static_assert(IBSW_CC_CONTROL_MAP_MARKING_RATE == 0x10);
static_assert(IBSW_CC_MASK_BYTES == IBSW_CC_MASK_LEN);

/**
 * ibsw_cc_sw_setting_put() - encode a SwitchCongestionSetting
 * @data: the attribute area
 * @s: the switch's setting, as ibsw_cc_get() reports it: its Control_Map
 *	is the components the last change applied
 *
 * Threshold and CS_Threshold are masked to 4 bits.
 *
 * Context: any.
 */
void ibsw_cc_sw_setting_put(u8 data[IBSW_CC_DATA_SIZE],
			    const struct ibsw_cc_setting *s)
{
	memset(data, 0, IBSW_CC_DATA_SIZE);
	put_unaligned_be32(s->control_map, data + SS_CONTROL_MAP);
	memcpy(data + SS_VICTIM_MASK, s->victim_mask, IBSW_CC_MASK_LEN);
	memcpy(data + SS_CREDIT_MASK, s->credit_mask, IBSW_CC_MASK_LEN);
	data[SS_THRESHOLD] = FIELD_PREP(SS_NIBBLE, s->threshold & 0xf);
	data[SS_PACKET_SIZE] = s->packet_size;
	data[SS_CS_THRESHOLD] = FIELD_PREP(SS_NIBBLE, s->cs_threshold & 0xf);
	put_unaligned_be16(s->cs_return_delay, data + SS_CS_RETURN_DELAY);
	put_unaligned_be16(s->marking_rate, data + SS_MARKING_RATE);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_sw_setting_put);

/**
 * ibsw_cc_sw_setting_get() - decode the SwitchCongestionSetting of a Set
 * @data: the attribute area of the Set
 * @s: filled in as a request for ibsw_cc_set(): every field given, with
 *	%IBSW_CC_SET_CONTROL_MAP, so only the components of the wire's
 *	Control_Map apply (and a Control_Map of 0 changes nothing)
 *
 * Context: any.
 */
void ibsw_cc_sw_setting_get(const u8 data[IBSW_CC_DATA_SIZE],
			    struct ibsw_cc_setting *s)
{
	memset(s, 0, sizeof(*s));
	s->set = IBSW_CC_SET_VICTIM_MASK | IBSW_CC_SET_CREDIT_MASK |
		 IBSW_CC_SET_THRESHOLD | IBSW_CC_SET_PACKET_SIZE |
		 IBSW_CC_SET_CS_THRESHOLD | IBSW_CC_SET_CS_RETURN_DELAY |
		 IBSW_CC_SET_MARKING_RATE | IBSW_CC_SET_CONTROL_MAP;
	s->control_map = get_unaligned_be32(data + SS_CONTROL_MAP);
	memcpy(s->victim_mask, data + SS_VICTIM_MASK, IBSW_CC_MASK_LEN);
	memcpy(s->credit_mask, data + SS_CREDIT_MASK, IBSW_CC_MASK_LEN);
	s->threshold = FIELD_GET(SS_NIBBLE, data[SS_THRESHOLD]);
	s->packet_size = data[SS_PACKET_SIZE];
	s->cs_threshold = FIELD_GET(SS_NIBBLE, data[SS_CS_THRESHOLD]);
	s->cs_return_delay = get_unaligned_be16(data + SS_CS_RETURN_DELAY);
	s->marking_rate = get_unaligned_be16(data + SS_MARKING_RATE);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_sw_setting_get);

/* ---- SwitchPortCongestionSetting (0x0015), 32 elements of 4 bytes ---- */

enum {
	SP_FLAGS		= 0,	/* Valid, Control_Type, Threshold */
	SP_PACKET_SIZE		= 1,
	SP_MARKING_RATE		= 2,	/* Cong_Parm / Marking_Rate */
	SP_LEN			= 4,
};

#define SP_VALID		BIT(7)
#define SP_CONTROL_TYPE		BIT(6)	/* bits 5..4 reserved */
#define SP_THRESHOLD		GENMASK(3, 0)

/**
 * ibsw_cc_sw_port_put() - encode a block of SwitchPortCongestionSetting
 * @data: the attribute area
 * @block: the AttributeModifier: element e is port 32 @block + e
 * @ports: the settings of ports 1 to @nr_ports at [0] to [@nr_ports - 1],
 *	as struct ibsw_cc_info's @port
 * @nr_ports: the switch's ports
 *
 * Port 0 (base, without CC) and ports past @nr_ports are all 0. Valid is
 * masked to 1 bit, Control_Type to 1 and Threshold to 4; the state in
 * @vls_congested is not on the wire.
 *
 * Context: any.
 */
void ibsw_cc_sw_port_put(u8 data[IBSW_CC_DATA_SIZE], u32 block,
			 const struct ibsw_cc_port_setting *ports,
			 unsigned int nr_ports)
{
	unsigned int e;

	memset(data, 0, IBSW_CC_DATA_SIZE);
	for (e = 0; e < IBSW_CC_SW_PORT_BLOCK; e++) {
		u64 port = (u64)block * IBSW_CC_SW_PORT_BLOCK + e;
		const struct ibsw_cc_port_setting *ps;
		u8 *p = data + e * SP_LEN;

		if (!port || port > nr_ports)
			continue;
		ps = &ports[port - 1];
		p[SP_FLAGS] = FIELD_PREP(SP_VALID, ps->valid & 1) |
			      FIELD_PREP(SP_CONTROL_TYPE, ps->control_type & 1) |
			      FIELD_PREP(SP_THRESHOLD, ps->threshold & 0xf);
		p[SP_PACKET_SIZE] = ps->packet_size;
		put_unaligned_be16(ps->marking_rate, p + SP_MARKING_RATE);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_sw_port_put);

/**
 * ibsw_cc_sw_port_get() - decode the block of a Set of
 *	SwitchPortCongestionSetting
 * @data: the attribute area of the Set
 * @block: its AttributeModifier
 * @nr_ports: the switch's ports
 * @ports: filled in, one request for ibsw_cc_set() per port of the block
 *	that the switch has, in port order, with every field given
 *
 * The elements of port 0 and of ports past @nr_ports are ignored. A
 * Control_Type of 1 (credit starvation) is passed on, for ibsw_cc_set()
 * to refuse.
 *
 * Context: any.
 * Return: the entries of @ports filled in.
 */
unsigned int ibsw_cc_sw_port_get(const u8 data[IBSW_CC_DATA_SIZE], u32 block,
				 unsigned int nr_ports,
				 struct ibsw_cc_port_setting
				 ports[IBSW_CC_SW_PORT_BLOCK])
{
	unsigned int e, n = 0;

	for (e = 0; e < IBSW_CC_SW_PORT_BLOCK; e++) {
		u64 port = (u64)block * IBSW_CC_SW_PORT_BLOCK + e;
		const u8 *p = data + e * SP_LEN;
		struct ibsw_cc_port_setting *ps;

		if (!port || port > nr_ports)
			continue;
		ps = &ports[n++];
		memset(ps, 0, sizeof(*ps));
		ps->port = port;
		ps->set = IBSW_CC_PORT_VALID | IBSW_CC_PORT_CONTROL_TYPE |
			  IBSW_CC_PORT_THRESHOLD | IBSW_CC_PORT_PACKET_SIZE |
			  IBSW_CC_PORT_MARKING_RATE;
		ps->valid = FIELD_GET(SP_VALID, p[SP_FLAGS]);
		ps->control_type = FIELD_GET(SP_CONTROL_TYPE, p[SP_FLAGS]);
		ps->threshold = FIELD_GET(SP_THRESHOLD, p[SP_FLAGS]);
		ps->packet_size = p[SP_PACKET_SIZE];
		ps->marking_rate = get_unaligned_be16(p + SP_MARKING_RATE);
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_sw_port_get);

/* ---- TimeStamp (0x0018) ---- */

/**
 * ibsw_cc_timestamp_put() - encode a TimeStamp
 * @data: the attribute area
 * @timestamp: emulated time in 1.024 us units, ibsw_cc_timestamp()
 *
 * Context: any.
 */
void ibsw_cc_timestamp_put(u8 data[IBSW_CC_DATA_SIZE], u32 timestamp)
{
	memset(data, 0, IBSW_CC_DATA_SIZE);
	put_unaligned_be32(timestamp, data);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_timestamp_put);
