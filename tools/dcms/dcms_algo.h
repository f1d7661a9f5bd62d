/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DCMS algorithm (seed 000: Mizero et al., "A Dynamic Congestion
 * Management System for InfiniBand Networks", Algorithms 1 to 3, notation of
 * its Table 1), as a pure module: no I/O, no clock. Each sweep the caller
 * hands in a snapshot of the raw counters of every switch port, with the
 * neighbour map; dcms_sweep() computes the deltas and runs Algorithms 2 and
 * 3, and returns what it decided as a list of events. The caller applies the
 * Marking_Rate changes (DCMS_EV_SET_LOW, DCMS_EV_SET_DEFAULT) and logs.
 *
 * Notation: (s, p) a switch port; N(s, p) its neighbour; W, D, C the
 * PortXmitWait, PortXmitData and PortXmitCongTime counters and dW, dD, dC
 * their changes over one sweep interval tau; V(s, p) the victim ports of
 * root (s, p); M, S, I its Marking_Rate, state and interval count.
 */
#ifndef DCMS_ALGO_H
#define DCMS_ALGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define DCMS_NAME_MAX	32	/* longest switch name (IBSW_NAME_LEN) */
#define DCMS_PORTS_MAX	254	/* ports 1..254 */

/* What N(s, p) is */
enum dcms_peer {
	DCMS_PEER_NONE,		/* nothing connected: N(s, p) = null */
	DCMS_PEER_CA,		/* a host (HCA) port: N(s, p) in J */
	DCMS_PEER_SWITCH,	/* a port of a switch: N(s, p) in S x I */
};

/* The algorithm's parameters, in the counters' own units per sweep */
struct dcms_params {
	uint64_t t_c;		/* T_C: congestion threshold on dC */
	uint64_t t_w;		/* T_W: rate-reduction threshold on dW */
	uint64_t t_d;		/* T_D: utilisation-change threshold on a drop of dD */
	uint32_t t_i;		/* T_I: Low-MR duration threshold, sweeps, >= 2 */
	uint16_t mr_low;	/* Low */
	uint16_t mr_default;	/* Default */
	unsigned int counter_bits;	/* width of the counters, 1 to 64 */
};

/* One port of a snapshot: its raw counters and N(s, p) */
struct dcms_port_sample {
	unsigned int port;		/* 1..DCMS_PORTS_MAX */
	enum dcms_peer peer;
	char peer_switch[DCMS_NAME_MAX + 1];	/* DCMS_PEER_SWITCH */
	unsigned int peer_port;
	uint64_t w, d, c;		/* W(s, p, t), D(s, p, t), C(s, p, t) */
};

/*
 * One switch of a snapshot. A switch the caller could not read this sweep
 * is given with readable false (its ports are unknown, not gone); a switch
 * left out of the snapshot is gone.
 */
struct dcms_switch_sample {
	char name[DCMS_NAME_MAX + 1];
	bool readable;
	const struct dcms_port_sample *port;
	size_t nports;
};

struct dcms_snapshot {
	const struct dcms_switch_sample *sw;
	size_t nsw;
};

enum dcms_counter {
	DCMS_CNT_W,
	DCMS_CNT_D,
	DCMS_CNT_C,
};

enum dcms_event_type {
	DCMS_EV_VICTIM_ADD,	/* Algorithm 2 line 5: (r, q) added to V(s, p) */
	DCMS_EV_SET_LOW,	/* Algorithm 2 lines 8-10: M(s, p) <- Low */
	DCMS_EV_VICTIM_DEL,	/* Algorithm 3 line 7: (r, q) removed from V(s, p) */
	DCMS_EV_SET_DEFAULT,	/* Algorithm 3 lines 13-14: M(s, p) <- Default */
	DCMS_EV_COUNTER_RESET,	/* a counter went down: the new value is the delta */
	DCMS_EV_COUNTER_WRAP,	/* a counter wrapped at its width */
	DCMS_EV_SWITCH_GONE,	/* a switch left the snapshots */
	DCMS_EV_SWITCH_BACK,	/* and came back */
	DCMS_EV_ROOT_GONE,	/* a root in Low-MR vanished with its switch */
};

/* Why a port is congested (Algorithm 2 line 2), why Default is restored */
#define DCMS_WHY_DC		0x1	/* dC > T_C */
#define DCMS_WHY_DW_CA		0x2	/* N(s, p) in J and dW > T_W */

enum dcms_restore_reason {
	DCMS_RESTORE_NO_VICTIMS,	/* |V(s, p)| == 0 */
	DCMS_RESTORE_T_I,		/* I(s, p) == T_I */
};

/* The deltas of one port this sweep */
struct dcms_deltas {
	bool valid;
	uint64_t dw, dd, dc;
	bool prev_valid;	/* dD(t - tau) known */
	uint64_t dd_prev;
	enum dcms_peer peer;
};

struct dcms_event {
	enum dcms_event_type type;
	const char *sw;			/* the root, or the port the event is about */
	unsigned int port;
	const char *vsw;		/* the victim (r, q) of VICTIM_ADD/DEL */
	unsigned int vport;
	uint16_t mr;			/* SET_LOW, SET_DEFAULT: the new M(s, p) */
	uint32_t interval;		/* I(s, p) after the event */
	size_t nvictims;		/* |V(s, p)| after the event */
	unsigned int why;		/* DCMS_WHY_* of the root */
	enum dcms_restore_reason reason;
	bool victim_gone;		/* VICTIM_DEL: its switch vanished */
	struct dcms_deltas root;	/* of (s, p) */
	struct dcms_deltas victim;	/* of (r, q) */
	enum dcms_counter counter;	/* COUNTER_RESET/WRAP */
	uint64_t old, new, delta;
};

enum dcms_mr_state {
	DCMS_DEFAULT_MR,
	DCMS_LOW_MR,
};

struct dcms;

/* NULL on allocation failure. The parameters are copied. */
struct dcms *dcms_new(const struct dcms_params *par);
void dcms_free(struct dcms *d);

/*
 * One sweep: Algorithm 1 line 1 (deltas), then Algorithms 2 and 3. Returns
 * the number of events (see dcms_events()), or -ENOMEM; on -ENOMEM the
 * state may be partly updated. The first snapshot of a port only sets its
 * baseline: decisions need a delta, dD(t - tau) a second one.
 */
int dcms_sweep(struct dcms *d, const struct dcms_snapshot *snap);

/* The events of the last sweep, valid until the next call or dcms_free() */
const struct dcms_event *dcms_events(const struct dcms *d, size_t *n);

/* State of a port, for logs and tests; false if the port is unknown */
struct dcms_port_view {
	enum dcms_mr_state state;	/* S(s, p) */
	uint16_t mr;			/* M(s, p), meaningful once set */
	bool mr_set;			/* DCMS has set M(s, p) at least once */
	uint32_t interval;		/* I(s, p) */
	size_t nvictims;		/* |V(s, p)| */
	struct dcms_deltas deltas;
};

bool dcms_port_view(const struct dcms *d, const char *sw, unsigned int port,
		    struct dcms_port_view *view);
/* Is (r, q) in V(s, p)? */
bool dcms_is_victim(const struct dcms *d, const char *sw, unsigned int port,
		    const char *vsw, unsigned int vport);
uint64_t dcms_sweeps(const struct dcms *d);

enum dcms_delta_kind {
	DCMS_DELTA_OK,
	DCMS_DELTA_WRAP,
	DCMS_DELTA_RESET,
};

/*
 * The change of a counter of the given width from old to new. new < old is
 * a wrap when old was in the top quarter of the range and new is in the
 * bottom quarter (delta: the distance through the top), otherwise a reset
 * (the counter was cleared: delta = new).
 */
enum dcms_delta_kind dcms_counter_delta(uint64_t old, uint64_t new,
					unsigned int bits, uint64_t *delta);

const char *dcms_event_name(enum dcms_event_type type);	/* "set_low" */
const char *dcms_counter_name(enum dcms_counter c);	/* "W" */
const char *dcms_state_name(enum dcms_mr_state s);	/* "low-mr" */

#endif /* DCMS_ALGO_H */
