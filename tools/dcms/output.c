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

void out_line_begin(struct jw *jw, FILE *f, double t, uint64_t sweep, const char *event)
{
	/* the log has always escaped every control character as \u00XX */
	jw_init_flags(jw, f, JW_ESC_U);
	jw_obj_open(jw, NULL);
	jw_fixed(jw, "t", t, OUT_DECIMALS);
	jw_u64(jw, "sweep", sweep);
	jw_str(jw, "event", event);
}

void out_line_end(struct jw *jw)
{
	jw_obj_close(jw);
	fflush(jw->f);
}

static const char *peer_name(enum dcms_peer p)
{
	return p == DCMS_PEER_CA ? "ca" : p == DCMS_PEER_SWITCH ? "switch" : "none";
}

static void deltas(struct jw *j, const char *k, const char *sw, unsigned int port,
		   const struct dcms_deltas *d)
{
	jw_obj_open(j, k);
	if (sw) {
		jw_str(j, "switch", sw);
		jw_u64(j, "port", port);
	}
	jw_str(j, "peer", peer_name(d->peer));
	if (d->valid) {
		jw_u64(j, "dW", d->dw);
		jw_u64(j, "dD", d->dd);
		jw_u64(j, "dC", d->dc);
	}
	if (d->prev_valid)
		jw_u64(j, "dD_prev", d->dd_prev);
	jw_obj_close(j);
}

static void why(struct jw *j, unsigned int w)
{
	jw_arr_open(j, "why");
	if (w & DCMS_WHY_DC)
		jw_str(j, NULL, "dC>T_C");
	if (w & DCMS_WHY_DW_CA)
		jw_str(j, NULL, "dW>T_W at a CA port");
	jw_arr_close(j);
}

static const char *counter_iba(enum dcms_counter c)
{
	return c == DCMS_CNT_W ? "PortXmitWait" : c == DCMS_CNT_D ? "PortXmitData" :
	       "PortXmitCongTime";
}

void out_event(FILE *f, double t, uint64_t sweep, const struct dcms_event *e,
	       const struct dcms_params *par, const char *applied)
{
	struct jw j;

	out_line_begin(&j, f, t, sweep, dcms_event_name(e->type));
	switch (e->type) {
	case DCMS_EV_VICTIM_ADD:
	case DCMS_EV_SET_LOW:
		jw_str(&j, "switch", e->sw);
		jw_u64(&j, "port", e->port);
		if (e->type == DCMS_EV_SET_LOW)
			jw_u64(&j, "mr", e->mr);
		why(&j, e->why);
		deltas(&j, "root", NULL, 0, &e->root);
		deltas(&j, "victim", e->vsw, e->vport, &e->victim);
		jw_u64(&j, "victims", e->nvictims);
		jw_u64(&j, "interval", e->interval);
		jw_u64(&j, "T_C", par->t_c);
		jw_u64(&j, "T_W", par->t_w);
		break;
	case DCMS_EV_VICTIM_DEL:
		jw_str(&j, "switch", e->sw);
		jw_u64(&j, "port", e->port);
		deltas(&j, "victim", e->vsw, e->vport, &e->victim);
		if (e->victim_gone) {
			jw_str(&j, "reason", "gone");
		} else {
			jw_str(&j, "reason", "dD_prev-dD>T_D");
			jw_u64(&j, "drop", e->victim.dd_prev - e->victim.dd);
			jw_u64(&j, "T_D", par->t_d);
		}
		jw_u64(&j, "victims", e->nvictims);
		jw_u64(&j, "interval", e->interval);
		break;
	case DCMS_EV_SET_DEFAULT:
		jw_str(&j, "switch", e->sw);
		jw_u64(&j, "port", e->port);
		jw_u64(&j, "mr", e->mr);
		jw_str(&j, "reason", e->reason == DCMS_RESTORE_T_I ? "I=T_I" : "no victims");
		jw_u64(&j, "interval", e->interval);
		jw_u64(&j, "T_I", par->t_i);
		jw_u64(&j, "victims", e->nvictims);
		deltas(&j, "root", NULL, 0, &e->root);
		break;
	case DCMS_EV_COUNTER_RESET:
	case DCMS_EV_COUNTER_WRAP:
		jw_str(&j, "switch", e->sw);
		jw_u64(&j, "port", e->port);
		jw_str(&j, "counter", counter_iba(e->counter));
		jw_u64(&j, "old", e->old);
		jw_u64(&j, "new", e->new);
		jw_u64(&j, "delta", e->delta);
		break;
	case DCMS_EV_ROOT_GONE:
		jw_str(&j, "switch", e->sw);
		jw_u64(&j, "port", e->port);
		jw_u64(&j, "interval", e->interval);
		jw_u64(&j, "victims", e->nvictims);
		break;
	default:
		jw_str(&j, "switch", e->sw);
		break;
	}
	if (applied)
		jw_str(&j, "applied", applied);
	out_line_end(&j);
}
