// SPDX-License-Identifier: GPL-2.0
/*
 * The DCMS daemon: Algorithm 1's loop. Every tau of emulated time (tau x
 * the fabric's time scale of wall-clock time) it reads every switch's
 * ports, runs the algorithm (dcms_algo.c) and applies its Marking_Rate
 * decisions. Reading or writing a switch that fails is logged and retried
 * at the next sweep; on exit every Marking_Rate it changed is restored.
 */
#define _GNU_SOURCE
#include "dcms.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "topo.h"

/* A port whose setting DCMS changed: what to restore, what it wants */
struct changed {
	char sw[BE_NAME_LEN];
	unsigned int port;
	bool captured;		/* orig is the setting before DCMS */
	struct be_port_cc orig;
	uint8_t threshold;	/* effective when captured: DCMS keeps them */
	uint8_t packet_size;
	bool applied;		/* DCMS has changed the switch */
	bool pending;		/* want is not applied yet: retried each sweep */
	uint16_t want;
};

struct dmn {
	struct conf *conf;
	const struct daemon_opts *opts;
	struct backend *be;
	FILE *err;
	struct dcms *algo;
	struct out out;
	struct topo *topo;
	uint32_t scale;
	double t;		/* emulated seconds since the start */
	uint64_t sweep;
	struct changed *chg;
	size_t nchg, chgcap;
	struct be_name *sws;		/* the last switch list */
	size_t nsws;
	struct dcms_switch_sample *smp;
	struct dcms_port_sample **smp_ports;
	size_t nsmp;
	uint16_t *csv_mr;	/* effective Marking_Rate of each CSV port */
	bool *csv_mr_valid;
};

/* SIGINT, SIGTERM and SIGHUP are blocked and taken in the sleep between sweeps */
static void block_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigprocmask(SIG_BLOCK, set, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until the monotonic time target: 0, or the signal that came first */
static int wait_until(const sigset_t *set, double target)
{
	for (;;) {
		double left = target - mono();
		struct timespec ts;
		int sig;

		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		sig = sigtimedwait(set, NULL, &ts);
		if (sig > 0)
			return sig;
		if (errno == EAGAIN)
			return 0;
	}
}

/* systemd's readiness protocol, without libsystemd: one datagram */
static void sd_notify_msg(const char *msg)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len;
	int fd;

	if (!path || (path[0] != '/' && path[0] != '@'))
		return;
	len = strlen(path);
	if (len >= sizeof(sa.sun_path))
		return;
	memcpy(sa.sun_path, path, len);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sa,
	       offsetof(struct sockaddr_un, sun_path) + len);
	close(fd);
}

/* ---------------------------------------------------------------- logging */

static void log_error(struct dmn *d, const char *event, const char *sw,
		      unsigned int port, int err)
{
	struct jw j;

	out_line_begin(&j, d->out.log, d->t, d->sweep, event);
	if (sw)
		jw_str(&j, "switch", sw);
	if (port)
		jw_u64(&j, "port", port);
	jw_str(&j, "error", strerror(-err));
	if (d->be->msg[0])
		jw_str(&j, "message", d->be->msg);
	jw_bool(&j, "retry", true);
	out_line_end(&j);
}

static void log_start(struct dmn *d)
{
	const struct conf *c = d->conf;
	struct jw j;

	out_line_begin(&j, d->out.log, 0, 0, "start");
	jw_str(&j, "version", DCMS_VERSION);
	jw_str(&j, "backend", d->be->ops->name);
	jw_u64(&j, "time_scale", d->scale);
	jw_fixed(&j, "tau", c->tau_ns / 1e9, OUT_DECIMALS);
	jw_fixed(&j, "tau_wall", c->tau_ns / 1e9 * d->scale, OUT_DECIMALS);
	jw_u64(&j, "T_W", c->par.t_w);
	jw_u64(&j, "T_C", c->par.t_c);
	jw_u64(&j, "T_D", c->par.t_d);
	jw_u64(&j, "T_I", c->par.t_i);
	jw_u64(&j, "Low", c->par.mr_low);
	jw_u64(&j, "Default", c->par.mr_default);
	jw_u64(&j, "counter_bits", c->par.counter_bits);
	jw_str(&j, "neighbours", c->neighbours == CONF_NEIGH_TOPOLOGY ? "topology" : "netlink");
	jw_bool(&j, "dry_run", c->dry_run);
	jw_fixed(&j, "mono", mono(), OUT_DECIMALS);
	out_line_end(&j);
}

/* ---------------------------------------------------------------- Marking_Rate */

static struct changed *chg_find(struct dmn *d, const char *sw, unsigned int port)
{
	size_t i;

	for (i = 0; i < d->nchg; i++)
		if (d->chg[i].port == port && !strcmp(d->chg[i].sw, sw))
			return &d->chg[i];
	return NULL;
}

static struct changed *chg_add(struct dmn *d, const char *sw, unsigned int port)
{
	struct changed *c;

	if (d->nchg == d->chgcap) {
		size_t cap = d->chgcap ? 2 * d->chgcap : 16;

		c = realloc(d->chg, cap * sizeof(*c));
		if (!c)
			return NULL;
		d->chg = c;
		d->chgcap = cap;
	}
	c = &d->chg[d->nchg++];
	memset(c, 0, sizeof(*c));
	snprintf(c->sw, sizeof(c->sw), "%s", sw);
	c->port = port;
	return c;
}

/*
 * Set M(s, p): a valid port setting with the threshold and packet size the
 * port had (so only the Marking_Rate changes), the original read first.
 */
static int chg_apply(struct dmn *d, struct changed *c)
{
	struct be_port_cc pc;
	struct be_switch_cc cc;
	int err;

	if (!c->captured) {
		err = d->be->ops->cc_get(d->be, c->sw, &cc);
		if (err)
			return err;
		if (c->port > cc.nports)
			return -EINVAL;
		c->orig = cc.port[c->port];
		c->threshold = c->orig.valid ? c->orig.threshold : cc.threshold;
		c->packet_size = c->orig.valid ? c->orig.packet_size : cc.packet_size;
		c->captured = true;
	}
	pc.valid = true;
	pc.threshold = c->threshold;
	pc.packet_size = c->packet_size;
	pc.marking_rate = c->want;
	err = d->be->ops->cc_set_port(d->be, c->sw, c->port, &pc);
	if (err)
		return err;
	c->applied = true;
	c->pending = false;
	return 0;
}

/* A decision of the algorithm: "yes", "no" (pending) or "dry-run" */
static const char *decide_mr(struct dmn *d, const char *sw, unsigned int port,
			     uint16_t mr)
{
	struct changed *c;
	int err;

	if (d->conf->dry_run)
		return "dry-run";
	c = chg_find(d, sw, port);
	if (!c)
		c = chg_add(d, sw, port);
	if (!c) {
		log_error(d, "set_error", sw, port, -ENOMEM);
		return "no";
	}
	c->want = mr;
	c->pending = true;
	err = chg_apply(d, c);
	if (err) {
		log_error(d, "set_error", sw, port, err);
		return "no";
	}
	return "yes";
}

static bool switch_listed(const struct dmn *d, const char *sw)
{
	size_t i;

	for (i = 0; i < d->nsws; i++)
		if (!strcmp(d->sws[i].s, sw))
			return true;
	return false;
}

/* Writes that failed before: again, unless their switch is gone */
static void retry_pending(struct dmn *d, bool list_ok)
{
	struct jw j;
	size_t i = 0;
	int err;

	while (i < d->nchg) {
		struct changed *c = &d->chg[i];

		if (list_ok && !switch_listed(d, c->sw)) {
			/* the switch and its settings are gone: nothing to restore */
			out_line_begin(&j, d->out.log, d->t, d->sweep, "forget");
			jw_str(&j, "switch", c->sw);
			jw_u64(&j, "port", c->port);
			jw_str(&j, "reason", "switch gone");
			out_line_end(&j);
			d->chg[i] = d->chg[--d->nchg];
			continue;
		}
		if (c->pending) {
			err = chg_apply(d, c);
			out_line_begin(&j, d->out.log, d->t, d->sweep, "set_retry");
			jw_str(&j, "switch", c->sw);
			jw_u64(&j, "port", c->port);
			jw_u64(&j, "mr", c->want);
			jw_str(&j, "applied", err ? "no" : "yes");
			if (err)
				jw_str(&j, "error", d->be->msg[0] ? d->be->msg : strerror(-err));
			out_line_end(&j);
		}
		i++;
	}
}

static int restore_all(struct dmn *d)
{
	struct jw j;
	int err, rc = 0;
	size_t i;

	for (i = 0; i < d->nchg; i++) {
		struct changed *c = &d->chg[i];

		if (!c->applied || !c->captured)
			continue;
		err = d->be->ops->cc_set_port(d->be, c->sw, c->port, &c->orig);
		out_line_begin(&j, d->out.log, d->t, d->sweep, "restore");
		jw_str(&j, "switch", c->sw);
		jw_u64(&j, "port", c->port);
		jw_bool(&j, "valid", c->orig.valid);
		jw_u64(&j, "threshold", c->orig.threshold);
		jw_u64(&j, "packet_size", c->orig.packet_size);
		jw_u64(&j, "mr", c->orig.marking_rate);
		jw_str(&j, "applied", err ? "no" : "yes");
		if (err) {
			jw_str(&j, "error", d->be->msg[0] ? d->be->msg : strerror(-err));
			rc = 1;
		}
		out_line_end(&j);
	}
	return rc;
}

/* ---------------------------------------------------------------- sweeps */

static void free_snapshot(struct dmn *d)
{
	size_t i;

	for (i = 0; i < d->nsmp; i++)
		free(d->smp_ports[i]);
	free(d->smp);
	free(d->smp_ports);
	d->smp = NULL;
	d->smp_ports = NULL;
	d->nsmp = 0;
}

/* N(s, p) from the topology file, for the switches it describes */
static void topo_peers(struct dmn *d, const char *sw, struct dcms_port_sample *ports,
		       size_t n)
{
	const struct topo_node *node = NULL, *peer;
	unsigned int i, pp;
	size_t k;

	for (i = 0; i < d->topo->nnodes; i++)
		if (d->topo->node[i]->type == TOPO_SWITCH && !strcmp(d->topo->node[i]->ident, sw))
			node = d->topo->node[i];
	if (!node)
		return;
	for (k = 0; k < n; k++) {
		struct dcms_port_sample *s = &ports[k];

		s->peer = DCMS_PEER_NONE;
		s->peer_switch[0] = '\0';
		s->peer_port = 0;
		if (s->port > node->nports)
			continue;
		peer = topo_peer(node, s->port, &pp);
		if (!peer)
			continue;
		if (peer->type == TOPO_HCA) {
			s->peer = DCMS_PEER_CA;
		} else {
			s->peer = DCMS_PEER_SWITCH;
			snprintf(s->peer_switch, sizeof(s->peer_switch), "%s", peer->ident);
			s->peer_port = pp;
		}
	}
}

/* Algorithm 1 line 1: read every switch; false if the switch list failed */
static bool take_snapshot(struct dmn *d, struct dcms_snapshot *snap)
{
	struct be_name *names = NULL;
	bool list_ok = true;
	size_t n = 0, i;
	int err;

	free_snapshot(d);
	err = d->be->ops->switches(d->be, &names, &n);
	if (err) {
		/* the switches of the last list, unreadable this time */
		log_error(d, "read_error", NULL, 0, err);
		list_ok = false;
	} else {
		free(d->sws);
		d->sws = names;
		d->nsws = n;
	}
	d->smp = calloc(d->nsws ? d->nsws : 1, sizeof(*d->smp));
	d->smp_ports = calloc(d->nsws ? d->nsws : 1, sizeof(*d->smp_ports));
	if (!d->smp || !d->smp_ports) {
		free_snapshot(d);
		snap->sw = NULL;
		snap->nsw = 0;
		return false;
	}
	for (i = 0; i < d->nsws; i++) {
		struct dcms_switch_sample *s = &d->smp[d->nsmp];
		struct dcms_port_sample *ports = NULL;
		size_t np = 0;

		snprintf(s->name, sizeof(s->name), "%s", d->sws[i].s);
		err = list_ok ? d->be->ops->read_ports(d->be, d->sws[i].s, &ports, &np) : -EAGAIN;
		if (err == -ENOENT || err == -ENODEV) {
			continue;	/* gone since the list was read */
		} else if (err) {
			if (list_ok)
				log_error(d, "read_error", d->sws[i].s, 0, err);
			s->readable = false;
		} else {
			if (d->topo)
				topo_peers(d, d->sws[i].s, ports, np);
			s->readable = true;
			s->port = ports;
			s->nports = np;
		}
		d->smp_ports[d->nsmp++] = ports;
	}
	snap->sw = d->smp;
	snap->nsw = d->nsmp;
	return list_ok;
}

static void csv_header(struct dmn *d)
{
	unsigned int i;

	fprintf(d->out.csv, "t,elapsed");
	for (i = 0; i < d->conf->ncsv_ports; i++) {
		const struct conf_port *p = &d->conf->csv_ports[i];

		fprintf(d->out.csv, ",%s/%u:dW,%s/%u:dD,%s/%u:dC,%s/%u:mr", p->sw, p->port,
			p->sw, p->port, p->sw, p->port, p->sw, p->port);
	}
	fprintf(d->out.csv, "\n");
}

/* The effective Marking_Rate of the CSV ports, one cc-get per switch */
static void csv_read_mr(struct dmn *d)
{
	struct be_switch_cc *cc = malloc(sizeof(*cc));
	unsigned int i, k;

	for (i = 0; i < d->conf->ncsv_ports; i++)
		d->csv_mr_valid[i] = false;
	if (!cc)
		return;
	for (i = 0; i < d->conf->ncsv_ports; i++) {
		const struct conf_port *p = &d->conf->csv_ports[i];

		if (d->csv_mr_valid[i])
			continue;
		if (d->be->ops->cc_get(d->be, p->sw, cc))
			continue;
		for (k = i; k < d->conf->ncsv_ports; k++) {
			const struct conf_port *q = &d->conf->csv_ports[k];

			if (strcmp(q->sw, p->sw) || q->port > cc->nports)
				continue;
			d->csv_mr[k] = be_effective_mr(cc, q->port);
			d->csv_mr_valid[k] = true;
		}
	}
	free(cc);
}

static void csv_row(struct dmn *d, double elapsed)
{
	struct dcms_port_view v;
	unsigned int i;

	csv_read_mr(d);
	fprintf(d->out.csv, "%.6f,%.6f", d->t, elapsed);
	for (i = 0; i < d->conf->ncsv_ports; i++) {
		const struct conf_port *p = &d->conf->csv_ports[i];

		if (dcms_port_view(d->algo, p->sw, p->port, &v) && v.deltas.valid)
			fprintf(d->out.csv, ",%llu,%llu,%llu", (unsigned long long)v.deltas.dw,
				(unsigned long long)v.deltas.dd, (unsigned long long)v.deltas.dc);
		else
			fprintf(d->out.csv, ",,,");
		if (d->csv_mr_valid[i])
			fprintf(d->out.csv, ",%u", d->csv_mr[i]);
		else
			fprintf(d->out.csv, ",");
	}
	fprintf(d->out.csv, "\n");
	fflush(d->out.csv);
}

static void sweep(struct dmn *d, double elapsed)
{
	const struct dcms_event *ev;
	struct dcms_snapshot snap;
	size_t n, i;
	bool list_ok;
	int ret;

	d->sweep++;
	list_ok = take_snapshot(d, &snap);
	retry_pending(d, list_ok);
	ret = dcms_sweep(d->algo, &snap);
	if (ret < 0) {
		log_error(d, "sweep_error", NULL, 0, ret);
		return;
	}
	ev = dcms_events(d->algo, &n);
	for (i = 0; i < n; i++) {
		const char *applied = NULL;

		if (ev[i].type == DCMS_EV_SET_LOW || ev[i].type == DCMS_EV_SET_DEFAULT)
			applied = decide_mr(d, ev[i].sw, ev[i].port, ev[i].mr);
		out_event(d->out.log, d->t, d->sweep, &ev[i], &d->conf->par, applied);
	}
	if (d->out.csv)
		csv_row(d, elapsed);
}

/* ---------------------------------------------------------------- the loop */

static int load_topology(struct dmn *d)
{
	struct topo_diag diag;
	int err;

	topo_diag_init(&diag);
	err = topo_parse_file(d->conf->topology, &d->topo, &diag);
	if (err) {
		topo_diag_print(d->err, &diag);
		if (!diag.count)
			fprintf(d->err, "dcms: %s: %s\n", d->conf->topology, strerror(-err));
	}
	topo_diag_free(&diag);
	return err;
}

static int background(const struct conf *conf, FILE *err)
{
	pid_t pid = fork();
	FILE *f;
	int fd;

	if (pid < 0) {
		fprintf(err, "dcms: fork: %s\n", strerror(errno));
		return -errno;
	}
	if (pid)
		_exit(0);
	setsid();
	if (chdir("/"))
		return -errno;
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	if (conf->pidfile) {
		f = fopen(conf->pidfile, "w");
		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	return 0;
}

static void log_stop(struct dmn *d, const char *why)
{
	struct jw j;

	out_line_begin(&j, d->out.log, d->t, d->sweep, "stop");
	jw_str(&j, "reason", why);
	jw_u64(&j, "sweeps", d->sweep);
	jw_fixed(&j, "mono", mono(), OUT_DECIMALS);
	out_line_end(&j);
}

int daemon_run(struct conf *conf, const struct daemon_opts *opts,
	       struct backend *be, FILE *err)
{
	struct dmn dm = { .conf = conf, .opts = opts, .be = be, .err = err };
	struct dmn *d = &dm;
	double period, last, next, now, end = 0;
	const char *why = "?";
	int rc = 0, e, sig;
	sigset_t sigs;

	block_signals(&sigs);
	if (conf->topology && conf->neighbours == CONF_NEIGH_TOPOLOGY && load_topology(d))
		return 1;
	if (conf->time_scale) {
		d->scale = conf->time_scale;
	} else {
		e = be->ops->time_scale(be, &d->scale);
		if (e) {
			fprintf(err, "dcms: cannot read the fabric's time scale: %s%s%s\n",
				strerror(-e), be->msg[0] ? ": " : "", be->msg);
			topo_free(d->topo);
			return 1;
		}
	}
	d->algo = dcms_new(&conf->par);
	d->csv_mr = calloc(conf->ncsv_ports + 1, sizeof(*d->csv_mr));
	d->csv_mr_valid = calloc(conf->ncsv_ports + 1, sizeof(*d->csv_mr_valid));
	if (!d->algo || !d->csv_mr || !d->csv_mr_valid) {
		fprintf(err, "dcms: out of memory\n");
		rc = 1;
		goto out_free;
	}
	if (out_open(&d->out, conf, err)) {
		rc = 1;
		goto out_free;
	}
	if (opts->background && background(conf, err)) {
		rc = 1;
		goto out_close;
	}
	if (d->out.csv)
		csv_header(d);
	log_start(d);

	/* the baseline: sweep 0 has no deltas */
	sweep(d, 0);
	sd_notify_msg("READY=1");
	period = conf->tau_ns / 1e9 * d->scale;
	last = mono();
	next = last + period;
	if (opts->duration > 0)
		end = last + opts->duration * d->scale;
	for (;;) {
		double target = end && end < next ? end : next;
		uint32_t scale;

		sig = wait_until(&sigs, target);
		if (sig == SIGHUP) {
			out_reopen(&d->out, err);
			continue;
		}
		if (sig) {
			why = sig == SIGINT ? "SIGINT" : "SIGTERM";
			break;
		}
		now = mono();
		if (end && now >= end && now < next) {
			why = "duration";
			break;
		}
		d->t += (now - last) / d->scale;
		sweep(d, (now - last) / d->scale);
		last = now;
		/* a late sweep does not make the next ones early */
		next += period;
		if (next < now)
			next = now + period;
		if (opts->once) {
			why = "once";
			break;
		}
		if (end && now >= end) {
			why = "duration";
			break;
		}
		if (!conf->time_scale && !be->ops->time_scale(be, &scale) && scale != d->scale) {
			struct jw j;

			out_line_begin(&j, d->out.log, d->t, d->sweep, "time_scale");
			jw_u64(&j, "old", d->scale);
			jw_u64(&j, "new", scale);
			out_line_end(&j);
			next = now + conf->tau_ns / 1e9 * scale;
			if (end)
				end = now + (end - now) / d->scale * scale;
			d->scale = scale;
			period = conf->tau_ns / 1e9 * scale;
		}
	}
	sd_notify_msg("STOPPING=1");
	rc = restore_all(d);
	log_stop(d, why);
out_close:
	out_close(&d->out);
out_free:
	free_snapshot(d);
	free(d->sws);
	free(d->chg);
	free(d->csv_mr);
	free(d->csv_mr_valid);
	dcms_free(d->algo);
	topo_free(d->topo);
	if (conf->pidfile && opts->background)
		unlink(conf->pidfile);
	return rc;
}
