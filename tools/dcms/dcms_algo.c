// SPDX-License-Identifier: GPL-2.0
/*
 * The DCMS algorithm: Algorithms 1 (deltas), 2 (newly congested ports and
 * new victim ports) and 3 (ongoing CRR events, restoring Default) of seed
 * 000, on snapshots of counters. Documentation/dcms.md maps every line of
 * the paper's pseudo-code to this file and says where the paper had to be
 * read (the "I(s, p) != 1" condition of Algorithm 3, V(s, p) after a
 * restore).
 */
#include "dcms_algo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_SWITCH	((unsigned int)-1)

struct vref {
	unsigned int sw;	/* index into dcms.sw */
	unsigned int port;
};

struct pstate {
	/* counters: the last raw values and this sweep's deltas */
	bool have_raw;
	uint64_t w, d, c;
	struct dcms_deltas dl;
	/* N(s, p) as last sampled */
	unsigned int peer_sw;	/* NO_SWITCH unless dl.peer is DCMS_PEER_SWITCH */
	unsigned int peer_port;
	/* the root's state: S(s, p), M(s, p), I(s, p), V(s, p) */
	enum dcms_mr_state state;
	uint16_t mr;
	bool mr_set;
	uint32_t interval;
	bool lowered_now;	/* set Low by this sweep's Algorithm 2 */
	struct vref *v;
	size_t nv, vcap;
};

struct sstate {
	char name[DCMS_NAME_MAX + 1];
	bool present;		/* in the last snapshot */
	bool ever;		/* in any snapshot so far */
	bool seen;		/* in this one */
	struct pstate port[DCMS_PORTS_MAX + 1];	/* [0] unused */
};

struct dcms {
	struct dcms_params par;
	struct sstate **sw;	/* in order of first appearance */
	size_t nsw, swcap;
	struct dcms_event *ev;
	size_t nev, evcap;
	uint64_t sweeps;
};

struct dcms *dcms_new(const struct dcms_params *par)
{
	struct dcms *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->par = *par;
	if (!d->par.counter_bits || d->par.counter_bits > 64)
		d->par.counter_bits = 64;
	return d;
}

void dcms_free(struct dcms *d)
{
	size_t i;
	unsigned int p;

	if (!d)
		return;
	for (i = 0; i < d->nsw; i++) {
		for (p = 0; p <= DCMS_PORTS_MAX; p++)
			free(d->sw[i]->port[p].v);
		free(d->sw[i]);
	}
	free(d->sw);
	free(d->ev);
	free(d);
}

const struct dcms_event *dcms_events(const struct dcms *d, size_t *n)
{
	*n = d->nev;
	return d->ev;
}

uint64_t dcms_sweeps(const struct dcms *d)
{
	return d->sweeps;
}

enum dcms_delta_kind dcms_counter_delta(uint64_t old, uint64_t new,
					unsigned int bits, uint64_t *delta)
{
	uint64_t max = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	uint64_t quarter = max / 4;

	if (new >= old) {
		*delta = new - old;
		return DCMS_DELTA_OK;
	}
	if (old <= max && old >= max - quarter && new <= quarter) {
		*delta = (max - old) + new + 1;
		return DCMS_DELTA_WRAP;
	}
	*delta = new;
	return DCMS_DELTA_RESET;
}

static unsigned int sw_find(const struct dcms *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nsw; i++)
		if (!strcmp(d->sw[i]->name, name))
			return i;
	return NO_SWITCH;
}

static unsigned int sw_find_or_add(struct dcms *d, const char *name)
{
	unsigned int i = sw_find(d, name);
	struct sstate *s, **n;
	unsigned int p;

	if (i != NO_SWITCH)
		return i;
	if (d->nsw == d->swcap) {
		size_t cap = d->swcap ? 2 * d->swcap : 8;

		n = realloc(d->sw, cap * sizeof(*n));
		if (!n)
			return NO_SWITCH;
		d->sw = n;
		d->swcap = cap;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NO_SWITCH;
	snprintf(s->name, sizeof(s->name), "%s", name);
	for (p = 0; p <= DCMS_PORTS_MAX; p++)
		s->port[p].peer_sw = NO_SWITCH;
	d->sw[d->nsw] = s;
	return d->nsw++;
}

static struct dcms_event *ev_add(struct dcms *d, enum dcms_event_type type,
				 const char *sw, unsigned int port)
{
	struct dcms_event *e;

	if (d->nev == d->evcap) {
		size_t cap = d->evcap ? 2 * d->evcap : 32;

		e = realloc(d->ev, cap * sizeof(*e));
		if (!e)
			return NULL;
		d->ev = e;
		d->evcap = cap;
	}
	e = &d->ev[d->nev++];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->sw = sw;
	e->port = port;
	return e;
}

/* Forget a port's counters: its next sample is a new baseline */
static void port_forget(struct pstate *ps)
{
	ps->have_raw = false;
	ps->dl.valid = false;
	ps->dl.prev_valid = false;
	ps->dl.peer = DCMS_PEER_NONE;
	ps->peer_sw = NO_SWITCH;
}

static void root_clear(struct pstate *ps)
{
	ps->state = DCMS_DEFAULT_MR;
	ps->interval = 0;
	ps->nv = 0;
}

static int count_delta(struct dcms *d, struct sstate *ss, unsigned int port,
		       enum dcms_counter c, uint64_t old, uint64_t new, uint64_t *delta)
{
	enum dcms_delta_kind k = dcms_counter_delta(old, new, d->par.counter_bits, delta);
	struct dcms_event *e;

	if (k == DCMS_DELTA_OK)
		return 0;
	e = ev_add(d, k == DCMS_DELTA_WRAP ? DCMS_EV_COUNTER_WRAP : DCMS_EV_COUNTER_RESET,
		   ss->name, port);
	if (!e)
		return -ENOMEM;
	e->counter = c;
	e->old = old;
	e->new = new;
	e->delta = *delta;
	return 0;
}

/* Algorithm 1 line 1 for one port: dW, dD, dC, and dD(t - tau) kept */
static int port_ingest(struct dcms *d, unsigned int si,
		       const struct dcms_port_sample *smp)
{
	struct sstate *ss = d->sw[si];
	struct pstate *ps = &ss->port[smp->port];
	unsigned int peer = NO_SWITCH;
	int err = 0;

	if (smp->peer == DCMS_PEER_SWITCH) {
		peer = sw_find_or_add(d, smp->peer_switch);
		if (peer == NO_SWITCH)
			return -ENOMEM;
		ss = d->sw[si];
		ps = &ss->port[smp->port];
	}
	ps->dl.prev_valid = ps->dl.valid;
	ps->dl.dd_prev = ps->dl.dd;
	ps->dl.valid = false;
	if (ps->have_raw) {
		err = count_delta(d, ss, smp->port, DCMS_CNT_W, ps->w, smp->w, &ps->dl.dw);
		if (!err)
			err = count_delta(d, ss, smp->port, DCMS_CNT_D, ps->d, smp->d, &ps->dl.dd);
		if (!err)
			err = count_delta(d, ss, smp->port, DCMS_CNT_C, ps->c, smp->c, &ps->dl.dc);
		ps->dl.valid = !err;
	}
	ps->have_raw = true;
	ps->w = smp->w;
	ps->d = smp->d;
	ps->c = smp->c;
	ps->dl.peer = smp->peer;
	ps->peer_sw = peer;
	ps->peer_port = smp->peer == DCMS_PEER_SWITCH ? smp->peer_port : 0;
	return err;
}

static int switch_ingest(struct dcms *d, const struct dcms_switch_sample *smp)
{
	bool in_snap[DCMS_PORTS_MAX + 1] = { false };
	unsigned int si = sw_find_or_add(d, smp->name);
	struct sstate *ss;
	unsigned int p;
	size_t i;
	int err;

	if (si == NO_SWITCH)
		return -ENOMEM;
	ss = d->sw[si];
	if (ss->seen)		/* listed twice: the first one counts */
		return 0;
	ss->seen = true;
	if (!ss->present && ss->ever && !ev_add(d, DCMS_EV_SWITCH_BACK, ss->name, 0))
		return -ENOMEM;
	ss->present = true;
	ss->ever = true;
	if (!smp->readable) {
		/* unknown this sweep: no deltas, and a new baseline next time */
		for (p = 1; p <= DCMS_PORTS_MAX; p++)
			port_forget(&ss->port[p]);
		return 0;
	}
	for (i = 0; i < smp->nports; i++) {
		p = smp->port[i].port;
		if (p < 1 || p > DCMS_PORTS_MAX || in_snap[p])
			continue;
		in_snap[p] = true;
		err = port_ingest(d, si, &smp->port[i]);
		if (err)
			return err;
		ss = d->sw[si];
	}
	for (p = 1; p <= DCMS_PORTS_MAX; p++)
		if (!in_snap[p])
			port_forget(&ss->port[p]);
	return 0;
}

static int switch_gone(struct dcms *d, struct sstate *ss)
{
	struct dcms_event *e;
	unsigned int p;

	ss->present = false;
	if (!ev_add(d, DCMS_EV_SWITCH_GONE, ss->name, 0))
		return -ENOMEM;
	for (p = 1; p <= DCMS_PORTS_MAX; p++) {
		struct pstate *ps = &ss->port[p];

		port_forget(ps);
		if (ps->state != DCMS_LOW_MR && !ps->nv)
			continue;
		/* nothing left to set: the switch and its settings are gone */
		e = ev_add(d, DCMS_EV_ROOT_GONE, ss->name, p);
		if (!e)
			return -ENOMEM;
		e->interval = ps->interval;
		e->nvictims = ps->nv;
		root_clear(ps);
	}
	return 0;
}

static bool in_victims(const struct pstate *ps, unsigned int sw, unsigned int port)
{
	size_t k;

	for (k = 0; k < ps->nv; k++)
		if (ps->v[k].sw == sw && ps->v[k].port == port)
			return true;
	return false;
}

static int victim_add(struct pstate *ps, unsigned int sw, unsigned int port)
{
	if (ps->nv == ps->vcap) {
		size_t cap = ps->vcap ? 2 * ps->vcap : 4;
		struct vref *n = realloc(ps->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		ps->v = n;
		ps->vcap = cap;
	}
	ps->v[ps->nv].sw = sw;
	ps->v[ps->nv].port = port;
	ps->nv++;
	return 0;
}

/* Is the port congested? Algorithm 2 line 2; the DCMS_WHY_* that hold */
static unsigned int congested(const struct dcms *d, const struct pstate *ps)
{
	unsigned int why = 0;

	if (!ps->dl.valid)
		return 0;
	if (ps->dl.dc > d->par.t_c)
		why |= DCMS_WHY_DC;
	if (ps->dl.peer == DCMS_PEER_CA && ps->dl.dw > d->par.t_w)
		why |= DCMS_WHY_DW_CA;
	return why;
}

/* Algorithm 2 lines 3-13 for the congested port (s, p) */
static int find_victims(struct dcms *d, unsigned int si, unsigned int p,
			unsigned int why)
{
	struct pstate *ps = &d->sw[si]->port[p];
	struct dcms_event *e;
	unsigned int q;
	size_t ri;

	/* every (r, q) with N(r, q) = (s, v), v in P_s, not yet in V(s, p) */
	for (ri = 0; ri < d->nsw; ri++) {
		struct sstate *rs = d->sw[ri];

		if (!rs->present)
			continue;
		for (q = 1; q <= DCMS_PORTS_MAX; q++) {
			struct pstate *qs = &rs->port[q];

			if (!qs->dl.valid || qs->dl.peer != DCMS_PEER_SWITCH ||
			    qs->peer_sw != si || in_victims(ps, ri, q))
				continue;
			/* line 4: is there a victim port? */
			if (qs->dl.dw <= d->par.t_w)
				continue;
			/* line 5 */
			if (victim_add(ps, ri, q))
				return -ENOMEM;
			e = ev_add(d, DCMS_EV_VICTIM_ADD, d->sw[si]->name, p);
			if (!e)
				return -ENOMEM;
			e->vsw = rs->name;
			e->vport = q;
			e->why = why;
			e->root = ps->dl;
			e->victim = qs->dl;
			e->nvictims = ps->nv;
			e->interval = ps->interval;
			e->mr = ps->mr;
			/* lines 6-11: another victim may have lowered it already */
			if (ps->state == DCMS_LOW_MR)
				continue;
			ps->mr = d->par.mr_low;
			ps->mr_set = true;
			ps->state = DCMS_LOW_MR;
			ps->interval = 1;
			ps->lowered_now = true;
			e = ev_add(d, DCMS_EV_SET_LOW, d->sw[si]->name, p);
			if (!e)
				return -ENOMEM;
			e->vsw = rs->name;
			e->vport = q;
			e->why = why;
			e->mr = ps->mr;
			e->root = ps->dl;
			e->victim = qs->dl;
			e->nvictims = ps->nv;
			e->interval = ps->interval;
		}
	}
	return 0;
}

static int algorithm2(struct dcms *d)
{
	unsigned int p, why;
	size_t si;
	int err;

	for (si = 0; si < d->nsw; si++) {
		if (!d->sw[si]->present)
			continue;
		for (p = 1; p <= DCMS_PORTS_MAX; p++) {
			why = congested(d, &d->sw[si]->port[p]);
			if (!why)
				continue;
			err = find_victims(d, si, p, why);
			if (err)
				return err;
		}
	}
	return 0;
}

static void victim_remove(struct pstate *ps, size_t k)
{
	memmove(&ps->v[k], &ps->v[k + 1], (ps->nv - k - 1) * sizeof(ps->v[0]));
	ps->nv--;
}

/* Algorithm 3 lines 4-8 for the root (s, p) */
static int check_victims(struct dcms *d, struct sstate *ss, unsigned int p)
{
	struct pstate *ps = &ss->port[p];
	struct dcms_event *e;
	size_t k = 0;

	while (k < ps->nv) {
		struct sstate *rs = d->sw[ps->v[k].sw];
		unsigned int q = ps->v[k].port;
		struct pstate *qs = &rs->port[q];
		bool gone = !rs->present;

		/* a victim whose switch vanished carries no victim flow */
		if (!gone) {
			if (!qs->dl.valid || !qs->dl.prev_valid ||
			    qs->dl.dd_prev <= qs->dl.dd ||
			    qs->dl.dd_prev - qs->dl.dd <= d->par.t_d) {
				k++;
				continue;
			}
		}
		/* line 5: dD(r, q, t - tau) - dD(r, q, t) > T_D */
		victim_remove(ps, k);
		e = ev_add(d, DCMS_EV_VICTIM_DEL, ss->name, p);
		if (!e)
			return -ENOMEM;
		e->vsw = rs->name;
		e->vport = q;
		e->victim_gone = gone;
		e->root = ps->dl;
		e->victim = qs->dl;
		e->nvictims = ps->nv;
		e->interval = ps->interval;
		e->mr = ps->mr;
	}
	return 0;
}

static int algorithm3(struct dcms *d)
{
	struct dcms_event *e;
	unsigned int p;
	size_t si;
	int err;

	for (si = 0; si < d->nsw; si++) {
		struct sstate *ss = d->sw[si];

		if (!ss->present)
			continue;
		for (p = 1; p <= DCMS_PORTS_MAX; p++) {
			struct pstate *ps = &ss->port[p];

			/* line 1: |V(s, p)| != 0, and not lowered in this sweep */
			if (!ps->nv || ps->lowered_now)
				continue;
			ps->interval++;				/* line 2 */
			if (ps->interval <= d->par.t_i) {	/* line 3 */
				err = check_victims(d, ss, p);
				if (err)
					return err;
			}
			/* line 11 */
			if (ps->nv && ps->interval != d->par.t_i)
				continue;
			ps->mr = d->par.mr_default;		/* lines 13-14 */
			ps->mr_set = true;
			e = ev_add(d, DCMS_EV_SET_DEFAULT, ss->name, p);
			if (!e)
				return -ENOMEM;
			e->mr = ps->mr;
			e->reason = ps->nv ? DCMS_RESTORE_T_I : DCMS_RESTORE_NO_VICTIMS;
			e->interval = ps->interval;
			e->nvictims = ps->nv;
			e->root = ps->dl;
			/* a new cycle starts from scratch (Documentation/dcms.md) */
			root_clear(ps);
		}
	}
	return 0;
}

int dcms_sweep(struct dcms *d, const struct dcms_snapshot *snap)
{
	unsigned int p;
	size_t i;
	int err;

	d->nev = 0;
	d->sweeps++;
	for (i = 0; i < d->nsw; i++) {
		d->sw[i]->seen = false;
		for (p = 1; p <= DCMS_PORTS_MAX; p++)
			d->sw[i]->port[p].lowered_now = false;
	}
	/* Algorithm 1 line 1: counters and deltas */
	for (i = 0; i < snap->nsw; i++) {
		err = switch_ingest(d, &snap->sw[i]);
		if (err)
			return err;
	}
	for (i = 0; i < d->nsw; i++) {
		if (d->sw[i]->present && !d->sw[i]->seen) {
			err = switch_gone(d, d->sw[i]);
			if (err)
				return err;
		}
	}
	/* Algorithm 1 lines 2-3 */
	err = algorithm2(d);
	if (!err)
		err = algorithm3(d);
	return err ? err : (int)d->nev;
}

bool dcms_port_view(const struct dcms *d, const char *sw, unsigned int port,
		    struct dcms_port_view *view)
{
	unsigned int si = sw_find(d, sw);
	const struct pstate *ps;

	if (si == NO_SWITCH || port < 1 || port > DCMS_PORTS_MAX)
		return false;
	ps = &d->sw[si]->port[port];
	view->state = ps->state;
	view->mr = ps->mr;
	view->mr_set = ps->mr_set;
	view->interval = ps->interval;
	view->nvictims = ps->nv;
	view->deltas = ps->dl;
	return true;
}

bool dcms_is_victim(const struct dcms *d, const char *sw, unsigned int port,
		    const char *vsw, unsigned int vport)
{
	unsigned int si = sw_find(d, sw), ri = sw_find(d, vsw);

	if (si == NO_SWITCH || ri == NO_SWITCH || port < 1 || port > DCMS_PORTS_MAX)
		return false;
	return in_victims(&d->sw[si]->port[port], ri, vport);
}

const char *dcms_event_name(enum dcms_event_type type)
{
	static const char *const names[] = {
		[DCMS_EV_VICTIM_ADD] = "victim_add",
		[DCMS_EV_SET_LOW] = "set_low",
		[DCMS_EV_VICTIM_DEL] = "victim_del",
		[DCMS_EV_SET_DEFAULT] = "set_default",
		[DCMS_EV_COUNTER_RESET] = "counter_reset",
		[DCMS_EV_COUNTER_WRAP] = "counter_wrap",
		[DCMS_EV_SWITCH_GONE] = "switch_gone",
		[DCMS_EV_SWITCH_BACK] = "switch_back",
		[DCMS_EV_ROOT_GONE] = "root_gone",
	};

	return (unsigned int)type < ARRAY_SIZE(names) ? names[type] : "?";
}

const char *dcms_counter_name(enum dcms_counter c)
{
	return c == DCMS_CNT_W ? "W" : c == DCMS_CNT_D ? "D" : "C";
}

const char *dcms_state_name(enum dcms_mr_state s)
{
	return s == DCMS_LOW_MR ? "low-mr" : "default-mr";
}
