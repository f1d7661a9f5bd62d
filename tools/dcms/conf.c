// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration files and command-line overrides of dcms: the daemon's keys
 * and OpenSM's cc_* keys for the static manager, with one error message per
 * bad line ("FILE:LINE: reason").
 */
#define _GNU_SOURCE
#include "conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REASON_LEN 256

void conf_diag_init(struct conf_diag *diag)
{
	memset(diag, 0, sizeof(*diag));
}

void conf_diag_free(struct conf_diag *diag)
{
	unsigned int i;

	for (i = 0; i < diag->count; i++)
		free(diag->msg[i]);
	conf_diag_init(diag);
}

void conf_diag_add(struct conf_diag *diag, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (diag->count == CONF_MAX_ERRORS) {
		diag->truncated = true;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (msg)
		diag->msg[diag->count++] = msg;
}

void conf_diag_print(FILE *f, const struct conf_diag *diag)
{
	unsigned int i;

	for (i = 0; i < diag->count; i++)
		fprintf(f, "%s\n", diag->msg[i]);
	if (diag->truncated)
		fprintf(f, "too many errors, the rest not shown\n");
}

void conf_init(struct conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	/* the paper's values (Experiment II) with tau = 1 s; T_D and T_I ours */
	conf->par.t_w = 27400000;
	conf->par.t_c = 8000000;
	conf->par.t_d = 62500000;
	conf->par.t_i = 12;
	conf->par.mr_low = 0;
	conf->par.mr_default = 128;
	conf->par.counter_bits = 64;
	conf->tau_ns = 1000000000;
	conf->cc_enable = true;
	conf->mad_port = 1;
	conf->mad_timeout_ms = 200;
	conf->mad_rediscover = 10;
}

void conf_free(struct conf *conf)
{
	free(conf->topology);
	free(conf->log);
	free(conf->csv);
	free(conf->pidfile);
	conf->topology = NULL;
	conf->log = NULL;
	conf->csv = NULL;
	conf->pidfile = NULL;
}

/* ---------------------------------------------------------------- values */

/*
 * The len characters at s, "DIGITS[.DIGITS]", times mult: a whole number,
 * or -EINVAL (27.4 x 10^6 is fine, 1.5 x 1 is not).
 */
static int parse_decimal(const char *s, size_t len, uint64_t mult, uint64_t *val)
{
	uint64_t ipart = 0, frac = 0, fdiv = 1;
	const char *p = s, *end = s + len;

	if (p == end || !isdigit((unsigned char)*p))
		return -EINVAL;
	for (; p < end && isdigit((unsigned char)*p); p++) {
		if (ipart > (UINT64_MAX - (*p - '0')) / 10)
			return -EINVAL;
		ipart = ipart * 10 + (*p - '0');
	}
	if (p < end && *p == '.') {
		if (++p == end)
			return -EINVAL;
		for (; p < end && isdigit((unsigned char)*p); p++) {
			if (fdiv >= UINT64_C(1000000000000))
				return -EINVAL;
			frac = frac * 10 + (*p - '0');
			fdiv *= 10;
		}
	}
	if (p != end || ipart > UINT64_MAX / mult || frac > UINT64_MAX / mult ||
	    (frac * mult) % fdiv || ipart * mult > UINT64_MAX - frac * mult / fdiv)
		return -EINVAL;
	*val = ipart * mult + frac * mult / fdiv;
	return 0;
}

int conf_parse_count(const char *s, uint64_t *val)
{
	static const struct {
		char c;
		uint64_t mult;
	} sfx[] = {
		{ 'K', 1000 }, { 'k', 1000 }, { 'M', 1000000 }, { 'G', 1000000000 },
		{ 'T', UINT64_C(1000000000000) },
	};
	size_t n = strspn(s, "0123456789."), i;

	if (!s[n])
		return parse_decimal(s, n, 1, val);
	for (i = 0; i < ARRAY_SIZE(sfx); i++)
		if (s[n] == sfx[i].c && !s[n + 1])
			return parse_decimal(s, n, sfx[i].mult, val);
	return -EINVAL;
}

int conf_parse_time(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t mult;
	} units[] = {
		{ "", 1000000000 }, { "s", 1000000000 }, { "ms", 1000000 },
		{ "us", 1000 }, { "ns", 1 },
	};
	size_t n = strspn(s, "0123456789."), i;
	uint64_t v;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(s + n, units[i].unit))
			continue;
		if (parse_decimal(s, n, units[i].mult, &v) || !v)
			return -EINVAL;
		*ns = v;
		return 0;
	}
	return -EINVAL;
}

static int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *val)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	/* decimal, or hex with 0x as opensm.conf writes it; never octal */
	errno = 0;
	v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*val = v;
	return 0;
}

static int parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

static int parse_bool(const char *s, bool *val)
{
	static const char *const yes[] = { "1", "on", "yes", "true" };
	static const char *const no[] = { "0", "off", "no", "false" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*val = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*val = false;
			return 0;
		}
	}
	return -EINVAL;
}

int conf_parse_ports(const char *s, struct conf_port *ports, unsigned int max,
		     unsigned int *n)
{
	const char *p = s;

	*n = 0;
	for (;;) {
		size_t len, swlen, numlen;
		const char *slash;
		char num[8];
		uint32_t port;

		p += strspn(p, " \t");
		len = strcspn(p, ",");
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		slash = memchr(p, '/', len);
		if (!slash || *n == max)
			return -EINVAL;
		swlen = slash - p;
		numlen = p + len - slash - 1;
		if (!swlen || swlen > DCMS_NAME_MAX || memchr(p, ' ', swlen) ||
		    numlen >= sizeof(num))
			return -EINVAL;
		memcpy(num, slash + 1, numlen);
		num[numlen] = '\0';
		if (parse_u32(num, 1, DCMS_PORTS_MAX, &port))
			return -EINVAL;
		memcpy(ports[*n].sw, p, swlen);
		ports[*n].sw[swlen] = '\0';
		ports[*n].port = port;
		(*n)++;
		p += strcspn(p, ",");
		if (!*p)
			return 0;
		p++;
	}
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int conf_parse_mask(const char *s, uint8_t mask[CC_MASK_LEN])
{
	const char *p = s, *end;
	unsigned int nibble = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!*p || strspn(p, "0123456789abcdefABCDEF") != strlen(p))
		return -EINVAL;
	while (p[0] == '0' && p[1])
		p++;
	if (strlen(p) > 2 * CC_MASK_LEN)
		return -EINVAL;
	memset(mask, 0, CC_MASK_LEN);
	for (end = p + strlen(p); end > p; nibble++)
		mask[CC_MASK_LEN - 1 - nibble / 2] |= hex_digit(*--end) << (nibble % 2 * 4);
	return 0;
}

static int parse_shift_mult(const char *s, uint8_t *shift, uint16_t *mult)
{
	const char *colon = strchr(s, ':');
	char head[8];
	uint32_t a, b;

	if (!colon || (size_t)(colon - s) >= sizeof(head))
		return -EINVAL;
	memcpy(head, s, colon - s);
	head[colon - s] = '\0';
	if (parse_u32(head, 0, 3, &a) || parse_u32(colon + 1, 0, 16383, &b))
		return -EINVAL;
	*shift = a;
	*mult = b;
	return 0;
}

int conf_parse_cct(const char *s, struct cc_cct_entry *cct, unsigned int *len)
{
	const char *p = s;
	unsigned int n = 0;

	for (;;) {
		size_t l = strcspn(p, ",");
		char item[32];

		if (!l || l >= sizeof(item) || n == CC_CCT_MAX)
			return -EINVAL;
		memcpy(item, p, l);
		item[l] = '\0';
		if (parse_shift_mult(item, &cct[n].shift, &cct[n].multiplier))
			return -EINVAL;
		n++;
		p += l;
		if (!*p)
			break;
		p++;
	}
	*len = n;
	return 0;
}

/* ---------------------------------------------------------------- keys */

struct setter_ctx {
	struct conf *conf;
	const char *dir;	/* for relative paths; NULL: as given */
	char *why;		/* REASON_LEN bytes */
};

typedef int (*setter_fn)(struct setter_ctx *c, const char *v, long arg);

static __printf(2, 3) int bad(struct setter_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->why, REASON_LEN, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

enum {
	K_T_W, K_T_C, K_T_D,
	K_MR_LOW, K_MR_DEFAULT,
	K_LOG, K_CSV, K_PIDFILE, K_TOPOLOGY,
	K_DRY_RUN,
};

static int set_count(struct setter_ctx *c, const char *v, long arg)
{
	uint64_t val;

	if (conf_parse_count(v, &val))
		return bad(c, "\"%s\": expected a whole number, K, M, G or T allowed (27.4M)", v);
	if (arg == K_T_W)
		c->conf->par.t_w = val;
	else if (arg == K_T_C)
		c->conf->par.t_c = val;
	else
		c->conf->par.t_d = val;
	return 0;
}

static int set_t_i(struct setter_ctx *c, const char *v, long arg)
{
	uint32_t val;

	(void)arg;
	if (parse_u32(v, 2, UINT32_MAX, &val))
		return bad(c, "\"%s\": expected a number of sweeps, 2 or more", v);
	c->conf->par.t_i = val;
	return 0;
}

static int set_mr(struct setter_ctx *c, const char *v, long arg)
{
	uint32_t val;

	if (parse_u32(v, 0, 65535, &val))
		return bad(c, "\"%s\": expected a Marking_Rate, 0 to 65535", v);
	if (arg == K_MR_LOW)
		c->conf->par.mr_low = val;
	else
		c->conf->par.mr_default = val;
	return 0;
}

static int set_tau(struct setter_ctx *c, const char *v, long arg)
{
	(void)arg;
	if (conf_parse_time(v, &c->conf->tau_ns))
		return bad(c, "\"%s\": expected a time above 0: 1s, 10ms, 250us", v);
	return 0;
}

static int set_bits(struct setter_ctx *c, const char *v, long arg)
{
	uint32_t val;

	(void)arg;
	if (parse_u32(v, 1, 64, &val))
		return bad(c, "\"%s\": expected a counter width in bits, 1 to 64", v);
	c->conf->par.counter_bits = val;
	return 0;
}

static int set_scale(struct setter_ctx *c, const char *v, long arg)
{
	uint32_t val;

	(void)arg;
	if (!strcmp(v, "auto")) {
		c->conf->time_scale = 0;
		return 0;
	}
	if (parse_u32(v, 1, 10000, &val))
		return bad(c, "\"%s\": expected auto or a time scale, 1 to 10000", v);
	c->conf->time_scale = val;
	return 0;
}

static int set_flag(struct setter_ctx *c, const char *v, long arg)
{
	bool val;

	if (parse_bool(v, &val))
		return bad(c, "\"%s\": expected on or off", v);
	(void)arg;
	c->conf->dry_run = val;
	return 0;
}

static int set_neigh(struct setter_ctx *c, const char *v, long arg)
{
	(void)arg;
	if (!strcmp(v, "netlink"))
		c->conf->neighbours = CONF_NEIGH_NETLINK;
	else if (!strcmp(v, "topology"))
		c->conf->neighbours = CONF_NEIGH_TOPOLOGY;
	else
		return bad(c, "\"%s\": expected netlink or topology", v);
	return 0;
}

static int set_backend(struct setter_ctx *c, const char *v, long arg)
{
	(void)arg;
	if (!strcmp(v, "netlink"))
		c->conf->backend = CONF_BACKEND_NETLINK;
	else if (!strcmp(v, "mad"))
		c->conf->backend = CONF_BACKEND_MAD;
	else
		return bad(c, "\"%s\": expected netlink or mad", v);
	return 0;
}

static int set_mad_ca(struct setter_ctx *c, const char *v, long arg)
{
	(void)arg;
	/* an rdma device name: what /sys/class/infiniband lists */
	if (strlen(v) > CONF_CA_NAME_MAX || strcspn(v, " \t/") != strlen(v))
		return bad(c, "\"%s\": expected an RDMA device name, at most %d characters", v,
			   CONF_CA_NAME_MAX);
	snprintf(c->conf->mad_ca, sizeof(c->conf->mad_ca), "%s", v);
	return 0;
}

enum { M_PORT, M_TIMEOUT, M_REDISCOVER };

static int set_mad_num(struct setter_ctx *c, const char *v, long arg)
{
	static const struct {
		uint32_t min, max;
		const char *what;
	} f[] = {
		[M_PORT] = { 1, 254, "a port number, 1 to 254" },
		[M_TIMEOUT] = { 1, 60000, "a timeout in milliseconds, 1 to 60000" },
		[M_REDISCOVER] = { 0, 1000000, "a number of sweeps, 0 to 1000000" },
	};
	uint32_t val;

	if (parse_u32(v, f[arg].min, f[arg].max, &val))
		return bad(c, "\"%s\": expected %s", v, f[arg].what);
	if (arg == M_PORT)
		c->conf->mad_port = val;
	else if (arg == M_TIMEOUT)
		c->conf->mad_timeout_ms = val;
	else
		c->conf->mad_rediscover = val;
	return 0;
}

static int set_cc_key(struct setter_ctx *c, const char *v, long arg)
{
	(void)arg;
	if (parse_u64(v, &c->conf->cc_key))
		return bad(c, "\"%s\": expected a 64-bit CC_Key (0x0123456789abcdef)", v);
	return 0;
}

static int set_path(struct setter_ctx *c, const char *v, long arg)
{
	char **dst[] = {
		[K_LOG] = &c->conf->log, [K_CSV] = &c->conf->csv,
		[K_PIDFILE] = &c->conf->pidfile, [K_TOPOLOGY] = &c->conf->topology,
	};
	char *path;

	if (!*v)
		return bad(c, "expected a path");
	if (!strcmp(v, "-") || *v == '/' || !c->dir || !*c->dir)
		path = strdup(v);
	else if (asprintf(&path, "%s/%s", c->dir, v) < 0)
		path = NULL;
	if (!path)
		return bad(c, "out of memory");
	free(*dst[arg]);
	*dst[arg] = path;
	return 0;
}

static int set_ports(struct setter_ctx *c, const char *v, long arg)
{
	(void)arg;
	if (conf_parse_ports(v, c->conf->csv_ports, CONF_MAX_CSV_PORTS, &c->conf->ncsv_ports))
		return bad(c, "\"%s\": expected SW/PORT[,SW/PORT...] (S1/15,S2/23), at most %u",
			   v, CONF_MAX_CSV_PORTS);
	return 0;
}

/* OpenSM's vocabulary */

enum {
	S_CONTROL_MAP, S_THRESHOLD, S_PACKET_SIZE, S_CS_THRESHOLD, S_MARKING_RATE,
	S_VICTIM_MASK, S_CREDIT_MASK,
	C_PORT_CONTROL, C_CONTROL_MAP,
};

static int set_cc_enable(struct setter_ctx *c, const char *v, long arg)
{
	(void)arg;
	if (parse_bool(v, &c->conf->cc_enable))
		return bad(c, "\"%s\": expected TRUE or FALSE", v);
	c->conf->cc_enable_given = true;
	return 0;
}

static int set_ignored(struct setter_ctx *c, const char *v, long arg)
{
	uint64_t val;

	(void)arg;
	/* accepted for opensm.conf compatibility: dcms sends one MAD at a time */
	if (strncmp(v, "0x", 2) && conf_parse_count(v, &val))
		return bad(c, "\"%s\": expected a number", v);
	return 0;
}

static int set_sw_num(struct setter_ctx *c, const char *v, long arg)
{
	static const struct {
		uint32_t max;
		unsigned int bit;
		const char *what;
	} f[] = {
		[S_CONTROL_MAP] = { 0x1f, CC_SW_CONTROL_MAP, "a Control_Map, 0 to 0x1f" },
		[S_THRESHOLD] = { 15, CC_SW_THRESHOLD, "a threshold, 0 to 15" },
		[S_PACKET_SIZE] = { 255, CC_SW_PACKET_SIZE, "a packet size in credits, 0 to 255" },
		[S_CS_THRESHOLD] = { 15, CC_SW_CS_THRESHOLD, "a threshold, 0 to 15" },
		[S_MARKING_RATE] = { 65535, CC_SW_MARKING_RATE, "a Marking_Rate, 0 to 65535" },
	};
	struct cc_sw_setting *s = &c->conf->sw;
	uint32_t val;

	if (parse_u32(v, 0, f[arg].max, &val))
		return bad(c, "\"%s\": expected %s", v, f[arg].what);
	switch (arg) {
	case S_CONTROL_MAP:
		s->control_map = val;
		break;
	case S_THRESHOLD:
		s->threshold = val;
		break;
	case S_PACKET_SIZE:
		s->packet_size = val;
		break;
	case S_CS_THRESHOLD:
		s->cs_threshold = val;
		break;
	default:
		s->marking_rate = val;
		break;
	}
	s->set |= f[arg].bit;
	return 0;
}

static int set_sw_mask(struct setter_ctx *c, const char *v, long arg)
{
	struct cc_sw_setting *s = &c->conf->sw;
	uint8_t *mask = arg == S_VICTIM_MASK ? s->victim_mask : s->credit_mask;

	if (conf_parse_mask(v, mask))
		return bad(c, "\"%s\": expected a 256-bit hex mask, bit n = port n (0x800000)", v);
	s->set |= arg == S_VICTIM_MASK ? CC_SW_VICTIM_MASK : CC_SW_CREDIT_MASK;
	return 0;
}

static int set_sw_delay(struct setter_ctx *c, const char *v, long arg)
{
	uint16_t mult;
	uint8_t shift;

	(void)arg;
	if (parse_shift_mult(v, &shift, &mult))
		return bad(c, "\"%s\": expected SHIFT:MULTIPLIER, 0-3:0-16383", v);
	c->conf->sw.cs_return_delay = shift << 14 | mult;
	c->conf->sw.set |= CC_SW_CS_RETURN_DELAY;
	return 0;
}

static int set_ca_num(struct setter_ctx *c, const char *v, long arg)
{
	uint32_t val;

	if (parse_u32(v, 0, 0xffff, &val))
		return bad(c, "\"%s\": expected a 16-bit number, 0 to 0xffff", v);
	if (arg == C_PORT_CONTROL) {
		c->conf->ca.port_control = val;
		c->conf->ca.set |= CC_CA_PORT_CONTROL;
	} else {
		c->conf->ca.control_map = val;
		c->conf->ca.set |= CC_CA_CONTROL_MAP;
	}
	return 0;
}

/* "SL VALUE", as OpenSM's cc_ca_cong_setting_ccti_timer and friends */
static int set_ca_sl(struct setter_ctx *c, const char *v, long arg)
{
	uint32_t max = arg == CC_CA_SL_TIMER ? 0xffff : 0xff, sl, val;
	const char *sp = strpbrk(v, " \t");
	struct cc_ca_entry *e;
	char head[8];

	if (!sp || (size_t)(sp - v) >= sizeof(head))
		return bad(c, "\"%s\": expected SL VALUE (SL 0 to 15)", v);
	memcpy(head, v, sp - v);
	head[sp - v] = '\0';
	sp += strspn(sp, " \t");
	if (parse_u32(head, 0, CC_NR_SLS - 1, &sl))
		return bad(c, "SL \"%s\": expected 0 to 15", head);
	if (parse_u32(sp, 0, max, &val))
		return bad(c, "\"%s\": expected a value 0 to %u for SL %u", sp, max, sl);
	e = &c->conf->ca.sl[sl];
	if (arg == CC_CA_SL_TIMER)
		e->ccti_timer = val;
	else if (arg == CC_CA_SL_INCREASE)
		e->ccti_increase = val;
	else if (arg == CC_CA_SL_TRIGGER)
		e->trigger_threshold = val;
	else
		e->ccti_min = val;
	e->set |= arg;
	return 0;
}

static int set_cct(struct setter_ctx *c, const char *v, long arg)
{
	(void)arg;
	if (conf_parse_cct(v, c->conf->ca.cct, &c->conf->ca.cct_len))
		return bad(c, "\"%s\": expected SHIFT:MULT[,...] (0-3:0-16383), at most %u",
			   v, CC_CCT_MAX);
	c->conf->ca.set |= CC_CA_CCT;
	return 0;
}

static const struct key {
	const char *name;
	setter_fn fn;
	long arg;
} keys[] = {
	/* the daemon */
	{ "tau", set_tau, 0 },
	{ "t_w", set_count, K_T_W },
	{ "t_c", set_count, K_T_C },
	{ "t_d", set_count, K_T_D },
	{ "t_i", set_t_i, 0 },
	{ "mr_low", set_mr, K_MR_LOW },
	{ "mr_default", set_mr, K_MR_DEFAULT },
	{ "counter_bits", set_bits, 0 },
	{ "time_scale", set_scale, 0 },
	{ "dry_run", set_flag, K_DRY_RUN },
	{ "neighbours", set_neigh, 0 },
	{ "backend", set_backend, 0 },
	{ "mad_ca", set_mad_ca, 0 },
	{ "mad_port", set_mad_num, M_PORT },
	{ "mad_timeout_ms", set_mad_num, M_TIMEOUT },
	{ "mad_rediscover", set_mad_num, M_REDISCOVER },
	{ "topology", set_path, K_TOPOLOGY },
	{ "log", set_path, K_LOG },
	{ "csv", set_path, K_CSV },
	{ "csv_ports", set_ports, 0 },
	{ "pidfile", set_path, K_PIDFILE },
	/* the static manager: OpenSM's names */
	{ "congestion_control", set_cc_enable, 0 },
	{ "cc_key", set_cc_key, 0 },
	{ "cc_max_outstanding_mads", set_ignored, 0 },
	{ "cc_sw_cong_setting_control_map", set_sw_num, S_CONTROL_MAP },
	{ "cc_sw_cong_setting_victim_mask", set_sw_mask, S_VICTIM_MASK },
	{ "cc_sw_cong_setting_credit_mask", set_sw_mask, S_CREDIT_MASK },
	{ "cc_sw_cong_setting_threshold", set_sw_num, S_THRESHOLD },
	{ "cc_sw_cong_setting_packet_size", set_sw_num, S_PACKET_SIZE },
	{ "cc_sw_cong_setting_credit_starvation_threshold", set_sw_num, S_CS_THRESHOLD },
	{ "cc_sw_cong_setting_credit_starvation_return_delay", set_sw_delay, 0 },
	{ "cc_sw_cong_setting_marking_rate", set_sw_num, S_MARKING_RATE },
	{ "cc_ca_cong_setting_port_control", set_ca_num, C_PORT_CONTROL },
	{ "cc_ca_cong_setting_control_map", set_ca_num, C_CONTROL_MAP },
	{ "cc_ca_cong_setting_ccti_timer", set_ca_sl, CC_CA_SL_TIMER },
	{ "cc_ca_cong_setting_ccti_increase", set_ca_sl, CC_CA_SL_INCREASE },
	{ "cc_ca_cong_setting_trigger_threshold", set_ca_sl, CC_CA_SL_TRIGGER },
	{ "cc_ca_cong_setting_ccti_min", set_ca_sl, CC_CA_SL_MIN },
	{ "cc_cct", set_cct, 0 },
};

/* key, in any case, '-' and '_' alike (T_W is t_w) */
static const struct key *find_key(const char *name)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *k = keys[i].name;

		for (j = 0; k[j] && name[j]; j++)
			if (k[j] != (name[j] == '-' ? '_' : tolower((unsigned char)name[j])))
				break;
		if (!k[j] && !name[j])
			return &keys[i];
	}
	return NULL;
}

bool conf_is_key(const char *key)
{
	return find_key(key);
}

static int set_at(struct conf *conf, const char *key, const char *value,
		  const char *dir, const char *where, struct conf_diag *diag)
{
	const struct key *k = find_key(key);
	char why[REASON_LEN];
	struct setter_ctx c = { .conf = conf, .dir = dir, .why = why };

	if (!k) {
		conf_diag_add(diag, "%s: unknown key \"%s\"", where, key);
		return -EINVAL;
	}
	if (!*value) {
		conf_diag_add(diag, "%s: %s: missing value", where, k->name);
		return -EINVAL;
	}
	if (k->fn(&c, value, k->arg)) {
		conf_diag_add(diag, "%s: %s %s", where, k->name, why);
		return -EINVAL;
	}
	return 0;
}

int conf_set(struct conf *conf, const char *key, const char *value,
	     const char *where, struct conf_diag *diag)
{
	return set_at(conf, key, value, NULL, where, diag);
}

/* Parse the lines of a stream; dir for relative paths */
static int load_stream(struct conf *conf, FILE *f, const char *name,
		       const char *dir, struct conf_diag *diag)
{
	unsigned int line = 0;
	size_t cap = 0;
	char *buf = NULL, where[4096];
	int err = 0;

	while (getline(&buf, &cap, f) >= 0) {
		char *p = buf, *key, *val, *end;

		line++;
		snprintf(where, sizeof(where), "%s:%u", name, line);
		if (strlen(buf) != strcspn(buf, "\n") + (strchr(buf, '\n') ? 1 : 0)) {
			conf_diag_add(diag, "%s: NUL byte in the line", where);
			err = -EINVAL;
			continue;
		}
		p[strcspn(p, "#\n")] = '\0';
		p += strspn(p, " \t\r");
		end = p + strlen(p);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*p)
			continue;
		key = p;
		p += strcspn(p, " \t=");
		if (*p) {
			*p++ = '\0';
			p += strspn(p, " \t");
			if (*p == '=') {
				p++;
				p += strspn(p, " \t");
			}
		}
		val = p;
		if (set_at(conf, key, val, dir, where, diag))
			err = -EINVAL;
	}
	free(buf);
	if (ferror(f)) {
		conf_diag_add(diag, "%s: read error", name);
		return -EIO;
	}
	return err;
}

int conf_load(struct conf *conf, const char *path, struct conf_diag *diag)
{
	char *dir = strdup(path), *slash;
	FILE *f;
	int err;

	if (!dir)
		return -ENOMEM;
	/* relative paths in the file are relative to its directory */
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	f = fopen(path, "r");
	if (!f) {
		err = -errno;
		conf_diag_add(diag, "%s: cannot open: %s", path, strerror(errno));
		free(dir);
		return err;
	}
	err = load_stream(conf, f, path, slash ? dir : NULL, diag);
	fclose(f);
	free(dir);
	return err;
}

int conf_load_string(struct conf *conf, const char *text, const char *name,
		     struct conf_diag *diag)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int err;

	if (!f)
		return -errno;
	err = load_stream(conf, f, name, NULL, diag);
	fclose(f);
	return err;
}

bool conf_has_ca(const struct conf *conf)
{
	unsigned int sl;

	if (conf->ca.set)
		return true;
	for (sl = 0; sl < CC_NR_SLS; sl++)
		if (conf->ca.sl[sl].set)
			return true;
	return false;
}

int conf_check(const struct conf *conf, struct conf_diag *diag)
{
	int err = 0;

	if (conf->csv && !conf->ncsv_ports) {
		conf_diag_add(diag, "csv %s: csv_ports (--ports) is not set", conf->csv);
		err = -EINVAL;
	}
	if (conf->neighbours == CONF_NEIGH_TOPOLOGY && !conf->topology) {
		conf_diag_add(diag, "neighbours topology: no topology file given (topology PATH)");
		err = -EINVAL;
	}
	if (conf->par.mr_low == conf->par.mr_default) {
		conf_diag_add(diag, "mr_low and mr_default are both %u: DCMS would change nothing",
			      conf->par.mr_low);
		err = -EINVAL;
	}
	return err;
}
