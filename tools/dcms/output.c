// SPDX-License-Identifier: GPL-2.0
/*
 * The decision log, one JSON object per line (Documentation/dcms.md lists
 * the events and their keys), and the files' life cycle.
 */
#include "dcms.h"

#include <errno.h>
#include <string.h>

static FILE *open_append(const char *path, FILE *err)
{
	FILE *f = fopen(path, "a");

	if (!f)
		fprintf(err, "dcms: cannot open %s: %s\n", path, strerror(errno));
	else
		setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

int out_open(struct out *o, const struct conf *conf, FILE *err)
{
	memset(o, 0, sizeof(*o));
	if (conf->log && strcmp(conf->log, "-")) {
		o->log_path = conf->log;
		o->log = open_append(conf->log, err);
		if (!o->log)
			return -EIO;
		o->log_owned = true;
	} else {
		o->log = stdout;
		setvbuf(stdout, NULL, _IOLBF, 0);
	}
	if (conf->csv) {
		o->csv_path = conf->csv;
		o->csv = fopen(conf->csv, "w");
		if (!o->csv) {
			fprintf(err, "dcms: cannot open %s: %s\n", conf->csv, strerror(errno));
			out_close(o);
			return -EIO;
		}
		setvbuf(o->csv, NULL, _IOLBF, 0);
	}
	return 0;
}

void out_close(struct out *o)
{
	if (o->log_owned && o->log)
		fclose(o->log);
	if (o->csv)
		fclose(o->csv);
	o->log = NULL;
	o->csv = NULL;
	o->log_owned = false;
}

void out_reopen(struct out *o, FILE *err)
{
	FILE *f;

	if (o->log_owned) {
		f = open_append(o->log_path, err);
		if (f) {
			fclose(o->log);
			o->log = f;
		}
	}
	if (o->csv) {
		/* the CSV keeps its header in the first file only: append */
		f = open_append(o->csv_path, err);
		if (f) {
			fclose(o->csv);
			o->csv = f;
		}
	}
}

/* ---------------------------------------------------------------- JSON */

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void key(struct jline *j, const char *k)
{
	if (j->open)
		fputc(',', j->f);
	j->open = true;
	put_string(j->f, k);
	fputc(':', j->f);
}

void jl_begin(struct jline *j, FILE *f, double t, uint64_t sweep, const char *event)
{
	j->f = f;
	j->open = false;
	fputc('{', f);
	jl_num(j, "t", t);
	jl_u64(j, "sweep", sweep);
	jl_str(j, "event", event);
}

void jl_str(struct jline *j, const char *k, const char *val)
{
	key(j, k);
	put_string(j->f, val);
}

void jl_u64(struct jline *j, const char *k, uint64_t val)
{
	key(j, k);
	fprintf(j->f, "%llu", (unsigned long long)val);
}

void jl_num(struct jline *j, const char *k, double val)
{
	key(j, k);
	fprintf(j->f, "%.6f", val);
}

void jl_bool(struct jline *j, const char *k, bool val)
{
	key(j, k);
	fputs(val ? "true" : "false", j->f);
}

void jl_obj(struct jline *j, const char *k)
{
	key(j, k);
	fputc('{', j->f);
	j->open = false;
}

void jl_end_obj(struct jline *j)
{
	fputc('}', j->f);
	j->open = true;
}

void jl_end(struct jline *j)
{
	fputs("}\n", j->f);
	fflush(j->f);
}

static const char *peer_name(enum dcms_peer p)
{
	return p == DCMS_PEER_CA ? "ca" : p == DCMS_PEER_SWITCH ? "switch" : "none";
}

static void deltas(struct jline *j, const char *k, const char *sw, unsigned int port,
		   const struct dcms_deltas *d)
{
	jl_obj(j, k);
	if (sw) {
		jl_str(j, "switch", sw);
		jl_u64(j, "port", port);
	}
	jl_str(j, "peer", peer_name(d->peer));
	if (d->valid) {
		jl_u64(j, "dW", d->dw);
		jl_u64(j, "dD", d->dd);
		jl_u64(j, "dC", d->dc);
	}
	if (d->prev_valid)
		jl_u64(j, "dD_prev", d->dd_prev);
	jl_end_obj(j);
}

static void why(struct jline *j, unsigned int w)
{
	key(j, "why");
	fprintf(j->f, "[%s%s%s]", w & DCMS_WHY_DC ? "\"dC>T_C\"" : "",
		(w & DCMS_WHY_DC) && (w & DCMS_WHY_DW_CA) ? "," : "",
		w & DCMS_WHY_DW_CA ? "\"dW>T_W at a CA port\"" : "");
}

static const char *counter_iba(enum dcms_counter c)
{
	return c == DCMS_CNT_W ? "PortXmitWait" : c == DCMS_CNT_D ? "PortXmitData" :
	       "PortXmitCongTime";
}

void out_event(FILE *f, double t, uint64_t sweep, const struct dcms_event *e,
	       const struct dcms_params *par, const char *applied)
{
	struct jline j;

	jl_begin(&j, f, t, sweep, dcms_event_name(e->type));
	switch (e->type) {
	case DCMS_EV_VICTIM_ADD:
	case DCMS_EV_SET_LOW:
		jl_str(&j, "switch", e->sw);
		jl_u64(&j, "port", e->port);
		if (e->type == DCMS_EV_SET_LOW)
			jl_u64(&j, "mr", e->mr);
		why(&j, e->why);
		deltas(&j, "root", NULL, 0, &e->root);
		deltas(&j, "victim", e->vsw, e->vport, &e->victim);
		jl_u64(&j, "victims", e->nvictims);
		jl_u64(&j, "interval", e->interval);
		jl_u64(&j, "T_C", par->t_c);
		jl_u64(&j, "T_W", par->t_w);
		break;
	case DCMS_EV_VICTIM_DEL:
		jl_str(&j, "switch", e->sw);
		jl_u64(&j, "port", e->port);
		deltas(&j, "victim", e->vsw, e->vport, &e->victim);
		if (e->victim_gone) {
			jl_str(&j, "reason", "gone");
		} else {
			jl_str(&j, "reason", "dD_prev-dD>T_D");
			jl_u64(&j, "drop", e->victim.dd_prev - e->victim.dd);
			jl_u64(&j, "T_D", par->t_d);
		}
		jl_u64(&j, "victims", e->nvictims);
		jl_u64(&j, "interval", e->interval);
		break;
	case DCMS_EV_SET_DEFAULT:
		jl_str(&j, "switch", e->sw);
		jl_u64(&j, "port", e->port);
		jl_u64(&j, "mr", e->mr);
		jl_str(&j, "reason", e->reason == DCMS_RESTORE_T_I ? "I=T_I" : "no victims");
		jl_u64(&j, "interval", e->interval);
		jl_u64(&j, "T_I", par->t_i);
		jl_u64(&j, "victims", e->nvictims);
		deltas(&j, "root", NULL, 0, &e->root);
		break;
	case DCMS_EV_COUNTER_RESET:
	case DCMS_EV_COUNTER_WRAP:
		jl_str(&j, "switch", e->sw);
		jl_u64(&j, "port", e->port);
		jl_str(&j, "counter", counter_iba(e->counter));
		jl_u64(&j, "old", e->old);
		jl_u64(&j, "new", e->new);
		jl_u64(&j, "delta", e->delta);
		break;
	case DCMS_EV_ROOT_GONE:
		jl_str(&j, "switch", e->sw);
		jl_u64(&j, "port", e->port);
		jl_u64(&j, "interval", e->interval);
		jl_u64(&j, "victims", e->nvictims);
		break;
	default:
		jl_str(&j, "switch", e->sw);
		break;
	}
	if (applied)
		jl_str(&j, "applied", applied);
	jl_end(&j);
}
