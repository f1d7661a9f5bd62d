// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the switch Congestion Control attributes
 * (cc_mad_attr.c, cc_mad_attr.h).
 *
 * Every expected attribute is written by hand from its layout (IBA annex
 * A10; the byte offsets in the comments are libibmad's and OpenSM's),
 * never taken from the encoder; only the 15 log events of the full and
 * overflowing logs are placed by a helper of this file, from the event
 * layout (12 bytes from byte 40: SLID, DLID, SL in bits 7..4, time stamp
 * at 8). Each put goes over areas filled with 0x00, 0xaa and 0xff, so it
 * must write every byte. Each get also sees every reserved bit set.
 */

#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "../cc_mad_attr.h"
#include "gmp_kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KT_LEN		IBSW_CC_DATA_SIZE
#define KT_LOG_LEN	IBSW_CC_LOG_SIZE

static const u8 kt_fills[] = { 0x00, 0xaa, 0xff };

static void kt_expect_bytes(struct kunit *test, const u8 *got, const u8 *exp,
			    unsigned int len, const char *what)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], exp[i], "%s: byte %u", what,
				    i);
}

/* Puts @arg with @put over each fill, then compares the area with @exp */
static void kt_put_check(struct kunit *test, unsigned int len, const u8 *exp,
			 void (*put)(u8 *area, const void *arg),
			 const void *arg)
{
	u8 area[KT_LOG_LEN];
	char what[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_fills); i++) {
		memset(area, kt_fills[i], len);
		put(area, arg);
		snprintf(what, sizeof(what), "put over 0x%02x", kt_fills[i]);
		kt_expect_bytes(test, area, exp, len, what);
	}
}

static void kt_cpi_put(u8 *area, const void *arg)
{
	ibsw_cc_cpi_put(area);
}

static void kt_info_put(u8 *area, const void *arg)
{
	ibsw_cc_info_put(area, *(const u32 *)arg);
}

static void kt_ts_put(u8 *area, const void *arg)
{
	ibsw_cc_timestamp_put(area, *(const u32 *)arg);
}

static void kt_key_put(u8 *area, const void *arg)
{
	ibsw_cc_key_info_put(area, arg);
}

struct kt_log_args {
	const struct ibsw_cc_log_hdr	*hdr;
	const struct ibsw_cc_event	*ev;
	unsigned int			nr;
};

static void kt_log_put(u8 *area, const void *arg)
{
	const struct kt_log_args *a = arg;

	ibsw_cc_log_put(area, a->hdr, a->ev, a->nr);
}

static void kt_log_info_put(u8 *area, const void *arg)
{
	ibsw_cc_log_info_put(area, arg);
}

static void kt_ss_put(u8 *area, const void *arg)
{
	ibsw_cc_sw_setting_put(area, arg);
}

struct kt_sp_args {
	u32					block;
	const struct ibsw_cc_port_setting	*ports;
	unsigned int				nr_ports;
};

static void kt_sp_put(u8 *area, const void *arg)
{
	const struct kt_sp_args *a = arg;

	ibsw_cc_sw_port_put(area, a->block, a->ports, a->nr_ports);
}

/* ---- ClassPortInfo, CongestionInfo, TimeStamp ---- */

static void ibsw_cc_cpi_test(struct kunit *test)
{
	static const u8 exp[KT_LEN] = {
		/* BaseVersion 1, ClassVersion 2, CapabilityMask 0 */
		0x01, 0x02, 0x00, 0x00,
		/* CapabilityMask2 0, RespTimeValue 18 */
		0x00, 0x00, 0x00, 0x12,
	};
	kt_put_check(test, KT_LEN, exp, kt_cpi_put, NULL);
}

struct kt_u32_case {
	const char	*desc;
	u32		val;
	u8		bytes[4];
};

static const struct kt_u32_case kt_info_cases[] = {
	{ "no flags", 0, { 0x00, 0x00, 0x00 } },
	{ "credit starvation (bit 0)", 0x0001, { 0x00, 0x01, 0x00 } },
	{ "distinct", 0xa55a, { 0xa5, 0x5a, 0x00 } },
};

KUNIT_ARRAY_PARAM_DESC(kt_info, kt_info_cases, desc);

/* CongestionInfo 0-1, ControlTableCap 2 (always 0), 3 reserved */
static void ibsw_cc_info_test(struct kunit *test)
{
	const struct kt_u32_case *c = test->param_value;
	u8 exp[KT_LEN] = {};

	memcpy(exp, c->bytes, sizeof(c->bytes));
	kt_put_check(test, KT_LEN, exp, kt_info_put, &c->val);
}

static const struct kt_u32_case kt_ts_cases[] = {
	{ "0", 0, { 0x00, 0x00, 0x00, 0x00 } },
	{ "distinct", 0x89abcdef, { 0x89, 0xab, 0xcd, 0xef } },
	{ "U32_MAX", U32_MAX, { 0xff, 0xff, 0xff, 0xff } },
};

KUNIT_ARRAY_PARAM_DESC(kt_ts, kt_ts_cases, desc);

static void ibsw_cc_timestamp_test(struct kunit *test)
{
	const struct kt_u32_case *c = test->param_value;
	u8 exp[KT_LEN] = {};

	memcpy(exp, c->bytes, sizeof(c->bytes));
	kt_put_check(test, KT_LEN, exp, kt_ts_put, &c->val);
}

/* ---- CongestionKeyInfo ---- */

static void kt_key_eq(struct kunit *test, const struct ibsw_cc_key *got,
		      const struct ibsw_cc_key *exp)
{
	KUNIT_EXPECT_EQ(test, got->key, exp->key);
	KUNIT_EXPECT_EQ(test, got->protect, exp->protect);
	KUNIT_EXPECT_EQ(test, got->lease_period, exp->lease_period);
	KUNIT_EXPECT_EQ(test, got->violations, exp->violations);
	KUNIT_EXPECT_EQ(test, got->lease_end, exp->lease_end);
}

struct kt_key_put_case {
	const char		*desc;
	struct ibsw_cc_key	k;
	u8			bytes[16];
};

static const struct kt_key_put_case kt_key_put_cases[] = {
	{
		"distinct, protected",
		{ 0x0102030405060708, 12345, 0x1112, 0x2122, true },
		/* 0-7 CC_Key, 8 bit 7 ProtectBit, 10-11 Lease, 12-13 Viol. */
		{ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		  0x80, 0x00, 0x11, 0x12, 0x21, 0x22, 0x00, 0x00 },
	}, {
		"not protected",
		{ 0xf0e0d0c0b0a09080, 0, 0xfffe, 0xffff, false },
		{ 0xf0, 0xe0, 0xd0, 0xc0, 0xb0, 0xa0, 0x90, 0x80,
		  0x00, 0x00, 0xff, 0xfe, 0xff, 0xff, 0x00, 0x00 },
	}, {
		"all 0", {}, {},
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_key_put, kt_key_put_cases, desc);

static void ibsw_cc_key_info_put_test(struct kunit *test)
{
	const struct kt_key_put_case *c = test->param_value;
	u8 exp[KT_LEN] = {};

	memcpy(exp, c->bytes, sizeof(c->bytes));
	kt_put_check(test, KT_LEN, exp, kt_key_put, &c->k);
}

struct kt_key_set_case {
	const char		*desc;
	struct ibsw_cc_key	before;
	u8			bytes[16];
	struct ibsw_cc_key	after;
};

static const struct kt_key_set_case kt_key_set_cases[] = {
	{
		"everything; violations 0 clears the counter",
		{ 1, 99, 0, 7, false },
		{ 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
		  0x80, 0x00, 0x01, 0x02, 0x00, 0x00 },
		{ 0xa1a2a3a4a5a6a7a8, 0, 0x0102, 0, true },
	}, {
		"non-zero violations leave the counter",
		{ 1, 0, 0, 7, true },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
		  0x00, 0x00, 0x00, 0x3c, 0x00, 0x05 },
		{ 2, 0, 60, 7, false },
	}, {
		"reserved bits ignored (8 bits 6..0, 9, 14-15)",
		{ 5, 1000, 3, 0xffff, true },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x7f, 0xff, 0xff, 0xff, 0x00, 0x00, 0xff, 0xff },
		{ 0, 0, 0xffff, 0, false },
	}, {
		"protect bit alone, reserved bits set",
		{ 5, 1000, 3, 4, false },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09,
		  0xff, 0xff, 0x00, 0x00, 0x80, 0x00, 0xff, 0xff },
		{ 9, 0, 0, 4, true },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_key_set, kt_key_set_cases, desc);

static void ibsw_cc_key_info_set_test(struct kunit *test)
{
	const struct kt_key_set_case *c = test->param_value;
	struct ibsw_cc_key k = c->before;
	u8 data[KT_LEN];

	/* What follows the attribute does not count either */
	memset(data, 0xff, KT_LEN);
	memcpy(data, c->bytes, sizeof(c->bytes));
	ibsw_cc_key_info_set(&k, data);
	kt_key_eq(test, &k, &c->after);
}

/* ---- CC_Key check ---- */

#define KEY	0x0123456789abcdefULL
#define WRONG	0x0123456789abcdeeULL
#define NS	1000000000ULL

struct kt_key_check_case {
	const char		*desc;
	struct ibsw_cc_key	before;
	u8			method;
	u64			mad_key;
	u64			now;
	bool			pass;
	struct ibsw_cc_key	after;
};

/* { key, lease_end, lease_period, violations, protect } */
static const struct kt_key_check_case kt_key_check_cases[] = {
	{ "key 0: Set without a key", { 0, 0, 10, 0, false }, 0x02, 0, 1000,
	  true, { 0, 0, 10, 0, false } },
	{ "key 0: Set with any key", { 0, 0, 10, 0, true }, 0x02, WRONG, 1000,
	  true, { 0, 0, 10, 0, true } },
	{ "unprotected, Get, right key", { KEY, 0, 10, 3, false }, 0x01, KEY,
	  1000, true, { KEY, 0, 10, 3, false } },
	{ "unprotected, Get, wrong key: passes, no violation",
	  { KEY, 0, 10, 3, false }, 0x01, WRONG, 1000, true,
	  { KEY, 0, 10, 3, false } },
	{ "unprotected, Get, no key", { KEY, 0, 10, 3, false }, 0x01, 0, 1000,
	  true, { KEY, 0, 10, 3, false } },
	{ "unprotected, Set, right key", { KEY, 0, 10, 3, false }, 0x02, KEY,
	  1000, true, { KEY, 0, 10, 3, false } },
	{ "unprotected, Set, wrong key: violation, no lease",
	  { KEY, 0, 10, 3, false }, 0x02, WRONG, 1000, false,
	  { KEY, 0, 10, 4, false } },
	{ "protected, Get, right key", { KEY, 0, 10, 3, true }, 0x01, KEY,
	  1000, true, { KEY, 0, 10, 3, true } },
	{ "protected, Get, wrong key: violation, lease starts",
	  { KEY, 0, 10, 3, true }, 0x01, WRONG, 1000, false,
	  { KEY, 1000 + 10 * NS, 10, 4, true } },
	{ "protected, Get, no key", { KEY, 0, 10, 3, true }, 0x01, 0, 1000,
	  false, { KEY, 1000 + 10 * NS, 10, 4, true } },
	{ "protected, Set, right key", { KEY, 0, 10, 3, true }, 0x02, KEY,
	  1000, true, { KEY, 0, 10, 3, true } },
	{ "protected, Set, wrong key: violation, lease starts",
	  { KEY, 0, 10, 3, true }, 0x02, WRONG, 1000, false,
	  { KEY, 1000 + 10 * NS, 10, 4, true } },
	{ "protected, lease period 0: no lease", { KEY, 0, 0, 3, true }, 0x02,
	  WRONG, 1000, false, { KEY, 0, 0, 4, true } },
	{ "lease period 65535 s", { KEY, 0, 0xffff, 3, true }, 0x02, WRONG, 7,
	  false, { KEY, 7 + 65535 * NS, 0xffff, 4, true } },
	{ "lease running: not restarted", { KEY, 5000, 10, 3, true }, 0x01,
	  WRONG, 4000, false, { KEY, 5000, 10, 4, true } },
	{ "lease running, right key: stops it", { KEY, 5000, 10, 3, true },
	  0x01, KEY, 4000, true, { KEY, 0, 10, 3, true } },
	{ "lease running, key 0: stops it", { 0, 5000, 10, 3, true }, 0x02,
	  WRONG, 4000, true, { 0, 0, 10, 3, true } },
	{ "lease expired: protect bit cleared, Get passes",
	  { KEY, 5000, 10, 3, true }, 0x01, WRONG, 5000, true,
	  { KEY, 0, 10, 3, false } },
	{ "lease expired: Set still needs the key, no new lease",
	  { KEY, 5000, 10, 3, true }, 0x02, WRONG, 6000, false,
	  { KEY, 0, 10, 4, false } },
	{ "lease expired, right key", { KEY, 5000, 10, 3, true }, 0x02, KEY,
	  9000, true, { KEY, 0, 10, 3, false } },
	{ "violations 65534 + 1", { KEY, 0, 10, 0xfffe, false }, 0x02, WRONG,
	  1, false, { KEY, 0, 10, 0xffff, false } },
	{ "violations saturate at 65535", { KEY, 0, 10, 0xffff, false }, 0x02,
	  WRONG, 1, false, { KEY, 0, 10, 0xffff, false } },
	{ "key differs in the top byte only", { KEY, 0, 0, 0, false }, 0x02,
	  KEY ^ 0xff00000000000000ULL, 1, false, { KEY, 0, 0, 1, false } },
};

KUNIT_ARRAY_PARAM_DESC(kt_key_check, kt_key_check_cases, desc);

static void ibsw_cc_key_check_test(struct kunit *test)
{
	const struct kt_key_check_case *c = test->param_value;
	struct ibsw_cc_key k = c->before;
	struct ib_mad *mad;

	mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mad);
	mad->mad_hdr.base_version = 1;
	mad->mad_hdr.mgmt_class = 0x21;
	mad->mad_hdr.class_version = 2;
	mad->mad_hdr.method = c->method;
	/* CC_Key: MAD bytes 24-31 */
	put_unaligned_be64(c->mad_key, (u8 *)mad + 24);
	KUNIT_EXPECT_EQ(test, ibsw_cc_key_check(&k, mad, c->now), c->pass);
	kt_key_eq(test, &k, &c->after);
}

/* ---- CongestionLog ---- */

/* The events of the full and overflowing logs: event i */
static void kt_ev(struct ibsw_cc_event *ev, unsigned int i)
{
	ev->slid = 0x1000 + i;
	ev->dlid = 0x2000 + i;
	ev->sl = i % 16;
	ev->port = 1 + i;
	ev->vl = i % 15;
	ev->timestamp = 0x30000000 + i;
	ev->ns = 1000 * i;
}

/* Expected slot @slot holding kt_ev(i): 12 bytes from log byte 40 */
static void kt_ev_bytes(u8 *log, unsigned int slot, unsigned int i)
{
	u8 *e = log + 40 + 12 * slot;

	e[0] = 0x10;
	e[1] = i;		/* SLID 0x1000 + i */
	e[2] = 0x20;
	e[3] = i;		/* DLID 0x2000 + i */
	e[4] = (i % 16) << 4;	/* SL, bits 7..4; 5-7 reserved */
	e[8] = 0x30;
	e[11] = i;		/* Timestamp 0x30000000 + i */
}

static const struct ibsw_cc_log_hdr kt_log_hdr = {
	.events_counter = 0x0102,
	.current_timestamp = 0x0a0b0c0d,
	/* ports 1 and 8 */
	.port_map = { [30] = 0x01, [31] = 0x02 },
};

/* LogType 1, flags 0, counter 0x0102, time stamp, port map (8-39) */
static void kt_log_hdr_bytes(u8 *log)
{
	memset(log, 0, KT_LOG_LEN);
	log[0] = 0x01;
	log[2] = 0x01;
	log[3] = 0x02;
	log[4] = 0x0a;
	log[5] = 0x0b;
	log[6] = 0x0c;
	log[7] = 0x0d;
	log[38] = 0x01;
	log[39] = 0x02;
}

struct kt_log_case {
	const char	*desc;
	unsigned int	nr;
};

static const struct kt_log_case kt_log_cases[] = {
	{ "no events", 0 },
	{ "one event", 1 },
	{ "three: slots 3-14 stay 0", 3 },
	{ "full (15)", 15 },
	{ "16: the last 15", 16 },
	{ "40: the last 15", 40 },
};

KUNIT_ARRAY_PARAM_DESC(kt_log, kt_log_cases, desc);

static void ibsw_cc_log_test(struct kunit *test)
{
	const struct kt_log_case *c = test->param_value;
	unsigned int i, first = c->nr > 15 ? c->nr - 15 : 0;
	struct kt_log_args args = { .hdr = &kt_log_hdr, .nr = c->nr };
	struct ibsw_cc_event *ev;
	u8 exp[KT_LOG_LEN];

	ev = kunit_kcalloc(test, c->nr + 1, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	for (i = 0; i < c->nr; i++)
		kt_ev(&ev[i], i);
	kt_log_hdr_bytes(exp);
	for (i = first; i < c->nr; i++)
		kt_ev_bytes(exp, i - first, i);
	args.ev = ev;
	kt_put_check(test, KT_LOG_LEN, exp, kt_log_put, &args);
}

/* One event and the header written out in full */
static void ibsw_cc_log_one_test(struct kunit *test)
{
	static const struct ibsw_cc_log_hdr hdr = {
		.events_counter = 1,
		.current_timestamp = 0xfedcba98,
		.port_map = { [0] = 0x40, [31] = 0x80 },	/* 254, 7 */
	};
	static const struct ibsw_cc_event ev = {
		.slid = 0x0102, .dlid = 0x0304, .sl = 5, .port = 7, .vl = 2,
		.timestamp = 0x0a0b0c0d, .ns = 123,
	};
	static const u8 exp[KT_LOG_LEN] = {
		/* 0 LogType, 1 CongestionFlags, 2-3 LogEventsCounter */
		0x01, 0x00, 0x00, 0x01,
		/* 4-7 CurrentTimeStamp */
		0xfe, 0xdc, 0xba, 0x98,
		/* 8-39 PortMap: port 254 (byte 8 bit 6), port 7 (39 bit 7) */
		[8] = 0x40, [39] = 0x80,
		/* 40-51 the event: SLID, DLID, SL 5, 3 reserved, time */
		0x01, 0x02, 0x03, 0x04, 0x50, 0x00, 0x00, 0x00,
		0x0a, 0x0b, 0x0c, 0x0d,
	};
	struct kt_log_args args = { .hdr = &hdr, .ev = &ev, .nr = 1 };

	kt_put_check(test, KT_LOG_LEN, exp, kt_log_put, &args);
}

static const struct kt_u32_case kt_log_counter_cases[] = {
	{ "65534", 0xfffe, { 0xff, 0xfe } },
	{ "65535", 0xffff, { 0xff, 0xff } },
	{ "65536: saturates", 0x10000, { 0xff, 0xff } },
	{ "0x12345: saturates, not 0x2345", 0x12345, { 0xff, 0xff } },
	{ "U32_MAX", U32_MAX, { 0xff, 0xff } },
};

KUNIT_ARRAY_PARAM_DESC(kt_log_counter, kt_log_counter_cases, desc);

static void ibsw_cc_log_counter_test(struct kunit *test)
{
	const struct kt_u32_case *c = test->param_value;
	struct ibsw_cc_log_hdr hdr = { .events_counter = c->val };
	struct kt_log_args args = { .hdr = &hdr };
	u8 exp[KT_LOG_LEN] = { 0x01, 0x00 };

	exp[2] = c->bytes[0];
	exp[3] = c->bytes[1];
	kt_put_check(test, KT_LOG_LEN, exp, kt_log_put, &args);
}

/* SL is 4 bits: a wider value does not reach the reserved bits */
static void ibsw_cc_log_sl_test(struct kunit *test)
{
	static const struct ibsw_cc_log_hdr hdr = {};
	static const struct ibsw_cc_event ev = { .sl = 0x1f };
	static const u8 exp[KT_LOG_LEN] = { 0x01, [44] = 0xf0 };
	struct kt_log_args args = { .hdr = &hdr, .ev = &ev, .nr = 1 };

	kt_put_check(test, KT_LOG_LEN, exp, kt_log_put, &args);
}

/* From ibsw_cc_log_get()'s struct */
static void ibsw_cc_log_info_test(struct kunit *test)
{
	static const u8 exp[KT_LOG_LEN] = {
		/* counter 0x20000 saturated, time stamp 0x11223344 */
		0x01, 0x00, 0xff, 0xff, 0x11, 0x22, 0x33, 0x44,
		/* port 3 */
		[39] = 0x08,
		/* events 0 and 1 (SL 0x13 masked to 3) */
		0xbf, 0xfe, 0x00, 0x01, 0x30, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x07,
		0x00, 0x02, 0xc0, 0x00, 0xf0, 0x00, 0x00, 0x00,
		0xff, 0xff, 0xff, 0xff,
	};
	struct ibsw_cc_log_info *info;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	info->events_counter = 0x20000;
	info->threshold_events = 99;
	info->current_timestamp = 0x11223344;
	info->port_map[31] = 0x08;
	info->nr_events = 2;
	info->event[0] = (struct ibsw_cc_log_event){
		.slid = 0xbffe, .dlid = 0x0001, .sl = 0x13, .timestamp = 7,
		.port = 3, .vl = 1,
	};
	info->event[1] = (struct ibsw_cc_log_event){
		.slid = 2, .dlid = 0xc000, .sl = 15, .timestamp = U32_MAX,
		.port = 3, .vl = 14,
	};
	/* Beyond nr_events: not on the wire */
	info->event[2].slid = 0x5555;
	kt_put_check(test, KT_LOG_LEN, exp, kt_log_info_put, info);
}

/* ---- SwitchCongestionSetting ---- */

static const struct ibsw_cc_setting kt_ss = {
	.set = 0,
	.control_map = 0x0000001f,
	.victim_mask = {
		0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
		0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
		0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
		0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
	},
	.credit_mask = {
		0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
		0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
		0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
		0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf,
	},
	.threshold = 0xa,
	.packet_size = 0x21,
	.cs_threshold = 0x5,
	.cs_return_delay = 0x4321,
	.marking_rate = 0x8765,
};

static const u8 kt_ss_bytes[KT_LEN] = {
	/* 0-3 Control_Map */
	0x00, 0x00, 0x00, 0x1f,
	/* 4-35 Victim_Mask */
	0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
	0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
	0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
	/* 36-67 Credit_Mask */
	0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
	0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
	0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
	0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf,
	/* 68 Threshold (7..4), 69 Packet_Size, 70-71 CS_Threshold (15..12) */
	0xa0, 0x21, 0x50, 0x00,
	/* 72-73 CS_ReturnDelay, 74-75 Marking_Rate */
	0x43, 0x21, 0x87, 0x65,
};

static void kt_ss_eq(struct kunit *test, const struct ibsw_cc_setting *g,
		     const struct ibsw_cc_setting *e)
{
	KUNIT_EXPECT_EQ(test, g->set, e->set);
	KUNIT_EXPECT_EQ(test, g->control_map, e->control_map);
	KUNIT_EXPECT_MEMEQ(test, g->victim_mask, e->victim_mask, 32);
	KUNIT_EXPECT_MEMEQ(test, g->credit_mask, e->credit_mask, 32);
	KUNIT_EXPECT_EQ(test, g->threshold, e->threshold);
	KUNIT_EXPECT_EQ(test, g->packet_size, e->packet_size);
	KUNIT_EXPECT_EQ(test, g->cs_threshold, e->cs_threshold);
	KUNIT_EXPECT_EQ(test, g->cs_return_delay, e->cs_return_delay);
	KUNIT_EXPECT_EQ(test, g->marking_rate, e->marking_rate);
}

static void ibsw_cc_sw_setting_test(struct kunit *test)
{
	struct ibsw_cc_setting got, exp = kt_ss;
	u8 data[KT_LEN];
	unsigned int i;

	kt_put_check(test, KT_LEN, kt_ss_bytes, kt_ss_put, &kt_ss);

	/* A get is a request of every field, under the Control_Map */
	exp.set = 0xff;
	KUNIT_EXPECT_EQ(test, IBSW_CC_SET_VICTIM_MASK | IBSW_CC_SET_CREDIT_MASK |
			IBSW_CC_SET_THRESHOLD | IBSW_CC_SET_PACKET_SIZE |
			IBSW_CC_SET_CS_THRESHOLD | IBSW_CC_SET_CS_RETURN_DELAY |
			IBSW_CC_SET_MARKING_RATE | IBSW_CC_SET_CONTROL_MAP,
			0xff);
	memset(&got, 0x5a, sizeof(got));
	ibsw_cc_sw_setting_get(kt_ss_bytes, &got);
	kt_ss_eq(test, &got, &exp);

	/* Reserved: 68 bits 3..0, 70 bits 3..0, 71, and 76 on */
	memcpy(data, kt_ss_bytes, KT_LEN);
	data[68] |= 0x0f;
	data[70] |= 0x0f;
	data[71] = 0xff;
	for (i = 76; i < KT_LEN; i++)
		data[i] = 0xff;
	memset(&got, 0x5a, sizeof(got));
	ibsw_cc_sw_setting_get(data, &got);
	kt_ss_eq(test, &got, &exp);
}

struct kt_ss_field_case {
	const char		*desc;
	struct ibsw_cc_setting	s;
	bool			over;	/* masked: the get differs */
	u8			at;
	u8			n;
	u8			bytes[4];
};

#define SS(d, o, m, v, a, ...)						\
	{ .desc = (d), .s.m = (v), .over = (o), .at = (a),		\
	  .n = ARRAY_SIZE(((u8 []){ __VA_ARGS__ })),			\
	  .bytes = { __VA_ARGS__ } }

static const struct kt_ss_field_case kt_ss_field_cases[] = {
	SS("Control_Map", false, control_map, 0xdeadbeef, 0,
	   0xde, 0xad, 0xbe, 0xef),
	SS("Threshold 15", false, threshold, 15, 68, 0xf0),
	SS("Threshold 0x1f: masked", true, threshold, 0x1f, 68, 0xf0),
	SS("Packet_Size 255", false, packet_size, 255, 69, 0xff),
	SS("CS_Threshold 15", false, cs_threshold, 15, 70, 0xf0, 0x00),
	SS("CS_Threshold 0x1a: masked", true, cs_threshold, 0x1a, 70, 0xa0,
	   0x00),
	SS("CS_ReturnDelay", false, cs_return_delay, 0xc001, 72, 0xc0, 0x01),
	SS("Marking_Rate 65535", false, marking_rate, 0xffff, 74, 0xff,
	   0xff),
};

KUNIT_ARRAY_PARAM_DESC(kt_ss_field, kt_ss_field_cases, desc);

static void ibsw_cc_sw_setting_field_test(struct kunit *test)
{
	const struct kt_ss_field_case *c = test->param_value;
	struct ibsw_cc_setting got, exp = c->s;
	u8 bytes[KT_LEN] = {};

	memcpy(bytes + c->at, c->bytes, c->n);
	kt_put_check(test, KT_LEN, bytes, kt_ss_put, &c->s);
	if (c->over)
		return;
	exp.set = 0xff;
	ibsw_cc_sw_setting_get(bytes, &got);
	kt_ss_eq(test, &got, &exp);
}

/* ---- SwitchPortCongestionSetting ---- */

/* { port, set, valid, control_type, threshold, packet_size, marking_rate } */
#define PS(p, v, t, th, ps, mr)	{ p, 0, v, t, th, ps, mr, 0xffff }

struct kt_sp_put_case {
	const char			*desc;
	u32				block;
	unsigned int			nr_ports;
	unsigned int			first;	/* port of @ps[0] */
	struct ibsw_cc_port_setting	ps[4];
	u8				bytes[KT_LEN];
};

static const struct kt_sp_put_case kt_sp_put_cases[] = {
	{
		"block 0 of a 3-port switch", 0, 3, 1,
		{ PS(1, 1, 0, 0xa, 0x11, 0x1234),
		  PS(2, 0, 1, 0x5, 0x22, 0x5678),
		  PS(3, 1, 1, 0xf, 0x33, 0x9abc) },
		{
			/* element 0: port 0, without CC */
			0x00, 0x00, 0x00, 0x00,
			/* Valid (7), Control_Type (6), Threshold (3..0),
			 * Packet_Size, Marking_Rate
			 */
			0x8a, 0x11, 0x12, 0x34,
			0x45, 0x22, 0x56, 0x78,
			0xcf, 0x33, 0x9a, 0xbc,
		},
	}, {
		"wide values masked", 0, 1, 1,
		{ PS(1, 3, 2, 0x1f, 0xff, 0xffff) },
		{ [4] = 0x8f, 0xff, 0xff, 0xff },
	}, {
		"block 1 of a 34-port switch", 1, 34, 32,
		{ PS(32, 1, 0, 1, 0x01, 0x0001),
		  PS(33, 0, 0, 2, 0x02, 0x0002),
		  PS(34, 1, 0, 3, 0x03, 0x0003) },
		{
			0x81, 0x01, 0x00, 0x01,		/* port 32 */
			0x02, 0x02, 0x00, 0x02,		/* port 33 */
			0x83, 0x03, 0x00, 0x03,		/* port 34 */
		},
	}, {
		"block 2 of a 34-port switch: empty", 2, 34, 32,
		{ PS(32, 1, 0, 1, 0x01, 0x0001) },
		{},
	}, {
		"block 7 of 254 ports: port 254 in element 30", 7, 254, 251,
		{ PS(251, 1, 0, 4, 0x04, 0x0004),
		  PS(252, 1, 0, 5, 0x05, 0x0005),
		  PS(253, 1, 0, 6, 0x06, 0x0006),
		  PS(254, 1, 0, 7, 0x07, 0x0007) },
		{
			/* ports 224-250: 0 */
			[108] = 0x84, 0x04, 0x00, 0x04,	/* 251: element 27 */
			0x85, 0x05, 0x00, 0x05,
			0x86, 0x06, 0x00, 0x06,
			0x87, 0x07, 0x00, 0x07,		/* 254: element 30 */
		},
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_sp_put, kt_sp_put_cases, desc);

static void ibsw_cc_sw_port_put_test(struct kunit *test)
{
	const struct kt_sp_put_case *c = test->param_value;
	struct kt_sp_args args = { .block = c->block, .nr_ports = c->nr_ports };
	struct ibsw_cc_port_setting *ports;
	unsigned int i;

	/*
	 * Every port outside the block set, so that a port of another block
	 * shows; inside it, the ports the case gives, the others 0
	 */
	ports = kunit_kcalloc(test, c->nr_ports, sizeof(*ports), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ports);
	for (i = 0; i < c->nr_ports; i++)
		if ((i + 1) / 32 != c->block)
			ports[i] = (struct ibsw_cc_port_setting)
				PS(i + 1, 1, 1, 0xe, 0xee, 0xeeee);
	for (i = 0; i < ARRAY_SIZE(c->ps) && c->ps[i].port; i++)
		ports[c->first - 1 + i] = c->ps[i];
	args.ports = ports;
	kt_put_check(test, KT_LEN, c->bytes, kt_sp_put, &args);
}

struct kt_sp_get_case {
	const char	*desc;
	u32		block;
	unsigned int	nr_ports;
	unsigned int	nr;		/* expected entries */
	unsigned int	first;		/* expected first port */
};

static const struct kt_sp_get_case kt_sp_get_cases[] = {
	{ "block 0, 3 ports: 1-3", 0, 3, 3, 1 },
	{ "block 0, 0 ports: none", 0, 0, 0, 0 },
	{ "block 0, 36 ports: 1-31", 0, 36, 31, 1 },
	{ "block 1, 32 ports: 32", 1, 32, 1, 32 },
	{ "block 1, 36 ports: 32-36", 1, 36, 5, 32 },
	{ "block 7, 254 ports: 224-254", 7, 254, 31, 224 },
	{ "block 8, 254 ports: none", 8, 254, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_sp_get, kt_sp_get_cases, desc);

/*
 * Element e holds Valid = e & 1, Control_Type = (e >> 1) & 1, the
 * reserved bits 5..4 set, Threshold = e & 15, Packet_Size = e + 0x40,
 * Marking_Rate = 0x100 e + 0x80
 */
static void ibsw_cc_sw_port_get_test(struct kunit *test)
{
	const struct kt_sp_get_case *c = test->param_value;
	struct ibsw_cc_port_setting ps[IBSW_CC_SW_PORT_BLOCK];
	u8 data[KT_LEN];
	unsigned int i, n;

	memset(data, 0xff, KT_LEN);
	for (i = 0; i < 32; i++) {
		u8 *p = data + 4 * i;

		p[0] = (i & 1) << 7 | ((i >> 1) & 1) << 6 | 0x30 | (i & 15);
		p[1] = i + 0x40;
		p[2] = i;
		p[3] = 0x80;
	}
	memset(ps, 0x5a, sizeof(ps));
	n = ibsw_cc_sw_port_get(data, c->block, c->nr_ports, ps);
	KUNIT_ASSERT_EQ(test, n, c->nr);
	for (i = 0; i < n; i++) {
		unsigned int port = c->first + i, e = port % 32;

		KUNIT_EXPECT_EQ_MSG(test, ps[i].port, port, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ps[i].set, 0x1f, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ps[i].valid, e & 1, "port %u", port);
		KUNIT_EXPECT_EQ_MSG(test, ps[i].control_type, (e >> 1) & 1,
				    "port %u", port);
		KUNIT_EXPECT_EQ_MSG(test, ps[i].threshold, e & 15, "port %u",
				    port);
		KUNIT_EXPECT_EQ_MSG(test, ps[i].packet_size, e + 0x40,
				    "port %u", port);
		KUNIT_EXPECT_EQ_MSG(test, ps[i].marking_rate, 0x100 * e + 0x80,
				    "port %u", port);
	}
	KUNIT_EXPECT_EQ(test, IBSW_CC_PORT_VALID | IBSW_CC_PORT_CONTROL_TYPE |
			IBSW_CC_PORT_THRESHOLD | IBSW_CC_PORT_PACKET_SIZE |
			IBSW_CC_PORT_MARKING_RATE, 0x1f);
}

/* ---- Header check ---- */

#define CPI	0x0001
#define CI	0x0011
#define KI	0x0012
#define LOG	0x0013
#define SSET	0x0014
#define SP	0x0015
#define TS	0x0018

/* A CC request, class version 2 */
#define REQ(d, m, a, mod, n, e)	{ d, 0x01, 0x21, 0x02, m, a, mod, 0, n, e }

static const struct kt_gmp_case kt_check_cases[] = {
	REQ("Get ClassPortInfo", GET, CPI, 0, 8, OK),
	REQ("Get CongestionInfo", GET, CI, 0, 8, OK),
	REQ("Get CongestionKeyInfo", GET, KI, 0, 8, OK),
	REQ("Set CongestionKeyInfo", SET, KI, 0, 8, OK),
	REQ("Get CongestionLog", GET, LOG, 0, 8, OK),
	REQ("Get SwitchCongestionSetting", GET, SSET, 0, 8, OK),
	REQ("Set SwitchCongestionSetting", SET, SSET, 0, 8, OK),
	REQ("Get SwitchPortCongestionSetting block 0", GET, SP, 0, 8, OK),
	REQ("Set SwitchPortCongestionSetting block 0", SET, SP, 0, 8, OK),
	REQ("Get TimeStamp", GET, TS, 0, 8, OK),
	REQ("Set ClassPortInfo", SET, CPI, 0, 8, ATTR),
	REQ("Set CongestionInfo", SET, CI, 0, 8, ATTR),
	REQ("Set CongestionLog", SET, LOG, 0, 8, ATTR),
	REQ("Set TimeStamp", SET, TS, 0, 8, ATTR),
	REQ("Get Notice", GET, 0x0002, 0, 8, ATTR),
	REQ("Get CACongestionSetting", GET, 0x0016, 0, 8, ATTR),
	REQ("Set CACongestionSetting", SET, 0x0016, 0, 8, ATTR),
	REQ("Get CongestionControlTable", GET, 0x0017, 0, 8, ATTR),
	REQ("Set CongestionControlTable", SET, 0x0017, 0, 8, ATTR),
	REQ("Get attribute 0x0010", GET, 0x0010, 0, 8, ATTR),
	REQ("Get attribute 0x0019", GET, 0x0019, 0, 8, ATTR),
	REQ("Get attribute 0xffff", GET, 0xffff, 0, 8, ATTR),
	REQ("Get CongestionInfo, modifier 1", GET, CI, 1, 8, VALUE),
	REQ("Set CongestionKeyInfo, modifier 1", SET, KI, 1, 8, VALUE),
	REQ("Get CongestionLog, modifier 0x100", GET, LOG, 0x100, 8, VALUE),
	REQ("Get TimeStamp, modifier 1", GET, TS, 1, 8, VALUE),
	REQ("SP block 1 of 8 ports", GET, SP, 1, 8, VALUE),
	REQ("SP block 1 of 31 ports", GET, SP, 1, 31, VALUE),
	REQ("SP block 1 of 32 ports", SET, SP, 1, 32, OK),
	REQ("SP block 7 of 254 ports", GET, SP, 7, 254, OK),
	REQ("SP block 8 of 254 ports", GET, SP, 8, 254, VALUE),
	REQ("SP block 0xffffffff", GET, SP, 0xffffffff, 254, VALUE),
	REQ("Send", 0x03, CI, 0, 8, METHOD),
	REQ("method 0x04", 0x04, CI, 0, 8, METHOD),
	REQ("GetResp", 0x81, CI, 0, 8, NO_REPLY),
	REQ("Trap", 0x05, 0x0002, 0, 8, NO_REPLY),
	REQ("Report", 0x06, CI, 0, 8, NO_REPLY),
	REQ("TrapRepress", 0x07, CI, 0, 8, NO_REPLY),
	{ "class version 1 (as qib)", 1, 0x21, 1, GET, CI, 0, 0, 8, VERSION },
	{ "class version 3", 1, 0x21, 3, GET, CI, 0, 0, 8, VERSION },
	{ "base version 2", 2, 0x21, 2, GET, CI, 0, 0, 8, NO_REPLY },
	{ "class PerfMgt", 1, 0x04, 2, GET, CI, 0, 0, 8, NO_REPLY },
	/* Which check wins */
	{ "bad version and method: version", 1, 0x21, 1, 0x03, CI, 0, 0, 8,
	  VERSION },
	{ "GetResp, bad version: no reply", 1, 0x21, 1, 0x81, CI, 0, 0, 8,
	  NO_REPLY },
	REQ("bad method, CA attribute: method", 0x03, 0x0017, 0, 8, METHOD),
	REQ("read-only Set, bad modifier: attribute", SET, CI, 1, 8, ATTR),
	REQ("CA attribute, bad modifier: attribute", GET, 0x0017, 99, 8,
	    ATTR),
};

KUNIT_ARRAY_PARAM_DESC(kt_check, kt_check_cases, desc);

static void ibsw_cc_check_test(struct kunit *test)
{
	const struct kt_gmp_case *c = test->param_value;
	struct ib_mad_hdr hdr;

	kt_gmp_hdr(&hdr, c);
	KUNIT_EXPECT_EQ(test, ibsw_cc_check(&hdr, c->nr_ports), c->exp);
}

static void ibsw_cc_constants_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_CLASS_PORT_INFO, 0x0001);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_NOTICE, 0x0002);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_CONG_INFO, 0x0011);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_KEY_INFO, 0x0012);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_LOG, 0x0013);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_SW_SETTING, 0x0014);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_SW_PORT_SETTING, 0x0015);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_CA_SETTING, 0x0016);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_CCT, 0x0017);
	KUNIT_EXPECT_EQ(test, IBSW_CC_ATTR_TIMESTAMP, 0x0018);
	KUNIT_EXPECT_EQ(test, IBSW_CC_MAD_KEY_OFFSET, 24);
	KUNIT_EXPECT_EQ(test, IBSW_CC_MAD_LOG_OFFSET, 32);
	KUNIT_EXPECT_EQ(test, IBSW_CC_MAD_DATA_OFFSET, 64);
	KUNIT_EXPECT_EQ(test, IBSW_CC_LOG_SIZE, 224);
	KUNIT_EXPECT_EQ(test, IBSW_CC_SW_PORT_BLOCK, 32);
}

static struct kunit_case ibsw_cc_mad_attr_test_cases[] = {
	KUNIT_CASE(ibsw_cc_cpi_test),
	KUNIT_CASE_PARAM(ibsw_cc_info_test, kt_info_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_timestamp_test, kt_ts_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_key_info_put_test, kt_key_put_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_key_info_set_test, kt_key_set_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_key_check_test, kt_key_check_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_log_test, kt_log_gen_params),
	KUNIT_CASE(ibsw_cc_log_one_test),
	KUNIT_CASE_PARAM(ibsw_cc_log_counter_test, kt_log_counter_gen_params),
	KUNIT_CASE(ibsw_cc_log_sl_test),
	KUNIT_CASE(ibsw_cc_log_info_test),
	KUNIT_CASE(ibsw_cc_sw_setting_test),
	KUNIT_CASE_PARAM(ibsw_cc_sw_setting_field_test,
			 kt_ss_field_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_sw_port_put_test, kt_sp_put_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_sw_port_get_test, kt_sp_get_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_check_test, kt_check_gen_params),
	KUNIT_CASE(ibsw_cc_constants_test),
	{}
};

static struct kunit_suite ibsw_cc_mad_attr_test_suite = {
	.name = "ibsw_cc_mad_attr",
	.test_cases = ibsw_cc_mad_attr_test_cases,
};

kunit_test_suite(ibsw_cc_mad_attr_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw congestion control MAD attributes");
MODULE_LICENSE("GPL");
