/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcms: the daemon (daemon.c), its logs (output.c) and the static
 * congestion control manager (ccmgr.c), over a backend (backend.h).
 */
#ifndef DCMS_H
#define DCMS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "conf.h"
#include "dcms_algo.h"
#include "jsonw.h"

#define DCMS_VERSION	"1.0"

/* ---------------------------------------------------------------- output.c */

/* The decision log (JSON lines) and the CSV time series */
struct out {
	FILE *log;
	bool log_owned;		/* not stdout */
	const char *log_path;
	FILE *csv;
	const char *csv_path;
};

int out_open(struct out *o, const struct conf *conf, FILE *err);
void out_close(struct out *o);
/* SIGHUP: reopen the files (after logrotate moved them) */
void out_reopen(struct out *o, FILE *err);

/*
 * A line of the decision log: {"t":..,"sweep":..,"event":"..", then the
 * caller's members (jw_str() ...), then out_line_end(). Times in seconds,
 * to the microsecond.
 */
#define OUT_DECIMALS	6
void out_line_begin(struct jw *jw, FILE *f, double t, uint64_t sweep, const char *event);
void out_line_end(struct jw *jw);	/* newline and flush */

/*
 * One event of the algorithm as a JSON line; applied: "yes", "no" (the
 * write failed, retried next sweep), "dry-run", or NULL for events that
 * change nothing.
 */
void out_event(FILE *f, double t, uint64_t sweep, const struct dcms_event *e,
	       const struct dcms_params *par, const char *applied);

/* ---------------------------------------------------------------- daemon.c */

struct daemon_opts {
	bool once;		/* baseline, one sweep, exit */
	double duration;	/* emulated seconds; 0: until a signal */
	bool background;	/* --daemon */
};

/* Run the daemon until a signal, the duration or --once. Exit status. */
int daemon_run(struct conf *conf, const struct daemon_opts *opts,
	       struct backend *be, FILE *err);

/* ---------------------------------------------------------------- ccmgr.c */

struct ccmgr_opts {
	const char *sysfs_root;		/* CA_SYSFS_ROOT */
	const char *switches;		/* "S1,S2", NULL: every switch */
	/* "rxe_A,rxe_B" (sysfs) or "H1,H2" (MADs), NULL: every HCA */
	const char *ca_devices;
	bool no_ca;			/* leave the HCAs alone */
	bool dry_run;			/* say what would be done */
};

/*
 * Push the cc_* settings of conf to every switch (through be; NULL: no
 * switch key given and a backend without HCAs) and HCA (through be if it
 * has cc_set_ca, else sysfs). Prints one line per target to out, problems
 * to err. Exit status: 0, or 1 if a switch could not be set or CA keys
 * were given and an HCA could not be set (over MADs: one without a CC
 * agent is skipped unless named).
 */
int ccmgr_run(const struct conf *conf, const struct ccmgr_opts *opts,
	      struct backend *be, FILE *out, FILE *err);
/* "threshold 15 marking_rate 128 ..." for a switch setting */
void ccmgr_describe_sw(const struct cc_sw_setting *s, char *buf, size_t len);

#endif /* DCMS_H */
