// SPDX-License-Identifier: GPL-2.0
/*
 * ibswctl cc { show | set | log }: switch congestion control (IBA annex A10),
 * in the vocabulary of rdma-core's ibccconfig and OpenSM: threshold,
 * packet_size, marking_rate, victim_mask, credit_mask, cs_threshold,
 * cs_return_delay, control_map.
 */
#define _GNU_SOURCE
#include "ibswctl.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl [-j] [-d] cc show SW\n"
		"       ibswctl cc set SW [control_map MAP] [victim_mask MASK] [credit_mask MASK]\n"
		"                [threshold T] [packet_size P] [marking_rate R]\n"
		"                [cs_threshold T] [cs_return_delay SHIFT:MULT]\n"
		"                [fill_compare sum|voq|per_input]\n"
		"       ibswctl cc set SW/PORT [valid on|off] [threshold T] [packet_size P]\n"
		"                [marking_rate R] [control_type 0|1]\n"
		"       ibswctl [-j] cc log SW\n"
		"       ibswctl cc log clear SW\n"
		"T: 0 (no marking) to 15 (most aggressive). P: in 64-byte credits, smaller\n"
		"packets are never marked. R: mean number of eligible packets between marked\n"
		"ones, 0 marks all. MASK: a 256-bit hex number, bit n = port n (0x14: ports 2\n"
		"and 4), or ports:LIST (ports:1,3,5-7). MAP: a number up to 0x1f or names from\n"
		"victim_mask,credit_mask,threshold,cs,marking_rate; only those parts apply.\n"
		"fill_compare: the VoQs' fill against the threshold, their sum (the default),\n"
		"each VoQ, or the sum per input port queueing; no control_map part selects it.\n"
		"Names may be written with '-' for '_'.\n");
}

/* ------------------------------------------------------------------ parsers */

/* Control_Map bits, as the spec names them (JSON) */
static const char *const map_names[] = {
	"victim-mask", "credit-mask", "threshold", "cs", "marking-rate",
};

#define CC_MAP_ALL	((1u << ARRAY_SIZE(map_names)) - 1)
#define MAP_KEYS	"victim_mask,credit_mask,threshold,cs,marking_rate"

const char *ctl_cc_map_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(map_names) ? map_names[bit] : NULL;
}

/* word, with '_' and '-' interchangeable: arg must be all of it */
static bool key_is(const char *arg, size_t len, const char *word)
{
	size_t i;

	if (strlen(word) != len)
		return false;
	for (i = 0; i < len; i++) {
		char a = arg[i] == '-' ? '_' : arg[i], w = word[i] == '-' ? '_' : word[i];

		if (a != w)
			return false;
	}
	return true;
}

static bool is_key(const char *arg, const char *word)
{
	return key_is(arg, strlen(arg), word);
}

int ctl_parse_cc_map(struct ctl *ctl, const char *s, uint32_t *map)
{
	unsigned long long v;
	const char *p = s;
	size_t len, i;
	char *end;

	if (isdigit((unsigned char)*s)) {
		errno = 0;
		v = strtoull(s, &end, 0);
		if (errno || *end) {
			ctl_err(ctl, "bad control_map \"%s\": expected a number or names", s);
			return -EINVAL;
		}
		if (v > CC_MAP_ALL) {
			ctl_err(ctl, "control_map %s out of range (0-0x%x)", s, CC_MAP_ALL);
			return -EINVAL;
		}
		*map = v;
		return 0;
	}
	*map = 0;
	for (;;) {
		len = strcspn(p, ",");
		for (i = 0; i < ARRAY_SIZE(map_names); i++)
			if (len && key_is(p, len, map_names[i]))
				break;
		if (i == ARRAY_SIZE(map_names)) {
			ctl_err(ctl, "bad control_map \"%s\": expected a number up to 0x1f or names from %s",
				s, MAP_KEYS);
			return -EINVAL;
		}
		*map |= 1u << i;
		p += len;
		if (!*p)
			return 0;
		p++;
	}
}

int ctl_parse_shift_mult(struct ctl *ctl, const char *what, const char *s,
			 uint16_t *val)
{
	const char *colon = strchr(s, ':');
	uint32_t shift, mult;
	char head[16];

	if (!colon || (size_t)(colon - s) >= sizeof(head)) {
		ctl_err(ctl, "bad %s \"%s\": expected SHIFT:MULT (0-3:0-16383)", what, s);
		return -EINVAL;
	}
	memcpy(head, s, colon - s);
	head[colon - s] = '\0';
	if (ctl_parse_u32(ctl, "shift", head, 0, 3, &shift) ||
	    ctl_parse_u32(ctl, "multiplier", colon + 1, 0, 16383, &mult))
		return -EINVAL;
	*val = shift << 14 | mult;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* 1 to 64 hex digits after an optional 0x, leading zeros not counted */
static int parse_mask_hex(struct ctl *ctl, const char *what, const char *s,
			  uint8_t mask[CTL_MASK_LEN])
{
	const char *p = s, *end;
	unsigned int nibble = 0;
	int d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!*p || strspn(p, "0123456789abcdefABCDEF") != strlen(p)) {
		ctl_err(ctl, "bad %s \"%s\": expected a hex number (0x...) or ports:LIST, %s",
			what, s, "e.g. 0x14 or ports:2,4");
		return -EINVAL;
	}
	while (p[0] == '0' && p[1])
		p++;
	if (strlen(p) > 2 * CTL_MASK_LEN) {
		ctl_err(ctl, "bad %s \"%s\": more than 256 bits", what, s);
		return -EINVAL;
	}
	/* from the last digit: the lowest nibble of the last byte */
	for (end = p + strlen(p); end > p; nibble++) {
		d = hex_digit(*--end);
		mask[CTL_MASK_LEN - 1 - nibble / 2] |= d << (nibble % 2 * 4);
	}
	return 0;
}

/* "1,3,5-7" */
static int parse_mask_ports(struct ctl *ctl, const char *what, const char *s,
			    const char *list, uint8_t mask[CTL_MASK_LEN])
{
	uint32_t lo, hi, port;
	const char *p = list;
	char item[16], *dash, label[64];
	size_t len;

	snprintf(label, sizeof(label), "%s port", what);

	for (;;) {
		len = strcspn(p, ",");
		if (!len || len >= sizeof(item)) {
			ctl_err(ctl, "bad %s \"%s\": expected ports:PORT[-PORT][,...], %s",
				what, s, "e.g. ports:1,3,5-7");
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (ctl_parse_u32(ctl, label, item, 1, IBSW_MAX_PORTS, &lo))
			return -EINVAL;
		hi = lo;
		if (dash && ctl_parse_u32(ctl, label, dash + 1, 1, IBSW_MAX_PORTS, &hi))
			return -EINVAL;
		if (hi < lo) {
			ctl_err(ctl, "bad %s \"%s\": port range %u-%u is backwards", what, s,
				lo, hi);
			return -EINVAL;
		}
		for (port = lo; port <= hi; port++)
			ctl_mask_set(mask, port);
		p += len;
		if (!*p)
			return 0;
		p++;
	}
}

int ctl_parse_mask(struct ctl *ctl, const char *what, const char *s,
		   uint8_t mask[CTL_MASK_LEN])
{
	unsigned int bit;

	memset(mask, 0, CTL_MASK_LEN);
	if (!strncmp(s, "ports:", 6))
		return parse_mask_ports(ctl, what, s, s + 6, mask);
	if (parse_mask_hex(ctl, what, s, mask))
		return -EINVAL;
	if (ctl_mask_test(mask, 0)) {
		ctl_err(ctl, "bad %s \"%s\": bit 0 is port 0, which is not a switch port (1-%d)",
			what, s, IBSW_MAX_PORTS);
		return -EINVAL;
	}
	for (bit = IBSW_MAX_PORTS + 1; bit < 8 * CTL_MASK_LEN; bit++) {
		if (ctl_mask_test(mask, bit)) {
			ctl_err(ctl, "bad %s \"%s\": bit %u is above the highest port (%d)",
				what, s, bit, IBSW_MAX_PORTS);
			return -EINVAL;
		}
	}
	return 0;
}

void ctl_format_mask_hex(char *buf, size_t len, const uint8_t mask[CTL_MASK_LEN])
{
	size_t i = 0, n;

	while (i < CTL_MASK_LEN - 1 && !mask[i])
		i++;
	n = snprintf(buf, len, "0x%x", mask[i]);
	for (i++; i < CTL_MASK_LEN && n < len; i++)
		n += snprintf(buf + n, len - n, "%02x", mask[i]);
}

void ctl_format_mask_ports(char *buf, size_t len, const uint8_t mask[CTL_MASK_LEN])
{
	unsigned int port, end;
	size_t n = 0;

	buf[0] = '\0';
	for (port = 0; port < 8 * CTL_MASK_LEN && n < len; port++) {
		if (!ctl_mask_test(mask, port))
			continue;
		for (end = port; end + 1 < 8 * CTL_MASK_LEN && ctl_mask_test(mask, end + 1);)
			end++;
		if (end == port)
			n += snprintf(buf + n, len - n, "%s%u", n ? "," : "", port);
		else
			n += snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "", port, end);
		port = end;
	}
}

/* -------------------------------------------------------------- rendering */

static uint32_t get_u32(const struct nlattr *attr, uint32_t dflt)
{
	return attr ? mnl_attr_get_u32(attr) : dflt;
}

static unsigned int get_u8(const struct nlattr *attr)
{
	return attr ? mnl_attr_get_u8(attr) : 0;
}

static unsigned int get_u16(const struct nlattr *attr)
{
	return attr ? mnl_attr_get_u16(attr) : 0;
}

/* " KEY 0x14 (ports 2,4)", " KEY 0" */
static void print_mask(struct ctl *ctl, const char *key, const struct nlattr *attr)
{
	char hex[2 * CTL_MASK_LEN + 8], ports[1024];

	if (!attr || mnl_attr_get_payload_len(attr) != CTL_MASK_LEN)
		return;
	ctl_format_mask_hex(hex, sizeof(hex), mnl_attr_get_payload(attr));
	ctl_format_mask_ports(ports, sizeof(ports), mnl_attr_get_payload(attr));
	fprintf(ctl->out, " %s %s", key, hex);
	if (ports[0])
		fprintf(ctl->out, " (ports %s)", ports);
}

/* "VL,VL" of a vls-congested bit set */
static void print_vls(struct ctl *ctl, uint32_t vls)
{
	unsigned int vl;
	bool any = false;

	for (vl = 0; vl < 32; vl++) {
		if (!(vls & (1u << vl)))
			continue;
		fprintf(ctl->out, "%s%u", any ? "," : "", vl);
		any = true;
	}
}

static void print_cc_port(struct ctl *ctl, const struct nlattr *nest)
{
	const struct nlattr *pt[IBSW_A_CC_PORT_MAX + 1];
	bool valid;
	uint32_t vls;

	if (ctl_parse_nest(ctl, nest, &ctl_cc_port_attrs, pt))
		return;
	valid = get_u8(pt[IBSW_A_CC_PORT_VALID]);
	vls = get_u32(pt[IBSW_A_CC_PORT_VLS_CONGESTED], 0);
	/* without -d, only what differs from the switch's settings, and congestion */
	if (!ctl->details && !valid && !vls)
		return;
	fprintf(ctl->out, "    port %u:", get_u32(pt[IBSW_A_CC_PORT_PORT], 0));
	if (ctl->details)
		fprintf(ctl->out, " valid %s", valid ? "on" : "off");
	if (valid || ctl->details) {
		fprintf(ctl->out, " threshold %u packet_size %u marking_rate %u",
			get_u8(pt[IBSW_A_CC_PORT_THRESHOLD]),
			get_u8(pt[IBSW_A_CC_PORT_PACKET_SIZE]),
			get_u16(pt[IBSW_A_CC_PORT_MARKING_RATE]));
		if (ctl->details || get_u8(pt[IBSW_A_CC_PORT_CONTROL_TYPE]))
			fprintf(ctl->out, " control_type %u",
				get_u8(pt[IBSW_A_CC_PORT_CONTROL_TYPE]));
	}
	if (vls) {
		fprintf(ctl->out, " congested vls ");
		print_vls(ctl, vls);
	}
	fputc('\n', ctl->out);
}

static void print_cc_map(struct ctl *ctl, uint32_t map)
{
	unsigned int b;
	bool any = false;

	fprintf(ctl->out, " control_map 0x%x", map);
	for (b = 0; b < ARRAY_SIZE(map_names); b++) {
		if (!(map & (1u << b)))
			continue;
		fprintf(ctl->out, "%s%s", any ? "," : " (", map_names[b]);
		any = true;
	}
	if (any)
		fputc(')', ctl->out);
}

void ctl_print_cc(struct ctl *ctl, const struct nlmsghdr *nlh,
		  const struct nlattr **tb, void *arg)
{
	const struct nlattr *attr;
	uint16_t delay;
	size_t len;
	const void *data;
	FILE *f = ctl->out;

	(void)arg;
	if (ctl->json) {
		ctl_json_msg(ctl, NULL, nlh, &ctl_cc_attrs);
		return;
	}
	fprintf(f, "%s:", tb[IBSW_A_CC_SWITCH_NAME] ?
		mnl_attr_get_str(tb[IBSW_A_CC_SWITCH_NAME]) : "?");
	if (tb[IBSW_A_CC_THRESHOLD])
		fprintf(f, " threshold %u", mnl_attr_get_u8(tb[IBSW_A_CC_THRESHOLD]));
	if (tb[IBSW_A_CC_PACKET_SIZE])
		fprintf(f, " packet_size %u", mnl_attr_get_u8(tb[IBSW_A_CC_PACKET_SIZE]));
	if (tb[IBSW_A_CC_MARKING_RATE])
		fprintf(f, " marking_rate %u", mnl_attr_get_u16(tb[IBSW_A_CC_MARKING_RATE]));
	if (tb[IBSW_A_CC_FILL_COMPARE]) {
		unsigned int how = mnl_attr_get_u8(tb[IBSW_A_CC_FILL_COMPARE]);

		if (ctl_fill_compare_name(how))
			fprintf(f, " fill_compare %s", ctl_fill_compare_name(how));
		else
			fprintf(f, " fill_compare %u", how);
	}
	fputc('\n', f);
	if (tb[IBSW_A_CC_VICTIM_MASK] || tb[IBSW_A_CC_CREDIT_MASK]) {
		fprintf(f, "   ");
		print_mask(ctl, "victim_mask", tb[IBSW_A_CC_VICTIM_MASK]);
		print_mask(ctl, "credit_mask", tb[IBSW_A_CC_CREDIT_MASK]);
		fputc('\n', f);
	}
	fprintf(f, "   ");
	if (tb[IBSW_A_CC_CS_THRESHOLD])
		fprintf(f, " cs_threshold %u", mnl_attr_get_u8(tb[IBSW_A_CC_CS_THRESHOLD]));
	if (tb[IBSW_A_CC_CS_RETURN_DELAY]) {
		delay = mnl_attr_get_u16(tb[IBSW_A_CC_CS_RETURN_DELAY]);
		fprintf(f, " cs_return_delay %u:%u", delay >> 14, delay & 0x3fff);
	}
	if (tb[IBSW_A_CC_CONTROL_MAP])
		print_cc_map(ctl, mnl_attr_get_u32(tb[IBSW_A_CC_CONTROL_MAP]));
	if (tb[IBSW_A_CC_INFO])
		fprintf(f, " info 0x%x", mnl_attr_get_u16(tb[IBSW_A_CC_INFO]));
	fputc('\n', f);
	data = ibsw_genl_attrs(nlh, &len);
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr))
		if (mnl_attr_get_type(attr) == IBSW_A_CC_PORT_SETTING)
			print_cc_port(ctl, attr);
}

static void print_log_event(struct ctl *ctl, const struct nlattr *nest)
{
	const struct nlattr *et[IBSW_A_CC_LOG_EVENT_MAX + 1];

	if (ctl_parse_nest(ctl, nest, &ctl_cc_log_event_attrs, et))
		return;
	fprintf(ctl->out, "    slid %u dlid %u sl %u port %u vl %u timestamp %u\n",
		get_u32(et[IBSW_A_CC_LOG_EVENT_SLID], 0), get_u32(et[IBSW_A_CC_LOG_EVENT_DLID], 0),
		get_u32(et[IBSW_A_CC_LOG_EVENT_SL], 0), get_u32(et[IBSW_A_CC_LOG_EVENT_PORT], 0),
		get_u32(et[IBSW_A_CC_LOG_EVENT_VL], 0),
		get_u32(et[IBSW_A_CC_LOG_EVENT_TIMESTAMP], 0));
}

void ctl_print_cc_log(struct ctl *ctl, const struct nlmsghdr *nlh,
		      const struct nlattr **tb, void *arg)
{
	const struct nlattr *attr;
	size_t len;
	const void *data;
	FILE *f = ctl->out;

	(void)arg;
	if (ctl->json) {
		ctl_json_msg(ctl, NULL, nlh, &ctl_cc_log_attrs);
		return;
	}
	fprintf(f, "%s:", tb[IBSW_A_CC_LOG_SWITCH_NAME] ?
		mnl_attr_get_str(tb[IBSW_A_CC_LOG_SWITCH_NAME]) : "?");
	if (tb[IBSW_A_CC_LOG_EVENTS_COUNTER])
		fprintf(f, " events_counter %u",
			mnl_attr_get_u32(tb[IBSW_A_CC_LOG_EVENTS_COUNTER]));
	if (tb[IBSW_A_CC_LOG_THRESHOLD_EVENTS])
		fprintf(f, " threshold_events %llu",
			(unsigned long long)ibsw_attr_uint(tb[IBSW_A_CC_LOG_THRESHOLD_EVENTS]));
	if (tb[IBSW_A_CC_LOG_CURRENT_TIMESTAMP])
		fprintf(f, " current_timestamp %u",
			mnl_attr_get_u32(tb[IBSW_A_CC_LOG_CURRENT_TIMESTAMP]));
	print_mask(ctl, "port_map", tb[IBSW_A_CC_LOG_PORT_MAP]);
	fputc('\n', f);
	data = ibsw_genl_attrs(nlh, &len);
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr))
		if (mnl_attr_get_type(attr) == IBSW_A_CC_LOG_EVENT)
			print_log_event(ctl, attr);
}

/* --------------------------------------------------------------- commands */

/*
 * "SW" plus the options -j and -d, which may also follow the command here
 * ("cc show S1 -j") as ibccquery users tend to write them.
 */
static int parse_sw_opts(struct ctl *ctl, const char *what, int argc, char **argv,
			 char *sw, size_t len)
{
	const char *name = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			ctl->json = true;
		} else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty")) {
			ctl->json = true;
			ctl->pretty = true;
			jw_init(&ctl->jw, ctl->out, true);
		} else if (!strcmp(argv[i], "-d") || !strcmp(argv[i], "--details")) {
			ctl->details = true;
		} else if (!name && argv[i][0] != '-') {
			name = argv[i];
		} else {
			ctl_err(ctl, "%s: unexpected argument \"%s\"", what, argv[i]);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	if (!name) {
		ctl_err(ctl, "%s: expected SW", what);
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_parse_name(ctl, name, sw, len) ? CTL_USAGE : CTL_OK;
}

static int cc_show(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	int err;

	err = parse_sw_opts(ctl, "cc show", argc, argv, sw, sizeof(sw));
	if (err)
		return err;
	nlh = ctl_msg_start(ctl, IBSW_CMD_CC_GET, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_CC_SWITCH_NAME, sw);
	err = ctl_show(ctl, nlh, &ctl_cc_attrs, ctl_print_cc, NULL, false);
	if (err)
		return ctl_nl_err(ctl, err, "cc show %s", sw);
	return CTL_OK;
}

struct cc_set {
	uint32_t given;		/* bit: IBSW_A_CC_* given */
	uint32_t map;
	uint8_t victim[CTL_MASK_LEN], credit[CTL_MASK_LEN];
	uint32_t threshold, packet_size, cs_threshold, marking_rate;
	uint16_t cs_delay;
	uint8_t fill_compare;
};

/* The Control_Map bit that applies each attribute (OpenSM's grouping) */
static const struct {
	const char *key;
	uint16_t attr;
	uint32_t map_bit;
} sw_keys[] = {
	{ "victim_mask", IBSW_A_CC_VICTIM_MASK, IBSW_CC_CONTROL_MAP_VICTIM_MASK },
	{ "credit_mask", IBSW_A_CC_CREDIT_MASK, IBSW_CC_CONTROL_MAP_CREDIT_MASK },
	{ "threshold", IBSW_A_CC_THRESHOLD, IBSW_CC_CONTROL_MAP_THRESHOLD },
	{ "packet_size", IBSW_A_CC_PACKET_SIZE, IBSW_CC_CONTROL_MAP_THRESHOLD },
	{ "cs_threshold", IBSW_A_CC_CS_THRESHOLD, IBSW_CC_CONTROL_MAP_CS },
	{ "cs_return_delay", IBSW_A_CC_CS_RETURN_DELAY, IBSW_CC_CONTROL_MAP_CS },
	{ "marking_rate", IBSW_A_CC_MARKING_RATE, IBSW_CC_CONTROL_MAP_MARKING_RATE },
	{ "control_map", IBSW_A_CC_CONTROL_MAP, 0 },
	{ "fill_compare", IBSW_A_CC_FILL_COMPARE, 0 },
};

/* "sum", "voq", "per_input" (or "per-input") */
static int parse_fill_compare(struct ctl *ctl, const char *val, uint8_t *how)
{
	const char *name;
	uint32_t i;

	for (i = 0; (name = ctl_fill_compare_name(i)); i++) {
		if (is_key(val, name)) {
			*how = i;
			return 0;
		}
	}
	ctl_err(ctl, "bad fill_compare \"%s\": expected sum, voq or per_input", val);
	return -EINVAL;
}

static int parse_sw_value(struct ctl *ctl, uint16_t attr, const char *val, struct cc_set *cs)
{
	switch (attr) {
	case IBSW_A_CC_CONTROL_MAP:
		return ctl_parse_cc_map(ctl, val, &cs->map);
	case IBSW_A_CC_VICTIM_MASK:
		return ctl_parse_mask(ctl, "victim_mask", val, cs->victim);
	case IBSW_A_CC_CREDIT_MASK:
		return ctl_parse_mask(ctl, "credit_mask", val, cs->credit);
	case IBSW_A_CC_THRESHOLD:
		return ctl_parse_u32(ctl, "threshold", val, 0, IBSW_CC_THRESHOLD_MAX,
				     &cs->threshold);
	case IBSW_A_CC_PACKET_SIZE:
		return ctl_parse_u32(ctl, "packet_size", val, 0, 255, &cs->packet_size);
	case IBSW_A_CC_CS_THRESHOLD:
		return ctl_parse_u32(ctl, "cs_threshold", val, 0, IBSW_CC_THRESHOLD_MAX,
				     &cs->cs_threshold);
	case IBSW_A_CC_CS_RETURN_DELAY:
		return ctl_parse_shift_mult(ctl, "cs_return_delay", val, &cs->cs_delay);
	case IBSW_A_CC_MARKING_RATE:
		return ctl_parse_u32(ctl, "marking_rate", val, 0, 65535, &cs->marking_rate);
	case IBSW_A_CC_FILL_COMPARE:
		return parse_fill_compare(ctl, val, &cs->fill_compare);
	}
	return -EINVAL;
}

static int cc_set_switch(struct ctl *ctl, const char *sw, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct cc_set cs;
	size_t k;
	int i, err;

	memset(&cs, 0, sizeof(cs));
	for (i = 0; i < argc; i += 2) {
		for (k = 0; k < ARRAY_SIZE(sw_keys); k++)
			if (is_key(argv[i], sw_keys[k].key))
				break;
		if (k == ARRAY_SIZE(sw_keys)) {
			ctl_err(ctl, "cc set: unknown argument \"%s\"", argv[i]);
			usage(ctl->err);
			return CTL_USAGE;
		}
		if (i + 1 >= argc) {
			ctl_err(ctl, "cc set: \"%s\" needs a value", argv[i]);
			return CTL_USAGE;
		}
		if (cs.given & (1u << sw_keys[k].attr)) {
			ctl_err(ctl, "cc set: %s given twice", sw_keys[k].key);
			return CTL_USAGE;
		}
		if (parse_sw_value(ctl, sw_keys[k].attr, argv[i + 1], &cs))
			return CTL_USAGE;
		cs.given |= 1u << sw_keys[k].attr;
	}
	if (!(cs.given & ~(1u << IBSW_A_CC_CONTROL_MAP))) {
		ctl_err(ctl, "cc set: nothing to set");
		usage(ctl->err);
		return CTL_USAGE;
	}
	/* a value the Control_Map leaves out would be ignored: say so instead */
	if (cs.given & (1u << IBSW_A_CC_CONTROL_MAP)) {
		for (k = 0; k < ARRAY_SIZE(sw_keys); k++) {
			if (!(cs.given & (1u << sw_keys[k].attr)) || !sw_keys[k].map_bit ||
			    (cs.map & sw_keys[k].map_bit))
				continue;
			ctl_err(ctl, "cc set: %s would not apply: control_map lacks %s",
				sw_keys[k].key, ctl_cc_map_name(__builtin_ctz(sw_keys[k].map_bit)));
			return CTL_USAGE;
		}
	}

	nlh = ctl_msg_start(ctl, IBSW_CMD_CC_SET, 0, 2 * CTL_MASK_LEN);
	mnl_attr_put_strz(nlh, IBSW_A_CC_SWITCH_NAME, sw);
	if (cs.given & (1u << IBSW_A_CC_CONTROL_MAP))
		mnl_attr_put_u32(nlh, IBSW_A_CC_CONTROL_MAP, cs.map);
	if (cs.given & (1u << IBSW_A_CC_VICTIM_MASK))
		mnl_attr_put(nlh, IBSW_A_CC_VICTIM_MASK, CTL_MASK_LEN, cs.victim);
	if (cs.given & (1u << IBSW_A_CC_CREDIT_MASK))
		mnl_attr_put(nlh, IBSW_A_CC_CREDIT_MASK, CTL_MASK_LEN, cs.credit);
	if (cs.given & (1u << IBSW_A_CC_THRESHOLD))
		mnl_attr_put_u8(nlh, IBSW_A_CC_THRESHOLD, cs.threshold);
	if (cs.given & (1u << IBSW_A_CC_PACKET_SIZE))
		mnl_attr_put_u8(nlh, IBSW_A_CC_PACKET_SIZE, cs.packet_size);
	if (cs.given & (1u << IBSW_A_CC_CS_THRESHOLD))
		mnl_attr_put_u8(nlh, IBSW_A_CC_CS_THRESHOLD, cs.cs_threshold);
	if (cs.given & (1u << IBSW_A_CC_CS_RETURN_DELAY))
		mnl_attr_put_u16(nlh, IBSW_A_CC_CS_RETURN_DELAY, cs.cs_delay);
	if (cs.given & (1u << IBSW_A_CC_MARKING_RATE))
		mnl_attr_put_u16(nlh, IBSW_A_CC_MARKING_RATE, cs.marking_rate);
	if (cs.given & (1u << IBSW_A_CC_FILL_COMPARE))
		mnl_attr_put_u8(nlh, IBSW_A_CC_FILL_COMPARE, cs.fill_compare);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "cc set %s", sw);
	return CTL_OK;
}

static int parse_on_off(struct ctl *ctl, const char *what, const char *s, uint32_t *v)
{
	if (!strcmp(s, "on") || !strcmp(s, "1")) {
		*v = 1;
	} else if (!strcmp(s, "off") || !strcmp(s, "0")) {
		*v = 0;
	} else {
		ctl_err(ctl, "bad %s \"%s\": expected on or off", what, s);
		return -EINVAL;
	}
	return 0;
}

/* SwitchPortCongestionSetting of one port */
static int cc_set_port(struct ctl *ctl, const char *sw, uint32_t port, int argc,
		       char **argv)
{
	static const struct {
		const char *key;
		uint16_t attr;
		uint32_t max;
	} keys[] = {
		{ "valid", IBSW_A_CC_PORT_VALID, 1 },
		{ "control_type", IBSW_A_CC_PORT_CONTROL_TYPE, 1 },
		{ "threshold", IBSW_A_CC_PORT_THRESHOLD, IBSW_CC_THRESHOLD_MAX },
		{ "packet_size", IBSW_A_CC_PORT_PACKET_SIZE, 255 },
		{ "marking_rate", IBSW_A_CC_PORT_MARKING_RATE, 65535 },
	};
	uint32_t val[IBSW_A_CC_PORT_MAX + 1] = { 0 }, given = 0;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	size_t k;
	int i, err;

	for (i = 0; i < argc; i += 2) {
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (is_key(argv[i], keys[k].key))
				break;
		if (k == ARRAY_SIZE(keys)) {
			ctl_err(ctl, "cc set %s/%u: unknown argument \"%s\"%s", sw, port, argv[i],
				is_key(argv[i], "victim_mask") || is_key(argv[i], "control_map") ?
				" (a switch setting: give SW, not SW/PORT)" : "");
			usage(ctl->err);
			return CTL_USAGE;
		}
		if (i + 1 >= argc) {
			ctl_err(ctl, "cc set: \"%s\" needs a value", argv[i]);
			return CTL_USAGE;
		}
		if (given & (1u << keys[k].attr)) {
			ctl_err(ctl, "cc set: %s given twice", keys[k].key);
			return CTL_USAGE;
		}
		if (keys[k].attr == IBSW_A_CC_PORT_VALID)
			err = parse_on_off(ctl, "valid", argv[i + 1], &val[keys[k].attr]);
		else
			err = ctl_parse_u32(ctl, keys[k].key, argv[i + 1], 0, keys[k].max,
					    &val[keys[k].attr]);
		if (err)
			return CTL_USAGE;
		given |= 1u << keys[k].attr;
	}
	if (!given) {
		ctl_err(ctl, "cc set: nothing to set");
		usage(ctl->err);
		return CTL_USAGE;
	}
	/* values without "valid": the port overrides the switch from now on */
	if (!(given & (1u << IBSW_A_CC_PORT_VALID))) {
		given |= 1u << IBSW_A_CC_PORT_VALID;
		val[IBSW_A_CC_PORT_VALID] = 1;
	}
	given |= 1u << IBSW_A_CC_PORT_CONTROL_TYPE;

	nlh = ctl_msg_start(ctl, IBSW_CMD_CC_SET, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_CC_SWITCH_NAME, sw);
	nest = mnl_attr_nest_start(nlh, IBSW_A_CC_PORT_SETTING);
	mnl_attr_put_u32(nlh, IBSW_A_CC_PORT_PORT, port);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_VALID, val[IBSW_A_CC_PORT_VALID]);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_CONTROL_TYPE, val[IBSW_A_CC_PORT_CONTROL_TYPE]);
	if (given & (1u << IBSW_A_CC_PORT_THRESHOLD))
		mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_THRESHOLD, val[IBSW_A_CC_PORT_THRESHOLD]);
	if (given & (1u << IBSW_A_CC_PORT_PACKET_SIZE))
		mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_PACKET_SIZE, val[IBSW_A_CC_PORT_PACKET_SIZE]);
	if (given & (1u << IBSW_A_CC_PORT_MARKING_RATE))
		mnl_attr_put_u16(nlh, IBSW_A_CC_PORT_MARKING_RATE,
				 val[IBSW_A_CC_PORT_MARKING_RATE]);
	mnl_attr_nest_end(nlh, nest);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "cc set %s/%u", sw, port);
	return CTL_OK;
}

static int cc_set(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	uint32_t port;

	if (argc < 1) {
		ctl_err(ctl, "cc set: expected SW or SW/PORT");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_swport(ctl, argv[0], sw, sizeof(sw), &port, false))
		return CTL_USAGE;
	if (port)
		return cc_set_port(ctl, sw, port, argc - 1, argv + 1);
	return cc_set_switch(ctl, sw, argc - 1, argv + 1);
}

static int cc_log(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	int err;

	if (argc == 1 && !strcmp(argv[0], "help")) {
		usage(ctl->out);
		return CTL_OK;
	}
	if (argc >= 1 && !strcmp(argv[0], "clear")) {
		if (argc != 2) {
			ctl_err(ctl, "cc log clear: expected SW");
			usage(ctl->err);
			return CTL_USAGE;
		}
		if (ctl_parse_name(ctl, argv[1], sw, sizeof(sw)))
			return CTL_USAGE;
		nlh = ctl_msg_start(ctl, IBSW_CMD_CC_LOG_CLEAR, 0, 0);
		mnl_attr_put_strz(nlh, IBSW_A_CC_LOG_SWITCH_NAME, sw);
		err = ctl_request(ctl, nlh, NULL, NULL);
		if (err)
			return ctl_nl_err(ctl, err, "cc log clear %s", sw);
		return CTL_OK;
	}
	err = parse_sw_opts(ctl, "cc log", argc, argv, sw, sizeof(sw));
	if (err)
		return err;
	nlh = ctl_msg_start(ctl, IBSW_CMD_CC_LOG_GET, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_CC_LOG_SWITCH_NAME, sw);
	err = ctl_show(ctl, nlh, &ctl_cc_log_attrs, ctl_print_cc_log, NULL, false);
	if (err)
		return ctl_nl_err(ctl, err, "cc log %s", sw);
	return CTL_OK;
}

static const struct ctl_cmd cmds[] = {
	{ "show", cc_show },
	{ "set", cc_set },
	{ "log", cc_log },
};

int cmd_cc(struct ctl *ctl, int argc, char **argv)
{
	if (argc < 1) {
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, "cc", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
