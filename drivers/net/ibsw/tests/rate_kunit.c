// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ibsw link rates and link time (rate.c, rate.h).
 *
 * Expected values were computed outside the kernel with exact rational
 * arithmetic (Python fractions) from the numbers of the IBA and Ethernet
 * specifications: per-lane data rates of 2, 4, 8, 10, 14.0625 * 64/66,
 * 25, 50 and 100 Gb/s, times the width, rounded to the nearest bit/s; and
 * 8 L S 10^9 / R ns, rounded up.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/limits.h>

#include "../rate.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* ---- data rates ---- */

struct kt_rate_case {
	const char		*desc;
	enum ibsw_link_width	width;
	enum ibsw_link_speed	speed;
	u64			bps;
};

#define KT_RATE(w, s, b) \
	{ #w " " #s, IBSW_LINK_WIDTH_##w, IBSW_LINK_SPEED_##s, b }

static const struct kt_rate_case kt_rate_cases[] = {
	KT_RATE(1X, SDR, 2000000000ULL),
	KT_RATE(1X, DDR, 4000000000ULL),
	KT_RATE(1X, QDR, 8000000000ULL),
	KT_RATE(1X, FDR10, 10000000000ULL),
	KT_RATE(1X, FDR, 13636363636ULL),	/* 150/11 Gb/s, down */
	KT_RATE(1X, EDR, 25000000000ULL),
	KT_RATE(1X, HDR, 50000000000ULL),
	KT_RATE(1X, NDR, 100000000000ULL),
	KT_RATE(4X, SDR, 8000000000ULL),
	KT_RATE(4X, DDR, 16000000000ULL),
	KT_RATE(4X, QDR, 32000000000ULL),
	KT_RATE(4X, FDR10, 40000000000ULL),
	KT_RATE(4X, FDR, 54545454545ULL),	/* 600/11 Gb/s, down */
	KT_RATE(4X, EDR, 100000000000ULL),
	KT_RATE(4X, HDR, 200000000000ULL),
	KT_RATE(4X, NDR, 400000000000ULL),
	KT_RATE(8X, SDR, 16000000000ULL),
	KT_RATE(8X, DDR, 32000000000ULL),
	KT_RATE(8X, QDR, 64000000000ULL),
	KT_RATE(8X, FDR10, 80000000000ULL),
	KT_RATE(8X, FDR, 109090909091ULL),	/* 1200/11 Gb/s, up */
	KT_RATE(8X, EDR, 200000000000ULL),
	KT_RATE(8X, HDR, 400000000000ULL),
	KT_RATE(8X, NDR, 800000000000ULL),
	KT_RATE(12X, SDR, 24000000000ULL),
	KT_RATE(12X, DDR, 48000000000ULL),
	KT_RATE(12X, QDR, 96000000000ULL),
	KT_RATE(12X, FDR10, 120000000000ULL),
	KT_RATE(12X, FDR, 163636363636ULL),	/* 1800/11 Gb/s, down */
	KT_RATE(12X, EDR, 300000000000ULL),
	KT_RATE(12X, HDR, 600000000000ULL),
	KT_RATE(12X, NDR, 1200000000000ULL),
};

KUNIT_ARRAY_PARAM_DESC(kt_rate, kt_rate_cases, desc);

static void ibsw_rate_bps_test(struct kunit *test)
{
	const struct kt_rate_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_rate_bps(c->width, c->speed), c->bps);
	KUNIT_EXPECT_LE(test, ibsw_rate_bps(c->width, c->speed),
			IBSW_RATE_BPS_MAX);
}

static void ibsw_rate_bps_invalid_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ibsw_rate_bps(IBSW_NR_WIDTHS, IBSW_LINK_SPEED_SDR), 0);
	KUNIT_EXPECT_EQ(test, ibsw_rate_bps(IBSW_LINK_WIDTH_4X, IBSW_NR_SPEEDS), 0);
	KUNIT_EXPECT_EQ(test, ibsw_rate_bps(-1, IBSW_LINK_SPEED_SDR), 0);
	KUNIT_EXPECT_EQ(test, ibsw_width_lanes(IBSW_NR_WIDTHS), 0);
}

/* ---- names ---- */

struct kt_name_case {
	const char	*desc;
	bool		speed;		/* a speed name, else a width name */
	const char	*name;		/* input of parse */
	int		value;		/* expected result of parse */
	const char	*canonical;	/* expected name of value, if valid */
};

static const struct kt_name_case kt_name_cases[] = {
	{ "width 1x", false, "1x", IBSW_LINK_WIDTH_1X, "1x" },
	{ "width 4x", false, "4x", IBSW_LINK_WIDTH_4X, "4x" },
	{ "width 8x", false, "8x", IBSW_LINK_WIDTH_8X, "8x" },
	{ "width 12x", false, "12x", IBSW_LINK_WIDTH_12X, "12x" },
	{ "width upper case", false, "12X", IBSW_LINK_WIDTH_12X, "12x" },
	{ "width 2x is not one", false, "2x", -EINVAL },
	{ "width without x", false, "4", -EINVAL },
	{ "width x first", false, "x4", -EINVAL },
	{ "width trailing space", false, "4x ", -EINVAL },
	{ "width empty", false, "", -EINVAL },
	{ "width is no speed", false, "SDR", -EINVAL },
	{ "speed SDR", true, "SDR", IBSW_LINK_SPEED_SDR, "SDR" },
	{ "speed DDR", true, "DDR", IBSW_LINK_SPEED_DDR, "DDR" },
	{ "speed QDR", true, "QDR", IBSW_LINK_SPEED_QDR, "QDR" },
	{ "speed FDR10", true, "FDR10", IBSW_LINK_SPEED_FDR10, "FDR10" },
	{ "speed FDR", true, "FDR", IBSW_LINK_SPEED_FDR, "FDR" },
	{ "speed EDR", true, "EDR", IBSW_LINK_SPEED_EDR, "EDR" },
	{ "speed HDR", true, "HDR", IBSW_LINK_SPEED_HDR, "HDR" },
	{ "speed NDR", true, "NDR", IBSW_LINK_SPEED_NDR, "NDR" },
	{ "speed lower case", true, "qdr", IBSW_LINK_SPEED_QDR, "QDR" },
	{ "speed mixed case", true, "Fdr10", IBSW_LINK_SPEED_FDR10, "FDR10" },
	{ "speed FDR1 is not FDR10", true, "FDR1", -EINVAL },
	{ "speed XDR is not one", true, "XDR", -EINVAL },
	{ "speed with width", true, "4xQDR", -EINVAL },
	{ "speed empty", true, "", -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(kt_name, kt_name_cases, desc);

static void ibsw_rate_name_test(struct kunit *test)
{
	const struct kt_name_case *c = test->param_value;
	int v;

	v = c->speed ? ibsw_speed_parse(c->name) : ibsw_width_parse(c->name);
	KUNIT_ASSERT_EQ(test, v, c->value);
	if (v < 0)
		return;
	KUNIT_EXPECT_STREQ(test, c->speed ? ibsw_speed_name(v) :
			   ibsw_width_name(v), c->canonical);
}

static void ibsw_rate_name_invalid_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, ibsw_width_name(IBSW_NR_WIDTHS), "unknown");
	KUNIT_EXPECT_STREQ(test, ibsw_width_name(-1), "unknown");
	KUNIT_EXPECT_STREQ(test, ibsw_speed_name(IBSW_NR_SPEEDS), "unknown");
	KUNIT_EXPECT_STREQ(test, ibsw_speed_name(-1), "unknown");
}

/* ---- wire length and credits ---- */

struct kt_len_case {
	const char	*desc;
	unsigned int	ib_len;		/* UDP payload, BTH to ICRC */
	unsigned int	wire_len;
	unsigned int	credits;
};

static const struct kt_len_case kt_len_cases[] = {
	{ "empty", 0, 10, 1 },
	{ "ack: bth aeth icrc", 12 + 4 + 4, 30, 1 },
	{ "54 bytes: exactly one credit", 54, 64, 1 },
	{ "55 bytes: one byte into the second credit", 55, 65, 2 },
	{ "118 bytes: exactly two credits", 118, 128, 2 },
	{ "send only of 4096", 12 + 4096 + 4, 4122, 65 },
	{ "write first of 4096 with reth", 12 + 16 + 4096 + 4, 4138, 65 },
	{ "send only of 1024", 12 + 1024 + 4, 1050, 17 },
	{ "largest proven", IBSW_WIRE_LEN_MAX - 10, IBSW_WIRE_LEN_MAX, 160 },
};

KUNIT_ARRAY_PARAM_DESC(kt_len, kt_len_cases, desc);

static void ibsw_rate_wire_len_test(struct kunit *test)
{
	const struct kt_len_case *c = test->param_value;
	unsigned int len = ibsw_wire_len(c->ib_len);

	KUNIT_EXPECT_EQ(test, len, c->wire_len);
	KUNIT_EXPECT_EQ(test, ibsw_wire_credits(len), c->credits);
}

struct kt_mtu_case {
	const char	*desc;
	unsigned int	mtu;
	unsigned int	max_len;
	unsigned int	credits;
};

/* Overhead: LRH 8, BTH 12, RDETH 4, DETH 8, RETH 16, ImmDt 4, ICRC 4, VCRC 2 */
static const struct kt_mtu_case kt_mtu_cases[] = {
	{ "mtu 256", 256, 314, 5 },
	{ "mtu 512", 512, 570, 9 },
	{ "mtu 1024", 1024, 1082, 17 },
	{ "mtu 2048", 2048, 2106, 33 },
	{ "mtu 4096", 4096, 4154, 65 },
};

KUNIT_ARRAY_PARAM_DESC(kt_mtu, kt_mtu_cases, desc);

static void ibsw_rate_wire_len_max_test(struct kunit *test)
{
	const struct kt_mtu_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_wire_len_max(c->mtu), c->max_len);
	KUNIT_EXPECT_EQ(test, ibsw_wire_credits(ibsw_wire_len_max(c->mtu)),
			c->credits);
}

/* ---- serialisation time ---- */

struct kt_xmit_case {
	const char	*desc;
	unsigned int	len;
	u64		bps;
	unsigned int	scale;
	u64		ns;
};

#define KT_4X_SDR	8000000000ULL
#define KT_4X_FDR	54545454545ULL
#define KT_1X_EDR	25000000000ULL
#define KT_1X_SDR	2000000000ULL
#define KT_12X_NDR	1200000000000ULL

static const struct kt_xmit_case kt_xmit_cases[] = {
	{ "4106 bytes 4x SDR S=1", 4106, KT_4X_SDR, 1, 4106 },
	{ "4106 bytes 4x SDR S=100", 4106, KT_4X_SDR, 100, 410600 },
	{ "64 bytes 4x SDR S=1", 64, KT_4X_SDR, 1, 64 },
	{ "64 bytes 4x SDR S=10000", 64, KT_4X_SDR, 10000, 640000 },
	{ "1 byte 4x SDR S=1", 1, KT_4X_SDR, 1, 1 },
	{ "4106 bytes 4x FDR S=1, 602.21 up", 4106, KT_4X_FDR, 1, 603 },
	{ "4106 bytes 4x FDR S=100, 60221.33 up", 4106, KT_4X_FDR, 100, 60222 },
	{ "1 byte 4x FDR S=1, 0.15 up", 1, KT_4X_FDR, 1, 1 },
	{ "64 bytes 1x EDR S=1, 20.48 up", 64, KT_1X_EDR, 1, 21 },
	{ "4106 bytes 1x EDR S=3, 3941.76 up", 4106, KT_1X_EDR, 3, 3942 },
	{ "64 bytes 12x NDR S=1, 0.43 up", 64, KT_12X_NDR, 1, 1 },
	{ "4106 bytes 12x NDR S=1, 27.37 up", 4106, KT_12X_NDR, 1, 28 },
	{ "largest 12x NDR S=10000, 682666.67 up", IBSW_WIRE_LEN_MAX,
	  KT_12X_NDR, IBSW_TIME_SCALE_MAX, 682667 },
	{ "largest 1x SDR S=10000, no overflow", IBSW_WIRE_LEN_MAX,
	  KT_1X_SDR, IBSW_TIME_SCALE_MAX, 409600000 },
	{ "no length", 0, KT_4X_SDR, 1, 0 },
	{ "no rate", 4106, 0, 1, 0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_xmit, kt_xmit_cases, desc);

static void ibsw_rate_xmit_ns_test(struct kunit *test)
{
	const struct kt_xmit_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_rate_xmit_ns(c->len, c->bps, c->scale),
			c->ns);
}

/* ---- PortXmitWait ticks ---- */

struct kt_ticks_case {
	const char	*desc;
	u64		wall_ns;
	u64		bps;
	unsigned int	scale;
	u64		ticks;
};

static const struct kt_ticks_case kt_ticks_cases[] = {
	{ "4x SDR S=1: 64 ns a tick", 6400, KT_4X_SDR, 1, 100 },
	{ "4x SDR S=1: rounds down", 6463, KT_4X_SDR, 1, 100 },
	{ "4x SDR S=1: next tick", 6464, KT_4X_SDR, 1, 101 },
	{ "4x SDR S=100: 6.4 us a tick", 640000, KT_4X_SDR, 100, 100 },
	{ "4x SDR S=100: 1 ns short", 639999, KT_4X_SDR, 100, 99 },
	{ "4x FDR S=1: 1 s", 1000000000ULL, KT_4X_FDR, 1, 106534090 },
	{ "12x NDR S=10000: 1 s", 1000000000ULL, KT_12X_NDR, 10000, 234375 },
	{ "12x NDR S=1: 11.6 days, 128-bit product", 1000000000000000ULL,
	  KT_12X_NDR, 1, 2343750000000000ULL },
	{ "1x SDR S=10000: 31.7 years", 1000000000000000000ULL, KT_1X_SDR,
	  10000, 390625000000ULL },
	{ "nothing", 0, KT_4X_SDR, 1, 0 },
	{ "no rate", 6400, 0, 1, 0 },
	{ "no scale", 6400, KT_4X_SDR, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_ticks, kt_ticks_cases, desc);

static void ibsw_rate_wait_ticks_test(struct kunit *test)
{
	const struct kt_ticks_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_rate_wait_ticks(c->wall_ns, c->bps, c->scale),
			c->ticks);
}

/* ---- time scale ---- */

struct kt_scale_case {
	const char	*desc;
	unsigned int	scale;
	bool		valid;
	u64		wall_ns;
	u64		emu_ns;		/* wall_ns / scale, rounded down */
	u64		emu_in;
	u64		wall_out;	/* emu_in * scale, saturated */
};

static const struct kt_scale_case kt_scale_cases[] = {
	{ "scale 0 invalid", 0, false },
	{ "scale 1", 1, true, 123456789, 123456789, 123456789, 123456789 },
	{ "scale 100", 100, true, 123456789, 1234567, 1234567, 123456700 },
	{ "scale 10000", 10000, true, 123456789, 12345, 12345, 123450000 },
	{ "scale 10001 invalid", 10001, false },
	{ "scale 1 at u64 max", 1, true, U64_MAX, U64_MAX, U64_MAX, U64_MAX },
	{ "scale 10000 at u64 max", 10000, true, U64_MAX, 1844674407370955ULL,
	  1844674407370955ULL, 18446744073709550000ULL },
	{ "scale 10000 past u64 max saturates", 10000, true, 9999, 0,
	  1844674407370956ULL, U64_MAX },
};

KUNIT_ARRAY_PARAM_DESC(kt_scale, kt_scale_cases, desc);

static void ibsw_rate_time_scale_test(struct kunit *test)
{
	const struct kt_scale_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_time_scale_valid(c->scale), c->valid);
	if (!c->valid)
		return;
	KUNIT_EXPECT_EQ(test, ibsw_time_wall_to_emu(c->wall_ns, c->scale),
			c->emu_ns);
	KUNIT_EXPECT_EQ(test, ibsw_time_emu_to_wall(c->emu_in, c->scale),
			c->wall_out);
}

/* ---- pacing ---- */

struct kt_pace_case {
	const char	*desc;
	u64		busy_until;
	u64		now;
	u64		pkt_ns;
	u64		max_lag;
	u64		next;
	u64		lost;
};

static const struct kt_pace_case kt_pace_cases[] = {
	{ "first packet ever", 0, 123456, 400, 0, 123856, 123456 },
	{ "idle port starts now", 1000, 50000, 400, 0, 50400, 49000 },
	{ "timer 49000 late, lag 1000: keeps 1000", 1000, 50000, 400, 1000,
	  49400, 48000 },
	{ "busy port queues behind", 60000, 50000, 400, 0, 60400, 0 },
	{ "busy port, lag irrelevant", 60000, 50000, 400, 1000, 60400, 0 },
	{ "free exactly now", 50000, 50000, 400, 0, 50400, 0 },
	{ "late timer within lag keeps the deadline", 49500, 50000, 400, 1000,
	  49900, 0 },
	{ "late timer at the lag keeps the deadline", 49000, 50000, 400, 1000,
	  49400, 0 },
	{ "late timer beyond lag loses the excess", 40000, 50000, 400, 1000,
	  49400, 9000 },
	{ "late timer, lag 0, restarts now", 49999, 50000, 400, 0, 50400, 1 },
	{ "clock below lag, no underflow", 0, 500, 400, 1000, 400, 0 },
	{ "clock at the lag, no underflow", 0, 1000, 400, 1000, 400, 0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_pace, kt_pace_cases, desc);

static void ibsw_rate_pace_test(struct kunit *test)
{
	const struct kt_pace_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_pace_next(c->busy_until, c->now, c->pkt_ns,
					     c->max_lag), c->next);
	KUNIT_EXPECT_EQ(test, ibsw_pace_lost(c->busy_until, c->now,
					     c->max_lag), c->lost);
	/* The packet starts exactly what is lost after the old deadline */
	KUNIT_EXPECT_EQ(test, c->next - c->pkt_ns, c->busy_until + c->lost);
}

/*
 * A train of packets: the first kicks an idle link, each of the others is
 * sent when the timer of the previous one fires, @latency late. The
 * deadline accumulates as far as the lag allows.
 */
struct kt_train_case {
	const char	*desc;
	u64		max_lag;
	u64		latency;
	unsigned int	nr;
	u64		end;
};

static const struct kt_train_case kt_train_cases[] = {
	{ "on time", 0, 0, 10, 1000 + 10 * 100 },
	{ "30 late, lag 200: full rate", 200, 30, 10, 1000 + 10 * 100 },
	{ "30 late, lag 30: full rate", 30, 30, 10, 1000 + 10 * 100 },
	{ "30 late, lag 20: loses 10 a packet", 20, 30, 10,
	  1000 + 10 * 100 + 9 * 10 },
	{ "30 late, lag 0: loses 30 a packet", 0, 30, 10,
	  1000 + 10 * 100 + 9 * 30 },
};

KUNIT_ARRAY_PARAM_DESC(kt_train, kt_train_cases, desc);

static void ibsw_rate_pace_train_test(struct kunit *test)
{
	const struct kt_train_case *c = test->param_value;
	u64 now = 1000, busy_until = 0;
	unsigned int i;

	busy_until = ibsw_pace_next(busy_until, now, 100, 0);
	for (i = 1; i < c->nr; i++) {
		now = busy_until + c->latency;
		busy_until = ibsw_pace_next(busy_until, now, 100, c->max_lag);
	}
	KUNIT_EXPECT_EQ(test, busy_until, c->end);
}

/* ---- clock offsets and HCA injection rates ---- */

struct kt_ppm_case {
	const char	*desc;
	u64		bps;
	s32		ppm;
	u64		want;
};

/* floor(bps (10^6 + ppm) / 10^6), computed with Python fractions */
static const struct kt_ppm_case kt_ppm_cases[] = {
	{ "nominal", 8000000000ULL, 0, 8000000000ULL },
	{ "+100 ppm", 8000000000ULL, 100, 8000800000ULL },
	{ "-100 ppm", 8000000000ULL, -100, 7999200000ULL },
	{ "4x FDR +37 ppm, down", 54545454545ULL, 37, 54547472726ULL },
	{ "1x FDR -73 ppm, down", 13636363636ULL, -73, 13635368181ULL },
	{ "12x NDR +1000 ppm", 1200000000000ULL, 1000, 1201200000000ULL },
	{ "1x SDR -1000 ppm", 2000000000ULL, -1000, 1998000000ULL },
	{ "beyond +10^6 clamps", 8000000000ULL, 2000000, 16000000000ULL },
	{ "beyond -10^6 clamps", 8000000000ULL, -2000000, 0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_ppm, kt_ppm_cases, desc);

static void ibsw_rate_ppm_test(struct kunit *test)
{
	const struct kt_ppm_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_rate_ppm(c->bps, c->ppm), c->want);
}

struct kt_hca_case {
	const char	*desc;
	u64		link;
	u64		hca;
	u64		want;
};

static const struct kt_hca_case kt_hca_cases[] = {
	/* seed 000: 7.9 of 8 Gb/s */
	{ "default, 4x SDR", 8000000000ULL, 0, 7900000000ULL },
	{ "default, 4x FDR, down", 54545454545ULL, 0, 53863636363ULL },
	{ "default, 1x SDR", 2000000000ULL, 0, 1975000000ULL },
	/* seed 002: 13 of 16 Gb/s, and an eighth of it */
	{ "given, 4x DDR", 16000000000ULL, 13000000000ULL, 13000000000ULL },
	{ "given, 1x SDR", 2000000000ULL, 1625000000ULL, 1625000000ULL },
	{ "given above the link: the link", 2000000000ULL, 3000000000ULL,
	  2000000000ULL },
	{ "given equal to the link", 2000000000ULL, 2000000000ULL,
	  2000000000ULL },
	{ "given, 1 bit/s", 2000000000ULL, 1, 1 },
};

KUNIT_ARRAY_PARAM_DESC(kt_hca, kt_hca_cases, desc);

static void ibsw_hca_rate_test(struct kunit *test)
{
	const struct kt_hca_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_hca_rate(c->link, c->hca), c->want);
}

struct kt_hoq_case {
	const char	*desc;
	unsigned int	hoq_life;
	unsigned int	scale;
	u64		since;
	u64		life;	/* ibsw_hoq_life_ns() */
	u64		expiry;	/* ibsw_hoq_expiry(since, life) */
};

static const struct kt_hoq_case kt_hoq_cases[] = {
	/* 4.096 us, emulated = wall at scale 1 */
	{ "0, scale 1", 0, 1, 1000, 4096, 5096 },
	/* OpenSM toward CAs: 4096 * 65536 = 268435456 ns emulated */
	{ "16, scale 1000", 16, 1000, 0, 268435456000ULL, 268435456000ULL },
	/* OpenSM between switches, 1.07 s emulated, 3 hours of wall time */
	{ "18, scale 10000", 18, 10000, 5, 10737418240000ULL,
	  10737418240005ULL },
	/* the longest finite one: 4096 << 19 = 2147483648 ns */
	{ "19, scale 10000", 19, 10000, 0, 21474836480000ULL,
	  21474836480000ULL },
	{ "20: infinite", 20, 1, 0, U64_MAX, U64_MAX },
	{ "31: infinite", 31, 10000, 7, U64_MAX, U64_MAX },
	/* a head since the end of time expires never, not at 0 */
	{ "sum beyond u64", 0, 1, U64_MAX - 100, 4096, U64_MAX },
};

KUNIT_ARRAY_PARAM_DESC(kt_hoq, kt_hoq_cases, desc);

static void ibsw_hoq_life_test(struct kunit *test)
{
	const struct kt_hoq_case *c = test->param_value;
	u64 life = ibsw_hoq_life_ns(c->hoq_life, c->scale);

	KUNIT_EXPECT_EQ(test, life, c->life);
	KUNIT_EXPECT_EQ(test, ibsw_hoq_expiry(c->since, life), c->expiry);
}

static const char * const kt_clock_names[] = { "S1", "S2", "leaf07", "x" };

/* No offset at spread 0, whatever the seed, switch and port */
static void ibsw_clock_ppm_zero_test(struct kunit *test)
{
	unsigned int i, port;

	for (i = 0; i < ARRAY_SIZE(kt_clock_names); i++)
		for (port = 1; port <= IBSW_MAX_PORTS; port++)
			KUNIT_EXPECT_EQ(test, ibsw_clock_ppm(port * 7919, 0,
							     kt_clock_names[i],
							     port), 0);
}

/*
 * Offsets stay within the spread, repeat for the same arguments, use both
 * signs and nearly every value, and average near 0: over 1016 ports a
 * uniform offset in -100..100 has a mean within +-15 (eight standard
 * deviations) and misses fewer than 10 of the 201 values.
 */
static void ibsw_clock_ppm_spread_test(struct kunit *test)
{
	static const u32 spreads[] = { 1, 100, 1000 };
	unsigned long seen[BITS_TO_LONGS(201)] = {};
	unsigned int i, port, s, n = 0;
	s64 sum = 0;

	for (s = 0; s < ARRAY_SIZE(spreads); s++) {
		for (i = 0; i < ARRAY_SIZE(kt_clock_names); i++) {
			for (port = 1; port <= IBSW_MAX_PORTS; port++) {
				s32 ppm = ibsw_clock_ppm(1, spreads[s],
							 kt_clock_names[i],
							 port);

				KUNIT_ASSERT_LE(test, abs(ppm), spreads[s]);
				KUNIT_EXPECT_EQ(test, ppm,
						ibsw_clock_ppm(1, spreads[s],
							       kt_clock_names[i],
							       port));
				if (spreads[s] != 100)
					continue;
				__set_bit(ppm + 100, seen);
				sum += ppm;
				n++;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, n, 4 * IBSW_MAX_PORTS);
	KUNIT_EXPECT_LE(test, abs(div_s64(sum, n)), 15);
	KUNIT_EXPECT_GE(test, bitmap_weight(seen, 201), 191);
}

/* Another seed, another switch or another port: other clocks */
static void ibsw_clock_ppm_differ_test(struct kunit *test)
{
	unsigned int port, same_seed = 0, same_sw = 0, same_port = 0;

	for (port = 1; port <= IBSW_MAX_PORTS; port++) {
		s32 ppm = ibsw_clock_ppm(1, 100, "S1", port);

		same_seed += ppm == ibsw_clock_ppm(2, 100, "S1", port);
		same_sw += ppm == ibsw_clock_ppm(1, 100, "S2", port);
		same_port += port < IBSW_MAX_PORTS &&
			     ppm == ibsw_clock_ppm(1, 100, "S1", port + 1);
	}
	/* A match by chance is 1 in 201: about 1.3 of 254 */
	KUNIT_EXPECT_LE(test, same_seed, 10);
	KUNIT_EXPECT_LE(test, same_sw, 10);
	KUNIT_EXPECT_LE(test, same_port, 10);
}

static struct kunit_case ibsw_rate_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_rate_bps_test, kt_rate_gen_params),
	KUNIT_CASE(ibsw_rate_bps_invalid_test),
	KUNIT_CASE_PARAM(ibsw_rate_name_test, kt_name_gen_params),
	KUNIT_CASE(ibsw_rate_name_invalid_test),
	KUNIT_CASE_PARAM(ibsw_rate_wire_len_test, kt_len_gen_params),
	KUNIT_CASE_PARAM(ibsw_rate_wire_len_max_test, kt_mtu_gen_params),
	KUNIT_CASE_PARAM(ibsw_rate_xmit_ns_test, kt_xmit_gen_params),
	KUNIT_CASE_PARAM(ibsw_rate_wait_ticks_test, kt_ticks_gen_params),
	KUNIT_CASE_PARAM(ibsw_rate_time_scale_test, kt_scale_gen_params),
	KUNIT_CASE_PARAM(ibsw_rate_pace_test, kt_pace_gen_params),
	KUNIT_CASE_PARAM(ibsw_rate_pace_train_test, kt_train_gen_params),
	KUNIT_CASE_PARAM(ibsw_rate_ppm_test, kt_ppm_gen_params),
	KUNIT_CASE_PARAM(ibsw_hca_rate_test, kt_hca_gen_params),
	KUNIT_CASE_PARAM(ibsw_hoq_life_test, kt_hoq_gen_params),
	KUNIT_CASE(ibsw_clock_ppm_zero_test),
	KUNIT_CASE(ibsw_clock_ppm_spread_test),
	KUNIT_CASE(ibsw_clock_ppm_differ_test),
	{}
};

static struct kunit_suite ibsw_rate_test_suite = {
	.name = "ibsw_rate",
	.test_cases = ibsw_rate_test_cases,
};

kunit_test_suite(ibsw_rate_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw link rate and time helpers");
MODULE_LICENSE("GPL");
