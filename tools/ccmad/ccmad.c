// SPDX-License-Identifier: GPL-2.0
/*
 * Wire, text and JSON forms of the Congestion Control MADs of a CA. See
 * ccmad.h.
 */
#define _GNU_SOURCE
#include "ccmad.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"

static const struct ccmad_attr attrs[] = {
	{ "cpi", "ClassPortInfo", CC_ATTR_CLASS_PORT_INFO, false },
	{ "info", "CongestionInfo", CC_ATTR_CONG_INFO, false },
	{ "key", "CongestionKeyInfo", CC_ATTR_KEY_INFO, true },
	{ "log", "CongestionLog", CC_ATTR_LOG, false },
	{ "ca", "CACongestionSetting", CC_ATTR_CA_SETTING, true },
	{ "cct", "CongestionControlTable", CC_ATTR_CCT, true },
	{ "timestamp", "TimeStamp", CC_ATTR_TIMESTAMP, false },
};

const struct ccmad_attr *ccmad_attr_by_id(uint16_t id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (attrs[i].id == id)
			return &attrs[i];
	return NULL;
}

const struct ccmad_attr *ccmad_attr_find(const char *s)
{
	static struct ccmad_attr raw = { "raw", "attribute", 0, true };
	uint64_t id;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (!strcmp(attrs[i].name, s) || !strcmp(attrs[i].title, s))
			return &attrs[i];
	if (cc_parse_u64(s, UINT16_MAX, &id))
		return NULL;
	raw.id = id;
	return &raw;
}

/* Big-endian fields */
static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

void ccmad_encode_hdr(uint8_t *mad, const struct ccmad_hdr *h)
{
	memset(mad, 0, CCMAD_SIZE);
	mad[0] = 1;			/* BaseVersion */
	mad[1] = CCMAD_CLASS;
	mad[2] = h->class_version;
	mad[3] = h->method;
	put16(mad + 4, h->status);
	put64(mad + 8, h->tid);
	put16(mad + 16, h->attr);
	put32(mad + 20, h->mod);
	put64(mad + CCMAD_KEY_OFFS, h->cc_key);
}

void ccmad_decode_hdr(const uint8_t *mad, struct ccmad_hdr *h)
{
	h->class_version = mad[2];
	h->method = mad[3];
	h->status = get16(mad + 4);
	h->tid = get64(mad + 8);
	h->attr = get16(mad + 16);
	h->mod = get32(mad + 20);
	h->cc_key = get64(mad + CCMAD_KEY_OFFS);
}

const char *ccmad_status_text(uint16_t status)
{
	switch (status & 0x1f) {
	case 0x00:
		return "success";
	case 0x01:
		return "busy";
	case 0x02:
		return "redirect required";
	case 0x04:
		return "bad base or class version";
	case 0x08:
		return "method not supported";
	case 0x0c:
		return "method/attribute combination not supported";
	case 0x1c:
		return "invalid attribute field or modifier value";
	}
	return "unknown status";
}

void cc_encode_key_info(uint8_t *mad, const struct cc_key_info *k)
{
	uint8_t *d = mad + CCMAD_DATA_OFFS;

	put64(d, k->key);
	d[8] = k->protect ? 0x80 : 0;
	put16(d + 10, k->lease_period);
	put16(d + 12, k->violations);
}

void cc_decode_key_info(const uint8_t *mad, struct cc_key_info *k)
{
	const uint8_t *d = mad + CCMAD_DATA_OFFS;

	k->key = get64(d);
	k->protect = d[8] & 0x80;
	k->lease_period = get16(d + 10);
	k->violations = get16(d + 12);
}

void cc_encode_ca_setting(uint8_t *mad, const struct cc_ca_setting *s)
{
	uint8_t *d = mad + CCMAD_DATA_OFFS;
	int i;

	put16(d, s->port_control);
	put16(d + 2, s->control_map);
	for (i = 0; i < CC_NUM_SL; i++) {
		uint8_t *e = d + 4 + 8 * i;

		put16(e, s->sl[i].ccti_timer);
		e[2] = s->sl[i].ccti_increase;
		e[3] = s->sl[i].trigger_threshold;
		e[4] = s->sl[i].ccti_min;
	}
}

void cc_decode_ca_setting(const uint8_t *mad, struct cc_ca_setting *s)
{
	const uint8_t *d = mad + CCMAD_DATA_OFFS;
	int i;

	s->port_control = get16(d);
	s->control_map = get16(d + 2);
	for (i = 0; i < CC_NUM_SL; i++) {
		const uint8_t *e = d + 4 + 8 * i;

		s->sl[i].ccti_timer = get16(e);
		s->sl[i].ccti_increase = e[2];
		s->sl[i].trigger_threshold = e[3];
		s->sl[i].ccti_min = e[4];
	}
}

void cc_encode_cct_block(uint8_t *mad, const struct cc_cct_block *b)
{
	uint8_t *d = mad + CCMAD_DATA_OFFS;
	int j;

	put16(d, b->ccti_limit);
	for (j = 0; j < CC_CCT_BLOCK; j++)
		put16(d + 4 + 2 * j, b->entry[j]);
}

void cc_decode_cct_block(const uint8_t *mad, struct cc_cct_block *b)
{
	const uint8_t *d = mad + CCMAD_DATA_OFFS;
	int j;

	b->ccti_limit = get16(d);
	for (j = 0; j < CC_CCT_BLOCK; j++)
		b->entry[j] = get16(d + 4 + 2 * j);
}

void cc_decode_class_port_info(const uint8_t *mad,
			       struct cc_class_port_info *c)
{
	const uint8_t *d = mad + CCMAD_DATA_OFFS;

	c->base_version = d[0];
	c->class_version = d[1];
	c->capability_mask = get16(d + 2);
	c->capability_mask2 = get32(d + 4) >> 5;
	c->resp_time_value = d[7] & 0x1f;
}

void cc_decode_info(const uint8_t *mad, struct cc_info *i)
{
	const uint8_t *d = mad + CCMAD_DATA_OFFS;

	i->congestion_info = get16(d);
	i->control_table_cap = d[2];
}

/* CA log events: the layout of OpenSM's ib_cong_log_event_ca_t */
void cc_decode_log(const uint8_t *mad, struct cc_log *log)
{
	const uint8_t *d = mad + CCMAD_LOG_OFFS;
	unsigned int i;

	memset(log, 0, sizeof(*log));
	log->log_type = d[0];
	log->flags = d[1];
	log->event_counter = get16(d + 2);
	log->sl_map = get16(d + 4);
	log->timestamp = get32(d + 8);
	log->n = log->event_counter < CC_LOG_EVENTS ? log->event_counter :
						      CC_LOG_EVENTS;
	for (i = 0; i < log->n; i++) {
		const uint8_t *e = d + 12 + 16 * i;
		struct cc_log_event *ev = &log->event[i];

		ev->local_qpn = get24(e);
		ev->remote_qpn = get24(e + 4);
		ev->sl = e[7] >> 4;
		ev->service_type = e[7] & 0xf;
		ev->remote_lid = get16(e + 8);
		ev->timestamp = get32(e + 12);
	}
}

uint32_t cc_decode_timestamp(const uint8_t *mad)
{
	return get32(mad + CCMAD_DATA_OFFS);
}

int cc_parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end || *v > max)
		return -1;
	return 0;
}

int cc_parse_entry(const char *s, uint16_t *entry)
{
	uint64_t shift, mult;
	char buf[32], *colon;
	int len;

	len = snprintf(buf, sizeof(buf), "%s", s);
	colon = strchr(buf, ':');
	if (len < 0 || (size_t)len >= sizeof(buf) || !colon)
		return -1;
	*colon = '\0';
	if (cc_parse_u64(buf, CC_SHIFT_MAX, &shift) ||
	    cc_parse_u64(colon + 1, CC_MULT_MAX, &mult))
		return -1;
	*entry = (uint16_t)(shift << 14 | mult);
	return 0;
}

int cc_parse_sl_list(const char *s, uint16_t *map)
{
	char *copy, *tok, *save, *dash;
	uint64_t a, b;
	int rc = 0;

	if (!strcmp(s, "all")) {
		*map = 0xffff;
		return 0;
	}
	copy = strdup(s);
	if (!copy)
		return -1;
	*map = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash++ = '\0';
		if (cc_parse_u64(tok, CC_NUM_SL - 1, &a) ||
		    cc_parse_u64(dash ? dash : tok, CC_NUM_SL - 1, &b) || b < a) {
			rc = -1;
			break;
		}
		for (; a <= b; a++)
			*map |= (uint16_t)(1u << a);
	}
	if (!*map)
		rc = -1;
	free(copy);
	return rc;
}

bool cc_gid_is_v4(const uint8_t gid[16])
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(gid, prefix, sizeof(prefix));
}

/* An IPv4 address becomes its IPv4-mapped GID, as RoCEv2 does */
int cc_parse_gid(const char *s, uint8_t gid[16])
{
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		memset(gid, 0, 16);
		gid[10] = 0xff;
		gid[11] = 0xff;
		memcpy(gid + 12, &a4, 4);
		return 0;
	}
	return inet_pton(AF_INET6, s, gid) == 1 ? 0 : -1;
}

int cc_ca_setting_args(struct cc_ca_setting *s, int argc,
		       const char *const argv[], char *err, size_t errlen)
{
	static const struct {
		const char *name;
		uint64_t max;
	} fields[] = {
		{ "ccti_timer", UINT16_MAX },
		{ "ccti_increase", UINT8_MAX },
		{ "trigger_threshold", UINT8_MAX },
		{ "ccti_min", UINT8_MAX },
	};
	struct cc_sl_setting set = { 0 };
	unsigned int given = 0;
	uint16_t map = 0;
	uint64_t v;
	int i, sl;
	size_t f;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t klen = eq ? (size_t)(eq - a) : 0;

		if (!eq)
			goto bad;
		if (klen == 2 && !strncmp(a, "sl", 2)) {
			if (cc_parse_sl_list(eq + 1, &map))
				goto bad;
			continue;
		}
		if (klen == 12 && !strncmp(a, "port_control", 12)) {
			if (cc_parse_u64(eq + 1, UINT16_MAX, &v))
				goto bad;
			s->port_control = (uint16_t)v;
			continue;
		}
		for (f = 0; f < ARRAY_SIZE(fields); f++)
			if (strlen(fields[f].name) == klen &&
			    !strncmp(a, fields[f].name, klen))
				break;
		if (f == ARRAY_SIZE(fields) ||
		    cc_parse_u64(eq + 1, fields[f].max, &v))
			goto bad;
		given |= 1u << f;
		switch (f) {
		case 0:
			set.ccti_timer = (uint16_t)v;
			break;
		case 1:
			set.ccti_increase = (uint8_t)v;
			break;
		case 2:
			set.trigger_threshold = (uint8_t)v;
			break;
		default:
			set.ccti_min = (uint8_t)v;
			break;
		}
		continue;
bad:
		snprintf(err, errlen, "bad argument \"%s\"", a);
		return -1;
	}
	if (given && !map) {
		snprintf(err, errlen, "entry fields need sl=LIST|all");
		return -1;
	}
	s->control_map = map;
	for (sl = 0; sl < CC_NUM_SL; sl++) {
		if (!(map & (1u << sl)))
			continue;
		if (given & 1)
			s->sl[sl].ccti_timer = set.ccti_timer;
		if (given & 2)
			s->sl[sl].ccti_increase = set.ccti_increase;
		if (given & 4)
			s->sl[sl].trigger_threshold = set.trigger_threshold;
		if (given & 8)
			s->sl[sl].ccti_min = set.ccti_min;
	}
	return 0;
}

int cc_key_info_args(struct cc_key_info *k, int argc, const char *const argv[],
		     char *err, size_t errlen)
{
	bool protect = false, lease = false, new_key = false;
	uint64_t v;
	int i;

	/* a non-zero count written keeps the port's; 0 clears it */
	k->violations = 1;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');

		if (eq && !strncmp(a, "key=", 4) && !cc_parse_u64(eq + 1, UINT64_MAX, &v)) {
			k->key = v;
			new_key = v != 0;
		} else if (eq && !strncmp(a, "protect=", 8) && !cc_parse_u64(eq + 1, 1, &v)) {
			k->protect = v;
			protect = true;
		} else if (eq && !strncmp(a, "lease=", 6) &&
			   !cc_parse_u64(eq + 1, UINT16_MAX, &v)) {
			k->lease_period = (uint16_t)v;
			lease = true;
		} else if (!strcmp(a, "violations=0")) {
			k->violations = 0;
		} else {
			snprintf(err, errlen, "bad argument \"%s\"", a);
			return -1;
		}
	}
	/*
	 * Unprotected, or with a lease that runs out, a key can be read by
	 * anyone (after the lease a MAD with a wrong key starts): a new key
	 * keeps others out unless told otherwise
	 */
	if (new_key && !protect)
		k->protect = true;
	if (new_key && !lease)
		k->lease_period = 0;
	return 0;
}

/*
 * The printers' one emitter: "key=value" words and lines of text, or one
 * JSON object per answer (tools/lib's writer), so that both forms list the
 * same fields.
 */
struct emit {
	FILE *f;
	bool json;
	bool first;		/* no field yet on the text line */
	struct jw jw;
};

static void emit_open(struct emit *e, FILE *f, bool json)
{
	e->f = f;
	e->json = json;
	e->first = true;
	if (json) {
		jw_init(&e->jw, f, false);
		jw_obj_open(&e->jw, NULL);
	}
}

static void emit_key(struct emit *e, const char *key)
{
	fprintf(e->f, "%s%s=", e->first ? "" : " ", key);
	e->first = false;
}

static void emit_u(struct emit *e, const char *key, uint64_t v)
{
	if (e->json) {
		jw_u64(&e->jw, key, v);
		return;
	}
	emit_key(e, key);
	fprintf(e->f, "%" PRIu64, v);
}

/* hexadecimal in text, a number in JSON */
static void emit_x(struct emit *e, const char *key, uint64_t v, int width)
{
	if (e->json) {
		jw_u64(&e->jw, key, v);
		return;
	}
	emit_key(e, key);
	fprintf(e->f, "0x%0*" PRIx64, width, v);
}

static void emit_str(struct emit *e, const char *key, const char *s)
{
	if (e->json) {
		jw_str(&e->jw, key, s);
		return;
	}
	emit_key(e, key);
	fputs(s, e->f);
}

/* 64 bits: a hexadecimal string in JSON too */
static void emit_x64(struct emit *e, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
	emit_str(e, key, buf);
}

/* A list of objects: in text, one line each after the first line */
static void emit_list(struct emit *e, const char *key)
{
	if (e->json)
		jw_arr_open(&e->jw, key);
}

static void emit_item(struct emit *e)
{
	if (e->json)
		jw_obj_open(&e->jw, NULL);
	else
		fputc('\n', e->f);
	e->first = true;
}

static void emit_item_end(struct emit *e)
{
	if (e->json)
		jw_obj_close(&e->jw);
}

static void emit_list_end(struct emit *e)
{
	if (e->json)
		jw_arr_close(&e->jw);
}

static void emit_close(struct emit *e)
{
	if (e->json)
		jw_obj_close(&e->jw);
	else
		fputc('\n', e->f);
}

void cc_print_class_port_info(FILE *f, const struct cc_class_port_info *c,
			      bool json)
{
	struct emit e;

	emit_open(&e, f, json);
	emit_u(&e, "base_version", c->base_version);
	emit_u(&e, "class_version", c->class_version);
	emit_x(&e, "capability_mask", c->capability_mask, 4);
	emit_x(&e, "capability_mask2", c->capability_mask2, 7);
	emit_u(&e, "resp_time_value", c->resp_time_value);
	emit_close(&e);
}

void cc_print_info(FILE *f, const struct cc_info *i, bool json)
{
	struct emit e;

	emit_open(&e, f, json);
	emit_x(&e, "congestion_info", i->congestion_info, 4);
	emit_u(&e, "control_table_cap", i->control_table_cap);
	emit_close(&e);
}

void cc_print_key_info(FILE *f, const struct cc_key_info *k, bool json)
{
	struct emit e;

	emit_open(&e, f, json);
	emit_x64(&e, "cc_key", k->key);
	emit_u(&e, "protect", k->protect);
	emit_u(&e, "lease_period", k->lease_period);
	emit_u(&e, "violations", k->violations);
	emit_close(&e);
}

/* The lines of ports/1/cc/sl_settings, after Port_Control and the map */
void cc_print_ca_setting(FILE *f, const struct cc_ca_setting *s, bool json)
{
	struct emit e;
	unsigned int i;

	emit_open(&e, f, json);
	emit_u(&e, "port_control", s->port_control);
	emit_x(&e, "control_map", s->control_map, 4);
	emit_list(&e, "sl");
	for (i = 0; i < CC_NUM_SL; i++) {
		emit_item(&e);
		emit_u(&e, "sl", i);
		emit_u(&e, "ccti_timer", s->sl[i].ccti_timer);
		emit_u(&e, "ccti_increase", s->sl[i].ccti_increase);
		emit_u(&e, "trigger_threshold", s->sl[i].trigger_threshold);
		emit_u(&e, "ccti_min", s->sl[i].ccti_min);
		emit_item_end(&e);
	}
	emit_list_end(&e);
	emit_close(&e);
}

/* CCT entries 0..n-1 in the form of ports/1/cc/cct, shift:multiplier */
void cc_print_cct(FILE *f, const uint16_t *cct, unsigned int n,
		  uint16_t ccti_limit, bool json)
{
	struct emit e;
	unsigned int i;
	char buf[16];

	emit_open(&e, f, json);
	emit_u(&e, "ccti_limit", ccti_limit);
	emit_list(&e, "entries");
	if (!json)
		fputc('\n', f);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%u:%u", cct[i] >> 14, cct[i] & CC_MULT_MAX);
		if (json)
			jw_str(&e.jw, NULL, buf);
		else
			fprintf(f, "%s%s", i ? " " : "", buf);
	}
	emit_list_end(&e);
	emit_close(&e);
}

/* The lines of ports/1/cc/log, after the log's header */
void cc_print_log(FILE *f, const struct cc_log *log, bool json)
{
	const struct cc_log_event *ev;
	struct emit e;
	unsigned int i;

	emit_open(&e, f, json);
	emit_u(&e, "log_type", log->log_type);
	emit_u(&e, "event_counter", log->event_counter);
	emit_x(&e, "sl_map", log->sl_map, 4);
	emit_u(&e, "timestamp", log->timestamp);
	emit_list(&e, "events");
	for (i = 0; i < log->n; i++) {
		ev = &log->event[i];
		emit_item(&e);
		emit_u(&e, "qp", ev->local_qpn);
		emit_u(&e, "remote_qp", ev->remote_qpn);
		emit_u(&e, "sl", ev->sl);
		emit_u(&e, "service_type", ev->service_type);
		emit_u(&e, "timestamp", ev->timestamp);
		emit_item_end(&e);
	}
	emit_list_end(&e);
	emit_close(&e);
}

void cc_print_timestamp(FILE *f, uint32_t ts, bool json)
{
	struct emit e;

	emit_open(&e, f, json);
	emit_u(&e, "timestamp", ts);
	emit_close(&e);
}

/* An attribute the tool does not know: its 192 bytes in hex */
void cc_print_raw(FILE *f, const uint8_t *mad, bool json)
{
	char hex[2 * (CCMAD_SIZE - CCMAD_DATA_OFFS) + 1];
	struct emit e;
	int i;

	for (i = CCMAD_DATA_OFFS; i < CCMAD_SIZE; i++)
		snprintf(hex + 2 * (i - CCMAD_DATA_OFFS), 3, "%02x", mad[i]);
	emit_open(&e, f, json);
	emit_str(&e, "data", hex);
	emit_close(&e);
}

/* Text: status=0x001c (what it means) attribute=NAME modifier=N */
void cc_print_status(FILE *f, const struct ccmad_hdr *h, bool json)
{
	const struct ccmad_attr *a = ccmad_attr_by_id(h->attr);
	struct emit e;

	if (!json) {
		fprintf(f, "status=0x%04x (%s) attribute=", h->status,
			ccmad_status_text(h->status));
		if (a)
			fprintf(f, "%s", a->title);
		else
			fprintf(f, "0x%04x", h->attr);
		fprintf(f, " modifier=%" PRIu32 "\n", h->mod);
		return;
	}
	emit_open(&e, f, json);
	emit_u(&e, "status", h->status);
	emit_str(&e, "status_text", ccmad_status_text(h->status));
	emit_u(&e, "attribute", h->attr);
	emit_u(&e, "modifier", h->mod);
	emit_close(&e);
}
