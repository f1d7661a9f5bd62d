// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the encoding and decoding of the SMA attributes
 * (smp_attr.c, smp_attr.h).
 *
 * Every expected data area here is written by hand from the attribute's
 * layout (IBA vol 1, 14.2.5: byte offsets and bits in the comments), never
 * taken from the encoder. Each attribute gets:
 *
 * - a struct of distinct values, every field different from its
 *   neighbours, so a field put at the wrong offset, shifted or swapped
 *   with another changes some byte;
 * - a put into a data area filled with 0x00, 0xaa and 0xff first: all 64
 *   bytes are written, the reserved ones as 0;
 * - a get of the same bytes, also with every reserved bit set (the masks
 *   of reserved bits are written by hand too), and a get of the put;
 * - for the bit-packed attributes, one row per field: that field alone at
 *   its widest, and one bit beyond its width, where only the named bytes
 *   may change. A value too wide for its field is masked to the field's
 *   width: it never spills into a neighbour or a reserved bit.
 */

#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/sprintf.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "../smp_attr.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KT_LEN	IB_SMP_DATA_SIZE

/* What the data area holds before a put, which must overwrite all of it */
static const u8 kt_fills[] = { 0x00, 0xaa, 0xff };

union kt_any {
	struct ibsw_smp_node_info	ni;
	struct ibsw_smp_switch_info	si;
	struct ibsw_smp_port_info	pi;
	u16				block16[32];
	struct ibsw_sl2vl		sl2vl;
	struct ibsw_vlarb_entry		vlarb[IBSW_SMP_VLARB_BLOCK];
	u64				guid[IBSW_SMP_GUID_BLOCK];
};

/* One attribute, for the checks they share */
struct kt_attr {
	void	(*put)(u8 *data, const void *in);
	void	(*get)(const u8 *data, void *out);	/* NULL: Get only */
	void	(*expect)(struct kunit *test, const void *got,
			  const void *exp, const char *what);
	const u8 *rsvd;		/* its reserved bits; NULL: none */
};

static void kt_expect_bytes(struct kunit *test, const u8 *got, const u8 *exp,
			    const char *what)
{
	unsigned int i;

	for (i = 0; i < KT_LEN; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], exp[i], "%s: byte %u", what,
				    i);
}

/*
 * A put of @in gives @bytes whatever the data area held; a get of @bytes
 * gives @out, also with the reserved bits set; a get of the put gives @out.
 */
static void kt_attr_check(struct kunit *test, const struct kt_attr *a,
			  const void *in, const void *out, const u8 *bytes)
{
	u8 data[KT_LEN];
	union kt_any got;
	char what[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_fills); i++) {
		memset(data, kt_fills[i], KT_LEN);
		a->put(data, in);
		snprintf(what, sizeof(what), "put over 0x%02x", kt_fills[i]);
		kt_expect_bytes(test, data, bytes, what);
	}
	if (!a->get)
		return;

	memset(&got, 0x5a, sizeof(got));
	a->get(data, &got);
	a->expect(test, &got, out, "get of the put");

	memcpy(data, bytes, KT_LEN);
	memset(&got, 0x5a, sizeof(got));
	a->get(data, &got);
	a->expect(test, &got, out, "get");

	if (!a->rsvd)
		return;
	for (i = 0; i < KT_LEN; i++) {
		/* The expected bytes themselves must keep reserved bits 0 */
		KUNIT_EXPECT_EQ_MSG(test, bytes[i] & a->rsvd[i], 0,
				    "test data: reserved bits set in byte %u",
				    i);
		data[i] = bytes[i] | a->rsvd[i];
	}
	memset(&got, 0x5a, sizeof(got));
	a->get(data, &got);
	a->expect(test, &got, out, "get, reserved bits set");
}

/*
 * One field alone: @in is all 0 but that field. Its put is the put of the
 * all-0 struct (the attribute's base) with bytes @at to @at + @n - 1
 * replaced by @bytes. Unless the value is @over its field's width (and
 * masked to it), a get of those bytes gives @in back.
 */
struct kt_field {
	const char	*desc;
	union kt_any	in;
	bool		over;
	u8		at;
	u8		n;
	u8		bytes[8];
};

#define KT_FIELD(d, o, a, ...)						\
	.desc = (d), .over = (o), .at = (a),				\
	.n = ARRAY_SIZE(((u8 []){ __VA_ARGS__ })),			\
	.bytes = { __VA_ARGS__ }

static void kt_field_check(struct kunit *test, const struct kt_attr *a,
			   const struct kt_field *f, const u8 *base)
{
	u8 data[KT_LEN], exp[KT_LEN];
	union kt_any got;

	KUNIT_ASSERT_LE(test, f->at + f->n, KT_LEN);
	memcpy(exp, base, KT_LEN);
	memcpy(exp + f->at, f->bytes, f->n);
	memset(data, 0xaa, KT_LEN);
	a->put(data, &f->in);
	kt_expect_bytes(test, data, exp, "put");

	if (!a->get || f->over)
		return;
	memset(&got, 0x5a, sizeof(got));
	a->get(exp, &got);
	a->expect(test, &got, &f->in, "get");
}

/* Compares one member of two structs */
static void kt_eq(struct kunit *test, const char *what, const char *member,
		  u64 got, u64 exp)
{
	KUNIT_EXPECT_EQ_MSG(test, got, exp, "%s: %s", what, member);
}

/* ---- NodeDescription ---- */

struct kt_nd_case {
	const char	*desc;
	const char	*text;
	char		bytes[KT_LEN + 1];	/* the first 64 count */
};

#define KT_64	"0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789ABCDEF"

static const struct kt_nd_case kt_nd_cases[] = {
	{ "short, zero padded", "ibsw sw1 (leaf)", "ibsw sw1 (leaf)" },
	{ "empty", "", "" },
	{
		"63 characters",
		"123456789abcdef0123456789ABCDEF0123456789abcdef0123456789ABCDEF",
		"123456789abcdef0123456789ABCDEF0123456789abcdef0123456789ABCDEF",
	},
	{ "64 characters: no NUL", KT_64, KT_64 },
	{ "70 characters: the first 64", KT_64 "ghijkl", KT_64 },
	{ "stops at the NUL", "ab\0cd", "ab" },
};

KUNIT_ARRAY_PARAM_DESC(kt_nd, kt_nd_cases, desc);

static void ibsw_smp_node_desc_test(struct kunit *test)
{
	const struct kt_nd_case *c = test->param_value;
	u8 data[KT_LEN];
	char what[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_fills); i++) {
		memset(data, kt_fills[i], KT_LEN);
		ibsw_smp_node_desc_put(data, c->text);
		snprintf(what, sizeof(what), "put over 0x%02x", kt_fills[i]);
		kt_expect_bytes(test, data, (const u8 *)c->bytes, what);
	}
}

/* ---- NodeInfo ---- */

static void kt_ni_put(u8 *data, const void *in)
{
	ibsw_smp_node_info_put(data, in);
}

static const struct kt_attr kt_ni_attr = { .put = kt_ni_put };

struct kt_ni_case {
	const char			*desc;
	struct ibsw_smp_node_info	ni;
	u8				bytes[KT_LEN];
};

static const struct kt_ni_case kt_ni_cases[] = {
	{
		.desc = "distinct values",
		.ni = {
			.node_type = RDMA_NODE_IB_SWITCH,
			.num_ports = 0x24,
			.sys_image_guid = 0x1011121314151617,
			.node_guid = 0x2021222324252627,
			.port_guid = 0x3031323334353637,
			.partition_cap = 0x4041,
			.device_id = 0x4243,
			.revision = 0x44454647,
			.local_port_num = 0x48,
			.vendor_id = 0x494a4b,
		},
		.bytes = {
			/* 0 BaseVersion, 1 ClassVersion, 2 NodeType, 3 NumPorts */
			0x01, 0x01, 0x02, 0x24,
			/* 4-11 SystemImageGUID */
			0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
			/* 12-19 NodeGUID */
			0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
			/* 20-27 PortGUID */
			0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,
			/* 28-29 PartitionCap, 30-31 DeviceID */
			0x40, 0x41, 0x42, 0x43,
			/* 32-35 Revision */
			0x44, 0x45, 0x46, 0x47,
			/* 36 LocalPortNum, 37-39 VendorID; 40-63 reserved */
			0x48, 0x49, 0x4a, 0x4b,
		},
	}, {
		.desc = "a CA",
		.ni = {
			.node_type = RDMA_NODE_IB_CA,
			.num_ports = 1,
			.sys_image_guid = 0x0002c90300a1b2c3,
			.node_guid = 0x0002c90300a1b2c4,
			.port_guid = 0x0002c90300a1b2c5,
			.partition_cap = 128,
			.device_id = 0x1003,
			.revision = 1,
			.local_port_num = 1,
			.vendor_id = 0x0002c9,
		},
		.bytes = {
			0x01, 0x01, 0x01, 0x01,				/* 0-3 */
			0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,	/* 4-11 */
			0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc4,	/* 12-19 */
			0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc5,	/* 20-27 */
			0x00, 0x80, 0x10, 0x03,				/* 28-31 */
			0x00, 0x00, 0x00, 0x01,				/* 32-35 */
			0x01, 0x00, 0x02, 0xc9,				/* 36-39 */
		},
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_ni, kt_ni_cases, desc);

static void ibsw_smp_node_info_test(struct kunit *test)
{
	const struct kt_ni_case *c = test->param_value;

	kt_attr_check(test, &kt_ni_attr, &c->ni, NULL, c->bytes);
}

/* The put of an all-0 NodeInfo: the versions only */
static const u8 kt_ni_base[KT_LEN] = { 0x01, 0x01 };

#define NI(d, m, v, a, ...) \
	{ .in.ni.m = (v), KT_FIELD(d, false, a, __VA_ARGS__) }
#define NI_OVER(d, m, v, a, ...) \
	{ .in.ni.m = (v), KT_FIELD(d, true, a, __VA_ARGS__) }

static const struct kt_field kt_ni_fields[] = {
	NI("NodeType", node_type, 0xff, 2, 0xff),
	NI("NumPorts", num_ports, 0xff, 3, 0xff),
	NI("SystemImageGUID", sys_image_guid, U64_MAX, 4,
	   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	NI("NodeGUID", node_guid, U64_MAX, 12,
	   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	NI("PortGUID", port_guid, U64_MAX, 20,
	   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	NI("PartitionCap", partition_cap, 0xffff, 28, 0xff, 0xff),
	NI("DeviceID", device_id, 0xffff, 30, 0xff, 0xff),
	NI("Revision", revision, 0xffffffff, 32, 0xff, 0xff, 0xff, 0xff),
	NI("LocalPortNum", local_port_num, 0xff, 36, 0xff),
	NI("VendorID", vendor_id, 0xffffff, 37, 0xff, 0xff, 0xff),
	NI_OVER("VendorID above 24 bits: not into LocalPortNum", vendor_id,
		0xff010203, 37, 0x01, 0x02, 0x03),
};

KUNIT_ARRAY_PARAM_DESC(kt_ni_field, kt_ni_fields, desc);

static void ibsw_smp_node_info_field_test(struct kunit *test)
{
	kt_field_check(test, &kt_ni_attr, test->param_value, kt_ni_base);
}

/* ---- SwitchInfo ---- */

static void kt_si_put(u8 *data, const void *in)
{
	ibsw_smp_switch_info_put(data, in);
}

static void kt_si_get(const u8 *data, void *out)
{
	ibsw_smp_switch_info_get(data, out);
}

static void kt_si_expect(struct kunit *test, const void *got, const void *exp,
			 const char *what)
{
	const struct ibsw_smp_switch_info *g = got, *e = exp;

	kt_eq(test, what, "linear_fdb_cap", g->linear_fdb_cap,
	      e->linear_fdb_cap);
	kt_eq(test, what, "random_fdb_cap", g->random_fdb_cap,
	      e->random_fdb_cap);
	kt_eq(test, what, "mcast_fdb_cap", g->mcast_fdb_cap, e->mcast_fdb_cap);
	kt_eq(test, what, "linear_fdb_top", g->linear_fdb_top,
	      e->linear_fdb_top);
	kt_eq(test, what, "default_port", g->default_port, e->default_port);
	kt_eq(test, what, "default_mcast_primary_port",
	      g->default_mcast_primary_port,
	      e->default_mcast_primary_port);
	kt_eq(test, what, "default_mcast_not_primary_port",
	      g->default_mcast_not_primary_port,
	      e->default_mcast_not_primary_port);
	kt_eq(test, what, "life_time_value", g->life_time_value,
	      e->life_time_value);
	kt_eq(test, what, "port_state_change", g->port_state_change,
	      e->port_state_change);
	kt_eq(test, what, "optimized_sl2vl", g->optimized_sl2vl,
	      e->optimized_sl2vl);
	kt_eq(test, what, "lids_per_port", g->lids_per_port, e->lids_per_port);
	kt_eq(test, what, "partition_enforcement_cap",
	      g->partition_enforcement_cap,
	      e->partition_enforcement_cap);
	kt_eq(test, what, "inbound_enforcement_cap", g->inbound_enforcement_cap,
	      e->inbound_enforcement_cap);
	kt_eq(test, what, "outbound_enforcement_cap",
	      g->outbound_enforcement_cap,
	      e->outbound_enforcement_cap);
	kt_eq(test, what, "filter_raw_inbound_cap", g->filter_raw_inbound_cap,
	      e->filter_raw_inbound_cap);
	kt_eq(test, what, "filter_raw_outbound_cap", g->filter_raw_outbound_cap,
	      e->filter_raw_outbound_cap);
	kt_eq(test, what, "enhanced_port0", g->enhanced_port0,
	      e->enhanced_port0);
	kt_eq(test, what, "mcast_fdb_top", g->mcast_fdb_top, e->mcast_fdb_top);
}

/* Reserved: byte 16 bits 2..0, byte 17, bytes 20-63 */
static const u8 kt_si_rsvd[KT_LEN] = {
	[16] = 0x07, [17] = 0xff, [20 ... 63] = 0xff,
};

static const struct kt_attr kt_si_attr = {
	.put = kt_si_put, .get = kt_si_get, .expect = kt_si_expect,
	.rsvd = kt_si_rsvd,
};

struct kt_si_case {
	const char			*desc;
	struct ibsw_smp_switch_info	si;
	u8				bytes[KT_LEN];
};

static const struct kt_si_case kt_si_cases[] = {
	{
		.desc = "distinct values",
		.si = {
			.linear_fdb_cap = 0x0102,
			.random_fdb_cap = 0x0304,
			.mcast_fdb_cap = 0x0506,
			.linear_fdb_top = 0x0708,
			.default_port = 0x09,
			.default_mcast_primary_port = 0x0a,
			.default_mcast_not_primary_port = 0x0b,
			.life_time_value = 0x13,
			.port_state_change = true,
			.optimized_sl2vl = 2,
			.lids_per_port = 0x0c0d,
			.partition_enforcement_cap = 0x0e0f,
			.inbound_enforcement_cap = true,
			.outbound_enforcement_cap = false,
			.filter_raw_inbound_cap = true,
			.filter_raw_outbound_cap = false,
			.enhanced_port0 = true,
			.mcast_fdb_top = 0xc123,
		},
		.bytes = {
			/* 0-1 LinearFDBCap, 2-3 RandomFDBCap */
			0x01, 0x02, 0x03, 0x04,
			/* 4-5 MulticastFDBCap, 6-7 LinearFDBTop */
			0x05, 0x06, 0x07, 0x08,
			/* 8 DefaultPort, 9 DefaultMulticastPrimaryPort,
			 * 10 DefaultMulticastNotPrimaryPort
			 */
			0x09, 0x0a, 0x0b,
			/* 11: LifeTimeValue 10011 (7..3), PortStateChange 1
			 * (2), OptimizedSLtoVL 10 (1..0)
			 */
			0x9e,
			/* 12-13 LIDsPerPort, 14-15 PartitionEnforcementCap */
			0x0c, 0x0d, 0x0e, 0x0f,
			/* 16: In 1, Out 0, FilterRawIn 1, FilterRawOut 0,
			 * EnhancedPort0 1, 3 bits reserved; 17 reserved
			 */
			0xa8, 0x00,
			/* 18-19 MulticastFDBTop; 20-63 reserved */
			0xc1, 0x23,
		},
	}, {
		.desc = "the other bits",
		.si = {
			.linear_fdb_cap = 0xc000,
			.mcast_fdb_cap = 0x0400,
			.linear_fdb_top = 0x0025,
			.default_port = 1,
			.default_mcast_primary_port = 2,
			.default_mcast_not_primary_port = 3,
			.life_time_value = 0x0c,
			.optimized_sl2vl = 1,
			.outbound_enforcement_cap = true,
			.filter_raw_outbound_cap = true,
			.mcast_fdb_top = 0xc3ff,
		},
		.bytes = {
			0xc0, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x25, /* 0-7 */
			0x01, 0x02, 0x03,			/* 8-10 */
			0x61,		/* 11: 01100 (7..3), 0 (2), 01 (1..0) */
			0x00, 0x00, 0x00, 0x00,			/* 12-15 */
			0x50,		/* 16: 0, 1, 0, 1, 0 (7..3) */
			0x00, 0xc3, 0xff,			/* 17-19 */
		},
	}, {
		.desc = "every field at its widest",
		.si = {
			.linear_fdb_cap = 0xffff,
			.random_fdb_cap = 0xffff,
			.mcast_fdb_cap = 0xffff,
			.linear_fdb_top = 0xffff,
			.default_port = 0xff,
			.default_mcast_primary_port = 0xff,
			.default_mcast_not_primary_port = 0xff,
			.life_time_value = 0x1f,
			.port_state_change = true,
			.optimized_sl2vl = 3,
			.lids_per_port = 0xffff,
			.partition_enforcement_cap = 0xffff,
			.inbound_enforcement_cap = true,
			.outbound_enforcement_cap = true,
			.filter_raw_inbound_cap = true,
			.filter_raw_outbound_cap = true,
			.enhanced_port0 = true,
			.mcast_fdb_top = 0xffff,
		},
		.bytes = {
			[0 ... 15] = 0xff,
			[16] = 0xf8,		/* bits 2..0 reserved */
			[17] = 0x00,
			[18] = 0xff, [19] = 0xff,
		},
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_si, kt_si_cases, desc);

static void ibsw_smp_switch_info_test(struct kunit *test)
{
	const struct kt_si_case *c = test->param_value;

	kt_attr_check(test, &kt_si_attr, &c->si, &c->si, c->bytes);
}

static const u8 kt_zero[KT_LEN];

#define SI(d, m, v, a, ...) \
	{ .in.si.m = (v), KT_FIELD(d, false, a, __VA_ARGS__) }
#define SI_OVER(d, m, v, a, ...) \
	{ .in.si.m = (v), KT_FIELD(d, true, a, __VA_ARGS__) }

static const struct kt_field kt_si_fields[] = {
	SI("LinearFDBCap", linear_fdb_cap, 0xffff, 0, 0xff, 0xff),
	SI("RandomFDBCap", random_fdb_cap, 0xffff, 2, 0xff, 0xff),
	SI("MulticastFDBCap", mcast_fdb_cap, 0xffff, 4, 0xff, 0xff),
	SI("LinearFDBTop", linear_fdb_top, 0xffff, 6, 0xff, 0xff),
	SI("DefaultPort", default_port, 0xff, 8, 0xff),
	SI("DefaultMulticastPrimaryPort", default_mcast_primary_port, 0xff, 9,
	   0xff),
	SI("DefaultMulticastNotPrimaryPort", default_mcast_not_primary_port,
	   0xff, 10, 0xff),
	SI("LifeTimeValue", life_time_value, 0x1f, 11, 0xf8),
	SI_OVER("LifeTimeValue 0x3f: 5 bits", life_time_value, 0x3f, 11, 0xf8),
	SI_OVER("LifeTimeValue 0x20: 0", life_time_value, 0x20, 11, 0x00),
	SI("PortStateChange", port_state_change, true, 11, 0x04),
	SI("OptimizedSLtoVLMappingProgramming", optimized_sl2vl, 3, 11, 0x03),
	SI_OVER("OptimizedSLtoVL 7: not into PortStateChange", optimized_sl2vl,
		7, 11, 0x03),
	SI("LIDsPerPort", lids_per_port, 0xffff, 12, 0xff, 0xff),
	SI("PartitionEnforcementCap", partition_enforcement_cap, 0xffff, 14,
	   0xff, 0xff),
	SI("InboundEnforcementCap", inbound_enforcement_cap, true, 16, 0x80),
	SI("OutboundEnforcementCap", outbound_enforcement_cap, true, 16, 0x40),
	SI("FilterRawInboundCap", filter_raw_inbound_cap, true, 16, 0x20),
	SI("FilterRawOutboundCap", filter_raw_outbound_cap, true, 16, 0x10),
	SI("EnhancedPort0", enhanced_port0, true, 16, 0x08),
	SI("MulticastFDBTop", mcast_fdb_top, 0xffff, 18, 0xff, 0xff),
};

KUNIT_ARRAY_PARAM_DESC(kt_si_field, kt_si_fields, desc);

static void ibsw_smp_switch_info_field_test(struct kunit *test)
{
	kt_field_check(test, &kt_si_attr, test->param_value, kt_zero);
}

/* ---- PortInfo ---- */

static void kt_pi_put(u8 *data, const void *in)
{
	ibsw_smp_port_info_put(data, in);
}

static void kt_pi_get(const u8 *data, void *out)
{
	ibsw_smp_port_info_get(data, out);
}

static void kt_pi_expect(struct kunit *test, const void *got, const void *exp,
			 const char *what)
{
	const struct ibsw_smp_port_info *g = got, *e = exp;

	kt_eq(test, what, "mkey", g->mkey, e->mkey);
	kt_eq(test, what, "gid_prefix", g->gid_prefix, e->gid_prefix);
	kt_eq(test, what, "lid", g->lid, e->lid);
	kt_eq(test, what, "master_sm_lid", g->master_sm_lid, e->master_sm_lid);
	kt_eq(test, what, "cap_mask", g->cap_mask, e->cap_mask);
	kt_eq(test, what, "diag_code", g->diag_code, e->diag_code);
	kt_eq(test, what, "mkey_lease_period", g->mkey_lease_period,
	      e->mkey_lease_period);
	kt_eq(test, what, "local_port_num", g->local_port_num,
	      e->local_port_num);
	kt_eq(test, what, "link_width_enabled", g->link_width_enabled,
	      e->link_width_enabled);
	kt_eq(test, what, "link_width_supported", g->link_width_supported,
	      e->link_width_supported);
	kt_eq(test, what, "link_width_active", g->link_width_active,
	      e->link_width_active);
	kt_eq(test, what, "link_speed_supported", g->link_speed_supported,
	      e->link_speed_supported);
	kt_eq(test, what, "port_state", g->port_state, e->port_state);
	kt_eq(test, what, "phys_state", g->phys_state, e->phys_state);
	kt_eq(test, what, "link_down_default_state", g->link_down_default_state,
	      e->link_down_default_state);
	kt_eq(test, what, "mkey_protect_bits", g->mkey_protect_bits,
	      e->mkey_protect_bits);
	kt_eq(test, what, "lmc", g->lmc, e->lmc);
	kt_eq(test, what, "link_speed_active", g->link_speed_active,
	      e->link_speed_active);
	kt_eq(test, what, "link_speed_enabled", g->link_speed_enabled,
	      e->link_speed_enabled);
	kt_eq(test, what, "neighbor_mtu", g->neighbor_mtu, e->neighbor_mtu);
	kt_eq(test, what, "master_sm_sl", g->master_sm_sl, e->master_sm_sl);
	kt_eq(test, what, "vl_cap", g->vl_cap, e->vl_cap);
	kt_eq(test, what, "init_type", g->init_type, e->init_type);
	kt_eq(test, what, "vl_high_limit", g->vl_high_limit, e->vl_high_limit);
	kt_eq(test, what, "vl_arb_high_cap", g->vl_arb_high_cap,
	      e->vl_arb_high_cap);
	kt_eq(test, what, "vl_arb_low_cap", g->vl_arb_low_cap,
	      e->vl_arb_low_cap);
	kt_eq(test, what, "init_type_reply", g->init_type_reply,
	      e->init_type_reply);
	kt_eq(test, what, "mtu_cap", g->mtu_cap, e->mtu_cap);
	kt_eq(test, what, "vl_stall_count", g->vl_stall_count,
	      e->vl_stall_count);
	kt_eq(test, what, "hoq_life", g->hoq_life, e->hoq_life);
	kt_eq(test, what, "operational_vls", g->operational_vls,
	      e->operational_vls);
	kt_eq(test, what, "partition_enforcement_inbound",
	      g->partition_enforcement_inbound,
	      e->partition_enforcement_inbound);
	kt_eq(test, what, "partition_enforcement_outbound",
	      g->partition_enforcement_outbound,
	      e->partition_enforcement_outbound);
	kt_eq(test, what, "filter_raw_inbound", g->filter_raw_inbound,
	      e->filter_raw_inbound);
	kt_eq(test, what, "filter_raw_outbound", g->filter_raw_outbound,
	      e->filter_raw_outbound);
	kt_eq(test, what, "mkey_violations", g->mkey_violations,
	      e->mkey_violations);
	kt_eq(test, what, "pkey_violations", g->pkey_violations,
	      e->pkey_violations);
	kt_eq(test, what, "qkey_violations", g->qkey_violations,
	      e->qkey_violations);
	kt_eq(test, what, "guid_cap", g->guid_cap, e->guid_cap);
	kt_eq(test, what, "client_reregister", g->client_reregister,
	      e->client_reregister);
	kt_eq(test, what, "mcast_pkey_trap_suppression",
	      g->mcast_pkey_trap_suppression,
	      e->mcast_pkey_trap_suppression);
	kt_eq(test, what, "subnet_timeout", g->subnet_timeout,
	      e->subnet_timeout);
	kt_eq(test, what, "resp_time_value", g->resp_time_value,
	      e->resp_time_value);
	kt_eq(test, what, "local_phy_errors", g->local_phy_errors,
	      e->local_phy_errors);
	kt_eq(test, what, "overrun_errors", g->overrun_errors,
	      e->overrun_errors);
	kt_eq(test, what, "max_credit_hint", g->max_credit_hint,
	      e->max_credit_hint);
	kt_eq(test, what, "link_roundtrip_latency", g->link_roundtrip_latency,
	      e->link_roundtrip_latency);
	kt_eq(test, what, "cap_mask2", g->cap_mask2, e->cap_mask2);
	kt_eq(test, what, "link_speed_ext_active", g->link_speed_ext_active,
	      e->link_speed_ext_active);
	kt_eq(test, what, "link_speed_ext_supported",
	      g->link_speed_ext_supported,
	      e->link_speed_ext_supported);
	kt_eq(test, what, "link_speed_ext_enabled", g->link_speed_ext_enabled,
	      e->link_speed_ext_enabled);
}

/*
 * Reserved: byte 34 bits 5..3, byte 52 bits 7..5, byte 56, byte 63 bits
 * 7..5
 */
static const u8 kt_pi_rsvd[KT_LEN] = {
	[34] = 0x38, [52] = 0xe0, [56] = 0xff, [63] = 0xe0,
};

static const struct kt_attr kt_pi_attr = {
	.put = kt_pi_put, .get = kt_pi_get, .expect = kt_pi_expect,
	.rsvd = kt_pi_rsvd,
};

struct kt_pi_case {
	const char			*desc;
	struct ibsw_smp_port_info	pi;
	u8				bytes[KT_LEN];
};

static const struct kt_pi_case kt_pi_cases[] = {
	{
		.desc = "distinct values",
		.pi = {
			.mkey = 0x0102030405060708,
			.gid_prefix = 0x1112131415161718,
			.lid = 0x2122,
			.master_sm_lid = 0x2324,
			.cap_mask = 0x25262728,
			.diag_code = 0x292a,
			.mkey_lease_period = 0x2b2c,
			.local_port_num = 0x2d,
			.link_width_enabled = 0x2e,
			.link_width_supported = 0x2f,
			.link_width_active = 0x30,
			.link_speed_supported = 0x3,
			.port_state = 0x4,
			.phys_state = 0x5,
			.link_down_default_state = 0x6,
			.mkey_protect_bits = 2,
			.lmc = 5,
			.link_speed_active = 0x7,
			.link_speed_enabled = 0x8,
			.neighbor_mtu = 0x9,
			.master_sm_sl = 0xa,
			.vl_cap = 0xb,
			.init_type = 0xc,
			.vl_high_limit = 0x3d,
			.vl_arb_high_cap = 0x3e,
			.vl_arb_low_cap = 0x3f,
			.init_type_reply = 0xd,
			.mtu_cap = 0xe,
			.vl_stall_count = 3,
			.hoq_life = 0x11,
			.operational_vls = 0xf,
			.partition_enforcement_inbound = true,
			.partition_enforcement_outbound = false,
			.filter_raw_inbound = true,
			.filter_raw_outbound = false,
			.mkey_violations = 0x4142,
			.pkey_violations = 0x4344,
			.qkey_violations = 0x4546,
			.guid_cap = 0x47,
			.client_reregister = true,
			.mcast_pkey_trap_suppression = 2,
			.subnet_timeout = 0x13,
			.resp_time_value = 0x14,
			.local_phy_errors = 0x1,
			.overrun_errors = 0x2,
			.max_credit_hint = 0x4849,
			.link_roundtrip_latency = 0x4a4b4c,
			.cap_mask2 = 0x4d4e,
			.link_speed_ext_active = 0x6,
			.link_speed_ext_supported = 0x9,
			.link_speed_ext_enabled = 0x17,
		},
		.bytes = {
			/* 0-7 M_Key */
			0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
			/* 8-15 GidPrefix */
			0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
			/* 16-17 LID, 18-19 MasterSMLID */
			0x21, 0x22, 0x23, 0x24,
			/* 20-23 CapabilityMask */
			0x25, 0x26, 0x27, 0x28,
			/* 24-25 DiagCode, 26-27 M_KeyLeasePeriod */
			0x29, 0x2a, 0x2b, 0x2c,
			/* 28 LocalPortNum, 29 LinkWidthEnabled,
			 * 30 LinkWidthSupported, 31 LinkWidthActive
			 */
			0x2d, 0x2e, 0x2f, 0x30,
			/* 32 LinkSpeedSupported 3 | PortState 4 */
			0x34,
			/* 33 PortPhysicalState 5 | LinkDownDefaultState 6 */
			0x56,
			/* 34 M_KeyProtectBits 10 (7..6), reserved (5..3),
			 * LMC 101 (2..0)
			 */
			0x85,
			/* 35 LinkSpeedActive 7 | LinkSpeedEnabled 8 */
			0x78,
			/* 36 NeighborMTU 9 | MasterSMSL 10 */
			0x9a,
			/* 37 VLCap 11 | InitType 12 */
			0xbc,
			/* 38 VLHighLimit, 39 VLArbitrationHighCap,
			 * 40 VLArbitrationLowCap
			 */
			0x3d, 0x3e, 0x3f,
			/* 41 InitTypeReply 13 | MTUCap 14 */
			0xde,
			/* 42 VLStallCount 011 (7..5), HOQLife 10001 (4..0) */
			0x71,
			/* 43 OperationalVLs 15 (7..4), PartitionEnforcement
			 * Inbound 1 (3), Outbound 0 (2), FilterRawInbound 1
			 * (1), FilterRawOutbound 0 (0)
			 */
			0xfa,
			/* 44-45 M_KeyViolations, 46-47 P_KeyViolations,
			 * 48-49 Q_KeyViolations
			 */
			0x41, 0x42, 0x43, 0x44, 0x45, 0x46,
			/* 50 GUIDCap */
			0x47,
			/* 51 ClientReregister 1 (7), MulticastPKeyTrap
			 * SuppressionEnabled 10 (6..5), SubnetTimeOut 10011
			 * (4..0)
			 */
			0xd3,
			/* 52 reserved (7..5), RespTimeValue 10100 (4..0) */
			0x14,
			/* 53 LocalPhyErrors 1 | OverrunErrors 2 */
			0x12,
			/* 54-55 MaxCreditHint, 56 reserved */
			0x48, 0x49, 0x00,
			/* 57-59 LinkRoundTripLatency */
			0x4a, 0x4b, 0x4c,
			/* 60-61 CapabilityMask2 */
			0x4d, 0x4e,
			/* 62 LinkSpeedExtActive 6 | LinkSpeedExtSupported 9 */
			0x69,
			/* 63 reserved (7..5), LinkSpeedExtEnabled 10111 */
			0x17,
		},
	}, {
		.desc = "a CA port as OpenSM sets it up",
		.pi = {
			.gid_prefix = 0xfe80000000000000,
			.lid = 5,
			.master_sm_lid = 1,
			.cap_mask = IB_PORT_SL_MAP_SUP |
				    IB_PORT_EXTENDED_SPEEDS_SUP |
				    IB_PORT_CAP_MASK2_SUP |
				    IB_PORT_CLIENT_REG_SUP,
			.local_port_num = 1,
			.link_width_enabled = IB_WIDTH_1X | IB_WIDTH_4X,
			.link_width_supported = IB_WIDTH_1X | IB_WIDTH_4X,
			.link_width_active = IB_WIDTH_4X,
			.link_speed_supported = IBSW_PI_SPEED_SDR |
						IBSW_PI_SPEED_DDR |
						IBSW_PI_SPEED_QDR,
			.port_state = IB_PORT_ACTIVE,
			.phys_state = IB_PORT_PHYS_STATE_LINK_UP,
			.link_down_default_state = IBSW_PI_LINK_DOWN_POLLING,
			.link_speed_active = IBSW_PI_SPEED_QDR,
			.link_speed_enabled = IBSW_PI_SPEED_SDR |
					      IBSW_PI_SPEED_DDR |
					      IBSW_PI_SPEED_QDR,
			.neighbor_mtu = IB_MTU_2048,
			.vl_cap = IBSW_PI_VL_CAP_4,
			.vl_arb_high_cap = 8,
			.vl_arb_low_cap = 8,
			.mtu_cap = IB_MTU_4096,
			.vl_stall_count = 7,
			.hoq_life = 0x1f,
			.operational_vls = IBSW_PI_VL_CAP_4,
			.partition_enforcement_inbound = true,
			.partition_enforcement_outbound = true,
			.guid_cap = 32,
			.client_reregister = true,
			.subnet_timeout = 18,
			.resp_time_value = 8,
			.local_phy_errors = 8,
			.overrun_errors = 8,
			.link_speed_ext_enabled = IBSW_PI_SPEED_EXT_DISABLE,
		},
		.bytes = {
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 0-7 */
			0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 8-15 */
			0x00, 0x05, 0x00, 0x01,				/* 16-19 */
			0x02, 0x00, 0xc0, 0x40,				/* 20-23 */
			0x00, 0x00, 0x00, 0x00,				/* 24-27 */
			0x01, 0x03, 0x03, 0x02,				/* 28-31 */
			0x74,		/* 32: speeds 0111 | Active 4 */
			0x52,		/* 33: LinkUp 5 | Polling 2 */
			0x00,		/* 34 */
			0x47,		/* 35: QDR 4 | 0111 */
			0x40,		/* 36: MTU 2048 (4) | SL 0 */
			0x30,		/* 37: VL0-3 (3) | 0 */
			0x00, 0x08, 0x08,				/* 38-40 */
			0x05,		/* 41: 0 | MTU 4096 (5) */
			0xff,		/* 42: 111, 11111 */
			0x3c,		/* 43: VL0-3 (3), 1, 1, 0, 0 */
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00,		/* 44-49 */
			0x20,		/* 50 */
			0x92,		/* 51: 1, 00, 10010 */
			0x08,		/* 52 */
			0x88,		/* 53 */
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00,		/* 54-59 */
			0x00, 0x00, 0x00,				/* 60-62 */
			0x1e,		/* 63: 30, disable */
		},
	}, {
		.desc = "every field at its widest",
		.pi = {
			.mkey = U64_MAX,
			.gid_prefix = U64_MAX,
			.lid = 0xffff,
			.master_sm_lid = 0xffff,
			.cap_mask = 0xffffffff,
			.diag_code = 0xffff,
			.mkey_lease_period = 0xffff,
			.local_port_num = 0xff,
			.link_width_enabled = 0xff,
			.link_width_supported = 0xff,
			.link_width_active = 0xff,
			.link_speed_supported = 0xf,
			.port_state = 0xf,
			.phys_state = 0xf,
			.link_down_default_state = 0xf,
			.mkey_protect_bits = 3,
			.lmc = 7,
			.link_speed_active = 0xf,
			.link_speed_enabled = 0xf,
			.neighbor_mtu = 0xf,
			.master_sm_sl = 0xf,
			.vl_cap = 0xf,
			.init_type = 0xf,
			.vl_high_limit = 0xff,
			.vl_arb_high_cap = 0xff,
			.vl_arb_low_cap = 0xff,
			.init_type_reply = 0xf,
			.mtu_cap = 0xf,
			.vl_stall_count = 7,
			.hoq_life = 0x1f,
			.operational_vls = 0xf,
			.partition_enforcement_inbound = true,
			.partition_enforcement_outbound = true,
			.filter_raw_inbound = true,
			.filter_raw_outbound = true,
			.mkey_violations = 0xffff,
			.pkey_violations = 0xffff,
			.qkey_violations = 0xffff,
			.guid_cap = 0xff,
			.client_reregister = true,
			.mcast_pkey_trap_suppression = 3,
			.subnet_timeout = 0x1f,
			.resp_time_value = 0x1f,
			.local_phy_errors = 0xf,
			.overrun_errors = 0xf,
			.max_credit_hint = 0xffff,
			.link_roundtrip_latency = 0xffffff,
			.cap_mask2 = 0xffff,
			.link_speed_ext_active = 0xf,
			.link_speed_ext_supported = 0xf,
			.link_speed_ext_enabled = 0x1f,
		},
		.bytes = {
			[0 ... 33] = 0xff,
			[34] = 0xc7,		/* 11, 000 reserved, 111 */
			[35 ... 51] = 0xff,
			[52] = 0x1f,		/* 000 reserved, 11111 */
			[53 ... 55] = 0xff,
			[56] = 0x00,		/* reserved */
			[57 ... 62] = 0xff,
			[63] = 0x1f,		/* 000 reserved, 11111 */
		},
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_pi, kt_pi_cases, desc);

static void ibsw_smp_port_info_test(struct kunit *test)
{
	const struct kt_pi_case *c = test->param_value;

	kt_attr_check(test, &kt_pi_attr, &c->pi, &c->pi, c->bytes);
}

#define PI(d, m, v, a, ...) \
	{ .in.pi.m = (v), KT_FIELD(d, false, a, __VA_ARGS__) }
#define PI_OVER(d, m, v, a, ...) \
	{ .in.pi.m = (v), KT_FIELD(d, true, a, __VA_ARGS__) }

static const struct kt_field kt_pi_fields[] = {
	PI("M_Key", mkey, U64_MAX, 0,
	   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	PI("GidPrefix", gid_prefix, U64_MAX, 8,
	   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	PI("LID", lid, 0xffff, 16, 0xff, 0xff),
	PI("MasterSMLID", master_sm_lid, 0xffff, 18, 0xff, 0xff),
	PI("CapabilityMask", cap_mask, 0xffffffff, 20, 0xff, 0xff, 0xff, 0xff),
	PI("DiagCode", diag_code, 0xffff, 24, 0xff, 0xff),
	PI("M_KeyLeasePeriod", mkey_lease_period, 0xffff, 26, 0xff, 0xff),
	PI("LocalPortNum", local_port_num, 0xff, 28, 0xff),
	PI("LinkWidthEnabled", link_width_enabled, 0xff, 29, 0xff),
	PI("LinkWidthSupported", link_width_supported, 0xff, 30, 0xff),
	PI("LinkWidthActive", link_width_active, 0xff, 31, 0xff),
	PI("LinkSpeedSupported", link_speed_supported, 0xf, 32, 0xf0),
	PI_OVER("LinkSpeedSupported 0x1f", link_speed_supported, 0x1f, 32,
		0xf0),
	PI("PortState", port_state, 0xf, 32, 0x0f),
	PI_OVER("PortState 0x1f: not into LinkSpeedSupported", port_state, 0x1f,
		32, 0x0f),
	PI("PortPhysicalState", phys_state, 0xf, 33, 0xf0),
	PI_OVER("PortPhysicalState 0x1f", phys_state, 0x1f, 33, 0xf0),
	PI("LinkDownDefaultState", link_down_default_state, 0xf, 33, 0x0f),
	PI_OVER("LinkDownDefaultState 0x1f: not into PortPhysicalState",
		link_down_default_state, 0x1f, 33, 0x0f),
	PI("M_KeyProtectBits", mkey_protect_bits, 3, 34, 0xc0),
	PI_OVER("M_KeyProtectBits 7", mkey_protect_bits, 7, 34, 0xc0),
	PI("LMC", lmc, 7, 34, 0x07),
	PI_OVER("LMC 0xf: not into the reserved bits", lmc, 0xf, 34, 0x07),
	PI("LinkSpeedActive", link_speed_active, 0xf, 35, 0xf0),
	PI("LinkSpeedEnabled", link_speed_enabled, 0xf, 35, 0x0f),
	PI_OVER("LinkSpeedEnabled 0x1f: not into LinkSpeedActive",
		link_speed_enabled, 0x1f, 35, 0x0f),
	PI("NeighborMTU", neighbor_mtu, 0xf, 36, 0xf0),
	PI("MasterSMSL", master_sm_sl, 0xf, 36, 0x0f),
	PI_OVER("MasterSMSL 0x1f: not into NeighborMTU", master_sm_sl, 0x1f, 36,
		0x0f),
	PI("VLCap", vl_cap, 0xf, 37, 0xf0),
	PI("InitType", init_type, 0xf, 37, 0x0f),
	PI_OVER("InitType 0x1f: not into VLCap", init_type, 0x1f, 37, 0x0f),
	PI("VLHighLimit", vl_high_limit, 0xff, 38, 0xff),
	PI("VLArbitrationHighCap", vl_arb_high_cap, 0xff, 39, 0xff),
	PI("VLArbitrationLowCap", vl_arb_low_cap, 0xff, 40, 0xff),
	PI("InitTypeReply", init_type_reply, 0xf, 41, 0xf0),
	PI("MTUCap", mtu_cap, 0xf, 41, 0x0f),
	PI_OVER("MTUCap 0x1f: not into InitTypeReply", mtu_cap, 0x1f, 41, 0x0f),
	PI("VLStallCount", vl_stall_count, 7, 42, 0xe0),
	PI_OVER("VLStallCount 0xf", vl_stall_count, 0xf, 42, 0xe0),
	PI("HOQLife", hoq_life, 0x1f, 42, 0x1f),
	PI_OVER("HOQLife 0x3f: not into VLStallCount", hoq_life, 0x3f, 42,
		0x1f),
	PI("OperationalVLs", operational_vls, 0xf, 43, 0xf0),
	PI_OVER("OperationalVLs 0x1f", operational_vls, 0x1f, 43, 0xf0),
	PI("PartitionEnforcementInbound", partition_enforcement_inbound, true,
	   43, 0x08),
	PI("PartitionEnforcementOutbound", partition_enforcement_outbound, true,
	   43, 0x04),
	PI("FilterRawInbound", filter_raw_inbound, true, 43, 0x02),
	PI("FilterRawOutbound", filter_raw_outbound, true, 43, 0x01),
	PI("M_KeyViolations", mkey_violations, 0xffff, 44, 0xff, 0xff),
	PI("P_KeyViolations", pkey_violations, 0xffff, 46, 0xff, 0xff),
	PI("Q_KeyViolations", qkey_violations, 0xffff, 48, 0xff, 0xff),
	PI("GUIDCap", guid_cap, 0xff, 50, 0xff),
	PI("ClientReregister", client_reregister, true, 51, 0x80),
	PI("MulticastPKeyTrapSuppressionEnabled", mcast_pkey_trap_suppression,
	   3, 51, 0x60),
	PI_OVER("McastPKeyTrapSuppression 7: not into ClientReregister",
		mcast_pkey_trap_suppression, 7, 51, 0x60),
	PI("SubnetTimeOut", subnet_timeout, 0x1f, 51, 0x1f),
	PI_OVER("SubnetTimeOut 0x3f: not into the trap suppression",
		subnet_timeout, 0x3f, 51, 0x1f),
	PI("RespTimeValue", resp_time_value, 0x1f, 52, 0x1f),
	PI_OVER("RespTimeValue 0xff: not into the reserved bits",
		resp_time_value, 0xff, 52, 0x1f),
	PI("LocalPhyErrors", local_phy_errors, 0xf, 53, 0xf0),
	PI("OverrunErrors", overrun_errors, 0xf, 53, 0x0f),
	PI_OVER("OverrunErrors 0x1f: not into LocalPhyErrors", overrun_errors,
		0x1f, 53, 0x0f),
	PI("MaxCreditHint", max_credit_hint, 0xffff, 54, 0xff, 0xff),
	PI("LinkRoundTripLatency", link_roundtrip_latency, 0xffffff, 57,
	   0xff, 0xff, 0xff),
	PI_OVER("LinkRoundTripLatency above 24 bits: not into byte 56",
		link_roundtrip_latency, 0xff123456, 57, 0x12, 0x34, 0x56),
	PI("CapabilityMask2", cap_mask2, 0xffff, 60, 0xff, 0xff),
	PI("LinkSpeedExtActive", link_speed_ext_active, 0xf, 62, 0xf0),
	PI("LinkSpeedExtSupported", link_speed_ext_supported, 0xf, 62, 0x0f),
	PI_OVER("LinkSpeedExtSupported 0x1f: not into LinkSpeedExtActive",
		link_speed_ext_supported, 0x1f, 62, 0x0f),
	PI("LinkSpeedExtEnabled", link_speed_ext_enabled, 0x1f, 63, 0x1f),
	PI_OVER("LinkSpeedExtEnabled 0xff: not into the reserved bits",
		link_speed_ext_enabled, 0xff, 63, 0x1f),
};

KUNIT_ARRAY_PARAM_DESC(kt_pi_field, kt_pi_fields, desc);

static void ibsw_smp_port_info_field_test(struct kunit *test)
{
	kt_field_check(test, &kt_pi_attr, test->param_value, kt_zero);
}

/* ---- P_KeyTable and MulticastForwardingTable: 32 x 16 bits ---- */

static void kt_pkey_put(u8 *data, const void *in)
{
	ibsw_smp_pkey_put(data, in);
}

static void kt_pkey_get(const u8 *data, void *out)
{
	ibsw_smp_pkey_get(data, out);
}

static void kt_mft_put(u8 *data, const void *in)
{
	ibsw_smp_mft_put(data, in);
}

static void kt_mft_get(const u8 *data, void *out)
{
	ibsw_smp_mft_get(data, out);
}

static void kt_block16_expect(struct kunit *test, const void *got,
			      const void *exp, const char *what)
{
	const u16 *g = got, *e = exp;
	unsigned int i;

	for (i = 0; i < 32; i++)
		KUNIT_EXPECT_EQ_MSG(test, g[i], e[i], "%s: entry %u", what, i);
}

static const struct kt_attr kt_pkey_attr = {
	.put = kt_pkey_put, .get = kt_pkey_get, .expect = kt_block16_expect,
};

static const struct kt_attr kt_mft_attr = {
	.put = kt_mft_put, .get = kt_mft_get, .expect = kt_block16_expect,
};

struct kt_block16_case {
	const char	*desc;
	u16		in[32];
	u8		bytes[KT_LEN];
};

static const struct kt_block16_case kt_pkey_cases[] = {
	{
		.desc = "distinct values",
		.in = {
			0xffff, 0x7fff, 0x8001, 0x0001,
			0x1011, 0x1213, 0x1415, 0x1617,
			0x2021, 0x2223, 0x2425, 0x2627,
			0x3031, 0x3233, 0x3435, 0x3637,
			0x4041, 0x4243, 0x4445, 0x4647,
			0x5051, 0x5253, 0x5455, 0x5657,
			0x6061, 0x6263, 0x6465, 0x6667,
			0xa0a1, 0xb0b1, 0xc0c1, 0x0000,
		},
		.bytes = {
			/* entry i in bytes 2i (bits 15..8), 2i + 1 */
			0xff, 0xff, 0x7f, 0xff, 0x80, 0x01, 0x00, 0x01,	/* 0-3 */
			0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,	/* 4-7 */
			0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,	/* 8-11 */
			0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,	/* 12-15 */
			0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,	/* 16-19 */
			0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,	/* 20-23 */
			0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,	/* 24-27 */
			0xa0, 0xa1, 0xb0, 0xb1, 0xc0, 0xc1, 0x00, 0x00,	/* 28-31 */
		},
	}, {
		.desc = "block 0 of a port: the default P_Key only",
		.in = { 0xffff },
		.bytes = { 0xff, 0xff },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_pkey, kt_pkey_cases, desc);

static void ibsw_smp_pkey_test(struct kunit *test)
{
	const struct kt_block16_case *c = test->param_value;

	kt_attr_check(test, &kt_pkey_attr, c->in, c->in, c->bytes);
}

static const struct kt_block16_case kt_mft_cases[] = {
	{
		.desc = "distinct values",
		.in = {
			0x0001, 0x0002, 0x8000, 0x4000,
			0x0100, 0x0080, 0xfffe, 0x7fff,
			0x1e2d, 0x3c4b, 0x5a69, 0x7887,
			0x96a5, 0xb4c3, 0xd2e1, 0xf00f,
			0x0102, 0x0304, 0x0506, 0x0708,
			0x090a, 0x0b0c, 0x0d0e, 0x0f10,
			0xaaaa, 0x5555, 0xcccc, 0x3333,
			0xffff, 0x0000, 0x8001, 0x1008,
		},
		.bytes = {
			/* MLID 0xc000 + 32 block + i in bytes 2i, 2i + 1;
			 * bit 15..8 in the first: ports 16p + 15 .. 16p + 8
			 */
			0x00, 0x01, 0x00, 0x02, 0x80, 0x00, 0x40, 0x00,	/* 0-3 */
			0x01, 0x00, 0x00, 0x80, 0xff, 0xfe, 0x7f, 0xff,	/* 4-7 */
			0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87,	/* 8-11 */
			0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0, 0x0f,	/* 12-15 */
			0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* 16-19 */
			0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,	/* 20-23 */
			0xaa, 0xaa, 0x55, 0x55, 0xcc, 0xcc, 0x33, 0x33,	/* 24-27 */
			0xff, 0xff, 0x00, 0x00, 0x80, 0x01, 0x10, 0x08,	/* 28-31 */
		},
	}, {
		.desc = "ports 1 and 3 in MLID 1, port 0 in MLID 31",
		.in = { [1] = 0x000a, [31] = 0x0001 },
		.bytes = { [2] = 0x00, [3] = 0x0a, [62] = 0x00, [63] = 0x01 },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_mft, kt_mft_cases, desc);

static void ibsw_smp_mft_test(struct kunit *test)
{
	const struct kt_block16_case *c = test->param_value;

	kt_attr_check(test, &kt_mft_attr, c->in, c->in, c->bytes);
}

/* ---- SLtoVLMappingTable ---- */

static void kt_sl2vl_put(u8 *data, const void *in)
{
	ibsw_smp_sl2vl_put(data, in);
}

static void kt_sl2vl_get(const u8 *data, void *out)
{
	ibsw_smp_sl2vl_get(data, out);
}

static void kt_sl2vl_expect(struct kunit *test, const void *got,
			    const void *exp, const char *what)
{
	const struct ibsw_sl2vl *g = got, *e = exp;
	unsigned int i;

	for (i = 0; i < IBSW_NR_SLS; i++)
		KUNIT_EXPECT_EQ_MSG(test, g->vl[i], e->vl[i], "%s: SL %u",
				    what, i);
}

/* Reserved: bytes 8-63 */
static const u8 kt_sl2vl_rsvd[KT_LEN] = { [8 ... 63] = 0xff };

static const struct kt_attr kt_sl2vl_attr = {
	.put = kt_sl2vl_put, .get = kt_sl2vl_get, .expect = kt_sl2vl_expect,
	.rsvd = kt_sl2vl_rsvd,
};

struct kt_sl2vl_case {
	const char		*desc;
	struct ibsw_sl2vl	in;
	struct ibsw_sl2vl	out;	/* get of @bytes */
	u8			bytes[KT_LEN];
};

static const struct kt_sl2vl_case kt_sl2vl_cases[] = {
	{
		.desc = "distinct values",
		.in.vl = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0 },
		.out.vl = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0 },
		/* byte i: SL 2i (7..4) | SL 2i + 1 (3..0); 8-63 reserved */
		.bytes = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0 },
	}, {
		.desc = "ibsim's default, SL 15 to VL 7",
		.in.vl = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 7 },
		.out.vl = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 7 },
		.bytes = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xe7 },
	}, {
		.desc = "VLs above 15: 4 bits, not into the other SL",
		.in.vl = { 0x10, 0x1f, 0x2e, 0x13, [15] = 0xf5 },
		.out.vl = { 0x0, 0xf, 0xe, 0x3, [15] = 0x5 },
		.bytes = { 0x0f, 0xe3, [7] = 0x05 },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_sl2vl, kt_sl2vl_cases, desc);

static void ibsw_smp_sl2vl_test(struct kunit *test)
{
	const struct kt_sl2vl_case *c = test->param_value;

	kt_attr_check(test, &kt_sl2vl_attr, &c->in, &c->out, c->bytes);
}

/* ---- VLArbitrationTable ---- */

static void kt_vlarb_put(u8 *data, const void *in)
{
	ibsw_smp_vlarb_put(data, in);
}

static void kt_vlarb_get(const u8 *data, void *out)
{
	ibsw_smp_vlarb_get(data, out);
}

static void kt_vlarb_expect(struct kunit *test, const void *got,
			    const void *exp, const char *what)
{
	const struct ibsw_vlarb_entry *g = got, *e = exp;
	unsigned int i;

	for (i = 0; i < IBSW_SMP_VLARB_BLOCK; i++) {
		KUNIT_EXPECT_EQ_MSG(test, g[i].vl, e[i].vl, "%s: VL of entry %u",
				    what, i);
		KUNIT_EXPECT_EQ_MSG(test, g[i].weight, e[i].weight,
				    "%s: weight of entry %u", what, i);
	}
}

/* Reserved: bits 7..4 of the first byte of each entry */
static const u8 kt_vlarb_rsvd[KT_LEN] = {
	0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0,
	0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0,
	0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0,
	0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0, 0xf0, 0,
};

static const struct kt_attr kt_vlarb_attr = {
	.put = kt_vlarb_put, .get = kt_vlarb_get, .expect = kt_vlarb_expect,
	.rsvd = kt_vlarb_rsvd,
};

struct kt_vlarb_case {
	const char		*desc;
	struct ibsw_vlarb_entry	in[IBSW_SMP_VLARB_BLOCK];
	struct ibsw_vlarb_entry	out[IBSW_SMP_VLARB_BLOCK];
	u8			bytes[KT_LEN];
};

#define E(v, w)		{ .vl = (v), .weight = (w) }

#define KT_VLARB_DISTINCT {						\
	E(0, 0x80), E(1, 0x81), E(2, 0x82), E(3, 0x83),			\
	E(4, 0x84), E(5, 0x85), E(6, 0x86), E(7, 0x87),			\
	E(8, 0x88), E(9, 0x89), E(10, 0x8a), E(11, 0x8b),		\
	E(12, 0x8c), E(13, 0x8d), E(14, 0x8e), E(15, 0x8f),		\
	E(14, 0x40), E(13, 0x41), E(12, 0x42), E(11, 0x43),		\
	E(10, 0x44), E(9, 0x45), E(8, 0x46), E(7, 0x47),		\
	E(6, 0x48), E(5, 0x49), E(4, 0x4a), E(3, 0x4b),			\
	E(2, 0x4c), E(1, 0x4d), E(0, 0x4e), E(7, 0x00),			\
}

static const struct kt_vlarb_case kt_vlarb_cases[] = {
	{
		.desc = "distinct values",
		.in = KT_VLARB_DISTINCT,
		.out = KT_VLARB_DISTINCT,
		.bytes = {
			/* entry i: byte 2i VL (3..0), byte 2i + 1 weight */
			0x00, 0x80, 0x01, 0x81, 0x02, 0x82, 0x03, 0x83, /* 0-3 */
			0x04, 0x84, 0x05, 0x85, 0x06, 0x86, 0x07, 0x87, /* 4-7 */
			0x08, 0x88, 0x09, 0x89, 0x0a, 0x8a, 0x0b, 0x8b, /* 8-11 */
			0x0c, 0x8c, 0x0d, 0x8d, 0x0e, 0x8e, 0x0f, 0x8f, /* 12-15 */
			0x0e, 0x40, 0x0d, 0x41, 0x0c, 0x42, 0x0b, 0x43, /* 16-19 */
			0x0a, 0x44, 0x09, 0x45, 0x08, 0x46, 0x07, 0x47, /* 20-23 */
			0x06, 0x48, 0x05, 0x49, 0x04, 0x4a, 0x03, 0x4b, /* 24-27 */
			0x02, 0x4c, 0x01, 0x4d, 0x00, 0x4e, 0x07, 0x00, /* 28-31 */
		},
	}, {
		.desc = "VLs above 15: 4 bits",
		.in = { E(0x1f, 0x20), E(0xf3, 0x01), [31] = E(0x15, 0xff) },
		.out = { E(0xf, 0x20), E(0x3, 0x01), [31] = E(0x5, 0xff) },
		.bytes = { 0x0f, 0x20, 0x03, 0x01, [62] = 0x05, [63] = 0xff },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_vlarb, kt_vlarb_cases, desc);

static void ibsw_smp_vlarb_test(struct kunit *test)
{
	const struct kt_vlarb_case *c = test->param_value;

	kt_attr_check(test, &kt_vlarb_attr, c->in, c->out, c->bytes);
}

/* ---- the tables' attribute modifiers, as on the wire (MAD bytes 20-23) */

struct kt_sl2vl_mod_case {
	const char	*desc;
	u8		mod[4];
	int		ret;
	unsigned int	in, out;
};

static const struct kt_sl2vl_mod_case kt_sl2vl_mod_cases[] = {
	{ "in 3, out 2", { 0x00, 0x00, 0x03, 0x02 }, 0, 3, 2 },
	{ "in 0, out 1", { 0x00, 0x00, 0x00, 0x01 }, 0, 0, 1 },
	{ "in 255, out 254", { 0x00, 0x00, 0xff, 0xfe }, 0, 255, 254 },
	{ "a CA's: 0", { 0x00, 0x00, 0x00, 0x00 }, 0, 0, 0 },
	{ "optimized, every output (bit 16)", { 0x00, 0x01, 0x02, 0x00 },
	  -EINVAL },
	{ "optimized, every input (bit 17)", { 0x00, 0x02, 0x00, 0x03 },
	  -EINVAL },
	{ "OpenSM's optimized 0x30000", { 0x00, 0x03, 0x00, 0x00 }, -EINVAL },
	{ "reserved bit 31", { 0x80, 0x00, 0x01, 0x02 }, -EINVAL },
	{ "reserved bit 18", { 0x00, 0x04, 0x01, 0x02 }, -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(kt_sl2vl_mod, kt_sl2vl_mod_cases, desc);

static void ibsw_smp_sl2vl_mod_test(struct kunit *test)
{
	const struct kt_sl2vl_mod_case *c = test->param_value;
	unsigned int in = 0x5a5a, out = 0x5a5a;

	KUNIT_ASSERT_EQ(test, ibsw_smp_sl2vl_mod(get_unaligned_be32(c->mod),
						 &in, &out), c->ret);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, in, c->in);
	KUNIT_EXPECT_EQ(test, out, c->out);
}

struct kt_vlarb_mod_case {
	const char	*desc;
	u8		mod[4];
	int		ret;
	bool		high;
	unsigned int	first, port;
};

static const struct kt_vlarb_mod_case kt_vlarb_mod_cases[] = {
	{ "1: low 0-31, port 5", { 0x00, 0x01, 0x00, 0x05 }, 0, false, 0, 5 },
	{ "2: low 32-63, port 1", { 0x00, 0x02, 0x00, 0x01 }, 0, false, 32,
	  1 },
	{ "3: high 0-31, port 0x102", { 0x00, 0x03, 0x01, 0x02 }, 0, true, 0,
	  0x102 },
	{ "4: high 32-63, a CA's port 0", { 0x00, 0x04, 0x00, 0x00 }, 0, true,
	  32 },
	{ "block 0", { 0x00, 0x00, 0x00, 0x01 }, -EINVAL },
	{ "block 5", { 0x00, 0x05, 0x00, 0x01 }, -EINVAL },
	{ "block 0x101", { 0x01, 0x01, 0x00, 0x01 }, -EINVAL },
	{ "block 0xffff", { 0xff, 0xff, 0x00, 0x01 }, -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(kt_vlarb_mod, kt_vlarb_mod_cases, desc);

static void ibsw_smp_vlarb_mod_test(struct kunit *test)
{
	const struct kt_vlarb_mod_case *c = test->param_value;
	unsigned int first = 0x5a5a, port = 0x5a5a;
	bool high = !c->high;

	KUNIT_ASSERT_EQ(test, ibsw_smp_vlarb_mod(get_unaligned_be32(c->mod),
						 &high, &first, &port),
			c->ret);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, high, c->high);
	KUNIT_EXPECT_EQ(test, first, c->first);
	KUNIT_EXPECT_EQ(test, port, c->port);
}

/*
 * An arbitration list through the VLArbitrationTable: a Get of a block of
 * a list of @nr entries gives the bytes @get (entries from @first on, VL 0
 * weight 0 past the list); a Set of the block @set gives a list of @nr_out
 * entries, @out.
 */
struct kt_vlarb_list_case {
	const char		*desc;
	struct ibsw_vlarb_entry	list[IBSW_VLARB_MAX_ENTRIES];
	unsigned int		nr, first;
	u8			get[KT_LEN];
	u8			set[KT_LEN];
	struct ibsw_vlarb_entry	out[IBSW_VLARB_MAX_ENTRIES];
	unsigned int		nr_out;
};

static const struct kt_vlarb_list_case kt_vlarb_list_cases[] = {
	{
		.desc = "4 entries, block 0 rewritten with 2",
		.list = { E(0, 64), E(1, 64), E(2, 64), E(3, 64) },
		.nr = 4, .first = 0,
		.get = { 0x00, 0x40, 0x01, 0x40, 0x02, 0x40, 0x03, 0x40 },
		.set = { 0x03, 0x08, 0x00, 0x20 },
		.out = { E(3, 8), E(0, 32) },
		.nr_out = 2,
	}, {
		.desc = "a written VL with weight 0 stays",
		.list = { E(0, 64) },
		.nr = 1, .first = 0,
		.get = { 0x00, 0x40 },
		.set = { 0x00, 0x04, 0x01, 0x00, 0x02, 0x00 },
		.out = { E(0, 4), E(1, 0), E(2, 0) },
		.nr_out = 3,
	}, {
		.desc = "block 32-63 of a short list: all 0; set, padded",
		.list = { E(5, 1), E(6, 2) },
		.nr = 2, .first = 32,
		.set = { [2] = 0x07, [3] = 0x09 },
		.out = { E(5, 1), E(6, 2), [33] = E(7, 9) },
		.nr_out = 34,
	}, {
		.desc = "block 32-63 of a full list; cleared, ends at 32",
		.list = { [0 ... 63] = E(2, 3) },
		.nr = 64, .first = 32,
		.get = {
			2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3,
			2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3,
			2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3,
			2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3,
		},
		.out = { [0 ... 31] = E(2, 3) },
		.nr_out = 32,
	}, {
		.desc = "an empty list stays empty",
		.nr = 0, .first = 0,
		.nr_out = 0,
	}, {
		.desc = "reserved bits 7..4 of the VL byte ignored",
		.nr = 0, .first = 0,
		.set = { 0xf1, 0x02 },
		.out = { E(1, 2) },
		.nr_out = 1,
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_vlarb_list, kt_vlarb_list_cases, desc);

static void ibsw_smp_vlarb_list_test(struct kunit *test)
{
	const struct kt_vlarb_list_case *c = test->param_value;
	struct ibsw_vlarb_entry list[IBSW_VLARB_MAX_ENTRIES];
	struct ibsw_vlarb_entry block[IBSW_SMP_VLARB_BLOCK];
	u8 data[KT_LEN];
	unsigned int i, nr;

	/* Entries past @nr hold junk: they must not show */
	memset(list, 0x5a, sizeof(list));
	memcpy(list, c->list, c->nr * sizeof(list[0]));
	ibsw_smp_vlarb_block(list, c->nr, c->first, block);
	ibsw_smp_vlarb_put(data, block);
	kt_expect_bytes(test, data, c->get, "get");

	ibsw_smp_vlarb_get(c->set, block);
	nr = ibsw_smp_vlarb_merge(list, c->nr, c->first, block);
	KUNIT_EXPECT_EQ(test, nr, c->nr_out);
	for (i = 0; i < c->nr_out; i++) {
		KUNIT_EXPECT_EQ_MSG(test, list[i].vl, c->out[i].vl,
				    "VL of entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, list[i].weight, c->out[i].weight,
				    "weight of entry %u", i);
	}
}

/* ---- GUIDInfo ---- */

static void kt_guid_put(u8 *data, const void *in)
{
	ibsw_smp_guid_info_put(data, in);
}

static void kt_guid_get(const u8 *data, void *out)
{
	ibsw_smp_guid_info_get(data, out);
}

static void kt_guid_expect(struct kunit *test, const void *got,
			   const void *exp, const char *what)
{
	const u64 *g = got, *e = exp;
	unsigned int i;

	for (i = 0; i < IBSW_SMP_GUID_BLOCK; i++)
		KUNIT_EXPECT_EQ_MSG(test, g[i], e[i], "%s: GUID %u", what, i);
}

static const struct kt_attr kt_guid_attr = {
	.put = kt_guid_put, .get = kt_guid_get, .expect = kt_guid_expect,
};

struct kt_guid_case {
	const char	*desc;
	u64		guid[IBSW_SMP_GUID_BLOCK];
	u8		bytes[KT_LEN];
};

static const struct kt_guid_case kt_guid_cases[] = {
	{
		.desc = "distinct GUIDs",
		.guid = { 0x0102030405060708ULL, 0x1112131415161718ULL,
			  0x2122232425262728ULL, 0x3132333435363738ULL,
			  0x4142434445464748ULL, 0x5152535455565758ULL,
			  0x6162636465666768ULL, 0xf1f2f3f4f5f6f7f8ULL },
		/* GUID i: bytes 8i to 8i + 7, big-endian */
		.bytes = {
			0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
			0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
			0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
			0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
			0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
			0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
			0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
			0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
		},
	}, {
		.desc = "ibsw's: the port GUID alone",
		.guid = { 0x02b5de0000010000ULL },
		.bytes = { 0x02, 0xb5, 0xde, 0x00, 0x00, 0x01, 0x00, 0x00 },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_guid, kt_guid_cases, desc);

static void ibsw_smp_guid_info_test(struct kunit *test)
{
	const struct kt_guid_case *c = test->param_value;

	kt_attr_check(test, &kt_guid_attr, c->guid, c->guid, c->bytes);
}

/* ---- LinearForwardingTable ---- */

struct kt_lft_case {
	const char	*desc;
	u8		port[IBSW_SMP_LFT_BLOCK];
	unsigned int	nr;
	u8		bytes[KT_LEN];
};

#define KT_LFT_PORTS {							\
	255, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,		\
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,	\
	36, 35, 34, 33, 32, 0, 255, 254, 1, 1, 1, 2, 2, 2, 3, 3,	\
	64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49,	\
}

static const struct kt_lft_case kt_lft_cases[] = {
	{
		.desc = "a full block",
		.port = KT_LFT_PORTS,
		.nr = 64,
		/* byte i: the port of LID 64 block + i */
		.bytes = KT_LFT_PORTS,
	}, {
		.desc = "more than a block: 64",
		.port = KT_LFT_PORTS,
		.nr = 100,
		.bytes = KT_LFT_PORTS,
	}, {
		.desc = "10 LIDs, the rest no route",
		.port = KT_LFT_PORTS,
		.nr = 10,
		.bytes = { 255, 1, 2, 3, 4, 5, 6, 7, 8, 9, [10 ... 63] = 255 },
	}, {
		.desc = "past the table: no route",
		.nr = 0,
		.bytes = { [0 ... 63] = 255 },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_lft, kt_lft_cases, desc);

static void ibsw_smp_lft_test(struct kunit *test)
{
	const struct kt_lft_case *c = test->param_value;
	u8 data[KT_LEN], got[IBSW_SMP_LFT_BLOCK];
	char what[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_fills); i++) {
		memset(data, kt_fills[i], KT_LEN);
		ibsw_smp_lft_put(data, c->port, c->nr);
		snprintf(what, sizeof(what), "put over 0x%02x", kt_fills[i]);
		kt_expect_bytes(test, data, c->bytes, what);
	}
	memset(got, 0x5a, sizeof(got));
	ibsw_smp_lft_get(c->bytes, got);
	kt_expect_bytes(test, got, c->bytes, "get");
}

/* ---- PortInfo every ibsw port starts from ---- */

struct kt_pi_init_case {
	const char	*desc;
	u8		width, speed, vl_cap;
	u8		bytes[KT_LEN];
};

static const struct kt_pi_init_case kt_pi_init_cases[] = {
	{
		.desc = "4X QDR, VL0-7",
		.width = IB_WIDTH_4X, .speed = IBSW_PI_SPEED_QDR,
		.vl_cap = IBSW_PI_VL_CAP_8,
		.bytes = {
			[29] = 0x02, 0x02, 0x02,	/* width enabled/sup/active */
			[32] = 0x40,	/* speed supported QDR | PortState 0 */
			[33] = 0x02,	/* PhysState 0 | LinkDownDefault Polling */
			[35] = 0x44,	/* speed active | enabled */
			[36] = 0x50,	/* NeighborMTU 4096 | MasterSMSL 0 */
			[37] = 0x40,	/* VLCap 4 | InitType 0 */
			[41] = 0x05,	/* InitTypeReply 0 | MTUCap 4096 */
			[42] = 0xff,	/* VLStallCount 7 | HOQLife 31 */
			[43] = 0x40,	/* OperationalVLs 4 */
			[50] = 0x01,	/* GUIDCap */
			[52] = 0x08,	/* RespTimeValue */
		},
	}, {
		.desc = "1X SDR, VL0",
		.width = IB_WIDTH_1X, .speed = IBSW_PI_SPEED_SDR,
		.vl_cap = IBSW_PI_VL_CAP_1,
		.bytes = {
			[29] = 0x01, 0x01, 0x01, [32] = 0x10, [33] = 0x02,
			[35] = 0x11, [36] = 0x50, [37] = 0x10, [41] = 0x05,
			[42] = 0xff, [43] = 0x10, [50] = 0x01, [52] = 0x08,
		},
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_pi_init, kt_pi_init_cases, desc);

static void ibsw_smp_port_info_init_test(struct kunit *test)
{
	const struct kt_pi_init_case *c = test->param_value;
	struct ibsw_smp_port_info pi;
	u8 data[KT_LEN];

	memset(&pi, 0x5a, sizeof(pi));
	ibsw_smp_port_info_init(&pi, c->width, c->speed, c->vl_cap);
	ibsw_smp_port_info_put(data, &pi);
	kt_expect_bytes(test, data, c->bytes, "init, put");
}

/* ---- the port state machine of a PortInfo Set ---- */

#define KT_BAD	0xff	/* the transition is refused */

struct kt_state_case {
	const char	*desc;
	u8		state, want;
	bool		up;
	u8		next;	/* KT_BAD: -EINVAL, @next untouched */
};

static const struct kt_state_case kt_state_cases[] = {
	{ "NOP in INIT", IB_PORT_INIT, IB_PORT_NOP, true, IB_PORT_INIT },
	{ "NOP in ARMED", IB_PORT_ARMED, IB_PORT_NOP, true, IB_PORT_ARMED },
	{ "NOP in ACTIVE", IB_PORT_ACTIVE, IB_PORT_NOP, true, IB_PORT_ACTIVE },
	{ "NOP, link down", IB_PORT_INIT, IB_PORT_NOP, false, IB_PORT_DOWN },
	{ "INIT -> ARMED", IB_PORT_INIT, IB_PORT_ARMED, true, IB_PORT_ARMED },
	{ "ARMED -> ARMED", IB_PORT_ARMED, IB_PORT_ARMED, true, IB_PORT_ARMED },
	{ "ARMED -> ACTIVE", IB_PORT_ARMED, IB_PORT_ACTIVE, true,
	  IB_PORT_ACTIVE },
	{ "ACTIVE -> ACTIVE", IB_PORT_ACTIVE, IB_PORT_ACTIVE, true,
	  IB_PORT_ACTIVE },
	{ "ACTIVE -> Down: retrain to INIT", IB_PORT_ACTIVE, IB_PORT_DOWN,
	  true, IB_PORT_INIT },
	{ "ARMED -> Down: retrain to INIT", IB_PORT_ARMED, IB_PORT_DOWN, true,
	  IB_PORT_INIT },
	{ "INIT -> Down: INIT", IB_PORT_INIT, IB_PORT_DOWN, true,
	  IB_PORT_INIT },
	{ "Down, link down: Down", IB_PORT_INIT, IB_PORT_DOWN, false,
	  IB_PORT_DOWN },
	{ "INIT -> ACTIVE: skips ARMED", IB_PORT_INIT, IB_PORT_ACTIVE, true,
	  KT_BAD },
	{ "ACTIVE -> ARMED: backwards", IB_PORT_ACTIVE, IB_PORT_ARMED, true,
	  KT_BAD },
	{ "Down -> ARMED", IB_PORT_DOWN, IB_PORT_ARMED, true, KT_BAD },
	{ "Down -> ACTIVE", IB_PORT_DOWN, IB_PORT_ACTIVE, true, KT_BAD },
	{ "ARMED, link down", IB_PORT_INIT, IB_PORT_ARMED, false, KT_BAD },
	{ "ACTIVE, link down", IB_PORT_ARMED, IB_PORT_ACTIVE, false, KT_BAD },
	{ "INIT asked for", IB_PORT_ARMED, IB_PORT_INIT, true, KT_BAD },
	{ "PortState 5", IB_PORT_INIT, 5, true, KT_BAD },
	{ "PortState 15", IB_PORT_ACTIVE, 15, true, KT_BAD },
};

KUNIT_ARRAY_PARAM_DESC(kt_state, kt_state_cases, desc);

static void ibsw_smp_port_state_test(struct kunit *test)
{
	const struct kt_state_case *c = test->param_value;
	u8 next = 0x5a;
	int ret;

	ret = ibsw_smp_port_state(c->state, c->want, c->up, &next);
	if (c->next == KT_BAD) {
		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		KUNIT_EXPECT_EQ(test, next, 0x5a);
	} else {
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, next, c->next);
	}
}

/* ---- encodings: the kernel's constants are the wire values ---- */

struct kt_const_case {
	const char	*desc;
	unsigned long	val;
	unsigned long	wire;
};

#define C(name, wire)	{ #name, name, wire }

static const struct kt_const_case kt_const_cases[] = {
	C(IB_PORT_NOP, 0), C(IB_PORT_DOWN, 1), C(IB_PORT_INIT, 2),
	C(IB_PORT_ARMED, 3), C(IB_PORT_ACTIVE, 4),
	C(IBSW_PI_PHYS_STATE_NOP, 0), C(IB_PORT_PHYS_STATE_SLEEP, 1),
	C(IB_PORT_PHYS_STATE_POLLING, 2), C(IB_PORT_PHYS_STATE_DISABLED, 3),
	C(IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING, 4),
	C(IB_PORT_PHYS_STATE_LINK_UP, 5),
	C(IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY, 6),
	C(IB_PORT_PHYS_STATE_PHY_TEST, 7),
	C(IBSW_PI_LINK_DOWN_SLEEP, 1), C(IBSW_PI_LINK_DOWN_POLLING, 2),
	C(IB_WIDTH_1X, 1), C(IB_WIDTH_4X, 2), C(IB_WIDTH_8X, 4),
	C(IB_WIDTH_12X, 8), C(IB_WIDTH_2X, 16), C(IBSW_PI_WIDTH_SUPPORTED, 255),
	C(IBSW_PI_SPEED_SDR, 1), C(IBSW_PI_SPEED_DDR, 2),
	C(IBSW_PI_SPEED_QDR, 4), C(IBSW_PI_SPEED_SUPPORTED, 15),
	C(IBSW_PI_SPEED_EXT_FDR, 1), C(IBSW_PI_SPEED_EXT_EDR, 2),
	C(IBSW_PI_SPEED_EXT_HDR, 4), C(IBSW_PI_SPEED_EXT_NDR, 8),
	C(IBSW_PI_SPEED_EXT_DISABLE, 30), C(IBSW_PI_SPEED_EXT_SUPPORTED, 31),
	C(IB_MTU_256, 1), C(IB_MTU_512, 2), C(IB_MTU_1024, 3),
	C(IB_MTU_2048, 4), C(IB_MTU_4096, 5),
	C(IBSW_PI_VL_CAP_1, 1), C(IBSW_PI_VL_CAP_2, 2), C(IBSW_PI_VL_CAP_4, 3),
	C(IBSW_PI_VL_CAP_8, 4), C(IBSW_PI_VL_CAP_15, 5),
	C(IB_PORT_SM, 0x2), C(IB_PORT_SL_MAP_SUP, 0x40),
	C(IB_PORT_SM_DISABLED, 0x400), C(IB_PORT_EXTENDED_SPEEDS_SUP, 0x4000),
	C(IB_PORT_CLIENT_REG_SUP, 0x02000000),
	C(IB_PORT_MCAST_FDB_TOP_SUP, 0x40000000),
	C(RDMA_NODE_IB_CA, 1), C(RDMA_NODE_IB_SWITCH, 2),
};

KUNIT_ARRAY_PARAM_DESC(kt_const, kt_const_cases, desc);

static void ibsw_smp_encoding_test(struct kunit *test)
{
	const struct kt_const_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->val, c->wire);
}

static struct kunit_case ibsw_smp_attr_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_smp_node_desc_test, kt_nd_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_node_info_test, kt_ni_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_node_info_field_test, kt_ni_field_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_switch_info_test, kt_si_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_switch_info_field_test,
			 kt_si_field_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_port_info_test, kt_pi_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_port_info_field_test, kt_pi_field_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_pkey_test, kt_pkey_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_sl2vl_test, kt_sl2vl_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_vlarb_test, kt_vlarb_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_sl2vl_mod_test, kt_sl2vl_mod_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_vlarb_mod_test, kt_vlarb_mod_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_vlarb_list_test, kt_vlarb_list_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_guid_info_test, kt_guid_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_lft_test, kt_lft_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_mft_test, kt_mft_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_port_info_init_test, kt_pi_init_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_port_state_test, kt_state_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_encoding_test, kt_const_gen_params),
	{}
};

static struct kunit_suite ibsw_smp_attr_test_suite = {
	.name = "ibsw_smp_attr",
	.test_cases = ibsw_smp_attr_test_cases,
};

kunit_test_suite(ibsw_smp_attr_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw SMA attribute encodings");
MODULE_LICENSE("GPL");
