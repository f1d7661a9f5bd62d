// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ibsw VL arbitration, SL-to-VL tables and the input-port
 * round-robin (vlarb.c, vlarb.h).
 *
 * Arbitration cases run an output port for a number of packets: every VL
 * has a backlog of packets of one length, a VL is eligible while its
 * backlog lasts, and the VLs the arbiter picks are compared with a
 * sequence worked out by hand from IBA vol 1, 7.6.9: weights in 64-byte
 * units, a packet always sent whole, LimitOfHighPriority in 4 KiB units.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "../vlarb.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KT_NR_VLS	15
#define KT_INF		255	/* a backlog that never runs out */
#define KT_MAX_SEQ	32

#define E(v, w)		{ .vl = (v), .weight = (w) }

struct kt_arb_case {
	const char		*desc;
	struct ibsw_vlarb_table	table;
	u16			len[KT_NR_VLS];		/* wire length; 0: 64 */
	u8			backlog[KT_NR_VLS];	/* packets, or KT_INF */
	const char		*seq;	/* VLs picked in hex; '-': none */
};

#define ALL_INF		{ [0 ... KT_NR_VLS - 1] = KT_INF }
#define ALL_LEN(l)	{ [0 ... KT_NR_VLS - 1] = (l) }

static const struct kt_arb_case kt_arb_cases[] = {
	{
		.desc = "low weights 1:2:4, 64-byte packets",
		.table = { .low = { E(0, 1), E(1, 2), E(2, 4) }, .nr_low = 3 },
		.backlog = ALL_INF,
		.seq = "011222201122220112222",
	}, {
		.desc = "low weights 2:4:8, 128-byte packets",
		.table = { .low = { E(0, 2), E(1, 4), E(2, 8) }, .nr_low = 3 },
		.len = ALL_LEN(128),
		.backlog = ALL_INF,
		.seq = "01122220112222",
	}, {
		.desc = "weights 1:2:4 below a 4 KiB packet: one packet a turn",
		.table = { .low = { E(0, 1), E(1, 2), E(2, 4) }, .nr_low = 3 },
		.len = ALL_LEN(4106),
		.backlog = ALL_INF,
		.seq = "012012012",
	}, {
		.desc = "65 units left for a 65-unit packet: one, 66: two",
		.table = { .low = { E(0, 66), E(1, 65) }, .nr_low = 2 },
		.len = ALL_LEN(4106),
		.backlog = ALL_INF,
		.seq = "001001001",
	}, {
		.desc = "weight 0 entries are skipped",
		.table = { .low = { E(0, 0), E(1, 1), E(2, 0), E(3, 1) },
			   .nr_low = 4 },
		.backlog = ALL_INF,
		.seq = "131313",
	}, {
		.desc = "entries past nr_low are not used",
		.table = { .low = { E(0, 1), E(1, 1), E(2, 1) }, .nr_low = 2 },
		.backlog = ALL_INF,
		.seq = "010101",
	}, {
		.desc = "a VL listed twice gets two turns",
		.table = { .low = { E(0, 1), E(1, 1), E(0, 1), E(2, 1) },
			   .nr_low = 4 },
		.backlog = ALL_INF,
		.seq = "01020102",
	}, {
		.desc = "an ineligible VL is skipped",
		.table = { .low = { E(0, 1), E(1, 1), E(2, 1) }, .nr_low = 3 },
		.backlog = { KT_INF, 0, KT_INF },
		.seq = "020202",
	}, {
		.desc = "a VL that runs dry loses the rest of its turn",
		.table = { .low = { E(0, 4), E(1, 4) }, .nr_low = 2 },
		.backlog = { 2, KT_INF },
		.seq = "0011111111",
	}, {
		.desc = "the only eligible VL gets turn after turn",
		.table = { .low = { E(0, 2), E(1, 2) }, .nr_low = 2 },
		.backlog = { 0, 5 },
		.seq = "11111--",
	}, {
		.desc = "nothing queued",
		.table = { .low = { E(0, 1), E(1, 1) }, .nr_low = 2 },
		.seq = "---",
	}, {
		.desc = "empty tables",
		.backlog = ALL_INF,
		.seq = "---",
	}, {
		.desc = "a VL in no list is never served",
		.table = { .low = { E(0, 1) }, .nr_low = 1 },
		.backlog = { 0, 0, 0, KT_INF },
		.seq = "---",
	}, {
		.desc = "limit 0: one high packet, then one low",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 0 },
		.backlog = ALL_INF,
		.seq = "10101010",
	}, {
		.desc = "limit 1, 1 KiB packets: four high, one low",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 1 },
		.len = ALL_LEN(1024),
		.backlog = ALL_INF,
		.seq = "1111011110",
	}, {
		.desc = "limit 1, 1000-byte packets: the crossing packet goes",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 1 },
		.len = ALL_LEN(1000),
		.backlog = ALL_INF,
		.seq = "111110111110",
	}, {
		.desc = "limit 1, 4 KiB packets: one high, one low",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 1 },
		.len = ALL_LEN(4106),
		.backlog = ALL_INF,
		.seq = "101010",
	}, {
		.desc = "limit 255: low starves",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1,
			   .high_limit = IBSW_VLARB_LIMIT_UNBOUNDED },
		.len = ALL_LEN(4106),
		.backlog = ALL_INF,
		.seq = "11111111",
	}, {
		.desc = "over the limit with no low packet: high goes on",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 0 },
		.backlog = { 0, KT_INF },
		.seq = "11111",
	}, {
		.desc = "over the limit, low runs dry: high goes on",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255), E(2, 255) }, .nr_low = 2,
			   .high_limit = 0 },
		.backlog = { 0, KT_INF, 2 },
		.seq = "12121111",
	}, {
		.desc = "no high VL eligible: low goes",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 0 },
		.backlog = { KT_INF, 2 },
		.seq = "1010000",
	}, {
		.desc = "a high entry keeps its turn across low packets",
		.table = { .high = { E(1, 4), E(2, 4) }, .nr_high = 2,
			   .low = { E(0, 1) }, .nr_low = 1, .high_limit = 0 },
		.backlog = ALL_INF,
		.seq = "1010101020202020",
	}, {
		.desc = "weighted round-robin within the high list",
		.table = { .high = { E(1, 1), E(2, 2) }, .nr_high = 2,
			   .low = { E(0, 1) }, .nr_low = 1,
			   .high_limit = IBSW_VLARB_LIMIT_UNBOUNDED },
		.backlog = ALL_INF,
		.seq = "122122122",
	}, {
		.desc = "high bytes count across high entries",
		.table = { .high = { E(1, 1), E(2, 1) }, .nr_high = 2,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 2 },
		.len = ALL_LEN(2048),
		.backlog = ALL_INF,
		.seq = "1212012120",
	}, {
		.desc = "the low list keeps its place between high bursts",
		.table = { .high = { E(3, 255) }, .nr_high = 1,
			   .low = { E(0, 1), E(1, 2) }, .nr_low = 2,
			   .high_limit = 0 },
		.backlog = ALL_INF,
		.seq = "303131303131",
	}, {
		.desc = "default table, 4 VLs, 1 KiB packets",
		.table = { .low = { E(0, 64), E(1, 64), E(2, 64), E(3, 64) },
			   .nr_low = 4 },
		.len = ALL_LEN(1024),
		.backlog = ALL_INF,
		.seq = "0000111122223333",
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_arb, kt_arb_cases, desc);

static char kt_vl_char(int vl)
{
	return vl < 0 ? '-' : "0123456789abcdef"[vl];
}

/* Run the arbiter for @nr packets; the VLs picked go to @seq */
static void kt_arb_run(const struct kt_arb_case *c, struct ibsw_vlarb *arb,
		       unsigned int nr, char *seq, unsigned int *counts)
{
	u8 backlog[KT_NR_VLS];
	unsigned int i, v;
	u16 eligible;
	int vl;

	memcpy(backlog, c->backlog, sizeof(backlog));
	for (i = 0; i < nr; i++) {
		eligible = 0;
		for (v = 0; v < KT_NR_VLS; v++)
			if (backlog[v])
				eligible |= BIT(v);
		vl = ibsw_vlarb_next(arb, eligible);
		if (seq)
			seq[i] = kt_vl_char(vl);
		if (vl < 0)
			continue;
		if (counts)
			counts[vl]++;
		ibsw_vlarb_account(arb, vl, c->len[vl] ?: 64);
		if (backlog[vl] != KT_INF)
			backlog[vl]--;
	}
	if (seq)
		seq[nr] = '\0';
}

static void ibsw_vlarb_sequence_test(struct kunit *test)
{
	const struct kt_arb_case *c = test->param_value;
	unsigned int nr = strlen(c->seq);
	struct ibsw_vlarb arb;
	char seq[KT_MAX_SEQ];

	KUNIT_ASSERT_LT(test, nr, KT_MAX_SEQ);
	KUNIT_ASSERT_EQ(test, ibsw_vlarb_table_check(&c->table), 0);
	ibsw_vlarb_init(&arb, &c->table);
	kt_arb_run(c, &arb, nr, seq, NULL);
	KUNIT_EXPECT_STREQ(test, seq, c->seq);
}

/*
 * Eligibility changing from packet to packet: @eligible[i] is the bitmap
 * of eligible VLs before packet i.
 */
struct kt_step_case {
	const char		*desc;
	struct ibsw_vlarb_table	table;
	u16			len[KT_NR_VLS];		/* 0: 64 */
	u16			eligible[KT_MAX_SEQ];
	const char		*seq;
};

static const struct kt_step_case kt_step_cases[] = {
	{
		/* Were the count kept, the fourth packet would be VL 0 */
		.desc = "a low packet sent for want of high resets the count",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 1 },
		.len = { 64, 3072 },
		.eligible = { 0x3, 0x1, 0x3, 0x3, 0x3, 0x3 },
		.seq = "101101",
	}, {
		.desc = "a VL back after running dry waits for its next turn",
		.table = { .low = { E(0, 4), E(1, 4) }, .nr_low = 2 },
		.eligible = { 0x3, 0x3, 0x2, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3,
			      0x3, 0x3 },
		.seq = "00111100001",
	}, {
		.desc = "a high VL back under the limit preempts low",
		.table = { .high = { E(2, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1,
			   .high_limit = IBSW_VLARB_LIMIT_UNBOUNDED },
		.eligible = { 0x1, 0x1, 0x5, 0x5, 0x1, 0x0, 0x4 },
		.seq = "00220-2",
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_step, kt_step_cases, desc);

static void ibsw_vlarb_step_test(struct kunit *test)
{
	const struct kt_step_case *c = test->param_value;
	unsigned int i, nr = strlen(c->seq);
	struct ibsw_vlarb arb;
	char seq[KT_MAX_SEQ];
	int vl;

	KUNIT_ASSERT_LT(test, nr, KT_MAX_SEQ);
	ibsw_vlarb_init(&arb, &c->table);
	for (i = 0; i < nr; i++) {
		vl = ibsw_vlarb_next(&arb, c->eligible[i]);
		seq[i] = kt_vl_char(vl);
		if (vl >= 0)
			ibsw_vlarb_account(&arb, vl, c->len[vl] ?: 64);
	}
	seq[nr] = '\0';
	KUNIT_EXPECT_STREQ(test, seq, c->seq);
}

/* Shares over many packets: exact, since every case is whole turns */
struct kt_share_case {
	const char		*desc;
	struct ibsw_vlarb_table	table;
	u16			len[KT_NR_VLS];
	unsigned int		nr;
	unsigned int		counts[KT_NR_VLS];
};

static const struct kt_share_case kt_share_cases[] = {
	{
		.desc = "1:2:4 in 64-byte packets",
		.table = { .low = { E(0, 1), E(1, 2), E(2, 4) }, .nr_low = 3 },
		.nr = 7000,
		.counts = { 1000, 2000, 4000 },
	}, {
		.desc = "32:64:128 in 2 KiB packets",
		.table = { .low = { E(0, 32), E(1, 64), E(2, 128) },
			   .nr_low = 3 },
		.len = ALL_LEN(2048),
		.nr = 7000,
		.counts = { 1000, 2000, 4000 },
	}, {
		.desc = "equal weights share bytes, not packets",
		.table = { .low = { E(0, 64), E(1, 64) }, .nr_low = 2 },
		.len = { 64, 4096 },
		.nr = 6500,
		.counts = { 6400, 100 },
	}, {
		.desc = "limit 1: high gets 4 of 5 1 KiB packets",
		.table = { .high = { E(1, 255) }, .nr_high = 1,
			   .low = { E(0, 255) }, .nr_low = 1, .high_limit = 1 },
		.len = ALL_LEN(1024),
		.nr = 5000,
		.counts = { 1000, 4000 },
	}, {
		.desc = "1:2:4 over 7 VLs with weight 0 and VL 14",
		.table = { .low = { E(0, 0), E(14, 1), E(5, 2), E(3, 0),
				    E(9, 4) }, .nr_low = 5 },
		.nr = 7000,
		.counts = { [14] = 1000, [5] = 2000, [9] = 4000 },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_share, kt_share_cases, desc);

static void ibsw_vlarb_share_test(struct kunit *test)
{
	const struct kt_share_case *s = test->param_value;
	unsigned int counts[KT_NR_VLS] = {};
	struct kt_arb_case c = {};
	struct ibsw_vlarb arb;
	unsigned int v;

	c.table = s->table;
	memcpy(c.len, s->len, sizeof(c.len));
	memset(c.backlog, KT_INF, sizeof(c.backlog));
	ibsw_vlarb_init(&arb, &c.table);
	kt_arb_run(&c, &arb, s->nr, NULL, counts);
	for (v = 0; v < KT_NR_VLS; v++)
		KUNIT_EXPECT_EQ_MSG(test, counts[v], s->counts[v], "VL %u", v);
}

static void ibsw_vlarb_vl15_test(struct kunit *test)
{
	struct ibsw_vlarb_table t = {
		.low = { E(IBSW_VL15, 1), E(0, 1) }, .nr_low = 2,
	};
	struct ibsw_vlarb arb;
	unsigned int i;

	/* Refused in configuration, skipped by the arbiter regardless */
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_table_check(&t), -EINVAL);
	ibsw_vlarb_init(&arb, &t);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_next(&arb, BIT(15)), -ENOENT);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, ibsw_vlarb_next(&arb, BIT(15) | BIT(0)), 0);
		ibsw_vlarb_account(&arb, 0, 64);
	}
}

static void ibsw_vlarb_account_test(struct kunit *test)
{
	struct ibsw_vlarb_table t = {
		.high = { E(1, 1) }, .nr_high = 1,
		.low = { E(0, 1), E(2, 1) }, .nr_low = 2,
	};
	struct ibsw_vlarb arb;

	ibsw_vlarb_init(&arb, &t);
	/* Nothing chosen yet: not charged, VL 1 keeps its turn */
	ibsw_vlarb_account(&arb, 1, 64);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_next(&arb, 0x7), 1);
	/* Another VL than chosen (VL15 bypassing): not charged */
	ibsw_vlarb_account(&arb, 15, 64);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_next(&arb, 0x7), 1);
	ibsw_vlarb_account(&arb, 1, 64);
	/* Charged once only */
	ibsw_vlarb_account(&arb, 1, 64);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_next(&arb, 0x7), 0);
	ibsw_vlarb_account(&arb, 0, 64);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_next(&arb, 0x7), 1);
	ibsw_vlarb_account(&arb, 1, 64);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_next(&arb, 0x7), 2);
}

/* ---- tables ---- */

struct kt_check_case {
	const char		*desc;
	struct ibsw_vlarb_table	table;
	int			err;
};

static const struct kt_check_case kt_check_cases[] = {
	{ "empty", {}, 0 },
	{ "VL 14 in both lists", { .high = { E(14, 1) }, .nr_high = 1,
				   .low = { E(14, 1) }, .nr_low = 1 }, 0 },
	{ "64 entries", { .nr_high = 64, .nr_low = 64 }, 0 },
	{ "65 high entries", { .nr_high = 65 }, -EINVAL },
	{ "65 low entries", { .nr_low = 65 }, -EINVAL },
	{ "VL 15 high", { .high = { E(0, 1), E(15, 1) }, .nr_high = 2 },
	  -EINVAL },
	{ "VL 15 low", { .low = { E(15, 0) }, .nr_low = 1 }, -EINVAL },
	{ "VL 15 past nr_low", { .low = { E(0, 1), E(15, 1) }, .nr_low = 1 },
	  0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_check, kt_check_cases, desc);

static void ibsw_vlarb_table_check_test(struct kunit *test)
{
	const struct kt_check_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_vlarb_table_check(&c->table), c->err);
}

struct kt_served_case {
	const char		*desc;
	struct ibsw_vlarb_table	table;
	u16			served;
};

static const struct kt_served_case kt_served_cases[] = {
	{ "empty", {}, 0 },
	{ "the default of 4 VLs", { .low = { E(0, 64), E(1, 64), E(2, 64),
					     E(3, 64) }, .nr_low = 4 }, 0x000f },
	/* an SM's fixed-length list: unused entries are VL 0 weight 0 */
	{ "VL 0 weight 0 only", { .low = { E(1, 64), E(0, 0), E(0, 0) },
				  .nr_low = 3 }, 0x0002 },
	{ "weight 0 in one list, 1 in the other",
	  { .high = { E(2, 0) }, .nr_high = 1, .low = { E(2, 1) },
	    .nr_low = 1 }, 0x0004 },
	{ "high list only", { .high = { E(14, 255), E(3, 1) }, .nr_high = 2 },
	  0x4008 },
	{ "entries past nr_low", { .low = { E(0, 1), E(5, 1) }, .nr_low = 1 },
	  0x0001 },
};

KUNIT_ARRAY_PARAM_DESC(kt_served, kt_served_cases, desc);

static void ibsw_vlarb_table_served_test(struct kunit *test)
{
	const struct kt_served_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_vlarb_table_served(&c->table), c->served);
}

struct kt_nr_vls_case {
	const char	*desc;
	unsigned int	nr_vls;
	unsigned int	effective;
	u8		sl2vl[IBSW_NR_SLS];
};

static const struct kt_nr_vls_case kt_nr_vls_cases[] = {
	{ "0 VLs, as 1", 0, 1, { 0 } },
	{ "1 VL", 1, 1, { 0 } },
	{ "2 VLs", 2, 2, { 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1 } },
	{ "4 VLs", 4, 4, { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 } },
	{ "8 VLs", 8, 8, { 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7 } },
	{ "15 VLs", 15, 15,
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0 } },
	{ "16 VLs, as 15", 16, 15,
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0 } },
};

KUNIT_ARRAY_PARAM_DESC(kt_nr_vls, kt_nr_vls_cases, desc);

static void ibsw_vlarb_defaults_test(struct kunit *test)
{
	const struct kt_nr_vls_case *c = test->param_value;
	struct ibsw_vlarb_table t;
	struct ibsw_sl2vl map;
	unsigned int i;

	memset(&t, 0x5a, sizeof(t));
	ibsw_vlarb_table_default(&t, c->nr_vls);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_table_check(&t), 0);
	KUNIT_EXPECT_EQ(test, t.nr_high, 0);
	KUNIT_EXPECT_EQ(test, t.high_limit, 0);
	KUNIT_ASSERT_EQ(test, t.nr_low, c->effective);
	for (i = 0; i < c->effective; i++) {
		KUNIT_EXPECT_EQ(test, t.low[i].vl, i);
		KUNIT_EXPECT_EQ(test, t.low[i].weight, IBSW_VLARB_DEFAULT_WEIGHT);
	}

	memset(&map, 0x5a, sizeof(map));
	ibsw_sl2vl_default(&map, c->nr_vls);
	for (i = 0; i < IBSW_NR_SLS; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ibsw_sl2vl_get(&map, i), c->sl2vl[i],
				    "SL %u", i);
		KUNIT_EXPECT_FALSE(test, ibsw_vl_drop(ibsw_sl2vl_get(&map, i),
						      c->effective));
	}
}

/* ---- SL to VL ---- */

struct kt_sl2vl_case {
	const char	*desc;
	unsigned int	dscp;
	unsigned int	sl;
	unsigned int	map_vl;		/* ibsw_sl2vl_set(sl, map_vl) */
	int		err;
	unsigned int	nr_vls;
	bool		drop;
};

static const struct kt_sl2vl_case kt_sl2vl_cases[] = {
	{ "dscp 0: SL 0 to VL 0", 0, 0, 0, 0, 4, false },
	{ "dscp 3: still SL 0", 3, 0, 1, 0, 4, false },
	{ "dscp 4: SL 1", 4, 1, 2, 0, 4, false },
	{ "dscp 26 (AF31): SL 6", 26, 6, 3, 0, 4, false },
	{ "dscp 46 (EF): SL 11", 46, 11, 14, 0, 15, false },
	{ "dscp 63: SL 15", 63, 15, 7, 0, 8, false },
	{ "VL 15 drops", 8, 2, IBSW_VL15, 0, 15, true },
	{ "VL 4 on a port of 4 VLs drops", 12, 3, 4, 0, 4, true },
	{ "VL 3 on a port of 4 VLs passes", 12, 3, 3, 0, 4, false },
	{ "VL 14 on a port of 15 VLs passes", 60, 15, 14, 0, 15, false },
	{ "VL 16 refused", 0, 0, 16, -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(kt_sl2vl, kt_sl2vl_cases, desc);

static void ibsw_vlarb_sl2vl_test(struct kunit *test)
{
	const struct kt_sl2vl_case *c = test->param_value;
	unsigned int sl = ibsw_dscp_to_sl(c->dscp);
	struct ibsw_sl2vl map;
	unsigned int vl;

	KUNIT_EXPECT_EQ(test, sl, c->sl);
	ibsw_sl2vl_default(&map, 1);
	KUNIT_ASSERT_EQ(test, ibsw_sl2vl_set(&map, sl, c->map_vl), c->err);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, ibsw_sl2vl_get(&map, sl), 0);
		return;
	}
	vl = ibsw_sl2vl_get(&map, sl);
	KUNIT_EXPECT_EQ(test, vl, c->map_vl);
	KUNIT_EXPECT_EQ(test, ibsw_vl_drop(vl, c->nr_vls), c->drop);
	/* The other SLs keep their VL */
	KUNIT_EXPECT_EQ(test, ibsw_sl2vl_get(&map, (sl + 1) % IBSW_NR_SLS), 0);
}

static void ibsw_vlarb_sl2vl_range_test(struct kunit *test)
{
	struct ibsw_sl2vl map;

	ibsw_sl2vl_default(&map, 15);
	KUNIT_EXPECT_EQ(test, ibsw_sl2vl_set(&map, 16, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ibsw_sl2vl_set(&map, 15, 15), 0);
	/* Only the low 4 bits of an SL count */
	KUNIT_EXPECT_EQ(test, ibsw_sl2vl_get(&map, 16 + 3), 3);
	KUNIT_EXPECT_EQ(test, ibsw_sl2vl_get(&map, 15), IBSW_VL15);
}

/* ---- input-port round-robin ---- */

#define KT_MAX_PORTS	255
#define KT_PORTS(...)	.ports = { __VA_ARGS__ }, \
			.nr = ARRAY_SIZE(((u8 []){ __VA_ARGS__ }))

struct kt_rr_case {
	const char	*desc;
	unsigned int	nr_ports;
	u8		ports[8];	/* the busy ones */
	unsigned int	nr;
	unsigned int	last;
	unsigned int	next;
};

static const struct kt_rr_case kt_rr_cases[] = {
	{ "next after the last", 64, KT_PORTS(1, 5, 9), 1, 5 },
	{ "last not busy itself", 64, KT_PORTS(2, 8), 5, 8 },
	{ "wraps around", 64, KT_PORTS(1, 5, 9), 9, 1 },
	{ "wraps past the end", 64, KT_PORTS(1, 5, 9), 20, 1 },
	{ "only the last one left", 64, KT_PORTS(5), 5, 5 },
	{ "none busy", 64, .nr = 0, 3, 64 },
	{ "last beyond the ports: start at 0", 64, KT_PORTS(0, 7), 64, 0 },
	{ "last huge: start at 0", 64, KT_PORTS(3, 7), UINT_MAX, 3 },
	{ "port 63 wraps to 0", 64, KT_PORTS(0, 63), 63, 0 },
	{ "port 62 goes to 63", 64, KT_PORTS(0, 63), 62, 63 },
	{ "255 ports: from 254 wraps", 255, KT_PORTS(3, 200), 254, 3 },
	{ "255 ports: across words", 255, KT_PORTS(3, 200), 100, 200 },
	{ "bits beyond the ports are ignored", 10, KT_PORTS(4, 12), 5, 4 },
	{ "1 port", 1, KT_PORTS(0), 0, 0 },
	{ "65 ports: port 64 in the second word", 65, KT_PORTS(2, 64), 2, 64 },
	{ "65 ports: from 64 wraps to the first word", 65, KT_PORTS(2, 64), 64, 2 },
	{ "63 ports: bit 63 is beyond them", 63, KT_PORTS(5, 63), 5, 5 },
};

KUNIT_ARRAY_PARAM_DESC(kt_rr, kt_rr_cases, desc);

static void ibsw_vlarb_rr_next_test(struct kunit *test)
{
	const struct kt_rr_case *c = test->param_value;
	DECLARE_BITMAP(busy, KT_MAX_PORTS + 1);
	unsigned int i;

	bitmap_zero(busy, KT_MAX_PORTS + 1);
	for (i = 0; i < c->nr; i++)
		__set_bit(c->ports[i], busy);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_rr_next(busy, c->nr_ports, c->last),
			c->next);
}

/*
 * Fairness: input ports with backlogs of packets are served one packet per
 * turn each until all are empty.
 */
struct kt_rr_fair_case {
	const char	*desc;
	unsigned int	nr_ports;
	u8		ports[4];
	u8		backlog[4];
	unsigned int	last;
	u8		order[16];
	unsigned int	nr_order;
};

static const struct kt_rr_fair_case kt_rr_fair_cases[] = {
	{
		.desc = "3 ports, uneven backlogs",
		.nr_ports = 64, .ports = { 2, 7, 60 }, .backlog = { 3, 1, 2 },
		.last = 64,
		.order = { 2, 7, 60, 2, 60, 2 }, .nr_order = 6,
	}, {
		.desc = "3 ports, starting after port 7",
		.nr_ports = 64, .ports = { 2, 7, 60 }, .backlog = { 3, 1, 2 },
		.last = 7,
		.order = { 60, 2, 7, 60, 2, 2 }, .nr_order = 6,
	}, {
		.desc = "ports 0 and 254 of 255 alternate",
		.nr_ports = 255, .ports = { 0, 254, 128 },
		.backlog = { 3, 3, 1 },
		.last = 0,
		.order = { 128, 254, 0, 254, 0, 254, 0 }, .nr_order = 7,
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_rr_fair, kt_rr_fair_cases, desc);

static void ibsw_vlarb_rr_fair_test(struct kunit *test)
{
	const struct kt_rr_fair_case *c = test->param_value;
	DECLARE_BITMAP(busy, KT_MAX_PORTS + 1);
	unsigned int left[KT_MAX_PORTS + 1] = {};
	unsigned int i, last = c->last, p;

	bitmap_zero(busy, KT_MAX_PORTS + 1);
	for (i = 0; i < ARRAY_SIZE(c->ports) && c->backlog[i]; i++) {
		left[c->ports[i]] = c->backlog[i];
		__set_bit(c->ports[i], busy);
	}
	for (i = 0; i < c->nr_order; i++) {
		p = ibsw_vlarb_rr_next(busy, c->nr_ports, last);
		KUNIT_ASSERT_EQ_MSG(test, p, c->order[i], "turn %u", i);
		if (!--left[p])
			__clear_bit(p, busy);
		last = p;
	}
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_rr_next(busy, c->nr_ports, last),
			c->nr_ports);
}

/* ibsw_vlarb_rr_none(): whether none of the first nr_ports bits is set */
struct kt_rr_none_case {
	const char	*desc;
	unsigned int	nr_ports;
	u8		ports[8];	/* the busy ones */
	unsigned int	nr;
	bool		none;
};

static const struct kt_rr_none_case kt_rr_none_cases[] = {
	{ "none of 64", 64, .nr = 0, .none = true },
	{ "port 0 of 64", 64, KT_PORTS(0), false },
	{ "port 63 of 64", 64, KT_PORTS(63), false },
	{ "only a bit beyond 10 ports", 10, KT_PORTS(12), true },
	{ "port 9 of 10", 10, KT_PORTS(9), false },
	{ "port 64 of 65", 65, KT_PORTS(64), false },
	{ "port 254 of 255", 255, KT_PORTS(254), false },
	{ "none of 255", 255, .nr = 0, .none = true },
	{ "only a bit beyond 63 ports", 63, KT_PORTS(63), true },
};

KUNIT_ARRAY_PARAM_DESC(kt_rr_none, kt_rr_none_cases, desc);

static void ibsw_vlarb_rr_none_test(struct kunit *test)
{
	const struct kt_rr_none_case *c = test->param_value;
	DECLARE_BITMAP(busy, KT_MAX_PORTS + 1);
	unsigned int i;

	bitmap_zero(busy, KT_MAX_PORTS + 1);
	for (i = 0; i < c->nr; i++)
		__set_bit(c->ports[i], busy);
	KUNIT_EXPECT_EQ(test, ibsw_vlarb_rr_none(busy, c->nr_ports), c->none);
}

static struct kunit_case ibsw_vlarb_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_vlarb_sequence_test, kt_arb_gen_params),
	KUNIT_CASE_PARAM(ibsw_vlarb_step_test, kt_step_gen_params),
	KUNIT_CASE_PARAM(ibsw_vlarb_share_test, kt_share_gen_params),
	KUNIT_CASE(ibsw_vlarb_vl15_test),
	KUNIT_CASE(ibsw_vlarb_account_test),
	KUNIT_CASE_PARAM(ibsw_vlarb_table_check_test, kt_check_gen_params),
	KUNIT_CASE_PARAM(ibsw_vlarb_table_served_test, kt_served_gen_params),
	KUNIT_CASE_PARAM(ibsw_vlarb_defaults_test, kt_nr_vls_gen_params),
	KUNIT_CASE_PARAM(ibsw_vlarb_sl2vl_test, kt_sl2vl_gen_params),
	KUNIT_CASE(ibsw_vlarb_sl2vl_range_test),
	KUNIT_CASE_PARAM(ibsw_vlarb_rr_next_test, kt_rr_gen_params),
	KUNIT_CASE_PARAM(ibsw_vlarb_rr_fair_test, kt_rr_fair_gen_params),
	KUNIT_CASE_PARAM(ibsw_vlarb_rr_none_test, kt_rr_none_gen_params),
	{}
};

static struct kunit_suite ibsw_vlarb_test_suite = {
	.name = "ibsw_vlarb",
	.test_cases = ibsw_vlarb_test_cases,
};

kunit_test_suite(ibsw_vlarb_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw VL arbiter and SL-to-VL tables");
MODULE_LICENSE("GPL");
