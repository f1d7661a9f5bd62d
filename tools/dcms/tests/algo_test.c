// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the DCMS algorithm (dcms_algo.c): synthetic counter traces
 * replayed through it, one sweep at a time, on seed 000's testbed (X, A on
 * S1; B, C, D, Y on S2; S1/15 - S2/20) with a third switch S3 on S2/25 for
 * the cases with several victims. Counter values per sweep are the paper's
 * Fig. 5b rates for tau = 1 s where it gives them.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "dcms_algo.h"

#define CA DCMS_PEER_CA
#define SW DCMS_PEER_SWITCH

/* the paper's thresholds; T_I short so that the traces stay short */
static const struct dcms_params params = {
	.t_c = 8000000,
	.t_w = 27400000,
	.t_d = 62500000,
	.t_i = 4,
	.mr_low = 0,
	.mr_default = 128,
	.counter_bits = 64,
};

struct tport {
	const char *sw;
	unsigned int port;
	enum dcms_peer peer;
	const char *psw;
	unsigned int pport;
	uint64_t w, d, c;
};

static const struct tport fabric[] = {
	{ "S1", 11, CA, NULL, 0, 0, 0, 0 },	/* X */
	{ "S1", 12, CA, NULL, 0, 0, 0, 0 },	/* A */
	{ "S1", 15, SW, "S2", 20, 0, 0, 0 },
	{ "S2", 20, SW, "S1", 15, 0, 0, 0 },
	{ "S2", 21, CA, NULL, 0, 0, 0, 0 },	/* B */
	{ "S2", 22, CA, NULL, 0, 0, 0, 0 },	/* C */
	{ "S2", 23, CA, NULL, 0, 0, 0, 0 },	/* D */
	{ "S2", 24, CA, NULL, 0, 0, 0, 0 },	/* Y */
	{ "S2", 25, SW, "S3", 1, 0, 0, 0 },
	{ "S3", 1, SW, "S2", 25, 0, 0, 0 },
	{ "S3", 2, CA, NULL, 0, 0, 0, 0 },
};

static const char *const switches[] = { "S1", "S2", "S3" };

struct trace {
	struct dcms *d;
	struct dcms_params par;
	struct tport port[ARRAY_SIZE(fabric)];
	bool gone[ARRAY_SIZE(switches)];
	bool unreadable[ARRAY_SIZE(switches)];
	char text[2048];
};

/* Counter changes of one port in one sweep */
struct td {
	const char *sw;
	unsigned int port;
	uint64_t dw, dd, dc;
};

static struct trace *trace_new(const struct dcms_params *par)
{
	struct trace *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->par = *par;
	memcpy(t->port, fabric, sizeof(fabric));
	t->d = dcms_new(par);
	assert_non_null(t->d);
	return t;
}

static void trace_free(struct trace *t)
{
	dcms_free(t->d);
	free(t);
}

static struct tport *find_port(struct trace *t, const char *sw, unsigned int port)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fabric); i++)
		if (!strcmp(t->port[i].sw, sw) && t->port[i].port == port)
			return &t->port[i];
	fail_msg("no port %s/%u in the test fabric", sw, port);
	return NULL;
}

static void set_raw(struct trace *t, const char *sw, unsigned int port,
		    uint64_t w, uint64_t d, uint64_t c)
{
	struct tport *p = find_port(t, sw, port);

	p->w = w;
	p->d = d;
	p->c = c;
}

static void describe(struct trace *t)
{
	const struct dcms_event *ev;
	size_t n, i, off = 0;

	ev = dcms_events(t->d, &n);
	t->text[0] = '\0';
	for (i = 0; i < n; i++) {
		const struct dcms_event *e = &ev[i];
		char *s = t->text + off;
		size_t left = sizeof(t->text) - off;
		const char *sep = i ? "; " : "";

		switch (e->type) {
		case DCMS_EV_VICTIM_ADD:
			snprintf(s, left, "%svictim_add %s/%u v=%s/%u n=%zu", sep, e->sw, e->port,
				 e->vsw, e->vport, e->nvictims);
			break;
		case DCMS_EV_SET_LOW:
			snprintf(s, left, "%sset_low %s/%u mr=%u I=%u", sep, e->sw, e->port, e->mr,
				 e->interval);
			break;
		case DCMS_EV_VICTIM_DEL:
			snprintf(s, left, "%svictim_del %s/%u v=%s/%u n=%zu%s", sep, e->sw, e->port,
				 e->vsw, e->vport, e->nvictims, e->victim_gone ? " gone" : "");
			break;
		case DCMS_EV_SET_DEFAULT:
			snprintf(s, left, "%sset_default %s/%u mr=%u I=%u %s", sep, e->sw, e->port,
				 e->mr, e->interval,
				 e->reason == DCMS_RESTORE_T_I ? "T_I" : "no-victims");
			break;
		case DCMS_EV_COUNTER_RESET:
		case DCMS_EV_COUNTER_WRAP:
			snprintf(s, left, "%s%s %s/%u %s %llu->%llu d=%llu", sep,
				 e->type == DCMS_EV_COUNTER_WRAP ? "wrap" : "reset", e->sw, e->port,
				 dcms_counter_name(e->counter), (unsigned long long)e->old,
				 (unsigned long long)e->new, (unsigned long long)e->delta);
			break;
		case DCMS_EV_ROOT_GONE:
			snprintf(s, left, "%sroot_gone %s/%u", sep, e->sw, e->port);
			break;
		default:
			snprintf(s, left, "%s%s %s", sep, dcms_event_name(e->type), e->sw);
			break;
		}
		off += strlen(s);
	}
}

/* Apply the changes, take the snapshot, sweep; the events as text */
static const char *step(struct trace *t, const struct td *dl, size_t n)
{
	struct dcms_switch_sample smp[ARRAY_SIZE(switches)];
	struct dcms_port_sample ps[ARRAY_SIZE(switches)][ARRAY_SIZE(fabric)];
	struct dcms_snapshot snap = { .sw = smp };
	unsigned int bits = t->par.counter_bits;
	uint64_t max = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	size_t i, k;

	/* counters wrap at their width */
	for (i = 0; i < n; i++) {
		struct tport *p = find_port(t, dl[i].sw, dl[i].port);

		p->w = (p->w + dl[i].dw) & max;
		p->d = (p->d + dl[i].dd) & max;
		p->c = (p->c + dl[i].dc) & max;
	}
	for (i = 0; i < ARRAY_SIZE(switches); i++) {
		struct dcms_switch_sample *s = &smp[snap.nsw];

		if (t->gone[i])
			continue;
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", switches[i]);
		s->readable = !t->unreadable[i];
		s->port = ps[snap.nsw];
		for (k = 0; k < ARRAY_SIZE(fabric); k++) {
			const struct tport *p = &t->port[k];
			struct dcms_port_sample *q = &ps[snap.nsw][s->nports];

			if (strcmp(p->sw, switches[i]))
				continue;
			memset(q, 0, sizeof(*q));
			q->port = p->port;
			q->peer = p->peer;
			if (p->psw)
				snprintf(q->peer_switch, sizeof(q->peer_switch), "%s", p->psw);
			q->peer_port = p->pport;
			q->w = p->w;
			q->d = p->d;
			q->c = p->c;
			s->nports++;
		}
		snap.nsw++;
	}
	assert_true(dcms_sweep(t->d, &snap) >= 0);
	describe(t);
	return t->text;
}

#define STEP(t, ...) ({ \
	const struct td _d[] = { { NULL, 0, 0, 0, 0 }, __VA_ARGS__ }; \
	step((t), _d + 1, ARRAY_SIZE(_d) - 1); })

static void check_port(struct trace *t, const char *sw, unsigned int port,
		       enum dcms_mr_state state, uint32_t interval, size_t nvictims)
{
	struct dcms_port_view v;

	assert_true(dcms_port_view(t->d, sw, port, &v));
	assert_int_equal(v.state, state);
	assert_int_equal(v.interval, interval);
	assert_int_equal(v.nvictims, nvictims);
}

/* Per-sweep traffic of the paper's Experiment II, tau = 1 s */
#define XY_ALONE	{ "S1", 15, 0, 270000000, 0 }	/* X-Y at 8 Gb/s */
#define XY_VICTIM	{ "S1", 15, 28000000, 180000000, 0 }	/* waits, 1.8e8 words/s */
#define XY_REGAINED	{ "S1", 15, 0, 310000000, 0 }	/* after Low */
#define D_CONGESTED	{ "S2", 23, 0, 250000000, 10000000 }	/* dC 10M > T_C */
#define D_LOCALIZED	{ "S2", 23, 0, 250000000, 6000000 }	/* B-D, C-D: 6e6/s < T_C */
#define D_QUIET		{ "S2", 23, 0, 80000000, 100000 }

/* ---------------------------------------------------------------- cases */

static void first_sweep_is_a_baseline(void **state)
{
	struct trace *t = trace_new(&params);

	(void)state;
	set_raw(t, "S2", 23, 0, 1000000000, 900000000);
	set_raw(t, "S1", 15, 900000000, 1000000000, 0);
	assert_string_equal(step(t, NULL, 0), "");
	check_port(t, "S2", 23, DCMS_DEFAULT_MR, 0, 0);
	assert_false(dcms_port_view(t->d, "S9", 1, &(struct dcms_port_view){ 0 }));
	trace_free(t);
}

/* Congestion at (S2, 23) without a victim port: no action (Fig. 5, 4.5-7 s) */
static void localized_congestion_no_action(void **state)
{
	struct trace *t = trace_new(&params);
	int i;

	(void)state;
	STEP(t, XY_ALONE);
	for (i = 0; i < 5; i++) {
		/* dC above T_C, the switch link full but never waiting */
		assert_string_equal(STEP(t, XY_ALONE, D_CONGESTED, { "S2", 21, 0, 1, 0 }), "");
		check_port(t, "S2", 23, DCMS_DEFAULT_MR, 0, 0);
	}
	/* CA ports that wait are never victims: N(r, q) must be a switch port */
	assert_string_equal(STEP(t, D_CONGESTED, { "S1", 11, 90000000, 0, 0 }), "");
	/* dW exactly T_W is not above it */
	assert_string_equal(STEP(t, D_CONGESTED, { "S1", 15, 27400000, 1, 0 }), "");
	/* dC exactly T_C: not congested, whatever waits upstream */
	assert_string_equal(STEP(t, { "S2", 23, 0, 1, 8000000 }, XY_VICTIM), "");
	/* B-D and C-D alone: below T_C */
	assert_string_equal(STEP(t, D_LOCALIZED, XY_VICTIM), "");
	check_port(t, "S2", 23, DCMS_DEFAULT_MR, 0, 0);
	trace_free(t);
}

/* A-D joins: (S1, 15) waits, (S2, 23) congests -> Low (Algorithm 2) */
static void crr_one_victim_low(void **state)
{
	struct trace *t = trace_new(&params);

	(void)state;
	STEP(t, XY_ALONE);
	STEP(t, XY_ALONE, D_LOCALIZED);
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED),
			    "victim_add S2/23 v=S1/15 n=1; set_low S2/23 mr=0 I=1");
	check_port(t, "S2", 23, DCMS_LOW_MR, 1, 1);
	assert_true(dcms_is_victim(t->d, "S2", 23, "S1", 15));
	/* still congested, the same victim: nothing new; I counts */
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED), "");
	check_port(t, "S2", 23, DCMS_LOW_MR, 2, 1);
	trace_free(t);
}

/* A port facing a CA that waits counts as congested (Line 2, second term) */
static void ca_port_wait_is_congestion(void **state)
{
	struct trace *t = trace_new(&params);
	const struct dcms_event *ev;
	size_t n;

	(void)state;
	STEP(t);
	assert_string_equal(STEP(t, { "S2", 24, 30000000, 1, 0 }, XY_VICTIM),
			    "victim_add S2/24 v=S1/15 n=1; set_low S2/24 mr=0 I=1");
	ev = dcms_events(t->d, &n);
	assert_int_equal(ev[0].why, DCMS_WHY_DW_CA);
	assert_int_equal(ev[0].root.dw, 30000000);
	assert_int_equal(ev[0].victim.dw, 28000000);
	/* the same on a switch port is not congestion */
	t = (trace_free(t), trace_new(&params));
	STEP(t);
	assert_string_equal(STEP(t, { "S2", 25, 30000000, 1, 0 }, XY_VICTIM), "");
	trace_free(t);
}

/* Two neighbouring switches with victim ports: one Low, both in V */
static void crr_several_victims(void **state)
{
	struct trace *t = trace_new(&params);

	(void)state;
	STEP(t);
	assert_string_equal(STEP(t, D_CONGESTED, XY_VICTIM, { "S3", 1, 29000000, 150000000, 0 }),
			    "victim_add S2/23 v=S1/15 n=1; set_low S2/23 mr=0 I=1; "
			    "victim_add S2/23 v=S3/1 n=2");
	check_port(t, "S2", 23, DCMS_LOW_MR, 1, 2);
	/* S1/15's victim flow regains; S3/1 carried contributors only: drops */
	assert_string_equal(STEP(t, D_CONGESTED, XY_REGAINED, { "S3", 1, 0, 20000000, 0 }),
			    "victim_del S2/23 v=S3/1 n=1");
	check_port(t, "S2", 23, DCMS_LOW_MR, 2, 1);
	/* a new victim while Low: added, Low is not set again */
	assert_string_equal(STEP(t, D_CONGESTED, XY_REGAINED, { "S3", 1, 40000000, 20000000, 0 }),
			    "victim_add S2/23 v=S3/1 n=2");
	check_port(t, "S2", 23, DCMS_LOW_MR, 3, 2);
	trace_free(t);
}

/* Victims recover: utilisation drops by more than T_D -> Default */
static void victim_recovery_restores_default(void **state)
{
	struct trace *t = trace_new(&params);
	const struct dcms_event *ev;
	size_t n;

	(void)state;
	STEP(t);
	STEP(t, XY_VICTIM, D_CONGESTED);
	/* X-Y ended: (S1, 15) falls from 1.8e8 to 0.4e8 words */
	assert_string_equal(STEP(t, { "S1", 15, 0, 40000000, 0 }, D_QUIET),
			    "victim_del S2/23 v=S1/15 n=0; set_default S2/23 mr=128 I=2 no-victims");
	ev = dcms_events(t->d, &n);
	assert_int_equal(ev[0].victim.dd_prev, 180000000);
	assert_int_equal(ev[0].victim.dd, 40000000);
	check_port(t, "S2", 23, DCMS_DEFAULT_MR, 0, 0);
	/* a drop of exactly T_D keeps the victim */
	t = (trace_free(t), trace_new(&params));
	STEP(t);
	STEP(t, XY_VICTIM, D_CONGESTED);
	assert_string_equal(STEP(t, { "S1", 15, 0, 180000000 - 62500000, 0 }, D_QUIET), "");
	check_port(t, "S2", 23, DCMS_LOW_MR, 2, 1);
	trace_free(t);
}

/* The victim flow regains throughput: Low held until T_I, then re-trigger */
static void t_i_expiry_then_retrigger(void **state)
{
	struct trace *t = trace_new(&params);

	(void)state;
	STEP(t);
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED),
			    "victim_add S2/23 v=S1/15 n=1; set_low S2/23 mr=0 I=1");
	/* Low works: the victim's utilisation rises, congestion fades */
	assert_string_equal(STEP(t, XY_REGAINED, D_QUIET), "");
	check_port(t, "S2", 23, DCMS_LOW_MR, 2, 1);
	assert_string_equal(STEP(t, XY_REGAINED, D_QUIET), "");
	check_port(t, "S2", 23, DCMS_LOW_MR, 3, 1);
	/* I reaches T_I = 4: Default, V emptied for the next cycle */
	assert_string_equal(STEP(t, XY_REGAINED, D_QUIET), "set_default S2/23 mr=128 I=4 T_I");
	check_port(t, "S2", 23, DCMS_DEFAULT_MR, 0, 0);
	assert_false(dcms_is_victim(t->d, "S2", 23, "S1", 15));
	/* Default lets the contributors back: the victim port waits again */
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED),
			    "victim_add S2/23 v=S1/15 n=1; set_low S2/23 mr=0 I=1");
	check_port(t, "S2", 23, DCMS_LOW_MR, 1, 1);
	trace_free(t);
}

/* T_I = 2, the smallest: Low for one interval only */
static void t_i_two(void **state)
{
	struct dcms_params p = params;
	struct trace *t;

	(void)state;
	p.t_i = 2;
	t = trace_new(&p);
	STEP(t);
	STEP(t, XY_VICTIM, D_CONGESTED);
	assert_string_equal(STEP(t, XY_REGAINED, D_CONGESTED), "set_default S2/23 mr=128 I=2 T_I");
	trace_free(t);
}

static void counter_delta_rules(void **state)
{
	uint64_t d;

	(void)state;
	assert_int_equal(dcms_counter_delta(5, 9, 64, &d), DCMS_DELTA_OK);
	assert_int_equal(d, 4);
	assert_int_equal(dcms_counter_delta(7, 7, 64, &d), DCMS_DELTA_OK);
	assert_int_equal(d, 0);
	/* 64-bit wrap: from near the top to near zero */
	assert_int_equal(dcms_counter_delta(UINT64_MAX - 9, 5, 64, &d), DCMS_DELTA_WRAP);
	assert_int_equal(d, 15);
	assert_int_equal(dcms_counter_delta(UINT64_MAX, 0, 64, &d), DCMS_DELTA_WRAP);
	assert_int_equal(d, 1);
	/* lower, not from the top: a reset, the new value is the delta */
	assert_int_equal(dcms_counter_delta(1000000, 300, 64, &d), DCMS_DELTA_RESET);
	assert_int_equal(d, 300);
	assert_int_equal(dcms_counter_delta(UINT64_MAX - 9, UINT64_MAX / 2, 64, &d),
			 DCMS_DELTA_RESET);
	assert_int_equal(d, UINT64_MAX / 2);
	/* 32-bit counters (PortCounters) */
	assert_int_equal(dcms_counter_delta(0xfffffff0, 0x10, 32, &d), DCMS_DELTA_WRAP);
	assert_int_equal(d, 0x20);
	assert_int_equal(dcms_counter_delta(0x80000000, 0x10, 32, &d), DCMS_DELTA_RESET);
	assert_int_equal(d, 0x10);
	/* a value above the width cannot have wrapped at it */
	assert_int_equal(dcms_counter_delta(0x100000000ULL, 5, 32, &d), DCMS_DELTA_RESET);
}

static void counter_wrap_and_reset(void **state)
{
	struct dcms_params p = params;
	struct trace *t;

	(void)state;
	p.counter_bits = 32;
	t = trace_new(&p);
	set_raw(t, "S1", 15, 0xffffff00, 0xfffffff0, 0);
	STEP(t);
	/* dW wraps to 28e6, dD wraps too: the victim is found as usual */
	assert_string_equal(STEP(t, { "S1", 15, 28000000, 0x100, 0 }, D_CONGESTED),
			    "wrap S1/15 W 4294967040->27999744 d=28000000; "
			    "wrap S1/15 D 4294967280->240 d=256; "
			    "victim_add S2/23 v=S1/15 n=1; set_low S2/23 mr=0 I=1");
	/* counters cleared (ibswctl counters clear): the new values are the deltas */
	set_raw(t, "S1", 15, 0, 0, 0);
	set_raw(t, "S2", 23, 0, 0, 0);
	assert_string_equal(STEP(t, { "S1", 15, 100, 300000000, 0 }, { "S2", 23, 0, 7, 50 }),
			    "reset S1/15 W 27999744->100 d=100; "
			    "reset S2/23 D 250000000->7 d=7; "
			    "reset S2/23 C 10000000->50 d=50");
	check_port(t, "S2", 23, DCMS_LOW_MR, 2, 1);
	trace_free(t);
}

/* The victim's switch disappears, then comes back */
static void victim_switch_disappears(void **state)
{
	struct trace *t = trace_new(&params);

	(void)state;
	STEP(t);
	STEP(t, XY_VICTIM, D_CONGESTED);
	t->gone[0] = true;
	assert_string_equal(STEP(t, D_CONGESTED),
			    "switch_gone S1; victim_del S2/23 v=S1/15 n=0 gone; "
			    "set_default S2/23 mr=128 I=2 no-victims");
	assert_string_equal(STEP(t, D_CONGESTED), "");
	t->gone[0] = false;
	/* back: its first snapshot is a new baseline */
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED), "switch_back S1");
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED),
			    "victim_add S2/23 v=S1/15 n=1; set_low S2/23 mr=0 I=1");
	trace_free(t);
}

/* The root's switch disappears: its state is dropped, nothing to set */
static void root_switch_disappears(void **state)
{
	struct trace *t = trace_new(&params);

	(void)state;
	STEP(t);
	STEP(t, XY_VICTIM, D_CONGESTED);
	t->gone[1] = true;
	assert_string_equal(STEP(t, XY_VICTIM), "switch_gone S2; root_gone S2/23");
	check_port(t, "S2", 23, DCMS_DEFAULT_MR, 0, 0);
	trace_free(t);
}

/* A failed read: no decision on that switch, nothing forgotten but deltas */
static void unreadable_switch(void **state)
{
	struct trace *t = trace_new(&params);

	(void)state;
	STEP(t);
	STEP(t, XY_VICTIM, D_CONGESTED);
	t->unreadable[0] = true;
	/* the victim's data are missing: kept in V, I still counts */
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED), "");
	check_port(t, "S2", 23, DCMS_LOW_MR, 2, 1);
	t->unreadable[0] = false;
	/* read again: a new baseline first, then dD(t - tau) is needed too */
	assert_string_equal(STEP(t, { "S1", 15, 0, 1, 0 }, D_CONGESTED), "");
	check_port(t, "S2", 23, DCMS_LOW_MR, 3, 1);
	/* the root unreadable: no congestion seen, Algorithm 3 goes on */
	t->unreadable[1] = true;
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED), "set_default S2/23 mr=128 I=4 T_I");
	trace_free(t);
}

/* A port whose switch lists it no more (fewer ports): forgotten */
static void port_disappears(void **state)
{
	struct trace *t = trace_new(&params);
	struct dcms_port_view v;
	struct tport *p15 = find_port(t, "S1", 15);

	(void)state;
	STEP(t);
	STEP(t, XY_VICTIM, D_CONGESTED);
	/* S1 without port 15 in the snapshot: no data for the victim */
	p15->sw = "S1-gone";
	assert_string_equal(STEP(t, D_CONGESTED), "");
	assert_true(dcms_port_view(t->d, "S1", 15, &v));
	assert_false(v.deltas.valid);
	p15->sw = "S1";
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED), "");
	check_port(t, "S2", 23, DCMS_LOW_MR, 3, 1);
	assert_string_equal(STEP(t, XY_VICTIM, D_CONGESTED), "set_default S2/23 mr=128 I=4 T_I");
	trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_sweep_is_a_baseline),
		cmocka_unit_test(localized_congestion_no_action),
		cmocka_unit_test(crr_one_victim_low),
		cmocka_unit_test(ca_port_wait_is_congestion),
		cmocka_unit_test(crr_several_victims),
		cmocka_unit_test(victim_recovery_restores_default),
		cmocka_unit_test(t_i_expiry_then_retrigger),
		cmocka_unit_test(t_i_two),
		cmocka_unit_test(counter_delta_rules),
		cmocka_unit_test(counter_wrap_and_reset),
		cmocka_unit_test(victim_switch_disappears),
		cmocka_unit_test(root_switch_disappears),
		cmocka_unit_test(unreadable_switch),
		cmocka_unit_test(port_disappears),
	};

	return run_group("algo", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
