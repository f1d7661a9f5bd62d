// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of ibswctl's argument parsers (utils.c): rates, SW/PORT,
 * rates in bit/s (hca-rate), VL:WEIGHT lists, SL-to-VL maps, buffers, MACs, addresses, LID:PORT
 * lists, netdev names, with their error messages; names and formats, and
 * the tables indexed by the uapi's numbers; the addresses the fabric
 * builder derives from a LID.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A parser failed with this message (then forget it) */
static void check_err(struct t *t, int ret, const char *msg)
{
	char want[512];

	snprintf(want, sizeof(want), "ibswctl: %s\n", msg);
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(t_err(t), want);
	t_clear(t);
}

static void rates(void **state)
{
	static const struct {
		const char *text;
		uint32_t width, speed;
		uint64_t bps;
		const char *shown;
	} cases[] = {
		{ "1xSDR", IBSW_LINK_WIDTH_1X, IBSW_LINK_SPEED_SDR,
		  2000000000ULL, "1xSDR (2 Gb/s)" },
		{ "4xSDR", IBSW_LINK_WIDTH_4X, IBSW_LINK_SPEED_SDR,
		  8000000000ULL, "4xSDR (8 Gb/s)" },
		{ "4xddr", IBSW_LINK_WIDTH_4X, IBSW_LINK_SPEED_DDR,
		  16000000000ULL, "4xDDR (16 Gb/s)" },
		{ "4xQDR", IBSW_LINK_WIDTH_4X, IBSW_LINK_SPEED_QDR,
		  32000000000ULL, "4xQDR (32 Gb/s)" },
		{ "12XQDR", IBSW_LINK_WIDTH_12X, IBSW_LINK_SPEED_QDR,
		  96000000000ULL, "12xQDR (96 Gb/s)" },
		{ "4xFDR10", IBSW_LINK_WIDTH_4X, IBSW_LINK_SPEED_FDR10,
		  40000000000ULL, "4xFDR10 (40 Gb/s)" },
		{ "1xFDR", IBSW_LINK_WIDTH_1X, IBSW_LINK_SPEED_FDR,
		  13636363636ULL, "1xFDR (13.636 Gb/s)" },
		{ "4xFDR", IBSW_LINK_WIDTH_4X, IBSW_LINK_SPEED_FDR,
		  54545454545ULL, "4xFDR (54.545 Gb/s)" },
		{ "8xFDR", IBSW_LINK_WIDTH_8X, IBSW_LINK_SPEED_FDR,
		  109090909091ULL, "8xFDR (109.091 Gb/s)" },
		{ "12xFDR", IBSW_LINK_WIDTH_12X, IBSW_LINK_SPEED_FDR,
		  163636363636ULL, "12xFDR (163.636 Gb/s)" },
		{ "4xEDR", IBSW_LINK_WIDTH_4X, IBSW_LINK_SPEED_EDR,
		  100000000000ULL, "4xEDR (100 Gb/s)" },
		{ "8xHDR", IBSW_LINK_WIDTH_8X, IBSW_LINK_SPEED_HDR,
		  400000000000ULL, "8xHDR (400 Gb/s)" },
		{ "12xNDR", IBSW_LINK_WIDTH_12X, IBSW_LINK_SPEED_NDR,
		  1200000000000ULL, "12xNDR (1200 Gb/s)" },
	};
	struct t *t = t_new();
	uint32_t w, s;
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(ctl_parse_rate(&t->ctl, cases[i].text, &w, &s), 0);
		assert_int_equal(w, cases[i].width);
		assert_int_equal(s, cases[i].speed);
		assert_int_equal(ctl_rate_bps(w, s), cases[i].bps);
		ctl_format_rate(buf, sizeof(buf), w, s, 0);
		assert_string_equal(buf, cases[i].shown);
	}
	/* the kernel's rate wins over the table */
	ctl_format_rate(buf, sizeof(buf), IBSW_LINK_WIDTH_4X, IBSW_LINK_SPEED_QDR, 31999999999ULL);
	assert_string_equal(buf, "4xQDR (32 Gb/s)");
	ctl_format_rate(buf, sizeof(buf), 99, 99, 1500000000ULL);
	assert_string_equal(buf, "1.5 Gb/s");
	t_free(t);
}

static void rates_all_32(void **state)
{
	static const uint64_t lane[] = { 2000000000ULL, 4000000000ULL, 8000000000ULL,
		10000000000ULL, 0, 25000000000ULL, 50000000000ULL, 100000000000ULL };
	static const uint64_t fdr[] = { 13636363636ULL, 54545454545ULL, 109090909091ULL,
		163636363636ULL };
	static const unsigned int lanes[] = { 1, 4, 8, 12 };
	uint32_t w, s;

	(void)state;
	for (w = 0; w <= IBSW_LINK_WIDTH_MAX; w++)
		for (s = 0; s <= IBSW_LINK_SPEED_MAX; s++)
			assert_int_equal(ctl_rate_bps(w, s), s == IBSW_LINK_SPEED_FDR ?
					 fdr[w] : lanes[w] * lane[s]);
	assert_int_equal(ctl_rate_bps(4, 0), 0);
	assert_int_equal(ctl_rate_bps(0, 8), 0);
}

static void rate_errors(void **state)
{
	static const char *const bad[] = {
		"3xQDR", "4xXDR", "4x", "QDR", "", "4xQDRx", "x4QDR", "4QDR", "2xSDR", "04x",
	};
	struct t *t = t_new();
	uint32_t w = 77, s = 77;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		t_clear(t);
		assert_int_equal(ctl_parse_rate(&t->ctl, bad[i], &w, &s), -EINVAL);
		assert_non_null(strstr(t_err(t), "bad link rate"));
	}
	assert_int_equal(w, 77);
	t_clear(t);
	assert_int_equal(ctl_parse_rate(&t->ctl, "4xXDR", &w, &s), -EINVAL);
	assert_non_null(strstr(t_err(t),
			       "ibswctl: bad link rate \"4xXDR\": expected WIDTH and SPEED"));
	assert_non_null(strstr(t_err(t), ", e.g. 4xQDR (widths 1x 4x 8x 12x; "));
	assert_non_null(strstr(t_err(t), "speeds SDR DDR QDR FDR10 FDR EDR HDR NDR)\n"));
	t_clear(t);
	check_err(t, ctl_parse_width(&t->ctl, "2x", &w), "bad link width \"2x\" (1x 4x 8x 12x)");
	check_err(t, ctl_parse_speed(&t->ctl, "fast", &s),
		  "bad link speed \"fast\" (SDR DDR QDR FDR10 FDR EDR HDR NDR)");
	assert_int_equal(ctl_parse_width(&t->ctl, "12X", &w), 0);
	assert_int_equal(w, IBSW_LINK_WIDTH_12X);
	assert_int_equal(ctl_parse_speed(&t->ctl, "fdr10", &s), 0);
	assert_int_equal(s, IBSW_LINK_SPEED_FDR10);
	t_free(t);
}

static void swport(void **state)
{
	struct t *t = t_new();
	char sw[IBSW_NAME_LEN + 1];
	uint32_t port;
	char longname[64];

	(void)state;
	assert_int_equal(ctl_parse_swport(&t->ctl, "S1/3", sw, sizeof(sw), &port, true), 0);
	assert_string_equal(sw, "S1");
	assert_int_equal(port, 3);
	assert_int_equal(ctl_parse_swport(&t->ctl, "leaf-1.a:b_c/254", sw, sizeof(sw), &port,
					  true), 0);
	assert_string_equal(sw, "leaf-1.a:b_c");
	assert_int_equal(port, 254);
	assert_int_equal(ctl_parse_swport(&t->ctl, "S1", sw, sizeof(sw), &port, false), 0);
	assert_int_equal(port, 0);
	check_err(t, ctl_parse_swport(&t->ctl, "S1", sw, sizeof(sw), &port, true),
		  "bad port \"S1\": expected SWITCH/PORT, e.g. S1/3");
	check_err(t, ctl_parse_swport(&t->ctl, "S1/0", sw, sizeof(sw), &port, true),
		  "port number 0 out of range (1-254)");
	check_err(t, ctl_parse_swport(&t->ctl, "S1/255", sw, sizeof(sw), &port, true),
		  "port number 255 out of range (1-254)");
	check_err(t, ctl_parse_swport(&t->ctl, "S1/x", sw, sizeof(sw), &port, true),
		  "bad port number \"x\": expected a number");
	check_err(t, ctl_parse_swport(&t->ctl, "S1/", sw, sizeof(sw), &port, true),
		  "bad port number \"\": expected a number");
	check_err(t, ctl_parse_swport(&t->ctl, "S1/-1", sw, sizeof(sw), &port, true),
		  "bad port number \"-1\": expected a number");
	check_err(t, ctl_parse_swport(&t->ctl, "/3", sw, sizeof(sw), &port, true),
		  "bad switch name \"\": 1 to 32 characters");
	check_err(t, ctl_parse_swport(&t->ctl, "S 1/3", sw, sizeof(sw), &port, true),
		  "bad switch name \"S 1\": letters, digits, '_', '-', '.' and ':' only");
	memset(longname, 'a', 33);
	memcpy(longname + 33, "/1", 3);
	check_err(t, ctl_parse_swport(&t->ctl, longname, sw, sizeof(sw), &port, true),
		  "bad switch name \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": 1 to 32 characters");
	memset(longname, 'a', 40);
	memcpy(longname + 40, "/1", 3);
	check_err(t, ctl_parse_swport(&t->ctl, longname, sw, sizeof(sw), &port, true),
		  "bad switch name in \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/1\": 1 to 32 characters");
	longname[32] = '\0';	/* 32 characters: the longest name */
	assert_int_equal(ctl_parse_name(&t->ctl, longname, sw, sizeof(sw)), 0);
	t_free(t);
}

static void numbers(void **state)
{
	struct t *t = t_new();
	uint32_t v;

	(void)state;
	assert_int_equal(ctl_parse_u32(&t->ctl, "x", "0x10", 0, 100, &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(ctl_parse_u32(&t->ctl, "x", "4294967295", 0, UINT32_MAX, &v), 0);
	assert_int_equal(v, UINT32_MAX);
	check_err(t, ctl_parse_u32(&t->ctl, "time scale", "10001", 1, 10000, &v),
		  "time scale 10001 out of range (1-10000)");
	check_err(t, ctl_parse_u32(&t->ctl, "x", "4294967296", 0, UINT32_MAX, &v),
		  "x 4294967296 out of range (0-4294967295)");
	check_err(t, ctl_parse_u32(&t->ctl, "x", "99999999999999999999999", 0, 9, &v),
		  "bad x \"99999999999999999999999\": expected a number");
	check_err(t, ctl_parse_u32(&t->ctl, "x", " 1", 0, 9, &v),
		  "bad x \" 1\": expected a number");
	check_err(t, ctl_parse_u32(&t->ctl, "x", "1k", 0, 9, &v),
		  "bad x \"1k\": expected a number");
	t_free(t);
}

/* hca-rate: bit/s with an optional k, M or G, as a topology's inject= */
static void bps(void **state)
{
	static const struct {
		const char *text;
		uint64_t bps;
	} cases[] = {
		{ "0", 0 }, { "13G", 13000000000ULL }, { "1625M", 1625000000ULL },
		{ "13000000000", 13000000000ULL }, { "64k", 64000 }, { "1200G", 1200000000000ULL },
	};
	struct t *t = t_new();
	uint64_t v;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		v = 77;
		assert_int_equal(ctl_parse_bps(&t->ctl, "HCA rate", cases[i].text, &v), 0);
		assert_true(v == cases[i].bps);
	}
	assert_string_equal(t_err(t), "");
	v = 77;
	check_err(t, ctl_parse_bps(&t->ctl, "HCA rate", "1201G", &v),
		  "HCA rate 1201G out of range (0-1200G)");
	check_err(t, ctl_parse_bps(&t->ctl, "HCA rate", "99999999999999999999999", &v),
		  "HCA rate 99999999999999999999999 out of range (0-1200G)");
	check_err(t, ctl_parse_bps(&t->ctl, "HCA rate", "13g", &v),
		  "bad HCA rate \"13g\": expected bit/s with an optional k, M or G, e.g. 13G");
	check_err(t, ctl_parse_bps(&t->ctl, "HCA rate", "", &v),
		  "bad HCA rate \"\": expected bit/s with an optional k, M or G, e.g. 13G");
	check_err(t, ctl_parse_bps(&t->ctl, "HCA rate", "1.5G", &v),
		  "bad HCA rate \"1.5G\": expected bit/s with an optional k, M or G, e.g. 13G");
	check_err(t, ctl_parse_bps(&t->ctl, "HCA rate", "4xDDR", &v),
		  "bad HCA rate \"4xDDR\": expected bit/s with an optional k, M or G, e.g. 13G");
	check_err(t, ctl_parse_bps(&t->ctl, "HCA rate", "-1", &v),
		  "bad HCA rate \"-1\": expected bit/s with an optional k, M or G, e.g. 13G");
	assert_true(v == 77);
	t_free(t);
}

static void vlarb_lists(void **state)
{
	struct t *t = t_new();
	struct ctl_vlarb l;
	char big[1024] = "";
	int i;

	(void)state;
	assert_int_equal(ctl_parse_vlarb(&t->ctl, "vlarb-low list", "0:64,1:32,14:0", &l), 0);
	assert_true(l.given);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.vl[0], 0);
	assert_int_equal(l.weight[0], 64);
	assert_int_equal(l.vl[1], 1);
	assert_int_equal(l.weight[1], 32);
	assert_int_equal(l.vl[2], 14);
	assert_int_equal(l.weight[2], 0);
	assert_int_equal(ctl_parse_vlarb(&t->ctl, "x", "none", &l), 0);
	assert_true(l.given);
	assert_int_equal(l.n, 0);
	/* the same VL may appear in several entries, as in the IBA tables */
	assert_int_equal(ctl_parse_vlarb(&t->ctl, "x", "0:1,0:1", &l), 0);
	assert_int_equal(l.n, 2);
	for (i = 0; i < 64; i++)
		strcat(big, i ? ",1:255" : "1:255");
	assert_int_equal(ctl_parse_vlarb(&t->ctl, "x", big, &l), 0);
	assert_int_equal(l.n, 64);
	strcat(big, ",2:1");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", big, &l),
		  "too many vlarb-high list entries (at most 64)");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", "15:1", &l),
		  "VL 15 out of range (0-14)");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", "0:256", &l),
		  "WEIGHT 256 out of range (0-255)");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", "0:", &l),
		  "bad WEIGHT \"\": expected a number");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", "0-1", &l),
		  "bad vlarb-high list entry \"0-1\": expected VL:WEIGHT");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", "0:1,,1:2", &l),
		  "bad vlarb-high list \"0:1,,1:2\": expected VL:WEIGHT[,VL:WEIGHT...]");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", ",0:1", &l),
		  "bad vlarb-high list \",0:1\": expected VL:WEIGHT[,VL:WEIGHT...]");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", "0:1,", &l),
		  "bad vlarb-high list \"0:1,\": expected VL:WEIGHT[,VL:WEIGHT...]");
	check_err(t, ctl_parse_vlarb(&t->ctl, "vlarb-high list", "", &l),
		  "bad vlarb-high list \"\": expected VL:WEIGHT[,VL:WEIGHT...]");
	t_free(t);
}

static void sl2vl_maps(void **state)
{
	struct t *t = t_new();
	uint8_t map[16];
	int i;

	(void)state;
	assert_int_equal(ctl_parse_sl2vl(&t->ctl, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", map), 0);
	for (i = 0; i < 16; i++)
		assert_int_equal(map[i], i);
	assert_int_equal(ctl_parse_sl2vl(&t->ctl, "0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,15", map), 0);
	assert_int_equal(map[4], 1);
	assert_int_equal(map[15], 15);
	check_err(t, ctl_parse_sl2vl(&t->ctl, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14", map),
		  "bad sl2vl map \"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14\": expected 16 VLs separated by ',' (VL of SL 0, SL 1, ...; 15 drops)");
	check_err(t, ctl_parse_sl2vl(&t->ctl, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0", map),
		  "bad sl2vl map \"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0\": expected 16 VLs separated by ',' (VL of SL 0, SL 1, ...; 15 drops)");
	check_err(t, ctl_parse_sl2vl(&t->ctl, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,16", map),
		  "VL in sl2vl 16 out of range (0-15)");
	check_err(t, ctl_parse_sl2vl(&t->ctl, "0,1,2,3,4,5,6,7,,9,10,11,12,13,14,15", map),
		  "bad sl2vl map \"0,1,2,3,4,5,6,7,,9,10,11,12,13,14,15\": expected 16 VLs separated by ',' (VL of SL 0, SL 1, ...; 15 drops)");
	check_err(t, ctl_parse_sl2vl(&t->ctl, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,a", map),
		  "bad VL in sl2vl \"a\": expected a number");
	t_free(t);
}

static void buffers(void **state)
{
	struct t *t = t_new();
	uint32_t credits[IBSW_NR_DATA_VLS];
	uint16_t set;
	int i;

	(void)state;
	assert_int_equal(ctl_parse_buffers(&t->ctl, "130", &set, credits), 0);
	assert_int_equal(set, 0x7fff);
	for (i = 0; i < IBSW_NR_DATA_VLS; i++)
		assert_int_equal(credits[i], 130);
	assert_int_equal(ctl_parse_buffers(&t->ctl, "0:100,3:65535", &set, credits), 0);
	assert_int_equal(set, 0x9);
	assert_int_equal(credits[0], 100);
	assert_int_equal(credits[3], 65535);
	check_err(t, ctl_parse_buffers(&t->ctl, "65536", &set, credits),
		  "buffer credits 65536 out of range (0-65535)");
	check_err(t, ctl_parse_buffers(&t->ctl, "15:1", &set, credits),
		  "VL 15 out of range (0-14)");
	check_err(t, ctl_parse_buffers(&t->ctl, "0:1,0:2", &set, credits),
		  "buffer of VL 0 given twice");
	check_err(t, ctl_parse_buffers(&t->ctl, "1,2", &set, credits),
		  "bad buffer list entry \"1\": expected VL:CREDITS");
	t_free(t);
}

static void macs(void **state)
{
	static const uint8_t want[6] = { 0x02, 0x1b, 0, 0, 0xab, 0xcd };
	struct t *t = t_new();
	uint8_t mac[6];
	char buf[32];

	(void)state;
	assert_int_equal(ctl_parse_mac(&t->ctl, "02:1b:00:00:AB:cd", mac), 0);
	assert_memory_equal(mac, want, 6);
	ctl_format_mac(buf, sizeof(buf), mac);
	assert_string_equal(buf, "02:1b:00:00:ab:cd");
	check_err(t, ctl_parse_mac(&t->ctl, "02:1b:00:00:ab", mac),
		  "bad MAC address \"02:1b:00:00:ab\": expected xx:xx:xx:xx:xx:xx");
	check_err(t, ctl_parse_mac(&t->ctl, "02:1b:00:00:ab:cd:ef", mac),
		  "bad MAC address \"02:1b:00:00:ab:cd:ef\": expected xx:xx:xx:xx:xx:xx");
	check_err(t, ctl_parse_mac(&t->ctl, "02-1b-00-00-ab-cd", mac),
		  "bad MAC address \"02-1b-00-00-ab-cd\": expected xx:xx:xx:xx:xx:xx");
	check_err(t, ctl_parse_mac(&t->ctl, "0x:1b:00:00:ab:cd", mac),
		  "bad MAC address \"0x:1b:00:00:ab:cd\": expected xx:xx:xx:xx:xx:xx");
	check_err(t, ctl_parse_mac(&t->ctl, "01:00:5e:00:00:01", mac),
		  "bad MAC address \"01:00:5e:00:00:01\": a multicast address");
	t_free(t);
}

static void addresses(void **state)
{
	static const uint8_t v4[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 1, 3 };
	static const uint8_t v6[16] = { 0xfd, 0, 0, 0x1b, [13] = 1, [15] = 3 };
	struct t *t = t_new();
	uint8_t ip[16];
	char buf[64];

	(void)state;
	assert_int_equal(ctl_parse_ip(&t->ctl, "10.0.1.3", ip), 0);
	assert_memory_equal(ip, v4, 16);
	ctl_format_ip(buf, sizeof(buf), ip);
	assert_string_equal(buf, "10.0.1.3");
	assert_int_equal(ctl_parse_ip(&t->ctl, "fd00:1b::1:3", ip), 0);
	assert_memory_equal(ip, v6, 16);
	ctl_format_ip(buf, sizeof(buf), ip);
	assert_string_equal(buf, "fd00:1b::1:3");
	/* a v4-compatible address is IPv6, not IPv4 */
	assert_int_equal(ctl_parse_ip(&t->ctl, "::10.0.1.3", ip), 0);
	ctl_format_ip(buf, sizeof(buf), ip);
	assert_string_equal(buf, "::10.0.1.3");
	check_err(t, ctl_parse_ip(&t->ctl, "10.0.1", ip),
		  "bad address \"10.0.1\": expected an IPv4 or IPv6 address");
	check_err(t, ctl_parse_ip(&t->ctl, "fd00::1b::3", ip),
		  "bad address \"fd00::1b::3\": expected an IPv4 or IPv6 address");
	check_err(t, ctl_parse_ip(&t->ctl, "10.0.0.3/16", ip),
		  "bad address \"10.0.0.3/16\": expected an IPv4 or IPv6 address");
	t_free(t);
}

static void lft_lists(void **state)
{
	struct t *t = t_new();
	uint8_t *lft = malloc(IBSW_LID_UNICAST_MAX + 1);
	uint32_t top;

	(void)state;
	assert_non_null(lft);
	assert_int_equal(ctl_parse_lft(&t->ctl, "3:1,4:2,9:254,7:0,8:255", lft, &top), 0);
	assert_int_equal(top, 9);
	assert_int_equal(lft[0], 255);
	assert_int_equal(lft[1], 255);
	assert_int_equal(lft[3], 1);
	assert_int_equal(lft[4], 2);
	assert_int_equal(lft[5], 255);
	assert_int_equal(lft[7], 255);
	assert_int_equal(lft[8], 255);
	assert_int_equal(lft[9], 254);
	assert_int_equal(ctl_parse_lft(&t->ctl, "49151:1", lft, &top), 0);
	assert_int_equal(top, 49151);
	check_err(t, ctl_parse_lft(&t->ctl, "0:1", lft, &top), "LID 0 out of range (1-49151)");
	check_err(t, ctl_parse_lft(&t->ctl, "49152:1", lft, &top),
		  "LID 49152 out of range (1-49151)");
	check_err(t, ctl_parse_lft(&t->ctl, "3:256", lft, &top), "PORT 256 out of range (0-255)");
	check_err(t, ctl_parse_lft(&t->ctl, "3:1,3:2", lft, &top), "LID 3 listed twice");
	check_err(t, ctl_parse_lft(&t->ctl, "3", lft, &top),
		  "bad forwarding table entry \"3\": expected LID:PORT");
	check_err(t, ctl_parse_lft(&t->ctl, "3:1:2", lft, &top),
		  "bad PORT \"1:2\": expected a number");
	free(lft);
	t_free(t);
}

static void lid_derivations(void **state)
{
	static const struct {
		uint16_t lid;
		const char *mac, *v4, *v6;
	} cases[] = {
		{ 1, "02:1b:00:00:00:01", "10.0.0.1", "fd00:1b::1" },
		{ 3, "02:1b:00:00:00:03", "10.0.0.3", "fd00:1b::3" },
		{ 0x100, "02:1b:00:00:01:00", "10.0.1.0", "fd00:1b::1:0" },
		{ 0x103, "02:1b:00:00:01:03", "10.0.1.3", "fd00:1b::1:3" },
		{ 0x1ff, "02:1b:00:00:01:ff", "10.0.1.255", "fd00:1b::1:ff" },
		{ 0xbfff, "02:1b:00:00:bf:ff", "10.0.191.255", "fd00:1b::bf:ff" },
	};
	uint8_t mac[6];
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ctl_lid_mac(cases[i].lid, mac);
		ctl_format_mac(buf, sizeof(buf), mac);
		assert_string_equal(buf, cases[i].mac);
		ctl_lid_ipv4(cases[i].lid, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].v4);
		ctl_lid_ipv6(cases[i].lid, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].v6);
	}
}

static void names(void **state)
{
	char key[64];

	(void)state;
	assert_true(ctl_matches("sw", "switch"));
	assert_true(ctl_matches("switch", "switch"));
	assert_false(ctl_matches("switches", "switch"));
	assert_false(ctl_matches("", "switch"));
	assert_false(ctl_matches("x", "switch"));
	assert_string_equal(ctl_width_name(IBSW_LINK_WIDTH_12X), "12x");
	assert_null(ctl_width_name(4));
	assert_string_equal(ctl_speed_name(IBSW_LINK_SPEED_FDR10), "FDR10");
	assert_string_equal(ctl_speed_key(IBSW_LINK_SPEED_NDR), "ndr");
	assert_null(ctl_speed_name(8));
	assert_string_equal(ctl_kind_name(IBSW_PORT_KIND_LINK), "link");
	assert_string_equal(ctl_kind_name(IBSW_PORT_KIND_MGMT), "mgmt");
	assert_string_equal(ctl_kind_name(IBSW_PORT_KIND_REMOTE), "remote");
	assert_null(ctl_kind_name(5));
	assert_string_equal(ctl_remote_state_name(IBSW_REMOTE_STATE_DOWN), "down");
	assert_string_equal(ctl_remote_state_name(IBSW_REMOTE_STATE_UP), "up");
	assert_null(ctl_remote_state_name(2));
	ctl_json_key(key, sizeof(key), "excessive-buffer-overrun-errors");
	assert_string_equal(key, "excessive_buffer_overrun_errors");
	assert_string_equal(ctl_cmd_name(IBSW_CMD_PORT_CHANGE_NTF), "port-change-ntf");
	assert_string_equal(ctl_cmd_name(IBSW_CMD_REMOTE_NEW), "remote-new");
	assert_string_equal(ctl_cmd_name(IBSW_CMD_REMOTE_DEL), "remote-del");
	assert_string_equal(ctl_cmd_name(0), "unknown");
	assert_string_equal(ctl_cmd_name(200), "unknown");
	assert_string_equal(ctl_counter_iba_names[IBSW_A_COUNTERS_RCV_SWITCH_RELAY_ERRORS],
			    "PortRcvSwitchRelayErrors");
}

/*
 * The tables indexed by the uapi's numbers cover all of them: every command
 * has a name (the monitor's events), every port kind, every attribute of the
 * sets a port reply is checked against (ports, remote counters).
 */
static void tables_complete(void **state)
{
	const struct ibsw_attr_set *const sets[] = {
		&ctl_port_attrs, &ctl_remote_counter_attrs, &ctl_counter_attrs,
	};
	static const unsigned int maxes[] = {
		IBSW_A_PORT_MAX, IBSW_A_REMOTE_COUNTERS_MAX, IBSW_A_COUNTERS_MAX,
	};
	static const char *const remote_keys[] = {
		NULL, "tx_frames", "tx_bytes", "rx_frames", "rx_bytes", "tx_drops", "tx_too_big",
		"rx_seq_gaps", "rx_lost_frames", "rx_late", "rx_bad", "rx_wrong_epoch", "rx_down",
		"rx_overrun", "credit_tx", "credit_rx", "hello_tx", "hello_rx", "link_ups",
		"link_downs", "mismatches",
	};
	unsigned int i, id;
	char key[64];

	(void)state;
	for (id = 1; id <= IBSW_CMD_MAX; id++)
		if (!strcmp(ctl_cmd_name(id), "unknown"))
			fail_msg("command %u has no name", id);
	for (id = IBSW_PORT_KIND_NONE; id <= IBSW_PORT_KIND_REMOTE; id++)
		assert_non_null(ctl_kind_name(id));
	for (i = 0; i < ARRAY_SIZE(sets); i++) {
		assert_int_equal(sets[i]->max, maxes[i]);
		for (id = 1; id <= sets[i]->max; id++)
			if (!sets[i]->attr[id].name || sets[i]->attr[id].type == IBSW_ATTR_ANY)
				fail_msg("%s attribute %u has no name or type", sets[i]->name, id);
	}
	/* the remote counters' keys, in the uapi's order */
	assert_int_equal(ARRAY_SIZE(remote_keys), IBSW_A_REMOTE_COUNTERS_MAX + 1);
	for (id = 1; id <= IBSW_A_REMOTE_COUNTERS_MAX; id++) {
		ctl_json_key(key, sizeof(key), ctl_remote_counter_attrs.attr[id].name);
		assert_string_equal(key, remote_keys[id]);
	}
	assert_string_equal(ctl_port_attrs.attr[IBSW_A_PORT_REMOTE_ID].name, "remote-id");
	assert_string_equal(ctl_port_attrs.attr[IBSW_A_PORT_REMOTE_STATE].name, "remote-state");
	assert_int_equal(ctl_port_attrs.attr[IBSW_A_PORT_REMOTE_STATE].type, IBSW_ATTR_U8);
	assert_true(ctl_port_attrs.attr[IBSW_A_PORT_REMOTE_COUNTERS].nest ==
		    &ctl_remote_counter_attrs);
}

/* Netdev names (host add name, remote add dev), as the kernel takes them */
static void ifnames(void **state)
{
	static const char *const good[] = { "eth1", "ib0", "vxlan-ib", "gretap1", "a",
		"eth0123456789ab", "br.10", "veth_x@" };
	static const char *const bad[] = { "", "eth0123456789abc", "a/b", "eth1:0", "a b",
		"a\tb" };
	struct t *t = t_new();
	char want[256];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++)
		assert_int_equal(ctl_parse_ifname(&t->ctl, good[i]), 0);
	assert_string_equal(t_err(t), "");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(want, sizeof(want), "bad interface name \"%s\": %s", bad[i],
			 "1 to 15 characters, no '/', ':' or blanks");
		check_err(t, ctl_parse_ifname(&t->ctl, bad[i]), want);
	}
	t_free(t);
}

/* A 256-bit mask with exactly these ports set */
static void expect_mask(const uint8_t *mask, const unsigned int *ports, size_t n)
{
	uint8_t want[CTL_MASK_LEN] = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		want[CTL_MASK_LEN - 1 - ports[i] / 8] |= 1u << (ports[i] % 8);
	assert_memory_equal(mask, want, CTL_MASK_LEN);
}

static void cc_masks(void **state)
{
	static const unsigned int p24[] = { 2, 4 }, p1357[] = { 1, 3, 5, 6, 7 };
	static const unsigned int p254[] = { 254 }, p_ends[] = { 1, 8, 9, 254 };
	static const char *const not_hex[] = { "0x", "", "0x1g", "-4", "ports", "0x 1" };
	struct t *t = t_new();
	uint8_t m[CTL_MASK_LEN];
	char big[80], buf[1024], want[256];
	size_t i;

	(void)state;
	/* hex, big-endian as ibccconfig: bit n = port n, the last byte holds ports 0-7 */
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", "0x14", m), 0);
	expect_mask(m, p24, 2);
	assert_int_equal(m[31], 0x14);
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", "14", m), 0);	/* 0x optional */
	expect_mask(m, p24, 2);
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", "0X00000014", m), 0);
	expect_mask(m, p24, 2);
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", "0", m), 0);
	expect_mask(m, NULL, 0);
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", "0x302", m), 0);
	assert_int_equal(m[30], 0x03);
	assert_int_equal(m[31], 0x02);
	/* port 254: bit 6 of byte 0, 64 digits */
	snprintf(big, sizeof(big), "0x40%062x", 0);
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", big, m), 0);
	expect_mask(m, p254, 1);
	assert_int_equal(m[0], 0x40);
	/* leading zeros beyond 64 digits are fine */
	snprintf(big, sizeof(big), "0x0000%064x", 0x14);
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", big, m), 0);
	expect_mask(m, p24, 2);

	/* port lists */
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", "ports:1,3,5-7", m), 0);
	expect_mask(m, p1357, 5);
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", "ports:254", m), 0);
	expect_mask(m, p254, 1);
	assert_int_equal(ctl_parse_mask(&t->ctl, "victim_mask", "ports:8-9,1,254,9", m), 0);
	expect_mask(m, p_ends, 4);
	assert_int_equal(ctl_parse_mask(&t->ctl, "credit_mask", "ports:4-4,2", m), 0);
	expect_mask(m, p24, 2);

	/* formatting */
	ctl_parse_mask(&t->ctl, "m", "ports:1,3,5-7,254", m);
	ctl_format_mask_ports(buf, sizeof(buf), m);
	assert_string_equal(buf, "1,3,5-7,254");
	ctl_format_mask_hex(buf, sizeof(buf), m);
	assert_int_equal(strlen(buf), 2 + 2 * CTL_MASK_LEN);
	assert_true(!strncmp(buf, "0x40", 4));
	assert_int_equal(strspn(buf + 4, "0"), 2 * CTL_MASK_LEN - 4);
	assert_string_equal(buf + 2 * CTL_MASK_LEN, "ea");
	ctl_parse_mask(&t->ctl, "m", "0x14", m);
	ctl_format_mask_hex(buf, sizeof(buf), m);
	assert_string_equal(buf, "0x14");
	ctl_parse_mask(&t->ctl, "m", "ports:8", m);
	ctl_format_mask_hex(buf, sizeof(buf), m);
	assert_string_equal(buf, "0x100");
	memset(m, 0, sizeof(m));
	ctl_format_mask_hex(buf, sizeof(buf), m);
	assert_string_equal(buf, "0x0");
	ctl_format_mask_ports(buf, sizeof(buf), m);
	assert_string_equal(buf, "");
	memset(m, 0xff, sizeof(m));
	ctl_format_mask_ports(buf, sizeof(buf), m);
	assert_string_equal(buf, "0-255");
	assert_true(t_err(t)[0] == '\0');

	/* errors and bounds */
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", "0x1", m),
		  "bad victim_mask \"0x1\": bit 0 is port 0, which is not a switch port (1-254)");
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", "0x15", m),
		  "bad victim_mask \"0x15\": bit 0 is port 0, which is not a switch port (1-254)");
	snprintf(big, sizeof(big), "0x80%062x", 0);
	snprintf(want, sizeof(want), "bad victim_mask \"%s\": %s", big,
		 "bit 255 is above the highest port (254)");
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", big, m), want);
	snprintf(big, sizeof(big), "0x1%064x", 0);
	snprintf(want, sizeof(want), "bad victim_mask \"%s\": more than 256 bits", big);
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", big, m), want);
	for (i = 0; i < ARRAY_SIZE(not_hex); i++) {
		snprintf(want, sizeof(want), "bad victim_mask \"%s\": %s", not_hex[i],
			 "expected a hex number (0x...) or ports:LIST, e.g. 0x14 or ports:2,4");
		check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", not_hex[i], m), want);
	}
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", "ports:0", m),
		  "victim_mask port 0 out of range (1-254)");
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", "ports:255", m),
		  "victim_mask port 255 out of range (1-254)");
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", "ports:3-255", m),
		  "victim_mask port 255 out of range (1-254)");
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", "ports:7-5", m),
		  "bad victim_mask \"ports:7-5\": port range 7-5 is backwards");
	check_err(t, ctl_parse_mask(&t->ctl, "credit_mask", "ports:", m),
		  "bad credit_mask \"ports:\": expected ports:PORT[-PORT][,...], e.g. ports:1,3,5-7");
	check_err(t, ctl_parse_mask(&t->ctl, "credit_mask", "ports:1,,2", m),
		  "bad credit_mask \"ports:1,,2\": expected ports:PORT[-PORT][,...], e.g. ports:1,3,5-7");
	check_err(t, ctl_parse_mask(&t->ctl, "credit_mask", "ports:1,", m),
		  "bad credit_mask \"ports:1,\": expected ports:PORT[-PORT][,...], e.g. ports:1,3,5-7");
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", "ports:a", m),
		  "bad victim_mask port \"a\": expected a number");
	check_err(t, ctl_parse_mask(&t->ctl, "victim_mask", "ports:1-", m),
		  "bad victim_mask port \"\": expected a number");
	t_free(t);
}

static void cc_control_maps(void **state)
{
	static const struct {
		const char *text;
		uint32_t map;
	} good[] = {
		{ "0", 0 }, { "31", 0x1f }, { "0x1f", 0x1f }, { "0x4", 4 },
		{ "victim_mask", 1 }, { "credit_mask", 2 }, { "threshold", 4 }, { "cs", 8 },
		{ "marking_rate", 16 }, { "marking-rate", 16 }, { "victim-mask,threshold", 5 },
		{ "victim_mask,credit_mask,threshold,cs,marking_rate", 0x1f },
		{ "threshold,threshold", 4 },
	};
	static const char *const bad_names[] = {
		"", "victim", "threshold,", ",threshold", "Threshold", "threshold,,cs",
		"packet_size",
	};
	struct t *t = t_new();
	char want[256];
	uint32_t map;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		map = 99;
		assert_int_equal(ctl_parse_cc_map(&t->ctl, good[i].text, &map), 0);
		assert_int_equal(map, good[i].map);
	}
	for (i = 0; i < ARRAY_SIZE(bad_names); i++) {
		snprintf(want, sizeof(want), "bad control_map \"%s\": %s%s", bad_names[i],
			 "expected a number up to 0x1f or names from ",
			 "victim_mask,credit_mask,threshold,cs,marking_rate");
		check_err(t, ctl_parse_cc_map(&t->ctl, bad_names[i], &map), want);
	}
	check_err(t, ctl_parse_cc_map(&t->ctl, "32", &map), "control_map 32 out of range (0-0x1f)");
	check_err(t, ctl_parse_cc_map(&t->ctl, "0x20", &map),
		  "control_map 0x20 out of range (0-0x1f)");
	check_err(t, ctl_parse_cc_map(&t->ctl, "4x", &map),
		  "bad control_map \"4x\": expected a number or names");
	assert_string_equal(ctl_cc_map_name(0), "victim-mask");
	assert_string_equal(ctl_cc_map_name(4), "marking-rate");
	assert_null(ctl_cc_map_name(5));
	t_free(t);
}

static void cc_shift_mult(void **state)
{
	struct t *t = t_new();
	uint16_t v;

	(void)state;
	assert_int_equal(ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "0:0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "1:5", &v), 0);
	assert_int_equal(v, 0x4005);
	assert_int_equal(ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "3:16383", &v), 0);
	assert_int_equal(v, 0xffff);
	assert_int_equal(ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "2:0", &v), 0);
	assert_int_equal(v, 0x8000);
	check_err(t, ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "4:0", &v),
		  "shift 4 out of range (0-3)");
	check_err(t, ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "0:16384", &v),
		  "multiplier 16384 out of range (0-16383)");
	check_err(t, ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "5", &v),
		  "bad cs_return_delay \"5\": expected SHIFT:MULT (0-3:0-16383)");
	check_err(t, ctl_parse_shift_mult(&t->ctl, "cs_return_delay", ":5", &v),
		  "bad shift \"\": expected a number");
	check_err(t, ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "1:", &v),
		  "bad multiplier \"\": expected a number");
	check_err(t, ctl_parse_shift_mult(&t->ctl, "cs_return_delay", "1:2:3", &v),
		  "bad multiplier \"2:3\": expected a number");
	t_free(t);
}

/* The installed data beside the program's directory, whatever the prefix */
static void data_path(void **state)
{
	static const struct {
		const char *exe, *rel, *want;
		size_t len;
		int ret;
	} cases[] = {
		{ "/usr/sbin/ibswctl", "topologies/seed002.net",
		  "/usr/share/ibsw/topologies/seed002.net", 64, 0 },
		{ "/usr/local/sbin/ibswctl", "x.net", "/usr/local/share/ibsw/x.net", 64, 0 },
		{ "/opt/ibsw/bin/ibswctl", "a/b", "/opt/ibsw/share/ibsw/a/b", 64, 0 },
		{ "/sbin/ibswctl", "x.net", "/share/ibsw/x.net", 64, 0 },
		/* exactly fits: 17 characters and the NUL */
		{ "/usr/sbin/ibswctl", "x", "/usr/share/ibsw/x", 18, 0 },
		{ "/usr/sbin/ibswctl", "x", NULL, 17, -ENAMETOOLONG },
		{ "ibswctl", "x", NULL, 64, -EINVAL },
		{ "/ibswctl", "x", NULL, 64, -EINVAL },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[64];

		assert_int_equal(ctl_data_path(cases[i].exe, cases[i].rel, buf,
					       cases[i].len), cases[i].ret);
		if (cases[i].want)
			assert_string_equal(buf, cases[i].want);
	}
}

int main(int argc, char **argv)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(rates),
		cmocka_unit_test(rates_all_32),
		cmocka_unit_test(rate_errors),
		cmocka_unit_test(swport),
		cmocka_unit_test(numbers),
		cmocka_unit_test(bps),
		cmocka_unit_test(vlarb_lists),
		cmocka_unit_test(sl2vl_maps),
		cmocka_unit_test(buffers),
		cmocka_unit_test(macs),
		cmocka_unit_test(addresses),
		cmocka_unit_test(lft_lists),
		cmocka_unit_test(lid_derivations),
		cmocka_unit_test(names),
		cmocka_unit_test(tables_complete),
		cmocka_unit_test(ifnames),
		cmocka_unit_test(cc_masks),
		cmocka_unit_test(cc_control_maps),
		cmocka_unit_test(cc_shift_mult),
		cmocka_unit_test(data_path),
	};

	(void)argc;
	(void)argv;
	return t_run_group("args", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
