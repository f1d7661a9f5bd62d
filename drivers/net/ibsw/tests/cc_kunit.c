// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ibsw switch congestion control (cc.c, cc.h).
 *
 * Expected values are worked out by hand: for the default buffer (1024
 * credits) and the largest packet at MTU 4096 (65 credits) the entry
 * level L(t) = 65 + (16 - t) 959 / 15 comes out as 1088 - 64 t exactly
 * ((16 - t) 959 / 15 = 64 (16 - t) - (16 - t) / 15, rounded down), and
 * the exit level is L(t) - 65. Marking: exactly one mark in each window of
 * rate + 1 eligible packets, so N packets in whole windows get
 * N / (rate + 1) marks, and the first packet of the first window is marked.
 */

#include <kunit/test.h>
#include <linux/kernel.h>

#include "../cc.h"
#include "../pkt.h"
#include "../rate.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KT_M		65	/* largest packet at MTU 4096, credits */
#define KT_B		1024	/* default input buffer, credits */

/* Threshold levels */

struct kt_level_case {
	const char	*desc;
	unsigned int	threshold;
	unsigned int	buf;
	u32		enter;
	u32		leave;
};

static const struct kt_level_case kt_level_cases[] = {
	{ "off", 0, KT_B, 0, 1 },
	{ "t1 default buffer", 1, KT_B, 1024, 959 },
	{ "t2", 2, KT_B, 960, 895 },
	{ "t3", 3, KT_B, 896, 831 },
	{ "t4", 4, KT_B, 832, 767 },
	{ "t5", 5, KT_B, 768, 703 },
	{ "t6", 6, KT_B, 704, 639 },
	{ "t7", 7, KT_B, 640, 575 },
	{ "t8", 8, KT_B, 576, 511 },
	{ "t9", 9, KT_B, 512, 447 },
	{ "t10", 10, KT_B, 448, 383 },
	{ "t11", 11, KT_B, 384, 319 },
	{ "t12", 12, KT_B, 320, 255 },
	{ "t13", 13, KT_B, 256, 191 },
	{ "t14", 14, KT_B, 192, 127 },
	{ "t15", 15, KT_B, 128, 63 },
	/* above 15 (not accepted by cc-set) counts as 15 */
	{ "t16 clamps", 16, KT_B, 128, 63 },
	/* smallest buffer: one packet; every threshold is one packet */
	{ "t1 one-packet buffer", 1, KT_M, 65, 1 },
	{ "t15 one-packet buffer", 15, KT_M, 65, 1 },
	/* two packets: span 65, 65 * 15 / 15 and 65 / 15 = 4 */
	{ "t1 two-packet buffer", 1, 2 * KT_M, 130, 65 },
	{ "t15 two-packet buffer", 15, 2 * KT_M, 69, 4 },
	{ "t8 two-packet buffer", 8, 2 * KT_M, 99, 34 },
	/* buffer below a packet (not configurable): never below M */
	{ "t1 buffer below a packet", 1, 10, 65, 1 },
	/* largest buffer: 65 + 15 * 65470 / 15 = 65535; t15 65 + 4364 */
	{ "t1 largest buffer", 1, 65535, 65535, 65470 },
	{ "t15 largest buffer", 15, 65535, 4429, 4364 },
};

KUNIT_ARRAY_PARAM_DESC(kt_level, kt_level_cases, desc);

static void ibsw_cc_level_test(struct kunit *test)
{
	const struct kt_level_case *c = test->param_value;
	struct ibsw_cc_level lv;

	KUNIT_EXPECT_EQ(test, ibsw_cc_enter_level(c->threshold, c->buf, KT_M),
			c->enter);
	ibsw_cc_level_init(&lv, c->threshold, c->buf, KT_M, KT_M);
	KUNIT_EXPECT_EQ(test, lv.enter, c->enter);
	KUNIT_EXPECT_EQ(test, lv.leave, c->leave);
}

/*
 * With a jitter floor F above one largest packet: entry counts from F,
 * exit is one largest packet (not F) below entry, so a port VL stops
 * marking once its queue is back under the level rather than only when
 * it has nearly drained.
 */

struct kt_floor_case {
	const char	*desc;
	unsigned int	threshold;
	unsigned int	buf;
	unsigned int	floor;
	u32		enter;
	u32		leave;
};

static const struct kt_floor_case kt_floor_cases[] = {
	/* 4x DDR, scale 1000: F = 65 + 313; 378 + 646 / 15 = 378 + 43 */
	{ "4x DDR scale 1000 t15", 15, KT_B, 378, 421, 356 },
	{ "4x DDR scale 1000 t1", 1, KT_B, 378, 1024, 959 },
	/* 1x DDR, scale 200, 2048-credit buffer: F = 65 + 391;
	 * 456 + 1592 / 15 = 456 + 106
	 */
	{ "1x DDR scale 200 t15", 15, 2048, 456, 562, 497 },
	/* a floor above the buffer: every threshold enters at the floor */
	{ "floor above buffer t15", 15, KT_B, 1500, 1500, 1435 },
	{ "floor above buffer t1", 1, KT_B, 1500, 1500, 1435 },
};

KUNIT_ARRAY_PARAM_DESC(kt_floor, kt_floor_cases, desc);

static void ibsw_cc_level_floor_test(struct kunit *test)
{
	const struct kt_floor_case *c = test->param_value;
	struct ibsw_cc_level lv;

	ibsw_cc_level_init(&lv, c->threshold, c->buf, c->floor, KT_M);
	KUNIT_EXPECT_EQ(test, lv.enter, c->enter);
	KUNIT_EXPECT_EQ(test, lv.leave, c->leave);
}

/*
 * Fill compared per input port: the entry level divided by the inputs
 * queueing, never below the floor, the exit one largest packet lower
 * (or 1).
 */

struct kt_per_input_case {
	const char	*desc;
	unsigned int	threshold;
	unsigned int	floor;
	unsigned int	inputs;
	u32		enter;
	u32		leave;
};

static const struct kt_per_input_case kt_per_input_cases[] = {
	/* t1, floor 378: 1024 / 959 for one input (or none) */
	{ "t1 no input", 1, 378, 0, 1024, 959 },
	{ "t1 one input", 1, 378, 1, 1024, 959 },
	/* 1024 / 2 = 512, exit 512 - 65 */
	{ "t1 two inputs", 1, 378, 2, 512, 447 },
	/* 1024 / 3 = 341 is below the floor: 378, exit 313 */
	{ "t1 three inputs at the floor", 1, 378, 3, 378, 313 },
	{ "t1 36 inputs at the floor", 1, 378, 36, 378, 313 },
	/* t8, floor 65: 576 / 4 = 144, exit 79 */
	{ "t8 four inputs", 8, KT_M, 4, 144, 79 },
	/* t15, floor 65: 128 / 2 = 64 is below it: 65, exit 1 */
	{ "t15 two inputs", 15, KT_M, 2, 65, 1 },
	/* off stays off whatever the inputs */
	{ "off", 0, KT_M, 5, 0, 1 },
};

KUNIT_ARRAY_PARAM_DESC(kt_per_input, kt_per_input_cases, desc);

static void ibsw_cc_level_per_input_test(struct kunit *test)
{
	const struct kt_per_input_case *c = test->param_value;
	struct ibsw_cc_level lv, per;

	ibsw_cc_level_init(&lv, c->threshold, KT_B, c->floor, KT_M);
	ibsw_cc_level_per_input(&per, &lv, c->inputs);
	KUNIT_EXPECT_EQ(test, per.enter, c->enter);
	KUNIT_EXPECT_EQ(test, per.leave, c->leave);
	/* the port VL's own levels are left as they were */
	KUNIT_EXPECT_EQ(test, lv.enter, ibsw_cc_enter_level(c->threshold, KT_B,
							    c->floor));
}

/* The levels decrease uniformly: 64 credits per step for the default buffer */
static void ibsw_cc_level_uniform_test(struct kunit *test)
{
	unsigned int t;

	for (t = 1; t <= 15; t++)
		KUNIT_EXPECT_EQ(test, ibsw_cc_enter_level(t, KT_B, KT_M),
				1088 - 64 * t);
	for (t = 2; t <= 15; t++)
		KUNIT_EXPECT_LT(test, ibsw_cc_enter_level(t, 4096, KT_M),
				ibsw_cc_enter_level(t - 1, 4096, KT_M));
}

/* The queue pacing jitter alone builds: bytes of the link in the slack */

struct kt_jitter_case {
	const char	*desc;
	u64		rate_bps;
	u32		scale;
	u64		slack_ns;
	u32		credits;
};

static const struct kt_jitter_case kt_jitter_cases[] = {
	/* 16e9 * 1e7 / (8e9 * 1000) = 20000 bytes = 312.5 credits */
	{ "4x DDR, scale 1000, 10 ms", 16000000000ULL, 1000, 10000000, 313 },
	/* 2e9 * 5e6 / (8e9 * 100) = 12500 bytes = 195.3 credits */
	{ "1x SDR, scale 100, 5 ms", 2000000000ULL, 100, 5000000, 196 },
	/* exactly 64 bytes: 4.096e9 * 1e6 / (8e9 * 8000) */
	{ "exact credit", 4096000000ULL, 8000, 1000000, 1 },
	{ "no slack", 16000000000ULL, 1000, 0, 0 },
	/* scale 0 is treated as 1: 1e11 * 1e7 / 8e9 bytes */
	{ "12x NDR-ish, scale 0", 100000000000ULL, 0, 10000000, 1953125 },
};

KUNIT_ARRAY_PARAM_DESC(kt_jitter, kt_jitter_cases, desc);

static void ibsw_cc_jitter_test(struct kunit *test)
{
	const struct kt_jitter_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_cc_jitter_credits(c->rate_bps, c->scale,
						     c->slack_ns),
			c->credits);
}

/* State transitions: a script of fills against one port VL */

struct kt_step {
	u32	fill;
	bool	root;
	bool	cong;	/* expected afterwards */
};

#define KT_MAX_STEPS	16

struct kt_state_case {
	const char	*desc;
	unsigned int	threshold;
	bool		victim_ok;
	unsigned int	nr;
	struct kt_step	step[KT_MAX_STEPS];
};

static const struct kt_state_case kt_state_cases[] = {
	{ "t15: enter at 128, leave below 63", 15, false, 8, {
		{ 0, true, false }, { 127, true, false }, { 128, true, true },
		{ 64, true, true }, { 63, true, true }, { 62, true, false },
		{ 127, true, false }, { 200, true, true } } },
	{ "t1: enter at a full input buffer", 1, false, 5, {
		{ 1023, true, false }, { 1024, true, true },
		{ 959, true, true }, { 958, true, false },
		{ 4096, true, true } } },
	{ "t8: one packet of hysteresis", 8, false, 6, {
		{ 575, true, false }, { 576, true, true }, { 512, true, true },
		{ 511, true, true }, { 510, true, false },
		{ 575, true, false } } },
	{ "threshold 0: never", 0, true, 3, {
		{ 0, true, false }, { 65535, true, false },
		{ 65535, false, false } } },
	{ "victim without mask: never enters", 15, false, 4, {
		{ 1000, false, false }, { 128, false, false },
		{ 128, true, true }, { 1000, false, false } } },
	{ "victim with mask: enters and stays", 15, true, 5, {
		{ 1000, false, true }, { 100, false, true },
		{ 63, true, true }, { 62, false, false },
		{ 128, false, true } } },
	{ "root, victim, root without mask", 10, false, 6, {
		{ 448, true, true }, { 448, false, false },
		{ 447, true, false }, { 448, true, true },
		{ 400, true, true }, { 400, false, false } } },
	{ "empty queue leaves", 15, true, 3, {
		{ 128, true, true }, { 63, true, true }, { 0, true, false } } },
};

KUNIT_ARRAY_PARAM_DESC(kt_state, kt_state_cases, desc);

static void ibsw_cc_state_test(struct kunit *test)
{
	const struct kt_state_case *c = test->param_value;
	struct ibsw_cc_level lv;
	bool cong = false;
	unsigned int i;

	ibsw_cc_level_init(&lv, c->threshold, KT_B, KT_M, KT_M);
	for (i = 0; i < c->nr; i++) {
		const struct kt_step *s = &c->step[i];

		cong = ibsw_cc_next_state(cong, &lv, s->fill, s->root,
					  c->victim_ok);
		KUNIT_EXPECT_EQ_MSG(test, cong, s->cong,
				    "step %u: fill %u root %d", i, s->fill,
				    s->root);
	}
}

/*
 * Root or victim over engine passes: a victim (a pass ending with packets
 * and no credit) is a root again only after IBSW_CC_ROOT_PASSES (8)
 * passes in a row with credit. A port VL that gets credit back a packet
 * at a time, and now and then two, stays a victim and never enters the
 * state without its Victim_Mask bit.
 */
static void ibsw_cc_root_run_test(struct kunit *test)
{
	static const struct {
		const char	*credit;	/* one char per pass: c or - */
		const char	*root;		/* expected after each: r or v */
	} cases[] = {
		{ "cccc", "rrrr" },
		{ "-ccccccc", "vvvvvvvv" },
		{ "-cccccccc", "vvvvvvvvr" },
		{ "-cccccccc-c", "vvvvvvvvrvv" },
		{ "-c-cc-c-ccc-c", "vvvvvvvvvvvvv" },
		{ "--------cccccccccc", "vvvvvvvvvvvvvvvrrr" },
	};
	unsigned int i, k;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u8 run = IBSW_CC_ROOT_PASSES;

		for (k = 0; cases[i].credit[k]; k++) {
			run = ibsw_cc_root_run(run, cases[i].credit[k] == 'c');
			KUNIT_EXPECT_EQ_MSG(test, run >= IBSW_CC_ROOT_PASSES,
					    cases[i].root[k] == 'r',
					    "case %u pass %u", i, k);
		}
	}
}

/*
 * A victim over threshold without Victim_Mask: S1's port to S2 in seed
 * 002, credit back one packet at a time, three in a row every tenth time.
 * Its fill stays far above the level and it never enters the state; with
 * the mask it stays in it throughout.
 */
static void ibsw_cc_victim_passes_test(struct kunit *test)
{
	struct ibsw_cc_level lv;
	unsigned int i, mask;

	ibsw_cc_level_init(&lv, 15, KT_B, KT_M, KT_M);
	for (mask = 0; mask <= 1; mask++) {
		u8 run = IBSW_CC_ROOT_PASSES;
		unsigned int in_state = 0;
		bool cong = false;

		for (i = 0; i < 10000; i++) {
			bool credit = i % 2 || i % 10 == 4;

			run = ibsw_cc_root_run(run, credit);
			cong = ibsw_cc_next_state(cong, &lv, 2000,
						  run >= IBSW_CC_ROOT_PASSES,
						  mask);
			in_state += cong;
		}
		KUNIT_EXPECT_EQ(test, in_state, mask ? 10000 : 0);
	}
}

/* Packet_Size: packets smaller than it (in credits) are never marked */

struct kt_size_case {
	const char	*desc;
	unsigned int	wire_len;
	unsigned int	packet_size;
	bool		ok;
};

static const struct kt_size_case kt_size_cases[] = {
	{ "0 marks all, 1 byte", 1, 0, true },
	{ "0 marks all, 64 bytes", 64, 0, true },
	{ "1 credit, size 1", 64, 1, true },
	{ "2 credits, size 1", 65, 1, true },
	{ "7 credits, size 8", 448, 8, false },
	{ "8 credits (449 bytes), size 8", 449, 8, true },
	{ "8 credits (512 bytes), size 8", 512, 8, true },
	{ "9 credits, size 8", 513, 8, true },
	{ "largest at MTU 4096 (65), size 65", 4154, 65, true },
	{ "65 credits, size 66", 4154, 66, false },
	{ "ACK-sized (60 bytes), size 1", 60, 1, true },
	{ "ACK-sized (60 bytes), size 2", 60, 2, false },
	{ "largest, size 255", 4154, 255, false },
};

KUNIT_ARRAY_PARAM_DESC(kt_size, kt_size_cases, desc);

static void ibsw_cc_size_test(struct kunit *test)
{
	const struct kt_size_case *c = test->param_value;
	struct ibsw_cc_params p = { .threshold = 15,
				    .packet_size = c->packet_size };
	struct ibsw_cc_marker m;

	ibsw_cc_marker_init(&m, 1);
	KUNIT_EXPECT_EQ(test, ibsw_cc_size_ok(ibsw_wire_credits(c->wire_len),
					      c->packet_size), c->ok);
	KUNIT_EXPECT_EQ(test, ibsw_cc_mark_decide(&p, &m, true, 1,
						  ibsw_wire_credits(c->wire_len)),
			c->ok);
}

/* Marking_Rate over long runs */

struct kt_rate_case {
	const char	*desc;
	u16		rate;
	unsigned int	n;
	u32		seed;
	unsigned int	marked;	/* with a partial last window: or one more */
};

static const struct kt_rate_case kt_rate_cases[] = {
	{ "rate 0: all", 0, 100000, 1, 100000 },
	{ "rate 1: one in 2", 1, 100000, 1, 50000 },
	{ "rate 1, other seed", 1, 100000, 0xdeadbeef, 50000 },
	{ "rate 7: one in 8", 7, 100000, 7, 12500 },
	{ "rate 64: one in 65", 64, 130000, 64, 2000 },
	{ "rate 64, partial window", 64, 100000, 64, 1538 },
	{ "rate 2048: one in 2049", 2048, 102450, 2048, 50 },
	{ "rate 2048, partial window", 2048, 100000, 5, 48 },
	{ "rate 65535", 65535, 131072, 3, 2 },
	{ "rate 7, one packet", 7, 1, 9, 1 },
	{ "rate 2048, one window", 2048, 2049, 11, 1 },
};

KUNIT_ARRAY_PARAM_DESC(kt_rate, kt_rate_cases, desc);

static void ibsw_cc_rate_test(struct kunit *test)
{
	const struct kt_rate_case *c = test->param_value;
	unsigned int win = c->rate + 1, i, marked = 0, in_win = 0, bad = 0;
	struct ibsw_cc_marker m;
	bool first;

	ibsw_cc_marker_init(&m, c->seed);
	for (i = 0; i < c->n; i++) {
		bool mark = ibsw_cc_mark_next(&m, c->rate);

		if (!i)
			first = mark;
		marked += mark;
		in_win += mark;
		/* exactly one mark in every whole window */
		if ((i + 1) % win == 0) {
			bad += in_win != 1;
			in_win = 0;
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_TRUE(test, first);
	if (c->n % win)
		KUNIT_EXPECT_TRUE_MSG(test, marked == c->marked ||
				      marked == c->marked + 1,
				      "%u marks", marked);
	else
		KUNIT_EXPECT_EQ(test, marked, c->marked);
}

/* The same seed gives the same marks; another seed other positions */
static void ibsw_cc_rate_seed_test(struct kunit *test)
{
	struct ibsw_cc_marker a, b, c;
	unsigned int i, same = 0, differ = 0;

	ibsw_cc_marker_init(&a, 42);
	ibsw_cc_marker_init(&b, 42);
	ibsw_cc_marker_init(&c, 43);
	for (i = 0; i < 64000; i++) {
		bool ma = ibsw_cc_mark_next(&a, 63);

		same += ma == ibsw_cc_mark_next(&b, 63);
		differ += ma != ibsw_cc_mark_next(&c, 63);
	}
	KUNIT_EXPECT_EQ(test, same, 64000);
	KUNIT_EXPECT_GT(test, differ, 0);
	/* seed 0 is not stuck at 0: it still marks one per window */
	ibsw_cc_marker_init(&a, 0);
	for (i = 0, same = 0; i < 800; i++)
		same += ibsw_cc_mark_next(&a, 7);
	KUNIT_EXPECT_EQ(test, same, 100);
}

/*
 * Round-robin between inputs makes arrivals periodic. Seed 002's S2 port
 * to H5 serves its inputs in a cycle of 6 packets: the S1 link (H2 and H3
 * in turn), H6, H7, the S1 link, H6, H7. Marking every second packet
 * would mark H2, H7, H6, H2, ... and never H3; one random mark per window
 * of 2 marks every flow about half the time.
 */
static void ibsw_cc_rate_alias_test(struct kunit *test)
{
	static const u8 cycle[] = { 0, 2, 3, 1, 2, 3 };
	unsigned int sent[4] = {}, marked[4] = {}, i, f;
	struct ibsw_cc_marker m;

	ibsw_cc_marker_init(&m, 2002);
	for (i = 0; i < 60000; i++) {
		f = cycle[i % ARRAY_SIZE(cycle)];
		sent[f]++;
		marked[f] += ibsw_cc_mark_next(&m, 1);
	}
	for (f = 0; f < 4; f++) {
		KUNIT_EXPECT_GE_MSG(test, marked[f] * 10, sent[f] * 4,
				    "flow %u: %u of %u", f, marked[f], sent[f]);
		KUNIT_EXPECT_LE_MSG(test, marked[f] * 10, sent[f] * 6,
				    "flow %u: %u of %u", f, marked[f], sent[f]);
	}
	KUNIT_EXPECT_EQ(test, marked[0] + marked[1] + marked[2] + marked[3],
			30000);
}

/* Which packets may be marked at all */

struct kt_class_case {
	const char	*desc;
	u8		opcode;
	bool		eligible;
};

static const struct kt_class_case kt_class_cases[] = {
	{ "RC SEND only", 0x04, true },
	{ "RC SEND first", 0x00, true },
	{ "RC RDMA WRITE only", 0x0a, true },
	{ "RC RDMA WRITE middle", 0x07, true },
	{ "RC RDMA READ request", 0x0c, true },
	{ "RC RDMA READ response first", 0x0d, true },
	{ "RC RDMA READ response middle", 0x0e, true },
	{ "RC RDMA READ response last", 0x0f, true },
	{ "RC RDMA READ response only", 0x10, true },
	{ "RC ACK", 0x11, false },
	{ "RC ATOMIC ACK", 0x12, false },
	{ "RC compare-swap", 0x13, true },
	{ "UC SEND only", 0x24, true },
	{ "UD SEND only", 0x64, true },
	{ "XRC ACK", 0xb1, false },
	{ "IB CNP", 0x80, false },
	{ "RoCEv2 CNP", 0x81, false },
	{ "vendor opcode", 0xe0, false },
};

KUNIT_ARRAY_PARAM_DESC(kt_class, kt_class_cases, desc);

static void ibsw_cc_class_test(struct kunit *test)
{
	const struct kt_class_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test,
			ibsw_cc_class_eligible(ibsw_pkt_opcode_class(c->opcode)),
			c->eligible);
}

/*
 * A port VL in the state sends a mix: ineligible packets (ACKs, CNPs,
 * multicast, too small) are never marked and do not move the counter, so
 * the eligible ones are marked exactly as if alone.
 */
static void ibsw_cc_ineligible_test(struct kunit *test)
{
	struct ibsw_cc_params p = { .threshold = 15, .packet_size = 8,
				    .marking_rate = 3 };
	unsigned int i, marked = 0, eligible = 0;
	struct ibsw_cc_marker mk;

	ibsw_cc_marker_init(&mk, 5);
	for (i = 0; i < 40000; i++) {
		bool elig = true, m;
		unsigned int credits = 65;
		u16 dlid = 5;

		switch (i % 5) {
		case 0:		/* an ACK or a CNP */
			elig = ibsw_cc_class_eligible(ibsw_pkt_opcode_class(i & 1 ? 0x11 : 0x81));
			break;
		case 1:		/* multicast DLID */
			dlid = 0xc001;
			break;
		case 2:		/* 7 credits, below Packet_Size */
			credits = 7;
			break;
		case 3:		/* the permissive LID */
			dlid = 0xffff;
			break;
		default:	/* a full-size data packet */
			eligible++;
			break;
		}
		m = ibsw_cc_mark_decide(&p, &mk, elig, dlid, credits);
		if (i % 5 != 4)
			KUNIT_EXPECT_FALSE_MSG(test, m, "packet %u marked", i);
		else if (m)
			marked++;
	}
	KUNIT_EXPECT_EQ(test, eligible, 8000);
	KUNIT_EXPECT_EQ(test, marked, 2000);
}

/* Time in the state */

struct kt_clock_step {
	u64	now;
	u16	vls;
};

struct kt_clock_case {
	const char		*desc;
	unsigned int		nr;
	struct kt_clock_step	step[8];
	u64			vl0, vl1, vl7, port;
};

static const struct kt_clock_case kt_clock_cases[] = {
	{ "never in the state", 3, {
		{ 100, 0 }, { 200, 0 }, { 300, 0 } }, 0, 0, 0, 0 },
	{ "one VL, twice", 5, {
		{ 100, 0x1 }, { 250, 0 }, { 400, 0x1 }, { 450, 0x1 },
		{ 500, 0 } }, 250, 0, 0, 250 },
	{ "overlapping VLs: the port counts the union", 5, {
		{ 100, 0x1 }, { 250, 0x3 }, { 400, 0x2 }, { 1000, 0 },
		{ 2000, 0 } }, 300, 750, 0, 900 },
	{ "disjoint VLs", 4, {
		{ 0, 0x80 }, { 10, 0 }, { 20, 0x2 }, { 50, 0 } },
	  0, 30, 10, 40 },
	{ "clock going back counts nothing", 4, {
		{ 1000, 0x1 }, { 900, 0x1 }, { 1100, 0x1 }, { 1200, 0 } },
	  200, 0, 0, 200 },
};

KUNIT_ARRAY_PARAM_DESC(kt_clock, kt_clock_cases, desc);

static void ibsw_cc_clock_test(struct kunit *test)
{
	const struct kt_clock_case *c = test->param_value;
	struct ibsw_cc_clock clk = {};
	unsigned int i;

	clk.last = c->step[0].now;
	for (i = 0; i < c->nr; i++)
		ibsw_cc_clock_update(&clk, c->step[i].now, c->step[i].vls);
	KUNIT_EXPECT_EQ(test, clk.ns[0], c->vl0);
	KUNIT_EXPECT_EQ(test, clk.ns[1], c->vl1);
	KUNIT_EXPECT_EQ(test, clk.ns[7], c->vl7);
	KUNIT_EXPECT_EQ(test, clk.ns[IBSW_CC_PORT], c->port);
	KUNIT_EXPECT_EQ(test, clk.mask, 0);
}

/*
 * The state machine and the clock together, as the engine drives them:
 * a port VL's time in the state runs from the fill that crosses the
 * entry level to the one that falls below the exit level.
 */
static void ibsw_cc_state_time_test(struct kunit *test)
{
	static const struct {
		u64	now;
		u32	fill;
		bool	root;
	} script[] = {
		{ 0, 0, true }, { 10, 127, true }, { 20, 128, true },
		{ 30, 500, true }, { 40, 63, true }, { 50, 62, true },
		{ 60, 130, false }, { 70, 130, true }, { 100, 130, false },
		{ 130, 0, true },
	};
	struct ibsw_cc_clock clk = {};
	struct ibsw_cc_level lv;
	unsigned int i, entries = 0;
	u16 state = 0;

	ibsw_cc_level_init(&lv, 15, KT_B, KT_M, KT_M);
	for (i = 0; i < ARRAY_SIZE(script); i++) {
		bool cong = state & BIT(3);
		bool next = ibsw_cc_next_state(cong, &lv, script[i].fill,
					       script[i].root, false);

		if (next == cong)
			continue;
		entries += next;
		state ^= BIT(3);
		ibsw_cc_clock_update(&clk, script[i].now, state);
	}
	/* in the state from 20 to 50, and from 70 until it became a victim at 100 */
	KUNIT_EXPECT_EQ(test, clk.ns[3], 60);
	KUNIT_EXPECT_EQ(test, clk.ns[IBSW_CC_PORT], 60);
	KUNIT_EXPECT_EQ(test, entries, 2);
	KUNIT_EXPECT_EQ(test, state, 0);
}

/* 256-bit port masks */

static void ibsw_cc_mask_layout_test(struct kunit *test)
{
	static const struct {
		unsigned int	port;
		unsigned int	byte;
		u8		bit;
	} cases[] = {
		{ 0, 31, 0x01 }, { 1, 31, 0x02 }, { 7, 31, 0x80 },
		{ 8, 30, 0x01 }, { 36, 27, 0x10 }, { 254, 0, 0x40 },
		{ 255, 0, 0x80 },
	};
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u8 mask[IBSW_CC_MASK_LEN] = {};

		ibsw_cc_mask_set(mask, cases[i].port);
		for (j = 0; j < IBSW_CC_MASK_LEN; j++) {
			u8 want = 0;

			if (j == cases[i].byte)
				want = cases[i].bit;
			KUNIT_EXPECT_EQ_MSG(test, mask[j], want,
					    "port %u byte %u", cases[i].port, j);
		}
		KUNIT_EXPECT_TRUE(test, ibsw_cc_mask_test(mask, cases[i].port));
		KUNIT_EXPECT_FALSE(test, ibsw_cc_mask_empty(mask));
	}
}

struct kt_mask_case {
	const char	*desc;
	unsigned int	nr_ports;
	unsigned int	ports[4];
	unsigned int	nr;
	int		bad;
};

static const struct kt_mask_case kt_mask_cases[] = {
	{ "empty", 36, {}, 0, -1 },
	{ "ports 1 and 36 of 36", 36, { 1, 36 }, 2, -1 },
	{ "port 37 of 36", 36, { 1, 37 }, 2, 37 },
	{ "port 0", 36, { 0 }, 1, 0 },
	{ "lowest bad first", 7, { 9, 8, 3 }, 3, 8 },
	{ "port 254 of 254", 254, { 254 }, 1, -1 },
	{ "reserved bit 255", 254, { 255 }, 1, 255 },
	{ "one port switch", 1, { 1, 2 }, 2, 2 },
};

KUNIT_ARRAY_PARAM_DESC(kt_mask, kt_mask_cases, desc);

static void ibsw_cc_mask_check_test(struct kunit *test)
{
	const struct kt_mask_case *c = test->param_value;
	u8 mask[IBSW_CC_MASK_LEN] = {};
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		ibsw_cc_mask_set(mask, c->ports[i]);
	KUNIT_EXPECT_EQ(test, ibsw_cc_mask_check(mask, c->nr_ports), c->bad);
	KUNIT_EXPECT_EQ(test, ibsw_cc_mask_empty(mask), !c->nr);
}

/* Time stamps: emulated time in 1.024 us units */

static void ibsw_cc_timestamp_test(struct kunit *test)
{
	/* 1 ms of emulated time at scale 1000 is 1 s of wall time */
	KUNIT_EXPECT_EQ(test, ibsw_cc_timestamp(NSEC_PER_SEC, 1000), 976);
	KUNIT_EXPECT_EQ(test, ibsw_cc_timestamp(1024 * 1000 - 1, 1000), 0);
	KUNIT_EXPECT_EQ(test, ibsw_cc_timestamp(1024 * 1000, 1000), 1);
	KUNIT_EXPECT_EQ(test, ibsw_cc_timestamp(1024, 1), 1);
	/* the 32-bit field wraps: 2^32 units of 1024 ns at scale 1 */
	KUNIT_EXPECT_EQ(test, ibsw_cc_timestamp(1024ULL << 32, 1), 0);
	KUNIT_EXPECT_EQ(test, ibsw_cc_timestamp((1024ULL << 32) + 5 * 1024, 1),
			5);
	KUNIT_EXPECT_EQ(test, ibsw_cc_timestamp(U64_MAX, 10000),
			(u32)div_u64(U64_MAX, 10240000));
}

/* The log ring: the last IBSW_CC_LOG_EVENTS events, oldest first */

static void ibsw_cc_ring_test(struct kunit *test)
{
	static const unsigned int pushes[] = { 0, 1, 14, 15, 16, 31, 100 };
	struct ibsw_cc_event out[IBSW_CC_LOG_EVENTS];
	unsigned int i, k, n;

	for (k = 0; k < ARRAY_SIZE(pushes); k++) {
		struct ibsw_cc_ring r = {};

		for (i = 1; i <= pushes[k]; i++) {
			struct ibsw_cc_event ev = { .slid = i, .dlid = 1000 + i,
						    .timestamp = i * 10 };

			ibsw_cc_ring_push(&r, &ev);
		}
		n = ibsw_cc_ring_read(&r, out);
		KUNIT_EXPECT_EQ(test, n,
				min_t(unsigned int, pushes[k], IBSW_CC_LOG_EVENTS));
		for (i = 0; i < n; i++) {
			unsigned int want = pushes[k] - n + 1 + i;

			KUNIT_EXPECT_EQ(test, out[i].slid, want);
			KUNIT_EXPECT_EQ(test, out[i].dlid, 1000 + want);
			KUNIT_EXPECT_EQ(test, out[i].timestamp, want * 10);
		}
	}
}

/*
 * A switch's log from its ports' shares: the most recent events offered,
 * oldest first; equal times in port order. Events are (ns, port); the
 * expected lists are written out by hand.
 */

struct kt_ev {
	u64	ns;
	u8	port;
};

struct kt_recent_case {
	const char	*desc;
	unsigned int	nr_in;
	struct kt_ev	in[20];
	unsigned int	nr_out;
	struct kt_ev	out[IBSW_CC_LOG_EVENTS];
};

static const struct kt_recent_case kt_recent_cases[] = {
	{
		.desc = "none",
	}, {
		.desc = "three ports, offered port by port",
		.nr_in = 3, .in = { { 30, 1 }, { 10, 2 }, { 20, 3 } },
		.nr_out = 3, .out = { { 10, 2 }, { 20, 3 }, { 30, 1 } },
	}, {
		.desc = "equal times: lower port first",
		.nr_in = 3, .in = { { 7, 3 }, { 7, 1 }, { 5, 2 } },
		.nr_out = 3, .out = { { 5, 2 }, { 7, 1 }, { 7, 3 } },
	}, {
		.desc = "two ports of 10: the 15 most recent",
		.nr_in = 20,
		.in = { { 1, 1 }, { 3, 1 }, { 5, 1 }, { 7, 1 }, { 9, 1 },
			{ 11, 1 }, { 13, 1 }, { 15, 1 }, { 17, 1 }, { 19, 1 },
			{ 2, 2 }, { 4, 2 }, { 6, 2 }, { 8, 2 }, { 10, 2 },
			{ 12, 2 }, { 14, 2 }, { 16, 2 }, { 18, 2 }, { 20, 2 } },
		.nr_out = 15,
		.out = { { 6, 2 }, { 7, 1 }, { 8, 2 }, { 9, 1 }, { 10, 2 },
			 { 11, 1 }, { 12, 2 }, { 13, 1 }, { 14, 2 }, { 15, 1 },
			 { 16, 2 }, { 17, 1 }, { 18, 2 }, { 19, 1 }, { 20, 2 } },
	}, {
		.desc = "full: an older event is left out",
		.nr_in = 16,
		.in = { { 100, 1 }, { 101, 1 }, { 102, 1 }, { 103, 1 },
			{ 104, 1 }, { 105, 1 }, { 106, 1 }, { 107, 1 },
			{ 108, 1 }, { 109, 1 }, { 110, 1 }, { 111, 1 },
			{ 112, 1 }, { 113, 1 }, { 114, 1 }, { 5, 9 } },
		.nr_out = 15,
		.out = { { 100, 1 }, { 101, 1 }, { 102, 1 }, { 103, 1 },
			 { 104, 1 }, { 105, 1 }, { 106, 1 }, { 107, 1 },
			 { 108, 1 }, { 109, 1 }, { 110, 1 }, { 111, 1 },
			 { 112, 1 }, { 113, 1 }, { 114, 1 } },
	}, {
		.desc = "full: a newer event in the middle pushes the oldest out",
		.nr_in = 16,
		.in = { { 100, 1 }, { 102, 1 }, { 104, 1 }, { 106, 1 },
			{ 108, 1 }, { 110, 1 }, { 112, 1 }, { 114, 1 },
			{ 116, 1 }, { 118, 1 }, { 120, 1 }, { 122, 1 },
			{ 124, 1 }, { 126, 1 }, { 128, 1 }, { 103, 2 } },
		.nr_out = 15,
		.out = { { 102, 1 }, { 103, 2 }, { 104, 1 }, { 106, 1 },
			 { 108, 1 }, { 110, 1 }, { 112, 1 }, { 114, 1 },
			 { 116, 1 }, { 118, 1 }, { 120, 1 }, { 122, 1 },
			 { 124, 1 }, { 126, 1 }, { 128, 1 } },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_recent, kt_recent_cases, desc);

static void ibsw_cc_recent_test(struct kunit *test)
{
	const struct kt_recent_case *c = test->param_value;
	struct ibsw_cc_event keep[IBSW_CC_LOG_EVENTS];
	unsigned int i, n = 0;

	for (i = 0; i < c->nr_in; i++) {
		struct ibsw_cc_event ev = { .ns = c->in[i].ns,
					    .port = c->in[i].port,
					    .slid = i };

		ibsw_cc_recent_add(keep, &n, &ev);
	}
	KUNIT_ASSERT_EQ(test, n, c->nr_out);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, keep[i].ns, c->out[i].ns, "event %u", i);
		KUNIT_EXPECT_EQ_MSG(test, keep[i].port, c->out[i].port,
				    "event %u", i);
	}
}

static struct kunit_case ibsw_cc_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_cc_level_test, kt_level_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_level_floor_test, kt_floor_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_level_per_input_test, kt_per_input_gen_params),
	KUNIT_CASE(ibsw_cc_level_uniform_test),
	KUNIT_CASE_PARAM(ibsw_cc_jitter_test, kt_jitter_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_state_test, kt_state_gen_params),
	KUNIT_CASE(ibsw_cc_root_run_test),
	KUNIT_CASE(ibsw_cc_victim_passes_test),
	KUNIT_CASE_PARAM(ibsw_cc_size_test, kt_size_gen_params),
	KUNIT_CASE_PARAM(ibsw_cc_rate_test, kt_rate_gen_params),
	KUNIT_CASE(ibsw_cc_rate_seed_test),
	KUNIT_CASE(ibsw_cc_rate_alias_test),
	KUNIT_CASE_PARAM(ibsw_cc_class_test, kt_class_gen_params),
	KUNIT_CASE(ibsw_cc_ineligible_test),
	KUNIT_CASE_PARAM(ibsw_cc_clock_test, kt_clock_gen_params),
	KUNIT_CASE(ibsw_cc_state_time_test),
	KUNIT_CASE(ibsw_cc_mask_layout_test),
	KUNIT_CASE_PARAM(ibsw_cc_mask_check_test, kt_mask_gen_params),
	KUNIT_CASE(ibsw_cc_timestamp_test),
	KUNIT_CASE(ibsw_cc_ring_test),
	KUNIT_CASE_PARAM(ibsw_cc_recent_test, kt_recent_gen_params),
	{}
};

static struct kunit_suite ibsw_cc_test_suite = {
	.name = "ibsw_cc",
	.test_cases = ibsw_cc_test_cases,
};

kunit_test_suite(ibsw_cc_test_suite);

MODULE_DESCRIPTION("KUnit tests for ibsw switch congestion control");
MODULE_LICENSE("GPL");
