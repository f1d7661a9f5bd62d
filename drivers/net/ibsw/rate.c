// SPDX-License-Identifier: GPL-2.0
/*
 * IB link widths, speeds and data rates; link time under the fabric's time
 * scale.
 *
 * Data rates are exact integers in bit/s, derived from the signalling rate
 * and line encoding of each speed (IBA vol 2) and rounded once, to the
 * nearest bit/s, after multiplying by the width. Only FDR is not a whole
 * number: 4x FDR is 600/11 Gb/s = 54545454545.45 bit/s, kept as
 * 54545454545.
 */

#include <kunit/visibility.h>
#include <linux/array_size.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/jhash.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "rate.h"

static const char * const ibsw_width_names[] = {
	[IBSW_LINK_WIDTH_1X]		= "1x",
	[IBSW_LINK_WIDTH_4X]		= "4x",
	[IBSW_LINK_WIDTH_8X]		= "8x",
	[IBSW_LINK_WIDTH_12X]	= "12x",
};

static_assert(ARRAY_SIZE(ibsw_width_names) == IBSW_NR_WIDTHS);

static const u8 ibsw_width_nr_lanes[] = {
	[IBSW_LINK_WIDTH_1X]		= 1,
	[IBSW_LINK_WIDTH_4X]		= 4,
	[IBSW_LINK_WIDTH_8X]		= 8,
	[IBSW_LINK_WIDTH_12X]	= 12,
};

static_assert(ARRAY_SIZE(ibsw_width_nr_lanes) == IBSW_NR_WIDTHS);

static const char * const ibsw_speed_names[] = {
	[IBSW_LINK_SPEED_SDR]	= "SDR",
	[IBSW_LINK_SPEED_DDR]	= "DDR",
	[IBSW_LINK_SPEED_QDR]	= "QDR",
	[IBSW_LINK_SPEED_FDR10]	= "FDR10",
	[IBSW_LINK_SPEED_FDR]	= "FDR",
	[IBSW_LINK_SPEED_EDR]	= "EDR",
	[IBSW_LINK_SPEED_HDR]	= "HDR",
	[IBSW_LINK_SPEED_NDR]	= "NDR",
};

static_assert(ARRAY_SIZE(ibsw_speed_names) == IBSW_NR_SPEEDS);

/*
 * Data rate of one lane as signalling rate (bit/s) times the efficiency
 * of the line encoding, enc_num / enc_den. HDR and NDR send 64b/66b blocks
 * transcoded to 256b/257b and protected by RS(544,514) FEC: 66/64 * 34/33
 * = 17/16 on the line.
 */
struct ibsw_lane_rate {
	u64	signal_bps;
	u8	enc_num;
	u8	enc_den;
};

static const struct ibsw_lane_rate ibsw_lane_rates[] = {
	[IBSW_LINK_SPEED_SDR]	= { 2500000000ULL, 8, 10 },
	[IBSW_LINK_SPEED_DDR]	= { 5000000000ULL, 8, 10 },
	[IBSW_LINK_SPEED_QDR]	= { 10000000000ULL, 8, 10 },
	[IBSW_LINK_SPEED_FDR10]	= { 10312500000ULL, 64, 66 },
	[IBSW_LINK_SPEED_FDR]	= { 14062500000ULL, 64, 66 },
	[IBSW_LINK_SPEED_EDR]	= { 25781250000ULL, 64, 66 },
	[IBSW_LINK_SPEED_HDR]	= { 53125000000ULL, 16, 17 },
	[IBSW_LINK_SPEED_NDR]	= { 106250000000ULL, 16, 17 },
};

static_assert(ARRAY_SIZE(ibsw_lane_rates) == IBSW_NR_SPEEDS);

/**
 * ibsw_width_name() - name of a link width, as CLI and logs show it
 * @width: link width
 *
 * Return: "1x", "4x", "8x" or "12x"; "unknown" for an invalid @width.
 */
const char *ibsw_width_name(enum ibsw_link_width width)
{
	if ((unsigned int)width >= IBSW_NR_WIDTHS)
		return "unknown";
	return ibsw_width_names[width];
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_width_name);

/**
 * ibsw_width_parse() - link width from its name
 * @name: "1x", "4x", "8x" or "12x", in any case
 *
 * Return: the &enum ibsw_link_width, or -EINVAL.
 */
int ibsw_width_parse(const char *name)
{
	unsigned int i;

	for (i = 0; i < IBSW_NR_WIDTHS; i++)
		if (!strcasecmp(name, ibsw_width_names[i]))
			return i;
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_width_parse);

/**
 * ibsw_width_lanes() - number of lanes of a link width
 * @width: link width
 *
 * Return: 1, 4, 8 or 12; 0 for an invalid @width.
 */
unsigned int ibsw_width_lanes(enum ibsw_link_width width)
{
	if ((unsigned int)width >= IBSW_NR_WIDTHS)
		return 0;
	return ibsw_width_nr_lanes[width];
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_width_lanes);

/**
 * ibsw_speed_name() - name of a link speed, as CLI and logs show it
 * @speed: link speed
 *
 * Return: "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR" or "NDR";
 * "unknown" for an invalid @speed.
 */
const char *ibsw_speed_name(enum ibsw_link_speed speed)
{
	if ((unsigned int)speed >= IBSW_NR_SPEEDS)
		return "unknown";
	return ibsw_speed_names[speed];
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_speed_name);

/**
 * ibsw_speed_parse() - link speed from its name
 * @name: one of the names ibsw_speed_name() returns, in any case
 *
 * Return: the &enum ibsw_link_speed, or -EINVAL.
 */
int ibsw_speed_parse(const char *name)
{
	unsigned int i;

	for (i = 0; i < IBSW_NR_SPEEDS; i++)
		if (!strcasecmp(name, ibsw_speed_names[i]))
			return i;
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_speed_parse);

/**
 * ibsw_rate_bps() - data rate of a link
 * @width: link width
 * @speed: link speed
 *
 * Return: the rate in bit/s after line encoding, rounded to the nearest
 * bit/s; 0 for an invalid @width or @speed.
 */
u64 ibsw_rate_bps(enum ibsw_link_width width, enum ibsw_link_speed speed)
{
	unsigned int lanes = ibsw_width_lanes(width);
	const struct ibsw_lane_rate *lr;

	if (!lanes || (unsigned int)speed >= IBSW_NR_SPEEDS)
		return 0;
	lr = &ibsw_lane_rates[speed];
	/* At most 12 * 106.25e9 * 16: no overflow */
	return DIV_ROUND_CLOSEST_ULL(lanes * lr->signal_bps * lr->enc_num,
				     lr->enc_den);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rate_bps);

/**
 * ibsw_rate_xmit_ns() - wall-clock time a packet occupies a link
 * @len: wire length in bytes, at most %IBSW_WIRE_LEN_MAX
 * @bps: link data rate, ibsw_rate_bps()
 * @scale: fabric time scale, valid
 *
 * 8 @len @scale 10^9 / @bps, exactly, rounded up: a link never runs faster
 * than its rate, and runs slower by less than 1 ns per packet. The product
 * fits in u64 for every allowed input (proven by the static_assert in
 * rate.h).
 *
 * Return: nanoseconds of wall-clock time; 0 if @bps is 0.
 */
u64 ibsw_rate_xmit_ns(unsigned int len, u64 bps, unsigned int scale)
{
	if (unlikely(!bps))
		return 0;
	return DIV64_U64_ROUND_UP(8ULL * len * scale * NSEC_PER_SEC, bps);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rate_xmit_ns);

/**
 * ibsw_rate_wait_ticks() - wall-clock time in PortXmitWait ticks
 * @wall_ns: wall-clock nanoseconds
 * @bps: link data rate, ibsw_rate_bps()
 * @scale: fabric time scale, valid
 *
 * A tick is the emulated time one 64-byte block takes on the link
 * (design §5), so the count is @wall_ns @bps / (@scale 512 10^9), rounded
 * down. Convert the total waiting time when the counter is read rather
 * than each interval, so the fractions do not get lost. The 128-bit
 * intermediate cannot overflow and the quotient fits for any @wall_ns
 * below 7 * 10^18 (over 200 years).
 *
 * Return: whole ticks; 0 if @bps or @scale is 0.
 */
u64 ibsw_rate_wait_ticks(u64 wall_ns, u64 bps, unsigned int scale)
{
	u64 tick = (u64)scale * IBSW_CREDIT_LEN * 8 * NSEC_PER_SEC;

	if (unlikely(!bps || !scale))
		return 0;
	return mul_u64_u64_div_u64(wall_ns, bps, tick);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rate_wait_ticks);

/**
 * ibsw_rate_ppm() - a rate off by some parts per million
 * @bps: nominal rate, at most %IBSW_RATE_BPS_MAX
 * @ppm: offset, -%IBSW_PPM to %IBSW_PPM
 *
 * Return: @bps (10^6 + @ppm) / 10^6, rounded down.
 */
u64 ibsw_rate_ppm(u64 bps, s32 ppm)
{
	ppm = clamp_t(s32, ppm, -IBSW_PPM, IBSW_PPM);
	return mul_u64_u64_div_u64(bps, IBSW_PPM + ppm, IBSW_PPM);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rate_ppm);

/**
 * ibsw_hca_rate() - the rate a host's HCA injects at
 * @link_bps: its link's data rate
 * @hca_bps: its injection rate as configured, 0 for the default
 *
 * Return: @hca_bps, or %IBSW_HCA_RATE_DEFAULT_PPM of @link_bps if it is 0;
 * never more than @link_bps.
 */
u64 ibsw_hca_rate(u64 link_bps, u64 hca_bps)
{
	if (!hca_bps)
		hca_bps = mul_u64_u64_div_u64(link_bps,
					      IBSW_HCA_RATE_DEFAULT_PPM,
					      IBSW_PPM);
	return min(hca_bps, link_bps);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_hca_rate);

/**
 * ibsw_clock_ppm() - the clock offset of a switch port's transmitter
 * @seed: the fabric's clock seed
 * @spread: largest offset, in ppm
 * @sw_name: the switch's name
 * @port: the port number
 *
 * Real link clocks differ by parts per million, so that two links of one
 * nominal rate never run at exactly the same rate. The offset depends
 * only on its arguments: a fabric built again from the same topology and
 * seed has the same clocks.
 *
 * Return: an offset in -@spread..@spread, spread evenly over the ports.
 */
s32 ibsw_clock_ppm(u32 seed, u32 spread, const char *sw_name,
		   unsigned int port)
{
	u32 h;

	if (!spread)
		return 0;
	h = jhash(sw_name, strlen(sw_name), jhash_2words(seed, port, 0));
	return (s32)(h % (2 * spread + 1)) - (s32)spread;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_clock_ppm);
