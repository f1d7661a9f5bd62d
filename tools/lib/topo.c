// SPDX-License-Identifier: GPL-2.0
/*
 * Topology parser for ibnetdiscover output and ibsim net files.
 *
 * Two passes. The line pass builds the nodes and keeps every port line as a
 * "half link" (one end's view of a cable). The link pass, run only when the
 * line pass found no error, resolves peer names and joins the halves: a cable
 * listed from both ends must be listed the same way from both; a cable listed
 * from one end only is fine (ibsim files often do that).
 */
#define _GNU_SOURCE
#include "topo.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* One port line: node's port "port" is cabled to "peer"[peer_port]. */
struct half {
	struct topo_node *node;
	unsigned int port;
	char *peer;
	unsigned int peer_port;
	unsigned int width;
	enum topo_speed speed;
	uint64_t inject_bps;	/* inject=, 0 if not given */
	unsigned int line;
};

/*
 * vendid=, devid=, sysimgguid=, switchguid=, caguid= and ibsw's machine=
 * apply to the next record.
 */
struct record_ids {
	uint64_t guid;
	uint64_t sysimgguid;
	uint32_t vendid;
	uint32_t devid;
	const char *machine;	/* in topo->machine[] */
	unsigned int machine_line;
};

/* Where lines come from: a FILE, or a string. */
struct source {
	FILE *f;
	const char *text;
	size_t pos;
};

struct parser {
	const char *file;
	unsigned int line;
	struct topo *t;
	struct topo_diag *diag;
	unsigned int errors;	/* counted even when diag is full */
	int err;		/* first system error (-ENOMEM, -EIO) */

	struct topo_node *cur;	/* record whose port lines come next */
	bool skip_ports;	/* its header was rejected: ignore its ports */
	unsigned int *listed;	/* listed[p]: line of cur's "[p]", or 0 */
	struct record_ids ids;

	struct half *half;
	size_t nhalf, half_cap;
	size_t node_cap, link_cap, machine_cap;
};

/* A token of the line, for messages that quote what was written. */
struct tok {
	const char *s;
	int len;
};

static const char *const speed_names[] = {
	[TOPO_SPEED_UNSET] = "",
	[TOPO_SPEED_SDR] = "SDR",
	[TOPO_SPEED_DDR] = "DDR",
	[TOPO_SPEED_QDR] = "QDR",
	[TOPO_SPEED_FDR10] = "FDR10",
	[TOPO_SPEED_FDR] = "FDR",
	[TOPO_SPEED_EDR] = "EDR",
	[TOPO_SPEED_HDR] = "HDR",
	[TOPO_SPEED_NDR] = "NDR",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- diagnostics ---- */

void topo_diag_init(struct topo_diag *diag)
{
	memset(diag, 0, sizeof(*diag));
}

void topo_diag_free(struct topo_diag *diag)
{
	unsigned int i;

	for (i = 0; i < diag->count; i++)
		free(diag->msg[i].text);
	topo_diag_init(diag);
}

void topo_diag_print(FILE *f, const struct topo_diag *diag)
{
	unsigned int i;

	for (i = 0; i < diag->count; i++)
		fprintf(f, "%s\n", diag->msg[i].text);
}

static int diag_vadd(struct topo_diag *diag, const char *file,
		     unsigned int line, const char *fmt, va_list ap)
{
	char *reason, *text;
	int n;

	if (diag->count >= TOPO_MAX_ERRORS) {
		diag->truncated = true;
		return -ENOSPC;
	}
	if (vasprintf(&reason, fmt, ap) < 0)
		return -ENOMEM;
	if (line)
		n = asprintf(&text, "%s:%u: %s", file, line, reason);
	else
		n = asprintf(&text, "%s: %s", file, reason);
	free(reason);
	if (n < 0)
		return -ENOMEM;
	diag->msg[diag->count].line = line;
	diag->msg[diag->count].text = text;
	diag->count++;
	return 0;
}

bool topo_diag_add(struct topo_diag *diag, const char *file, unsigned int line,
		   const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = diag_vadd(diag, file, line, fmt, ap);
	va_end(ap);
	return ret == 0 && diag->count < TOPO_MAX_ERRORS;
}

/* Messages about no line in particular go last. */
static unsigned int sort_key(const struct topo_msg *m)
{
	return m->line ? m->line : UINT_MAX;
}

/* Messages of the link pass come after those of the line pass: sort by line. */
static void diag_sort(struct topo_diag *diag)
{
	unsigned int i, j;
	struct topo_msg m;

	for (i = 1; i < diag->count; i++) {
		m = diag->msg[i];
		for (j = i; j > 0 && sort_key(&diag->msg[j - 1]) > sort_key(&m); j--)
			diag->msg[j] = diag->msg[j - 1];
		diag->msg[j] = m;
	}
}

/* Close the list with "too many errors" when errors were dropped. */
void topo_diag_finish(struct topo_diag *diag, const char *file)
{
	char *text;

	diag_sort(diag);
	if (!diag->truncated || diag->count > TOPO_MAX_ERRORS)
		return;
	if (asprintf(&text, "%s: too many errors, stopped after %d", file,
		     TOPO_MAX_ERRORS) < 0)
		return;
	diag->msg[diag->count].line = 0;
	diag->msg[diag->count].text = text;
	diag->count++;
}

static void verror_at(struct parser *ps, unsigned int line, const char *fmt,
		      va_list ap)
{
	ps->errors++;
	if (diag_vadd(ps->diag, ps->file, line, fmt, ap) == -ENOMEM && !ps->err)
		ps->err = -ENOMEM;
}

/* Report an error at line; returns false so callers can "return error_at()". */
static __printf(3, 4) bool error_at(struct parser *ps, unsigned int line,
				    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(ps, line, fmt, ap);
	va_end(ap);
	return false;
}

/* The same, at the line being read. */
static __printf(2, 3) bool perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(ps, ps->line, fmt, ap);
	va_end(ap);
	return false;
}

static bool too_many_errors(const struct parser *ps)
{
	return ps->errors > TOPO_MAX_ERRORS || ps->err;
}

static bool oom(struct parser *ps)
{
	if (!ps->err)
		ps->err = -ENOMEM;
	return false;
}

/* ---- small helpers ---- */

static bool grow(void *arrayp, size_t *cap, size_t need, size_t size)
{
	void **array = arrayp;
	size_t ncap;
	void *p;

	if (need <= *cap)
		return true;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	p = reallocarray(*array, ncap, size);
	if (!p)
		return false;
	*array = p;
	*cap = ncap;
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_blanks(const char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

static bool word_is(const struct tok *w, const char *s)
{
	return (size_t)w->len == strlen(s) && !memcmp(w->s, s, w->len);
}

/* The rest of the line from s up to the next blank, for messages. */
static struct tok token_at(const char *s)
{
	struct tok t = { s, 0 };

	while (s[t.len] && !is_blank(s[t.len]))
		t.len++;
	if (t.len > 32)
		t.len = 32;
	return t;
}

static const char *plural(unsigned int n)
{
	return n == 1 ? "" : "s";
}

/* Decimal digits; the value saturates, messages quote the token. */
static bool lex_uint(const char **sp, unsigned int *val, struct tok *tok)
{
	const char *s = *sp;
	unsigned long v = 0;

	tok->s = s;
	while (isdigit((unsigned char)*s)) {
		if (v < 100000000)
			v = v * 10 + (*s - '0');
		s++;
	}
	tok->len = s - tok->s;
	if (!tok->len)
		return false;
	*val = v;
	*sp = s;
	return true;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Hexadecimal, "0x" optional, at most 16 digits. */
static bool lex_hex64(const char **sp, uint64_t *val)
{
	const char *s = *sp;
	uint64_t v = 0;
	int n = 0, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while ((d = hex_digit(*s)) >= 0) {
		if (++n > 16)
			return false;
		v = v << 4 | d;
		s++;
	}
	if (!n)
		return false;
	*val = v;
	*sp = s;
	return true;
}

/* A number as ibsim reads it: "0x" hexadecimal or decimal. */
static bool lex_number(const char **sp, uint64_t *val)
{
	const char *s = *sp;
	unsigned int v;
	struct tok tok;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return lex_hex64(sp, val);
	if (!lex_uint(&s, &v, &tok) || tok.len > 9)
		return false;
	*val = v;
	*sp = s;
	return true;
}

/* A quoted node name at *sp (which points at the opening quote). */
static bool lex_name(struct parser *ps, const char **sp, char **name)
{
	const char *s = *sp + 1, *end = strchr(s, '"');
	size_t len, i;

	if (!end)
		return perr(ps, "unterminated quote");
	len = end - s;
	if (!len)
		return perr(ps, "empty node name");
	if (len > TOPO_NAME_MAX)
		return perr(ps, "node name too long (%zu bytes, limit %d)",
			     len, TOPO_NAME_MAX);
	for (i = 0; i < len; i++)
		if (iscntrl((unsigned char)s[i]))
			return perr(ps, "node name contains a control character");
	*name = strndup(s, len);
	if (!*name)
		return oom(ps);
	*sp = end + 1;
	return true;
}

/* ---- rates ---- */

static int parse_rate_n(const char *s, size_t len, unsigned int *width,
			enum topo_speed *speed)
{
	unsigned int w = 0, i;
	size_t n = 0;

	while (n < len && isdigit((unsigned char)s[n])) {
		if (w < 1000)
			w = w * 10 + (s[n] - '0');
		n++;
	}
	if (!n || n >= len || s[n] != 'x')
		return -EINVAL;
	n++;
	if (w != 1 && w != 4 && w != 8 && w != 12)
		return -ERANGE;		/* bad width */
	for (i = TOPO_SPEED_SDR; i < ARRAY_SIZE(speed_names); i++) {
		if (strlen(speed_names[i]) == len - n &&
		    !memcmp(speed_names[i], s + n, len - n)) {
			*width = w;
			*speed = i;
			return 0;
		}
	}
	return -EDOM;			/* bad speed */
}

int topo_parse_rate(const char *s, unsigned int *width, enum topo_speed *speed)
{
	return parse_rate_n(s, strlen(s), width, speed) ? -EINVAL : 0;
}

int topo_parse_bps(const char *s, size_t len, uint64_t *bps)
{
	uint64_t v = 0, mult = 1;
	size_t n = 0;

	/* past TOPO_BPS_MAX the value stops growing: no overflow */
	for (; n < len && isdigit((unsigned char)s[n]); n++)
		if (v <= TOPO_BPS_MAX)
			v = v * 10 + (s[n] - '0');
	if (!n)
		return -EINVAL;
	if (n < len) {
		switch (s[n++]) {
		case 'k':
			mult = 1000;
			break;
		case 'M':
			mult = 1000000;
			break;
		case 'G':
			mult = 1000000000;
			break;
		default:
			return -EINVAL;
		}
	}
	if (n != len)
		return -EINVAL;
	if (v > TOPO_BPS_MAX / mult)
		return -ERANGE;
	*bps = v * mult;
	return 0;
}

const char *topo_speed_name(enum topo_speed speed)
{
	if ((unsigned int)speed >= ARRAY_SIZE(speed_names))
		return "?";
	return speed_names[speed];
}

const char *topo_type_name(enum topo_node_type type)
{
	return type == TOPO_SWITCH ? "switch" : "HCA";
}

/* "4xQDR", "4x", "QDR": whichever parts are set. */
static const char *rate_str(char *buf, size_t size, unsigned int width,
			    enum topo_speed speed)
{
	if (width)
		snprintf(buf, size, "%ux%s", width, topo_speed_name(speed));
	else
		snprintf(buf, size, "%s", topo_speed_name(speed));
	return buf;
}

/* Does the comment token look like a rate ("4xQDR", "4x???")? */
static bool is_rate_token(const struct tok *t)
{
	int n = 0;

	while (n < t->len && isdigit((unsigned char)t->s[n]))
		n++;
	return n && n + 1 < t->len && t->s[n] == 'x' &&
	       (isupper((unsigned char)t->s[n + 1]) || t->s[n + 1] == '?');
}

static bool check_rate_token(struct parser *ps, const struct tok *t,
			     unsigned int *width, enum topo_speed *speed)
{
	switch (parse_rate_n(t->s, t->len, width, speed)) {
	case 0:
		return true;
	case -ERANGE:
		return perr(ps, "bad link width in '%.*s' (ibsw supports 1x 4x 8x 12x)",
			     t->len, t->s);
	default:
		return perr(ps, "bad link speed in '%.*s' (SDR DDR QDR FDR10 FDR EDR HDR NDR)",
			     t->len, t->s);
	}
}

static bool is_comment_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '?';
}

/*
 * Find the rate in a port line's comment, as ibnetdiscover writes it there
 * ("# "desc" lid 4 4xQDR"): the first word (a run of letters, digits and
 * '?') shaped like <digits>x<SPEED>, outside quoted strings. Other text is
 * free.
 */
static bool comment_rate(struct parser *ps, const char *s, unsigned int *width,
			 enum topo_speed *speed)
{
	const char *end;
	struct tok t;

	for (;;) {
		while (*s && *s != '"' && !is_comment_word_char(*s))
			s++;
		if (!*s)
			return true;
		if (*s == '"') {
			end = strchr(s + 1, '"');
			if (!end)
				return true;
			s = end + 1;
			continue;
		}
		t.s = s;
		while (is_comment_word_char(*s))
			s++;
		t.len = s - t.s;
		if (is_rate_token(&t))
			return check_rate_token(ps, &t, width, speed);
	}
}

/* Highest bit of an IBA "enabled" mask, as the link would train. */
static unsigned int width_from_mask(uint64_t mask)
{
	if (mask & 8)
		return 12;
	if (mask & 4)
		return 8;
	if (mask & 2)
		return 4;
	if (mask & 16)
		return 2;	/* 2x: not supported */
	return 1;
}

static enum topo_speed speed_from_masks(uint64_t sdr_qdr, uint64_t ext)
{
	if (ext & 8)
		return TOPO_SPEED_NDR;
	if (ext & 4)
		return TOPO_SPEED_HDR;
	if (ext & 2)
		return TOPO_SPEED_EDR;
	if (ext & 1)
		return TOPO_SPEED_FDR;
	if (sdr_qdr & 4)
		return TOPO_SPEED_QDR;
	if (sdr_qdr & 2)
		return TOPO_SPEED_DDR;
	if (sdr_qdr & 1)
		return TOPO_SPEED_SDR;
	return TOPO_SPEED_UNSET;
}

/*
 * Port options: ibsim's w=, s=, e= with IBA PortInfo "enabled" masks, and
 * ibsw's own inject=.
 */
struct port_opts {
	uint64_t w, s, e;
	bool has_w, has_s, has_e;
	uint64_t inject;	/* bit/s, 0 if not given */
};

#define PORT_OPTIONS	"w= s= e= inject="

/* inject=RATE at s, the value of token t: an HCA port's injection rate */
static bool inject_option(struct parser *ps, const char **sp, const char *s,
			  const struct tok *t, struct port_opts *o)
{
	size_t len = 0;
	int ret;

	if (ps->cur->type == TOPO_SWITCH)
		return perr(ps, "port option '%.*s' is for HCA ports, and \"%s\" is a switch",
			     t->len, t->s, ps->cur->name);
	while (s[len] && !is_blank(s[len]) && s[len] != '#')
		len++;
	ret = topo_parse_bps(s, len, &o->inject);
	if (ret == -ERANGE)
		return perr(ps, "bad injection rate '%.*s' (at most %lluG, 12xNDR)", t->len,
			     t->s, TOPO_BPS_MAX / 1000000000);
	if (ret)
		return perr(ps,
			    "bad value in port option '%.*s' (bit/s, digits with an optional k, M or G)",
			    t->len, t->s);
	if (!o->inject)
		return perr(ps, "bad injection rate '%.*s' (leave the option out for the default)",
			     t->len, t->s);
	*sp = s + len;
	return true;
}

static bool port_option(struct parser *ps, const char **sp, struct port_opts *o)
{
	const char *s = *sp;
	struct tok t = token_at(s), key = { s, 0 };
	uint64_t v;

	while (isalpha((unsigned char)s[key.len]))
		key.len++;
	if (!key.len || s[key.len] != '=') {
		if (strchr("\"[(", *s) || !memchr(t.s, '=', t.len))
			return perr(ps, "trailing garbage '%.*s'", t.len, t.s);
		return perr(ps, "unknown port option '%.*s' (" PORT_OPTIONS ")", t.len, t.s);
	}
	s += key.len + 1;
	if (word_is(&key, "inject"))
		return inject_option(ps, sp, s, &t, o);
	if (key.len != 1)
		return perr(ps, "unknown port option '%.*s' (" PORT_OPTIONS ")", t.len, t.s);
	if (!lex_number(&s, &v) || (*s && !is_blank(*s) && *s != '#'))
		return perr(ps, "bad value in port option '%.*s'", t.len, t.s);
	switch (t.s[0]) {
	case 'w':
		if (v < 1 || v > 31)
			return perr(ps, "bad width option '%.*s' (a LinkWidthEnabled mask, 1-31)",
				     t.len, t.s);
		if (width_from_mask(v) == 2)
			return perr(ps, "bad width option '%.*s' (ibsw supports 1x 4x 8x 12x)",
				     t.len, t.s);
		o->w = v;
		o->has_w = true;
		break;
	case 's':
		if (v < 1 || v > 7)
			return perr(ps, "bad speed option '%.*s' (a LinkSpeedEnabled mask, 1-7)",
				     t.len, t.s);
		o->s = v;
		o->has_s = true;
		break;
	case 'e':
		if (v > 15)
			return perr(ps,
				    "bad speed option '%.*s' (a LinkSpeedExtEnabled mask, 0-15)",
				    t.len, t.s);
		o->e = v;
		o->has_e = true;
		break;
	default:
		return perr(ps, "unknown port option '%.*s' (" PORT_OPTIONS ")", t.len, t.s);
	}
	*sp = s;
	return true;
}

/* ---- records ---- */

static void end_record(struct parser *ps)
{
	ps->cur = NULL;
	ps->skip_ports = false;
	free(ps->listed);
	ps->listed = NULL;
}

static struct topo_node *node_add(struct parser *ps, enum topo_node_type type,
				  unsigned int nports)
{
	struct topo *t = ps->t;
	struct topo_node *n;

	if (!grow(&t->node, &ps->node_cap, t->nnodes + 1, sizeof(*t->node)))
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->port = calloc(nports + 1, sizeof(*n->port));
	if (!n->port) {
		free(n);
		return NULL;
	}
	n->type = type;
	n->nports = nports;
	n->line = ps->line;
	n->index = t->nnodes;
	n->guid = ps->ids.guid;
	n->sysimgguid = ps->ids.sysimgguid;
	n->vendid = ps->ids.vendid;
	n->devid = ps->ids.devid;
	n->machine = ps->ids.machine;
	n->machine_line = ps->ids.machine_line;
	t->node[t->nnodes++] = n;
	if (type == TOPO_SWITCH)
		t->nswitches++;
	else
		t->nhcas++;
	return n;
}

/* The first quoted string of a header's comment is the NodeDescription. */
static bool header_desc(struct parser *ps, const char *s, char **desc)
{
	const char *q = strchr(s, '"');
	const char *end = q ? strchr(q + 1, '"') : NULL;

	*desc = NULL;
	if (!end)
		return true;
	*desc = strndup(q + 1, end - q - 1);
	return *desc ? true : oom(ps);
}

/* "Switch 24 "name" # ..." and "Hca 2 "name"" / "Ca 2 "name"". */
static bool parse_header(struct parser *ps, const struct tok *kw, const char *s)
{
	enum topo_node_type type = word_is(kw, "Switch") ? TOPO_SWITCH : TOPO_HCA;
	char *name = NULL, *desc = NULL;
	struct topo_node *n;
	unsigned int nports;
	struct tok num;

	ps->skip_ports = true;
	s = skip_blanks(s);
	if (!lex_uint(&s, &nports, &num))
		return perr(ps, "expected a port count after '%.*s'", kw->len, kw->s);
	if (nports < 1 || nports > TOPO_PORTS_MAX)
		return perr(ps, "bad port count %.*s for %s (1-%d)", num.len, num.s,
			     topo_type_name(type), TOPO_PORTS_MAX);
	s = skip_blanks(s);
	if (*s != '"')
		return perr(ps, "expected a quoted node name after the port count");
	if (!lex_name(ps, &s, &name))
		return false;
	s = skip_blanks(s);
	if (*s == '#') {
		if (!header_desc(ps, s + 1, &desc))
			goto fail;
	} else if (*s) {
		struct tok t = token_at(s);

		perr(ps, "trailing garbage '%.*s'", t.len, t.s);
		goto fail;
	}
	n = node_add(ps, type, nports);
	if (!n) {
		oom(ps);
		goto fail;
	}
	n->name = name;
	n->desc = desc;
	memset(&ps->ids, 0, sizeof(ps->ids));
	ps->listed = calloc(nports + 1, sizeof(*ps->listed));
	if (!ps->listed)
		return oom(ps);
	ps->cur = n;
	ps->skip_ports = false;
	return true;
fail:
	free(name);
	free(desc);
	return false;
}

/* "[ext N]" after a port number (ibnetdiscover -g): skipped. */
static bool skip_ext_port(struct parser *ps, const char **sp)
{
	const char *s = *sp;
	unsigned int v;
	struct tok t;

	if (strncmp(s, "[ext", 4))
		return true;
	s = skip_blanks(s + 4);
	if (!lex_uint(&s, &v, &t) || *s != ']')
		return perr(ps, "bad external port number, expected '[ext N]'");
	*sp = s + 1;
	return true;
}

/* "(guid)" after a port: the port GUID. */
static bool port_guid(struct parser *ps, const char **sp, uint64_t *guid)
{
	const char *s = skip_blanks(*sp);

	if (*s != '(')
		return true;
	s++;
	if (!lex_hex64(&s, guid) || *s != ')')
		return perr(ps, "bad port GUID, expected '(hex)'");
	*sp = s + 1;
	return true;
}

static bool check_local_port(struct parser *ps, unsigned int port,
			     const struct tok *num)
{
	struct topo_node *n = ps->cur;

	if (port == 0 && n->type == TOPO_SWITCH)
		return perr(ps,
			    "port 0 is the management port of switch \"%s\" and cannot be linked",
			    n->name);
	if (port == 0 || port > n->nports)
		return perr(ps, "port %.*s out of range for %s \"%s\" (%u port%s)",
			     num->len, num->s, topo_type_name(n->type), n->name,
			     n->nports, plural(n->nports));
	if (ps->listed[port])
		return perr(ps, "port %u of \"%s\" listed twice (first at line %u)",
			     port, n->name, ps->listed[port]);
	return true;
}

/*
 * Width and speed of a port line, options before the comment, rate in it;
 * and its inject=.
 */
static bool port_rate(struct parser *ps, const char *s, struct half *h)
{
	struct port_opts o = { 0 };
	unsigned int cw = 0, ow = 0;
	enum topo_speed cs = TOPO_SPEED_UNSET, os = TOPO_SPEED_UNSET;
	char a[16], b[16];

	for (;;) {
		s = skip_blanks(s);
		if (!*s || *s == '#')
			break;
		if (!port_option(ps, &s, &o))
			return false;
	}
	if (*s == '#' && !comment_rate(ps, s + 1, &cw, &cs))
		return false;
	if (o.has_w)
		ow = width_from_mask(o.w);
	if (o.has_s || o.has_e)
		os = speed_from_masks(o.s, o.e);
	if ((ow && cw && ow != cw) || (os && cs && os != cs))
		return perr(ps, "link rate %s in the comment disagrees with the port options (%s)",
			     rate_str(a, sizeof(a), cw, cs), rate_str(b, sizeof(b), ow, os));
	h->width = ow ? ow : cw;
	h->speed = os ? os : cs;
	h->inject_bps = o.inject;
	return true;
}

/* [p](guid) "peer"[q](guid) w=.. s=.. e=.. inject=.. # comment */
static bool parse_port_line(struct parser *ps, const char *s)
{
	struct half h = { .node = ps->cur, .line = ps->line, .peer_port = 1 };
	uint64_t guid = 0, peer_guid;
	struct tok num;

	if (!ps->cur)
		return ps->skip_ports ? true : perr(ps, "port line outside a node record");
	s++;
	if (!lex_uint(&s, &h.port, &num))
		return perr(ps, "expected a port number after '['");
	if (*s++ != ']')
		return perr(ps, "expected ']' after the port number");
	if (!check_local_port(ps, h.port, &num) || !skip_ext_port(ps, &s) ||
	    !port_guid(ps, &s, &guid))
		return false;
	s = skip_blanks(s);
	if (*s != '"')
		return perr(ps, "expected a quoted peer node name");
	if (!lex_name(ps, &s, &h.peer))
		return false;
	if (*s == '[') {
		s++;
		if (!lex_uint(&s, &h.peer_port, &num) || *s++ != ']') {
			free(h.peer);
			return perr(ps, "bad peer port, expected '[N]'");
		}
	}
	if (!skip_ext_port(ps, &s) || !port_guid(ps, &s, &peer_guid) ||
	    !port_rate(ps, s, &h)) {
		free(h.peer);
		return false;
	}
	if (!grow(&ps->half, &ps->half_cap, ps->nhalf + 1, sizeof(*ps->half))) {
		free(h.peer);
		return oom(ps);
	}
	ps->cur->port[h.port].guid = guid;
	ps->cur->port[h.port].inject_bps = h.inject_bps;
	ps->listed[h.port] = ps->line;
	ps->half[ps->nhalf++] = h;
	return true;
}

bool topo_machine_valid(const char *s)
{
	size_t i, len = strlen(s);

	if (len < 1 || len > TOPO_MACHINE_MAX || !isalnum((unsigned char)s[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!is_word_char(s[i]) && s[i] != '.')
			return false;
	return true;
}

const char *topo_find_machine(const struct topo *topo, const char *name)
{
	unsigned int i;

	for (i = 0; i < topo->nmachines; i++)
		if (!strcmp(topo->machine[i], name))
			return topo->machine[i];
	return NULL;
}

/*
 * ibsw's machine=NAME: the machine of the next record's node. Each name is
 * kept once, in topo->machine[], so that nodes on one machine share the
 * pointer.
 */
static bool machine_setting(struct parser *ps, const char *s)
{
	char name[TOPO_MACHINE_MAX + 1];
	struct topo *t = ps->t;
	const char *m;
	size_t len = 0;

	while (s[len] && !is_blank(s[len]) && s[len] != '#')
		len++;
	if (len < sizeof(name)) {
		memcpy(name, s, len);
		name[len] = '\0';
	}
	if (len >= sizeof(name) || !topo_machine_valid(name))
		return perr(ps,
			    "bad machine name '%.*s' (1 to %d letters, digits, '_', '.' and '-', the first a letter or digit)",
			    len > 32 ? 32 : (int)len, s, TOPO_MACHINE_MAX);
	m = topo_find_machine(t, name);
	if (!m) {
		if (!grow(&t->machine, &ps->machine_cap, t->nmachines + 1, sizeof(*t->machine)))
			return oom(ps);
		t->machine[t->nmachines] = strdup(name);
		if (!t->machine[t->nmachines])
			return oom(ps);
		m = t->machine[t->nmachines++];
	}
	ps->ids.machine = m;
	ps->ids.machine_line = ps->line;
	s = skip_blanks(s + len);
	if (*s && *s != '#') {
		struct tok tk = token_at(s);

		return perr(ps, "trailing garbage '%.*s'", tk.len, tk.s);
	}
	return true;
}

/* key=value lines of ibnetdiscover's output, stored for the next record. */
static bool parse_setting(struct parser *ps, const struct tok *key, const char *s)
{
	uint64_t v = 0, port_guid;
	bool ok;

	s = skip_blanks(s) + 1;		/* past '=' */
	s = skip_blanks(s);
	if (word_is(key, "machine"))
		return machine_setting(ps, s);
	if (word_is(key, "vendid") || word_is(key, "devid")) {
		ok = lex_number(&s, &v) && v <= UINT32_MAX;
		if (ok && key->s[0] == 'v')
			ps->ids.vendid = v;
		else if (ok)
			ps->ids.devid = v;
	} else if (word_is(key, "sysimgguid")) {
		ok = lex_hex64(&s, &ps->ids.sysimgguid);
	} else if (word_is(key, "switchguid") || word_is(key, "caguid")) {
		ok = lex_hex64(&s, &ps->ids.guid);
		/* switchguid=0x<node guid>(<port guid>) */
		if (ok && *s == '(') {
			s++;
			ok = lex_hex64(&s, &port_guid) && *s == ')';
			if (ok)
				s++;
		}
	} else if (word_is(key, "width") || word_is(key, "speed") ||
		   word_is(key, "module") || word_is(key, "pdebug")) {
		return perr(ps, "ibsim setting '%.*s=' is not supported%s", key->len,
			     key->s, key->s[0] == 'm' || key->s[0] == 'p' ? "" :
			     "; give the rate on each port line");
	} else {
		return perr(ps, "unknown setting '%.*s='", key->len, key->s);
	}
	if (!ok)
		return perr(ps, "bad value for '%.*s='", key->len, key->s);
	s = skip_blanks(s);
	if (*s && *s != '#') {
		struct tok t = token_at(s);

		return perr(ps, "trailing garbage '%.*s'", t.len, t.s);
	}
	return true;
}

static bool parse_keyword_line(struct parser *ps, const char *s)
{
	struct tok w = { s, 0 };

	while (is_word_char(s[w.len]))
		w.len++;
	s += w.len;
	if ((word_is(&w, "Switch") || word_is(&w, "Hca") || word_is(&w, "Ca")) &&
	    (is_blank(*s) || !*s))
		return parse_header(ps, &w, s);
	if (word_is(&w, "Rt") || word_is(&w, "Router"))
		return perr(ps, "router nodes are not supported");
	if (w.len && *skip_blanks(s) == '=')
		return parse_setting(ps, &w, s);
	/* ibnetdiscover -g decorations */
	if (word_is(&w, "Chassis") || word_is(&w, "Non-Chassis") ||
	    (word_is(&w, "Hostname") && *s == ':'))
		return true;
	if (word_is(&w, "include") || word_is(&w, "do"))
		return perr(ps, "ibsim directive '%.*s' is not supported", w.len, w.s);
	w = token_at(w.s);
	return perr(ps, "unknown line starting with '%.*s'", w.len, w.s);
}

static void parse_line(struct parser *ps, char *line, size_t len)
{
	const char *s;

	if (strlen(line) != len) {
		perr(ps, "NUL byte in line");
		return;
	}
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	s = skip_blanks(line);
	if (!*s) {
		end_record(ps);		/* a blank line ends a record */
		return;
	}
	if (*s == '#')
		return;
	if (*s == '[') {
		parse_port_line(ps, s);
		return;
	}
	end_record(ps);
	if (*s == '@') {
		perr(ps, "ibsim port aliases ('@') are not supported");
		return;
	}
	parse_keyword_line(ps, s);
}

/* ---- names ---- */

static int cmp_name(const void *a, const void *b)
{
	const struct topo_node *x = *(struct topo_node *const *)a;
	const struct topo_node *y = *(struct topo_node *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Sort the name index and report duplicates at the later line. */
static bool index_names(struct parser *ps)
{
	struct topo *t = ps->t;
	unsigned int i;

	if (!t->nnodes)
		return true;
	t->by_name = malloc(t->nnodes * sizeof(*t->by_name));
	if (!t->by_name)
		return oom(ps);
	memcpy(t->by_name, t->node, t->nnodes * sizeof(*t->by_name));
	qsort(t->by_name, t->nnodes, sizeof(*t->by_name), cmp_name);
	for (i = 1; i < t->nnodes; i++) {
		const struct topo_node *a = t->by_name[i - 1], *b = t->by_name[i];

		if (!strcmp(a->name, b->name))
			error_at(ps, b->line, "duplicate node name \"%s\" (first at line %u)",
				 b->name, t->by_name[i - 1]->line);
	}
	return true;
}

static int cmp_key_name(const void *key, const void *elem)
{
	return strcmp(key, (*(struct topo_node *const *)elem)->name);
}

struct topo_node *topo_find(const struct topo *topo, const char *name)
{
	struct topo_node **n;

	if (!topo->by_name)
		return NULL;
	n = bsearch(name, topo->by_name, topo->nnodes, sizeof(*n), cmp_key_name);
	return n ? *n : NULL;
}

bool topo_ident_valid(const char *s)
{
	size_t i, len = strlen(s);

	if (len < 1 || len > TOPO_IDENT_MAX || !isalnum((unsigned char)s[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!is_word_char(s[i]))
			return false;
	return true;
}

static int cmp_ident(const void *a, const void *b)
{
	const struct topo_node *x = *(struct topo_node *const *)a;
	const struct topo_node *y = *(struct topo_node *const *)b;
	int c = strcmp(x->ident, y->ident);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The identifier a node's NodeDescription gives, into buf: a switch's whole
 * description, a CA's first word ("H1 mlx5_0": the host name, as rdma-ndd
 * writes it). false if there is none, or it is not a valid identifier.
 */
static bool desc_ident(const struct topo_node *n, char *buf, size_t len)
{
	size_t w;

	if (!n->desc)
		return false;
	w = n->type == TOPO_SWITCH ? strlen(n->desc) : strcspn(n->desc, " \t");
	if (w >= len)
		return false;
	memcpy(buf, n->desc, w);
	buf[w] = '\0';
	return topo_ident_valid(buf);
}

/* Whether an earlier node took ident from its description already */
static bool ident_taken(const struct topo *t, unsigned int i, const char *ident)
{
	while (i--)
		if (!strcmp(t->node[i]->ident, ident))
			return true;
	return false;
}

static bool assign_idents(struct parser *ps)
{
	struct topo *t = ps->t;
	unsigned int i, nsw = 0, nhca = 0;
	struct topo_node **v;
	char d[TOPO_IDENT_MAX + 1];

	for (i = 0; i < t->nnodes; i++) {
		struct topo_node *n = t->node[i];
		unsigned int ord = n->type == TOPO_SWITCH ? ++nsw : ++nhca;

		if (topo_ident_valid(n->name))
			snprintf(n->ident, sizeof(n->ident), "%s", n->name);
		else if (desc_ident(n, d, sizeof(d)) && !ident_taken(t, i, d))
			snprintf(n->ident, sizeof(n->ident), "%s", d);
		else
			snprintf(n->ident, sizeof(n->ident), "%c%u",
				 n->type == TOPO_SWITCH ? 's' : 'h', ord);
	}
	if (t->nnodes < 2)
		return true;
	v = malloc(t->nnodes * sizeof(*v));
	if (!v)
		return oom(ps);
	memcpy(v, t->node, t->nnodes * sizeof(*v));
	qsort(v, t->nnodes, sizeof(*v), cmp_ident);
	for (i = 1; i < t->nnodes; i++)
		if (!strcmp(v[i - 1]->ident, v[i]->ident))
			error_at(ps, v[i]->line,
				 "identifier \"%s\" of node \"%s\" collides with node \"%s\" (line %u)",
				 v[i]->ident, v[i]->name, v[i - 1]->name, v[i - 1]->line);
	free(v);
	return true;
}

/* ---- links ---- */

static bool check_peer_port(struct parser *ps, const struct half *h,
			    const struct topo_node *peer)
{
	unsigned int q = h->peer_port;

	if (q == 0 && peer->type == TOPO_SWITCH)
		return error_at(ps, h->line,
				"peer port 0 is the management port of switch \"%s\" and cannot be linked",
				peer->name);
	if (q == 0 || q > peer->nports)
		return error_at(ps, h->line, "peer port %u out of range for %s \"%s\" (%u port%s)",
				q, topo_type_name(peer->type), peer->name,
				peer->nports, plural(peer->nports));
	if (peer == h->node && q == h->port)
		return error_at(ps, h->line, "port %u of \"%s\" is linked to itself",
				q, peer->name);
	if (peer->type == TOPO_HCA && h->node->type == TOPO_HCA)
		return error_at(ps, h->line,
				"host-to-host link \"%s\"[%u] - \"%s\"[%u]: hosts must attach to a switch",
				h->node->name, h->port, peer->name, q);
	return true;
}

static bool link_conflict(struct parser *ps, const struct half *h,
			  const struct topo_link *l)
{
	return error_at(ps, h->line,
			"\"%s\"[%u] -> \"%s\"[%u] conflicts with \"%s\"[%u] -> \"%s\"[%u] at line %u",
			h->node->name, h->port, h->peer, h->peer_port,
			l->node[0]->name, l->port[0], l->node[1]->name, l->port[1],
			l->line[0]);
}

/* The second end's view of a link: it must agree with the first's. */
static bool link_merge(struct parser *ps, const struct half *h,
		       struct topo_link *l)
{
	if (h->width && l->width && h->width != l->width)
		return error_at(ps, h->line,
				"link width mismatch: \"%s\"[%u] -> \"%s\"[%u] is %ux here, but %ux at line %u",
				h->node->name, h->port, h->peer, h->peer_port,
				h->width, l->width, l->line[0]);
	if (h->speed && l->speed && h->speed != l->speed)
		return error_at(ps, h->line,
				"link speed mismatch: \"%s\"[%u] -> \"%s\"[%u] is %s here, but %s at line %u",
				h->node->name, h->port, h->peer, h->peer_port,
				topo_speed_name(h->speed), topo_speed_name(l->speed),
				l->line[0]);
	if (!l->width)
		l->width = h->width;
	if (!l->speed)
		l->speed = h->speed;
	l->line[1] = h->line;
	return true;
}

static bool link_add(struct parser *ps, const struct half *h, struct topo_node *peer)
{
	struct topo *t = ps->t;
	struct topo_link *l;

	if (!grow(&t->link, &ps->link_cap, t->nlinks + 1, sizeof(*t->link)))
		return oom(ps);
	l = calloc(1, sizeof(*l));
	if (!l)
		return oom(ps);
	l->node[0] = h->node;
	l->port[0] = h->port;
	l->node[1] = peer;
	l->port[1] = h->peer_port;
	l->width = h->width;
	l->speed = h->speed;
	l->line[0] = h->line;
	h->node->port[h->port].link = l;
	peer->port[h->peer_port].link = l;
	t->link[t->nlinks++] = l;
	return true;
}

static bool join_half(struct parser *ps, const struct half *h)
{
	struct topo_node *peer = topo_find(ps->t, h->peer);
	struct topo_link *mine, *theirs;

	if (!peer)
		return error_at(ps, h->line, "unknown peer node \"%s\"", h->peer);
	if (!check_peer_port(ps, h, peer))
		return false;
	mine = h->node->port[h->port].link;
	theirs = peer->port[h->peer_port].link;
	if (mine) {
		/* listed first from the peer: must be the same cable */
		if (mine != theirs || mine->node[0] != peer ||
		    mine->port[0] != h->peer_port)
			return link_conflict(ps, h, mine);
		return link_merge(ps, h, mine);
	}
	if (theirs)
		return link_conflict(ps, h, theirs);
	return link_add(ps, h, peer);
}

static void join_halves(struct parser *ps)
{
	size_t i;

	for (i = 0; i < ps->nhalf && !too_many_errors(ps); i++)
		join_half(ps, &ps->half[i]);
}

/* ---- machines ---- */

/*
 * An HCA's machine: its own machine= must be that of every switch it is
 * cabled to; without one it takes theirs, which must agree. A host's ports
 * are on its machine's switches: ibsw cables no host across machines.
 */
static void hca_machine(struct parser *ps, struct topo_node *n)
{
	const struct topo_node *sw, *first = NULL;
	unsigned int p, first_port = 0;

	for (p = 1; p <= n->nports; p++) {
		sw = topo_peer(n, p, NULL);
		if (!sw || sw->type != TOPO_SWITCH || !sw->machine)
			continue;
		if (n->machine_line) {
			if (sw->machine == n->machine)
				continue;
			error_at(ps, n->machine_line,
				 "HCA \"%s\" is on machine %s, but its port %u is cabled to switch \"%s\" (line %u) on machine %s: a host must be on its switch's machine",
				 n->name, n->machine, p, sw->name, sw->line, sw->machine);
			return;
		}
		if (!first) {
			first = sw;
			first_port = p;
			n->machine = sw->machine;
			continue;
		}
		if (sw->machine != first->machine) {
			error_at(ps, n->line,
				 "HCA \"%s\" has port %u on switch \"%s\" (line %u) on machine %s and port %u on switch \"%s\" (line %u) on machine %s: a host must be on its switches' machine",
				 n->name, first_port, first->name, first->line, first->machine, p,
				 sw->name, sw->line, sw->machine);
			return;
		}
	}
}

/*
 * In a file that names machines, every switch says which it is on, and
 * every HCA is on its switches'. A file without machine= has none.
 */
static void assign_machines(struct parser *ps)
{
	struct topo *t = ps->t;
	struct topo_node *n;
	unsigned int i;

	if (!t->nmachines)
		return;
	for (i = 0; i < t->nnodes && !too_many_errors(ps); i++) {
		n = t->node[i];
		if (n->type == TOPO_SWITCH && !n->machine)
			error_at(ps, n->line,
				 "switch \"%s\" is on no machine: in a file that names machines, a machine= line comes before each switch's record",
				 n->name);
	}
	for (i = 0; i < t->nnodes && !too_many_errors(ps); i++)
		if (t->node[i]->type == TOPO_HCA)
			hca_machine(ps, t->node[i]);
}

/* ---- driver ---- */

static ssize_t source_getline(struct source *src, char **buf, size_t *cap)
{
	const char *s, *nl;
	size_t len;

	if (src->f)
		return getline(buf, cap, src->f);
	s = src->text + src->pos;
	if (!*s)
		return -1;
	nl = strchr(s, '\n');
	len = nl ? (size_t)(nl - s + 1) : strlen(s);
	if (!grow(buf, cap, len + 1, 1)) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(*buf, s, len);
	(*buf)[len] = '\0';
	src->pos += len;
	return len;
}

void topo_free(struct topo *topo)
{
	unsigned int i;

	if (!topo)
		return;
	for (i = 0; i < topo->nnodes; i++) {
		free(topo->node[i]->name);
		free(topo->node[i]->desc);
		free(topo->node[i]->port);
		free(topo->node[i]);
	}
	for (i = 0; i < topo->nlinks; i++)
		free(topo->link[i]);
	for (i = 0; i < topo->nmachines; i++)
		free(topo->machine[i]);
	free(topo->machine);
	free(topo->node);
	free(topo->link);
	free(topo->by_name);
	free(topo->file);
	free(topo);
}

static void read_lines(struct parser *ps, struct source *src)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;

	errno = 0;
	while (!too_many_errors(ps) && (len = source_getline(src, &buf, &cap)) >= 0) {
		ps->line++;
		parse_line(ps, buf, len);
	}
	if (!too_many_errors(ps) && errno == ENOMEM) {
		oom(ps);
	} else if (!too_many_errors(ps) && src->f && ferror(src->f)) {
		ps->err = errno ? -errno : -EIO;
		topo_diag_add(ps->diag, ps->file, 0, "read error: %s", strerror(-ps->err));
	}
	end_record(ps);
	free(buf);
	/* settings apply to the record after them: this one's machine would be lost */
	if (ps->ids.machine && !ps->errors && !ps->err)
		error_at(ps, ps->ids.machine_line,
			 "machine=%s is followed by no record (it names the machine of the Switch, Hca or Ca record after it)",
			 ps->ids.machine);
}

static void free_halves(struct parser *ps)
{
	size_t i;

	for (i = 0; i < ps->nhalf; i++)
		free(ps->half[i].peer);
	free(ps->half);
}

static int parse(struct source *src, const char *name, struct topo **topo,
		 struct topo_diag *diag)
{
	struct parser ps = { .file = name, .diag = diag };

	*topo = NULL;
	ps.t = calloc(1, sizeof(*ps.t));
	if (!ps.t)
		return -ENOMEM;
	ps.t->file = strdup(name);
	if (!ps.t->file) {
		free(ps.t);
		return -ENOMEM;
	}
	read_lines(&ps, src);
	if (!ps.err)
		index_names(&ps);
	if (!ps.errors && !ps.err)
		join_halves(&ps);
	if (!ps.errors && !ps.err)
		assign_idents(&ps);
	if (!ps.errors && !ps.err)
		assign_machines(&ps);
	free_halves(&ps);
	topo_diag_finish(diag, name);
	if (ps.err || ps.errors) {
		topo_free(ps.t);
		return ps.err ? ps.err : -EINVAL;
	}
	*topo = ps.t;
	return 0;
}

int topo_parse_stream(FILE *f, const char *name, struct topo **topo,
		      struct topo_diag *diag)
{
	struct source src = { .f = f };

	return parse(&src, name, topo, diag);
}

int topo_parse_string(const char *text, const char *name, struct topo **topo,
		      struct topo_diag *diag)
{
	struct source src = { .text = text };

	return parse(&src, name, topo, diag);
}

int topo_parse_file(const char *path, struct topo **topo, struct topo_diag *diag)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		ret = -errno;
		*topo = NULL;
		topo_diag_add(diag, path, 0, "cannot open: %s", strerror(-ret));
		return ret;
	}
	ret = topo_parse_stream(f, path, topo, diag);
	fclose(f);
	return ret;
}

struct topo_node *topo_peer(const struct topo_node *node, unsigned int port,
			    unsigned int *peer_port)
{
	const struct topo_link *l;
	int end;

	if (port < 1 || port > node->nports || !node->port[port].link)
		return NULL;
	l = node->port[port].link;
	end = l->node[0] == node && l->port[0] == port ? 1 : 0;
	if (peer_port)
		*peer_port = l->port[end];
	return l->node[end];
}
