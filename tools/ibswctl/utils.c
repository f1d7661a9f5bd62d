// SPDX-License-Identifier: GPL-2.0
/* Messages, argument parsers, names and formats shared by the commands. */
#define _GNU_SOURCE
#include "ibswctl.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <net/if.h>

#include "topo.h"

void ctl_err(struct ctl *ctl, const char *fmt, ...)
{
	va_list ap;

	fputs("ibswctl: ", ctl->err);
	va_start(ap, fmt);
	vfprintf(ctl->err, fmt, ap);
	va_end(ap);
	fputc('\n', ctl->err);
}

int ctl_nl_err(struct ctl *ctl, int err, const char *fmt, ...)
{
	va_list ap;

	if (ctl->reported)
		return CTL_FAIL;
	fputs("ibswctl: ", ctl->err);
	va_start(ap, fmt);
	vfprintf(ctl->err, fmt, ap);
	va_end(ap);
	if (ctl->ext_msg[0])
		fprintf(ctl->err, ": %s (%s)\n", ctl->ext_msg, strerror(-err));
	else if (ctl->ext_miss_type)
		fprintf(ctl->err, ": missing attribute %u (%s)\n", ctl->ext_miss_type,
			strerror(-err));
	else
		fprintf(ctl->err, ": %s\n", strerror(-err));
	return CTL_FAIL;
}

/* iproute2's rule: arg is a non-empty prefix of word. */
int ctl_data_path(const char *exe, const char *rel, char *buf, size_t len)
{
	const char *bin = strrchr(exe, '/');
	const char *prefix_end;
	int n;

	if (exe[0] != '/' || !bin || bin == exe)
		return -EINVAL;
	/* exe's directory's parent: /usr of /usr/sbin/ibswctl */
	prefix_end = bin - 1;
	while (prefix_end > exe && *prefix_end != '/')
		prefix_end--;
	n = snprintf(buf, len, "%.*s/share/ibsw/%s", (int)(prefix_end - exe), exe, rel);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

bool ctl_matches(const char *arg, const char *word)
{
	size_t n = strlen(arg);

	return n && n <= strlen(word) && !strncmp(arg, word, n);
}

int ctl_parse_u32(struct ctl *ctl, const char *what, const char *s,
		  uint32_t min, uint32_t max, uint32_t *val)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)s[0]))
		goto bad;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		goto bad;
	if (v < min || v > max) {
		ctl_err(ctl, "%s %s out of range (%u-%u)", what, s, min, max);
		return -EINVAL;
	}
	*val = v;
	return 0;
bad:
	ctl_err(ctl, "bad %s \"%s\": expected a number", what, s);
	return -EINVAL;
}

int ctl_parse_bps(struct ctl *ctl, const char *what, const char *s, uint64_t *bps)
{
	switch (topo_parse_bps(s, strlen(s), bps)) {
	case 0:
		return 0;
	case -ERANGE:
		ctl_err(ctl, "%s %s out of range (0-%lluG)", what, s, TOPO_BPS_MAX / 1000000000);
		return -EINVAL;
	default:
		ctl_err(ctl, "bad %s \"%s\": expected bit/s with an optional k, M or G, e.g. 13G",
			what, s);
		return -EINVAL;
	}
}

static bool name_char_ok(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == ':';
}

/* Switch names: 1 to IBSW_NAME_LEN of [A-Za-z0-9_.:-] */
int ctl_parse_name(struct ctl *ctl, const char *s, char *name, size_t len)
{
	size_t n = strlen(s), i;

	if (!n || n > IBSW_NAME_LEN || n >= len) {
		ctl_err(ctl, "bad switch name \"%s\": 1 to %d characters", s, IBSW_NAME_LEN);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (!name_char_ok(s[i])) {
			ctl_err(ctl, "bad switch name \"%s\": letters, digits, '_', '-', '.' and ':' only",
				s);
			return -EINVAL;
		}
	}
	memcpy(name, s, n + 1);
	return 0;
}

int ctl_parse_swport(struct ctl *ctl, const char *s, char *sw, size_t swlen,
		     uint32_t *port, bool port_required)
{
	const char *slash = strchr(s, '/');
	char name[IBSW_NAME_LEN + 2];
	size_t n = slash ? (size_t)(slash - s) : strlen(s);

	if (!slash && port_required) {
		ctl_err(ctl, "bad port \"%s\": expected SWITCH/PORT, e.g. S1/3", s);
		return -EINVAL;
	}
	if (n >= sizeof(name)) {
		ctl_err(ctl, "bad switch name in \"%s\": 1 to %d characters", s, IBSW_NAME_LEN);
		return -EINVAL;
	}
	memcpy(name, s, n);
	name[n] = '\0';
	if (ctl_parse_name(ctl, name, sw, swlen))
		return -EINVAL;
	*port = 0;
	if (slash)
		return ctl_parse_u32(ctl, "port number", slash + 1, 1, IBSW_MAX_PORTS, port);
	return 0;
}

static const char *const width_names[] = {
	[IBSW_LINK_WIDTH_1X] = "1x",
	[IBSW_LINK_WIDTH_4X] = "4x",
	[IBSW_LINK_WIDTH_8X] = "8x",
	[IBSW_LINK_WIDTH_12X] = "12x",
};

static const unsigned int width_lanes[] = {
	[IBSW_LINK_WIDTH_1X] = 1,
	[IBSW_LINK_WIDTH_4X] = 4,
	[IBSW_LINK_WIDTH_8X] = 8,
	[IBSW_LINK_WIDTH_12X] = 12,
};

static const char *const speed_names[] = {
	[IBSW_LINK_SPEED_SDR] = "SDR",
	[IBSW_LINK_SPEED_DDR] = "DDR",
	[IBSW_LINK_SPEED_QDR] = "QDR",
	[IBSW_LINK_SPEED_FDR10] = "FDR10",
	[IBSW_LINK_SPEED_FDR] = "FDR",
	[IBSW_LINK_SPEED_EDR] = "EDR",
	[IBSW_LINK_SPEED_HDR] = "HDR",
	[IBSW_LINK_SPEED_NDR] = "NDR",
};

static const char *const speed_keys[] = {
	[IBSW_LINK_SPEED_SDR] = "sdr",
	[IBSW_LINK_SPEED_DDR] = "ddr",
	[IBSW_LINK_SPEED_QDR] = "qdr",
	[IBSW_LINK_SPEED_FDR10] = "fdr10",
	[IBSW_LINK_SPEED_FDR] = "fdr",
	[IBSW_LINK_SPEED_EDR] = "edr",
	[IBSW_LINK_SPEED_HDR] = "hdr",
	[IBSW_LINK_SPEED_NDR] = "ndr",
};

/* Data rate of one lane in bit/s, FDR's 150/11 Gb/s as a fraction */
static const uint64_t lane_bps[] = {
	[IBSW_LINK_SPEED_SDR] = 2000000000ULL,
	[IBSW_LINK_SPEED_DDR] = 4000000000ULL,
	[IBSW_LINK_SPEED_QDR] = 8000000000ULL,
	[IBSW_LINK_SPEED_FDR10] = 10000000000ULL,
	[IBSW_LINK_SPEED_FDR] = 150000000000ULL,	/* / 11 */
	[IBSW_LINK_SPEED_EDR] = 25000000000ULL,
	[IBSW_LINK_SPEED_HDR] = 50000000000ULL,
	[IBSW_LINK_SPEED_NDR] = 100000000000ULL,
};

static const char *const kind_names[] = {
	[IBSW_PORT_KIND_NONE] = "none",
	[IBSW_PORT_KIND_HOST] = "host",
	[IBSW_PORT_KIND_LINK] = "link",
	[IBSW_PORT_KIND_MGMT] = "mgmt",
	[IBSW_PORT_KIND_REMOTE] = "remote",
};

static const char *const remote_state_names[] = {
	[IBSW_REMOTE_STATE_DOWN] = "down",
	[IBSW_REMOTE_STATE_UP] = "up",
};

const char *ctl_width_name(uint32_t width)
{
	return width < ARRAY_SIZE(width_names) ? width_names[width] : NULL;
}

const char *ctl_speed_name(uint32_t speed)
{
	return speed < ARRAY_SIZE(speed_names) ? speed_names[speed] : NULL;
}

const char *ctl_speed_key(uint32_t speed)
{
	return speed < ARRAY_SIZE(speed_keys) ? speed_keys[speed] : NULL;
}

const char *ctl_kind_name(uint32_t kind)
{
	return kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : NULL;
}

const char *ctl_remote_state_name(uint32_t state)
{
	return state < ARRAY_SIZE(remote_state_names) ? remote_state_names[state] : NULL;
}

/* enum cc-fill-compare, as the spec spells it */
static const char *const fill_compare_names[] = {
	[IBSW_CC_FILL_COMPARE_SUM] = "sum",
	[IBSW_CC_FILL_COMPARE_VOQ] = "voq",
	[IBSW_CC_FILL_COMPARE_PER_INPUT] = "per-input",
};

const char *ctl_fill_compare_name(uint32_t how)
{
	return how < ARRAY_SIZE(fill_compare_names) ? fill_compare_names[how] : NULL;
}

/* Lanes times the lane rate, rounded once to the nearest bit/s (as rate.c). */
uint64_t ctl_rate_bps(uint32_t width, uint32_t speed)
{
	uint64_t bps;

	if (width >= ARRAY_SIZE(width_lanes) || speed >= ARRAY_SIZE(lane_bps))
		return 0;
	bps = width_lanes[width] * lane_bps[speed];
	if (speed == IBSW_LINK_SPEED_FDR)
		bps = (bps + 5) / 11;
	return bps;
}

static int lookup(const char *s, size_t len, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncasecmp(s, names[i], len))
			return i;
	return -1;
}

int ctl_parse_width(struct ctl *ctl, const char *s, uint32_t *width)
{
	int w = lookup(s, strlen(s), width_names, ARRAY_SIZE(width_names));

	if (w < 0) {
		ctl_err(ctl, "bad link width \"%s\" (1x 4x 8x 12x)", s);
		return -EINVAL;
	}
	*width = w;
	return 0;
}

int ctl_parse_speed(struct ctl *ctl, const char *s, uint32_t *speed)
{
	int sp = lookup(s, strlen(s), speed_names, ARRAY_SIZE(speed_names));

	if (sp < 0) {
		ctl_err(ctl, "bad link speed \"%s\" (SDR DDR QDR FDR10 FDR EDR HDR NDR)", s);
		return -EINVAL;
	}
	*speed = sp;
	return 0;
}

/* "4xQDR": the width is the digits and the 'x' */
int ctl_parse_rate(struct ctl *ctl, const char *s, uint32_t *width, uint32_t *speed)
{
	size_t n = strspn(s, "0123456789");
	int w = -1, sp = -1;

	if (n && (s[n] == 'x' || s[n] == 'X')) {
		w = lookup(s, n + 1, width_names, ARRAY_SIZE(width_names));
		sp = lookup(s + n + 1, strlen(s + n + 1), speed_names, ARRAY_SIZE(speed_names));
	}
	if (w < 0 || sp < 0) {
		ctl_err(ctl, "bad link rate \"%s\": expected WIDTH and SPEED, e.g. 4xQDR %s", s,
			"(widths 1x 4x 8x 12x; speeds SDR DDR QDR FDR10 FDR EDR HDR NDR)");
		return -EINVAL;
	}
	*width = w;
	*speed = sp;
	return 0;
}

/* A comma-separated list of "A:B" pairs of numbers */
struct pair_list {
	const char *what;	/* "forwarding table", in messages */
	const char *a, *b;	/* "LID", "PORT" */
	uint32_t amin, amax, bmin, bmax;
	unsigned int max_items;
	int (*add)(struct ctl *ctl, uint32_t a, uint32_t b, void *data);
};

static int parse_pairs(struct ctl *ctl, const struct pair_list *pl, const char *s,
		       void *data)
{
	char *copy, *item, *save = NULL, *colon;
	unsigned int n = 0;
	uint32_t a, b;
	int ret = 0;

	if (!*s || *s == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,")) {
		ctl_err(ctl, "bad %s \"%s\": expected %s:%s[,%s:%s...]", pl->what, s,
			pl->a, pl->b, pl->a, pl->b);
		return -EINVAL;
	}
	copy = strdup(s);
	if (!copy) {
		ctl_err(ctl, "out of memory");
		return -ENOMEM;
	}
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		colon = strchr(item, ':');
		if (!colon) {
			ctl_err(ctl, "bad %s entry \"%s\": expected %s:%s", pl->what, item,
				pl->a, pl->b);
			ret = -EINVAL;
			break;
		}
		*colon = '\0';
		if (++n > pl->max_items) {
			ctl_err(ctl, "too many %s entries (at most %u)", pl->what, pl->max_items);
			ret = -EINVAL;
			break;
		}
		ret = ctl_parse_u32(ctl, pl->a, item, pl->amin, pl->amax, &a);
		if (!ret)
			ret = ctl_parse_u32(ctl, pl->b, colon + 1, pl->bmin, pl->bmax, &b);
		if (!ret)
			ret = pl->add(ctl, a, b, data);
		if (ret)
			break;
	}
	free(copy);
	return ret;
}

static int vlarb_add(struct ctl *ctl, uint32_t vl, uint32_t weight, void *data)
{
	struct ctl_vlarb *list = data;

	(void)ctl;
	list->vl[list->n] = vl;
	list->weight[list->n] = weight;
	list->n++;
	return 0;
}

int ctl_parse_vlarb(struct ctl *ctl, const char *what, const char *s,
		    struct ctl_vlarb *list)
{
	struct pair_list pl = {
		.what = what, .a = "VL", .b = "WEIGHT",
		.amax = IBSW_NR_DATA_VLS - 1, .bmax = 255,
		.max_items = IBSW_VLARB_MAX_ENTRIES, .add = vlarb_add,
	};

	list->given = true;
	list->n = 0;
	if (!strcmp(s, "none"))
		return 0;
	return parse_pairs(ctl, &pl, s, list);
}

int ctl_parse_sl2vl(struct ctl *ctl, const char *s, uint8_t map[IBSW_NR_SLS])
{
	const char *p = s;
	unsigned int n = 0;
	uint32_t vl;
	char item[16];
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		if (!len || len >= sizeof(item) || n == IBSW_NR_SLS)
			break;
		memcpy(item, p, len);
		item[len] = '\0';
		if (ctl_parse_u32(ctl, "VL in sl2vl", item, 0, 15, &vl))
			return -EINVAL;
		map[n++] = vl;
		p += len;
		if (!*p)
			break;
		p++;
	}
	if (n != IBSW_NR_SLS || *p) {
		ctl_err(ctl, "bad sl2vl map \"%s\": expected %d VLs separated by ',' %s", s,
			IBSW_NR_SLS, "(VL of SL 0, SL 1, ...; 15 drops)");
		return -EINVAL;
	}
	return 0;
}

struct buffers {
	uint16_t *set;
	uint32_t *credits;
};

static int buffer_add(struct ctl *ctl, uint32_t vl, uint32_t credits, void *data)
{
	struct buffers *b = data;

	if (*b->set & (1u << vl)) {
		ctl_err(ctl, "buffer of VL %u given twice", vl);
		return -EINVAL;
	}
	*b->set |= 1u << vl;
	b->credits[vl] = credits;
	return 0;
}

int ctl_parse_buffers(struct ctl *ctl, const char *s, uint16_t *set,
		      uint32_t credits[IBSW_NR_DATA_VLS])
{
	struct pair_list pl = {
		.what = "buffer list", .a = "VL", .b = "CREDITS",
		.amax = IBSW_NR_DATA_VLS - 1, .bmax = 65535,
		.max_items = IBSW_NR_DATA_VLS, .add = buffer_add,
	};
	struct buffers b = { set, credits };
	uint32_t c;
	int vl;

	*set = 0;
	if (!strchr(s, ':') && !strchr(s, ',')) {
		if (ctl_parse_u32(ctl, "buffer credits", s, 0, 65535, &c))
			return -EINVAL;
		for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++)
			credits[vl] = c;
		*set = (1u << IBSW_NR_DATA_VLS) - 1;
		return 0;
	}
	return parse_pairs(ctl, &pl, s, &b);
}

int ctl_parse_mac(struct ctl *ctl, const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;
	int i;

	if (strlen(s) != 17 ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5], &end) != 6 || strspn(s, "0123456789abcdefABCDEF:") != 17) {
		ctl_err(ctl, "bad MAC address \"%s\": expected xx:xx:xx:xx:xx:xx", s);
		return -EINVAL;
	}
	if (b[0] & 1) {
		ctl_err(ctl, "bad MAC address \"%s\": a multicast address", s);
		return -EINVAL;
	}
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
	return 0;
}

int ctl_parse_ifname(struct ctl *ctl, const char *s)
{
	if (!*s || strlen(s) >= IFNAMSIZ || strchr(s, '/') || strpbrk(s, " \t\n:")) {
		ctl_err(ctl, "bad interface name \"%s\": 1 to %d characters, no '/', ':' or blanks",
			s, IFNAMSIZ - 1);
		return -EINVAL;
	}
	return 0;
}

int ctl_parse_ip(struct ctl *ctl, const char *s, uint8_t ip[16])
{
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		memset(ip, 0, 10);
		ip[10] = 0xff;
		ip[11] = 0xff;
		memcpy(ip + 12, &a4, 4);
		return 0;
	}
	if (inet_pton(AF_INET6, s, ip) == 1)
		return 0;
	ctl_err(ctl, "bad address \"%s\": expected an IPv4 or IPv6 address", s);
	return -EINVAL;
}

struct lft {
	uint8_t *lft;
	uint32_t *top;
};

static int lft_add(struct ctl *ctl, uint32_t lid, uint32_t port, void *data)
{
	struct lft *l = data;

	if (l->lft[lid] != 255) {
		ctl_err(ctl, "LID %u listed twice", lid);
		return -EINVAL;
	}
	/* 0 and 255 both mean "no route"; 255 marks unlisted entries here */
	l->lft[lid] = port ? port : 255;
	if (lid > *l->top)
		*l->top = lid;
	return 0;
}

int ctl_parse_lft(struct ctl *ctl, const char *s, uint8_t *lft, uint32_t *top)
{
	struct pair_list pl = {
		.what = "forwarding table", .a = "LID", .b = "PORT",
		.amin = 1, .amax = IBSW_LID_UNICAST_MAX, .bmax = 255,
		.max_items = IBSW_LID_UNICAST_MAX, .add = lft_add,
	};
	struct lft l = { lft, top };

	memset(lft, 255, IBSW_LID_UNICAST_MAX + 1);
	*top = 0;
	return parse_pairs(ctl, &pl, s, &l);
}

void ctl_format_rate(char *buf, size_t len, uint32_t width, uint32_t speed,
		     uint64_t rate_bps)
{
	const char *w = ctl_width_name(width), *s = ctl_speed_name(speed);
	uint64_t mbps;
	char num[32];
	int n;

	if (!rate_bps)
		rate_bps = ctl_rate_bps(width, speed);
	mbps = (rate_bps + 500000) / 1000000;
	n = snprintf(num, sizeof(num), "%llu.%03u", (unsigned long long)(mbps / 1000),
		     (unsigned int)(mbps % 1000));
	while (num[n - 1] == '0')
		num[--n] = '\0';
	if (num[n - 1] == '.')
		num[--n] = '\0';
	if (w && s)
		snprintf(buf, len, "%s%s (%s Gb/s)", w, s, num);
	else
		snprintf(buf, len, "%s Gb/s", num);
}

void ctl_format_mac(char *buf, size_t len, const uint8_t mac[6])
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2],
		 mac[3], mac[4], mac[5]);
}

void ctl_format_ip(char *buf, size_t len, const uint8_t ip[16])
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(ip, mapped, sizeof(mapped)))
		inet_ntop(AF_INET, ip + 12, buf, len);
	else
		inet_ntop(AF_INET6, ip, buf, len);
}

void ctl_lid_mac(uint16_t lid, uint8_t mac[6])
{
	mac[0] = 0x02;
	mac[1] = 0x1b;
	mac[2] = 0;
	mac[3] = 0;
	mac[4] = lid >> 8;
	mac[5] = lid & 0xff;
}

void ctl_lid_ipv4(uint16_t lid, char *buf, size_t len)
{
	snprintf(buf, len, "10.0.%u.%u", lid >> 8, lid & 0xff);
}

void ctl_lid_ipv6(uint16_t lid, char *buf, size_t len)
{
	struct in6_addr a = { 0 };

	a.s6_addr[0] = 0xfd;
	a.s6_addr[3] = 0x1b;
	a.s6_addr[13] = lid >> 8;
	a.s6_addr[15] = lid & 0xff;
	inet_ntop(AF_INET6, &a, buf, len);
}
