// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding and decoding of the PMA attributes of a switch (pma_attr.h).
 *
 * Each counter attribute is one table below: a row per field, in the
 * order of the attribute's layout (IBA vol 1, 16.1.3-16.1.4 and annex
 * A10's PMA attributes; the offsets are those of infiniband-diags'
 * libibmad and of <rdma/ib_pma.h>, checked against its structs at build
 * time), with the ibsw counter that fills it and its CounterSelect bit.
 * The same row both encodes the field and maps its CounterSelect bit to
 * the ibsw counter a Set clears, so the two cannot disagree. A row
 * without a counter is always 0: ibsw does not count it.
 *
 * CounterSelect bits are numbered as perfquery's reset mask: bits 0-15
 * are CounterSelect (data bytes 2-3), bits 16 and up CounterSelect2 (byte
 * 18 of PortCounters, bytes 4-7 of PortCountersExtended).
 */

#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <rdma/ib_pma.h>

#include "compat.h"
#include "pma_attr.h"

/* Field widths; the 4-bit fields share byte 19 of PortCounters */
enum ibsw_pma_width {
	W4HI,		/* bits 7..4 */
	W4LO,		/* bits 3..0 */
	W8,
	W16,
	W32,
	W64,
};

#define NONE	(-1)

/**
 * struct ibsw_pma_field - one counter field of an attribute
 * @at: its first byte in the data area
 * @width: its width
 * @cnt: the enum ibsw_counter that fills it, %NONE: always 0
 * @vl: the VL of a per-VL field (@cnt of that VL's counters), %NONE: a
 *	port counter
 * @sel: its CounterSelect bit (perfquery's numbering); a per-VL field's
 *	is its VL
 */
struct ibsw_pma_field {
	u8	at;
	u8	width;
	s8	cnt;
	s8	vl;
	s8	sel;
};

#define F(a, w, c, s)	{ .at = (a), .width = (w), .cnt = (c), .vl = NONE, \
			  .sel = (s) }

/* Data bytes 1-3 of every counter attribute */
#define PMA_PORT_SELECT		1
#define PMA_COUNTER_SELECT	2	/* 16 bits */
/* CounterSelect2: a byte in PortCounters, 32 bits in the extended one */
#define PC_COUNTER_SELECT2	18
#define PCE_COUNTER_SELECT2	4

/* PortCounters (0x0012), 44 bytes */
static const struct ibsw_pma_field ibsw_pc_fields[] = {
	F(4, W16, NONE, 0),	/* SymbolErrorCounter: no physical layer */
	F(6, W8, NONE, 1),	/* LinkErrorRecoveryCounter */
	F(7, W8, NONE, 2),	/* LinkDownedCounter */
	F(8, W16, IBSW_CNT_RCV_ERRORS, 3),
	F(10, W16, NONE, 4),	/* PortRcvRemotePhysicalErrors */
	F(12, W16, IBSW_CNT_RCV_SWITCH_RELAY_ERRORS, 5),
	F(14, W16, IBSW_CNT_XMIT_DISCARDS, 6),
	F(16, W8, NONE, 7),	/* PortXmitConstraintErrors: no filtering */
	F(17, W8, IBSW_CNT_RCV_CONSTRAINT_ERRORS, 8),
	F(19, W4HI, NONE, 9),	/* LocalLinkIntegrityErrors */
	F(19, W4LO, IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS, 10),
	F(20, W16, NONE, 17),	/* QP1Dropped: not counted */
	F(22, W16, IBSW_CNT_VL15_DROPPED, 11),
	F(24, W32, IBSW_CNT_XMIT_DATA, 12),
	F(28, W32, IBSW_CNT_RCV_DATA, 13),
	F(32, W32, IBSW_CNT_XMIT_PKTS, 14),
	F(36, W32, IBSW_CNT_RCV_PKTS, 15),
	F(40, W32, IBSW_CNT_XMIT_WAIT, 16),
};

static_assert(offsetof(struct ib_pma_portcounters, port_select) ==
	      PMA_PORT_SELECT);
static_assert(offsetof(struct ib_pma_portcounters, counter_select) ==
	      PMA_COUNTER_SELECT);
static_assert(offsetof(struct ib_pma_portcounters, port_rcv_errors) == 8);
static_assert(offsetof(struct ib_pma_portcounters,
		       port_rcv_switch_relay_errors) == 12);
static_assert(offsetof(struct ib_pma_portcounters, port_xmit_discards) ==
	      14);
static_assert(offsetof(struct ib_pma_portcounters,
		       port_rcv_constraint_errors) == 17);
static_assert(offsetof(struct ib_pma_portcounters, reserved1) ==
	      PC_COUNTER_SELECT2);
static_assert(offsetof(struct ib_pma_portcounters, link_overrun_errors) ==
	      19);
static_assert(offsetof(struct ib_pma_portcounters, vl15_dropped) == 22);
static_assert(offsetof(struct ib_pma_portcounters, port_xmit_data) == 24);
static_assert(offsetof(struct ib_pma_portcounters, port_xmit_wait) == 40);
static_assert(sizeof(struct ib_pma_portcounters) == 44);

/*
 * PortCountersExtended (0x001D), 184 bytes. The unicast counters are the
 * packet counters: ibsw forwards unicast only (pma_attr.h).
 */
static const struct ibsw_pma_field ibsw_pce_fields[] = {
	F(8, W64, IBSW_CNT_XMIT_DATA, 0),
	F(16, W64, IBSW_CNT_RCV_DATA, 1),
	F(24, W64, IBSW_CNT_XMIT_PKTS, 2),
	F(32, W64, IBSW_CNT_RCV_PKTS, 3),
	F(40, W64, IBSW_CNT_XMIT_PKTS, 4),	/* PortUnicastXmitPkts */
	F(48, W64, IBSW_CNT_RCV_PKTS, 5),	/* PortUnicastRcvPkts */
	F(56, W64, NONE, 6),			/* PortMulticastXmitPkts */
	F(64, W64, NONE, 7),			/* PortMulticastRcvPkts */
	/* With CapabilityMask2 IsAdditionalPortCountersExtendedSupported */
	F(72, W64, NONE, 16),			/* SymbolErrorCounter */
	F(80, W64, NONE, 17),			/* LinkErrorRecoveryCounter */
	F(88, W64, NONE, 18),			/* LinkDownedCounter */
	F(96, W64, IBSW_CNT_RCV_ERRORS, 19),
	F(104, W64, NONE, 20),			/* PortRcvRemotePhysicalErrors */
	F(112, W64, IBSW_CNT_RCV_SWITCH_RELAY_ERRORS, 21),
	F(120, W64, IBSW_CNT_XMIT_DISCARDS, 22),
	F(128, W64, NONE, 23),			/* PortXmitConstraintErrors */
	F(136, W64, IBSW_CNT_RCV_CONSTRAINT_ERRORS, 24),
	F(144, W64, NONE, 25),			/* LocalLinkIntegrityErrors */
	F(152, W64, IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS, 26),
	F(160, W64, IBSW_CNT_VL15_DROPPED, 27),
	F(168, W64, IBSW_CNT_XMIT_WAIT, 28),
	F(176, W64, NONE, 29),			/* QP1Dropped */
};

static_assert(offsetof(struct ib_pma_portcounters_ext, counter_select) ==
	      PMA_COUNTER_SELECT);
static_assert(offsetof(struct ib_pma_portcounters_ext, reserved1) ==
	      PCE_COUNTER_SELECT2);
static_assert(offsetof(struct ib_pma_portcounters_ext, port_xmit_data) == 8);
static_assert(offsetof(struct ib_pma_portcounters_ext,
		       port_multicast_rcv_packets) == 64);

/*
 * PortRcvErrorDetails (0x0015). ibsw counts the reasons it has, and one
 * of its counters stands for two IBA ones:
 * - PortMalformedPktErrors: malformed frames from a host, PortRcvErrors;
 * - PortDLIDMappingErrors: PortRcvSwitchRelayErrors, which counts both no
 *   route for the DLID and a route back to the input port, so
 *   PortLoopingErrors stays 0;
 * - PortVLMappingErrors: rcv_vl_discards, an SL that maps to VL15 or to
 *   a VL the output port does not operate;
 * - PortLocalPhysicalErrors, PortBufferOverrunErrors: 0, there is no
 *   physical layer and the fabric is lossless.
 */
static const struct ibsw_pma_field ibsw_red_fields[] = {
	F(4, W16, NONE, 0),			/* PortLocalPhysicalErrors */
	F(6, W16, IBSW_CNT_RCV_ERRORS, 1),	/* PortMalformedPktErrors */
	F(8, W16, NONE, 2),			/* PortBufferOverrunErrors */
	F(10, W16, IBSW_CNT_RCV_SWITCH_RELAY_ERRORS, 3), /* DLIDMapping */
	F(12, W16, IBSW_CNT_RCV_VL_DISCARDS, 4),	/* PortVLMappingErrors */
	F(14, W16, NONE, 5),			/* PortLoopingErrors */
};

/*
 * PortXmitDiscardDetails (0x0016): PortInactiveDiscards, packets for a
 * port that was unconnected, disconnected, deleted, lost the packet's VL
 * or its host netdev; PortSwHOQLifetimeLimitDiscards, packets that stood
 * at the head of their VL's queue longer than the port's HOQLife. Packets
 * too large for the next link are dropped (and counted) at their input
 * port instead, and ibsw has no switch lifetime limit (SwitchInfo's
 * LifeTimeValue): the other two are 0.
 */
static const struct ibsw_pma_field ibsw_xdd_fields[] = {
	F(4, W16, IBSW_CNT_INACTIVE_DISCARDS, 0),
	F(6, W16, NONE, 1),			/* PortNeighborMTUDiscards */
	F(8, W16, NONE, 2),			/* PortSwLifetimeLimitDiscards */
	F(10, W16, IBSW_CNT_HOQ_DISCARDS, 3),
};

/* PortRcvConCtrl (0x0031): packets that entered the port with FECN, BECN */
static const struct ibsw_pma_field ibsw_rcc_fields[] = {
	F(4, W32, IBSW_CNT_RCV_FECN, 0),	/* PortPktRcvFECN */
	F(8, W32, IBSW_CNT_RCV_BECN, 1),	/* PortPktRcvBECN */
};

/* PortXmitConCtrl (0x0034): time any VL of the port was in the state */
static const struct ibsw_pma_field ibsw_xcc_fields[] = {
	F(4, W32, IBSW_CNT_XMIT_TIME_CONG, 0),	/* PortXmitTimeCong */
};

/* A per-VL field: the counter @c of VL @v; its CounterSelect bit is @v */
#define V(a, w, c, v)	{ .at = (a), .width = (w), .cnt = (c), .vl = (v), \
			  .sel = NONE }

/* PortVLXmitWaitCounters (0x001C): VL0-15, 16 bits; ibsw has no VL15 queue */
static const struct ibsw_pma_field ibsw_vlxw_fields[] = {
	V(4, W16, IBSW_CNT_XMIT_WAIT, 0),
	V(6, W16, IBSW_CNT_XMIT_WAIT, 1),
	V(8, W16, IBSW_CNT_XMIT_WAIT, 2),
	V(10, W16, IBSW_CNT_XMIT_WAIT, 3),
	V(12, W16, IBSW_CNT_XMIT_WAIT, 4),
	V(14, W16, IBSW_CNT_XMIT_WAIT, 5),
	V(16, W16, IBSW_CNT_XMIT_WAIT, 6),
	V(18, W16, IBSW_CNT_XMIT_WAIT, 7),
	V(20, W16, IBSW_CNT_XMIT_WAIT, 8),
	V(22, W16, IBSW_CNT_XMIT_WAIT, 9),
	V(24, W16, IBSW_CNT_XMIT_WAIT, 10),
	V(26, W16, IBSW_CNT_XMIT_WAIT, 11),
	V(28, W16, IBSW_CNT_XMIT_WAIT, 12),
	V(30, W16, IBSW_CNT_XMIT_WAIT, 13),
	V(32, W16, IBSW_CNT_XMIT_WAIT, 14),
	F(34, W16, NONE, 15),			/* VL15 */
};

/* PortVLXmitTimeCong (0x0035): VL0-14 only, 32 bits */
static const struct ibsw_pma_field ibsw_vltc_fields[] = {
	V(4, W32, IBSW_CNT_XMIT_TIME_CONG, 0),
	V(8, W32, IBSW_CNT_XMIT_TIME_CONG, 1),
	V(12, W32, IBSW_CNT_XMIT_TIME_CONG, 2),
	V(16, W32, IBSW_CNT_XMIT_TIME_CONG, 3),
	V(20, W32, IBSW_CNT_XMIT_TIME_CONG, 4),
	V(24, W32, IBSW_CNT_XMIT_TIME_CONG, 5),
	V(28, W32, IBSW_CNT_XMIT_TIME_CONG, 6),
	V(32, W32, IBSW_CNT_XMIT_TIME_CONG, 7),
	V(36, W32, IBSW_CNT_XMIT_TIME_CONG, 8),
	V(40, W32, IBSW_CNT_XMIT_TIME_CONG, 9),
	V(44, W32, IBSW_CNT_XMIT_TIME_CONG, 10),
	V(48, W32, IBSW_CNT_XMIT_TIME_CONG, 11),
	V(52, W32, IBSW_CNT_XMIT_TIME_CONG, 12),
	V(56, W32, IBSW_CNT_XMIT_TIME_CONG, 13),
	V(60, W32, IBSW_CNT_XMIT_TIME_CONG, 14),
};

static_assert(IBSW_NR_DATA_VLS == 15);
static_assert(IBSW_VL_COUNTERS & BIT(IBSW_CNT_XMIT_WAIT));
static_assert(IBSW_VL_COUNTERS & BIT(IBSW_CNT_XMIT_TIME_CONG));
static_assert(IBSW_NR_COUNTERS <= 32);

/**
 * struct ibsw_pma_layout - a counter attribute
 * @attr: its AttributeID
 * @f: its fields
 * @nr: entries of @f
 * @cs2_at: first byte of its CounterSelect2; 0: it has none
 * @cs2_len: bytes of its CounterSelect2 (1 or 4)
 */
struct ibsw_pma_layout {
	u16				attr;
	const struct ibsw_pma_field	*f;
	u8				nr;
	u8				cs2_at;
	u8				cs2_len;
};

static const struct ibsw_pma_layout ibsw_pma_layouts[] = {
	{ IBSW_PMA_ATTR_PORT_COUNTERS, ibsw_pc_fields,
	  ARRAY_SIZE(ibsw_pc_fields), PC_COUNTER_SELECT2, 1 },
	{ IBSW_PMA_ATTR_RCV_ERROR_DETAILS, ibsw_red_fields,
	  ARRAY_SIZE(ibsw_red_fields), 0, 0 },
	{ IBSW_PMA_ATTR_XMIT_DISCARD_DETAILS, ibsw_xdd_fields,
	  ARRAY_SIZE(ibsw_xdd_fields), 0, 0 },
	{ IBSW_PMA_ATTR_VL_XMIT_WAIT, ibsw_vlxw_fields,
	  ARRAY_SIZE(ibsw_vlxw_fields), 0, 0 },
	{ IBSW_PMA_ATTR_PORT_COUNTERS_EXT, ibsw_pce_fields,
	  ARRAY_SIZE(ibsw_pce_fields), PCE_COUNTER_SELECT2, 4 },
	{ IBSW_PMA_ATTR_RCV_CON_CTRL, ibsw_rcc_fields,
	  ARRAY_SIZE(ibsw_rcc_fields), 0, 0 },
	{ IBSW_PMA_ATTR_XMIT_CON_CTRL, ibsw_xcc_fields,
	  ARRAY_SIZE(ibsw_xcc_fields), 0, 0 },
	{ IBSW_PMA_ATTR_VL_XMIT_TIME_CONG, ibsw_vltc_fields,
	  ARRAY_SIZE(ibsw_vltc_fields), 0, 0 },
};

static const struct ibsw_pma_layout *ibsw_pma_layout(u16 attr)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ibsw_pma_layouts); i++)
		if (ibsw_pma_layouts[i].attr == attr)
			return &ibsw_pma_layouts[i];
	return NULL;
}

/**
 * ibsw_gmp_check() - the checks of a GS agent that come before its
 *	attributes
 * @hdr: the MAD's header
 * @mgmt_class: the agent's class
 * @class_version: the class version it takes
 *
 * In this order:
 *
 * - a base version other than 1 (OPA's 0x80 has another layout, and
 *   Linux's MAD layer drops such MADs before any agent), another class, a
 *   response (R bit), Trap, Report or TrapRepress: %IBSW_MAD_NO_REPLY,
 *   so that no error reply ever answers a reply or a notice;
 * - another class version: %IB_MGMT_MAD_STATUS_BAD_VERSION;
 * - a method other than Get and Set (Send, unknown ones):
 *   %IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD;
 * - else 0.
 *
 * Context: any.
 * Return: the MAD status to answer with, 0 to go on, or
 * %IBSW_MAD_NO_REPLY.
 */
int ibsw_gmp_check(const struct ib_mad_hdr *hdr, u8 mgmt_class,
		   u8 class_version)
{
	if (hdr->base_version != IB_MGMT_BASE_VERSION ||
	    hdr->mgmt_class != mgmt_class ||
	    (hdr->method & IB_MGMT_METHOD_RESP))
		return IBSW_MAD_NO_REPLY;
	switch (hdr->method) {
	case IB_MGMT_METHOD_TRAP:
	case IB_MGMT_METHOD_REPORT:
	case IB_MGMT_METHOD_TRAP_REPRESS:
		return IBSW_MAD_NO_REPLY;
	}
	if (hdr->class_version != class_version)
		return IB_MGMT_MAD_STATUS_BAD_VERSION;
	if (hdr->method != IB_MGMT_METHOD_GET &&
	    hdr->method != IB_MGMT_METHOD_SET)
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_gmp_check);

/**
 * ibsw_pma_check() - may the switch's PMA answer this request?
 * @hdr: the MAD's header
 * @data: its attribute (MAD byte 64); data[1] is the PortSelect
 * @nr_ports: the switch's ports, 1 to @nr_ports
 *
 * In this order:
 *
 * - ibsw_gmp_check() for class PerfMgt, version 1: no reply to responses
 *   and notices, %IB_MGMT_MAD_STATUS_BAD_VERSION,
 *   %IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD;
 * - an attribute the switch does not answer, or a Set of ClassPortInfo
 *   (which sets the trap destination; ibsw sends no traps):
 *   %IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
 * - an AttributeModifier other than 0, or (all but ClassPortInfo, which
 *   ignores it) a PortSelect that is neither a port of the switch, 0 (its
 *   management port, whose counters are all 0) included, nor
 *   %IBSW_PMA_PORT_SELECT_ALL: %IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
 * - else 0: process it.
 *
 * Context: any.
 * Return: the MAD status to answer with, 0 to process the request, or
 * %IBSW_MAD_NO_REPLY.
 */
int ibsw_pma_check(const struct ib_mad_hdr *hdr,
		   const u8 data[IBSW_PMA_DATA_SIZE], unsigned int nr_ports)
{
	u16 attr = be16_to_cpu(hdr->attr_id);
	u8 ps = data[PMA_PORT_SELECT];
	int status;

	status = ibsw_gmp_check(hdr, IB_MGMT_CLASS_PERF_MGMT,
				IBSW_PMA_CLASS_VERSION);
	if (status)
		return status;
	if (attr == IBSW_PMA_ATTR_CLASS_PORT_INFO) {
		if (hdr->method != IB_MGMT_METHOD_GET)
			return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		return hdr->attr_mod ? IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE : 0;
	}
	if (!ibsw_pma_layout(attr))
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	if (hdr->attr_mod || (ps > nr_ports && ps != IBSW_PMA_PORT_SELECT_ALL))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pma_check);

/* ClassPortInfo, the same 72 bytes in every GS class */
enum {
	CPI_BASE_VERSION	= 0,
	CPI_CLASS_VERSION	= 1,
	CPI_CAP_MASK		= 2,
	CPI_CAP_MASK2_RESP_TIME	= 4,	/* 27 + 5 bits */
	CPI_LEN			= 72,	/* redirection, trap destination: 0 */
};

#define CPI_CAP_MASK2		GENMASK(31, 5)
#define CPI_RESP_TIME		GENMASK(4, 0)

static_assert(offsetof(struct ib_class_port_info, capability_mask) ==
	      CPI_CAP_MASK);
static_assert(offsetof(struct ib_class_port_info, cap_mask2_resp_time) ==
	      CPI_CAP_MASK2_RESP_TIME);
static_assert(sizeof(struct ib_class_port_info) == CPI_LEN);

/**
 * ibsw_mad_cpi_put() - encode a ClassPortInfo of any GS class
 * @data: the attribute area (192 bytes at MAD byte 64)
 * @class_version: ClassVersion
 * @cap_mask: CapabilityMask
 * @cap_mask2: CapabilityMask2, masked to its 27 bits
 * @resp_time_value: RespTimeValue, masked to its 5 bits
 *
 * BaseVersion 1; no redirection and no trap destination (all 0).
 *
 * Context: any.
 */
void ibsw_mad_cpi_put(u8 data[IBSW_PMA_DATA_SIZE], u8 class_version,
		      u16 cap_mask, u32 cap_mask2, u8 resp_time_value)
{
	memset(data, 0, IBSW_PMA_DATA_SIZE);
	data[CPI_BASE_VERSION] = IB_MGMT_BASE_VERSION;
	data[CPI_CLASS_VERSION] = class_version;
	put_unaligned_be16(cap_mask, data + CPI_CAP_MASK);
	put_unaligned_be32(FIELD_PREP(CPI_CAP_MASK2, cap_mask2 &
				      (CPI_CAP_MASK2 >> 5)) |
			   FIELD_PREP(CPI_RESP_TIME, resp_time_value &
				      CPI_RESP_TIME),
			   data + CPI_CAP_MASK2_RESP_TIME);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_mad_cpi_put);

/* Write @val into field @f, saturated at the field's largest value */
static void ibsw_pma_field_put(u8 *data, const struct ibsw_pma_field *f,
			       u64 val)
{
	switch (f->width) {
	case W4HI:
		data[f->at] |= FIELD_PREP(GENMASK(7, 4), min_t(u64, val, 0xf));
		break;
	case W4LO:
		data[f->at] |= FIELD_PREP(GENMASK(3, 0), min_t(u64, val, 0xf));
		break;
	case W8:
		data[f->at] = min_t(u64, val, U8_MAX);
		break;
	case W16:
		put_unaligned_be16(min_t(u64, val, U16_MAX), data + f->at);
		break;
	case W32:
		put_unaligned_be32(min_t(u64, val, U32_MAX), data + f->at);
		break;
	case W64:
		put_unaligned_be64(val, data + f->at);
		break;
	}
}

/**
 * ibsw_pma_put() - encode a PMA attribute (the answer to a Get or Set)
 * @data: the attribute area (192 bytes at MAD byte 64)
 * @attr: an AttributeID ibsw_pma_check() accepted
 * @port_select: the request's PortSelect, echoed
 * @cnt: the port's counters (their sum over the ports for
 *	%IBSW_PMA_PORT_SELECT_ALL), as ibsw_stats_read() reports them; not
 *	read for ClassPortInfo
 * @vl_cnt: the port's per-VL counters, %IBSW_NR_DATA_VLS entries; read by
 *	the per-VL attributes only, NULL there answers 0
 *
 * ClassPortInfo is the PMA's: ClassVersion 1, %IBSW_PMA_CAP_MASK,
 * %IBSW_PMA_CAP2_MASK, %IBSW_MAD_RESP_TIME_VALUE. Any other attribute is
 * encoded from its table, each field saturated at its width. An attribute
 * the PMA does not have gives 192 bytes of 0.
 *
 * Context: any.
 */
void ibsw_pma_put(u8 data[IBSW_PMA_DATA_SIZE], u16 attr, u8 port_select,
		  const struct ibsw_counters *cnt,
		  const struct ibsw_counters vl_cnt[IBSW_NR_DATA_VLS])
{
	const struct ibsw_pma_layout *l;
	unsigned int i;

	if (attr == IBSW_PMA_ATTR_CLASS_PORT_INFO) {
		ibsw_mad_cpi_put(data, IBSW_PMA_CLASS_VERSION,
				 IBSW_PMA_CAP_MASK, IBSW_PMA_CAP2_MASK,
				 IBSW_MAD_RESP_TIME_VALUE);
		return;
	}
	memset(data, 0, IBSW_PMA_DATA_SIZE);
	l = ibsw_pma_layout(attr);
	if (!l)
		return;
	data[PMA_PORT_SELECT] = port_select;
	for (i = 0; i < l->nr; i++) {
		const struct ibsw_pma_field *f = &l->f[i];
		u64 val = 0;

		if (f->cnt == NONE)
			continue;
		if (f->vl == NONE)
			val = cnt->val[f->cnt];
		else if (vl_cnt)
			val = vl_cnt[f->vl].val[f->cnt];
		ibsw_pma_field_put(data, f, val);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pma_put);

/**
 * ibsw_pma_clear_get() - decode what the CounterSelect of a Set clears
 * @data: the attribute area of the Set
 * @attr: an AttributeID ibsw_pma_check() accepted for a Set
 * @clr: filled in: the PortSelect and the ibsw counters to clear
 *
 * Each CounterSelect (and CounterSelect2) bit of a field that an ibsw
 * counter fills selects that counter: a port counter in @clr->cnt, a
 * per-VL one in @clr->vl_cnt with its VL in @clr->vls. Bits of fields
 * that are always 0, and reserved bits, select nothing.
 *
 * Context: any.
 */
void ibsw_pma_clear_get(const u8 data[IBSW_PMA_DATA_SIZE], u16 attr,
			struct ibsw_pma_clear *clr)
{
	const struct ibsw_pma_layout *l = ibsw_pma_layout(attr);
	u64 sel;
	unsigned int i;

	memset(clr, 0, sizeof(*clr));
	clr->port_select = data[PMA_PORT_SELECT];
	if (!l)
		return;
	sel = get_unaligned_be16(data + PMA_COUNTER_SELECT);
	if (l->cs2_len == 1)
		sel |= (u64)data[l->cs2_at] << 16;
	else if (l->cs2_len == 4)
		sel |= (u64)get_unaligned_be32(data + l->cs2_at) << 16;
	for (i = 0; i < l->nr; i++) {
		const struct ibsw_pma_field *f = &l->f[i];
		int bit = f->vl == NONE ? f->sel : f->vl;

		if (f->cnt == NONE || bit == NONE || !(sel & BIT_ULL(bit)))
			continue;
		if (f->vl == NONE) {
			clr->cnt |= BIT(f->cnt);
		} else {
			clr->vl_cnt |= BIT(f->cnt);
			clr->vls |= BIT(f->vl);
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pma_clear_get);

/**
 * ibsw_pma_counters_add() - add a port's counters to a sum
 * @sum: the sum so far (AllPortSelect)
 * @cnt: the port's counters
 *
 * Saturates at U64_MAX.
 *
 * Context: any.
 */
void ibsw_pma_counters_add(struct ibsw_counters *sum,
			   const struct ibsw_counters *cnt)
{
	unsigned int i;

	for (i = 0; i < IBSW_NR_COUNTERS; i++)
		if (check_add_overflow(sum->val[i], cnt->val[i], &sum->val[i]))
			sum->val[i] = U64_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pma_counters_add);
