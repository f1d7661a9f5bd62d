// SPDX-License-Identifier: GPL-2.0
/*
 * dcms static: a static congestion control manager. Pushes one parameter
 * set, in OpenSM's cc_* vocabulary, to every switch (SwitchCongestionSetting
 * over the backend) and every HCA (CACongestionSetting and the CCT: by MADs
 * where the backend reaches the HCAs, else through rxe's sysfs,
 * ca_sysfs.c), so that an experiment starts from a known configuration.
 */
#define _GNU_SOURCE
#include "dcms.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__printf(4, 5);

static void appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += n;
}

static void mask_hex(const uint8_t *mask, char *buf, size_t len)
{
	size_t i = 0, off = 0;

	while (i < CC_MASK_LEN - 1 && !mask[i])
		i++;
	appendf(buf, len, &off, "0x%x", mask[i]);
	for (i++; i < CC_MASK_LEN; i++)
		appendf(buf, len, &off, "%02x", mask[i]);
}

void ccmgr_describe_sw(const struct cc_sw_setting *s, char *buf, size_t len)
{
	char mask[2 * CC_MASK_LEN + 3];
	size_t off = 0;

	buf[0] = '\0';
	if (s->set & CC_SW_CONTROL_MAP)
		appendf(buf, len, &off, " control_map 0x%x", s->control_map);
	if (s->set & CC_SW_VICTIM_MASK) {
		mask_hex(s->victim_mask, mask, sizeof(mask));
		appendf(buf, len, &off, " victim_mask %s", mask);
	}
	if (s->set & CC_SW_CREDIT_MASK) {
		mask_hex(s->credit_mask, mask, sizeof(mask));
		appendf(buf, len, &off, " credit_mask %s", mask);
	}
	if (s->set & CC_SW_THRESHOLD)
		appendf(buf, len, &off, " threshold %u", s->threshold);
	if (s->set & CC_SW_PACKET_SIZE)
		appendf(buf, len, &off, " packet_size %u", s->packet_size);
	if (s->set & CC_SW_CS_THRESHOLD)
		appendf(buf, len, &off, " cs_threshold %u", s->cs_threshold);
	if (s->set & CC_SW_CS_RETURN_DELAY)
		appendf(buf, len, &off, " cs_return_delay %u:%u", s->cs_return_delay >> 14,
			s->cs_return_delay & 0x3fff);
	if (s->set & CC_SW_MARKING_RATE)
		appendf(buf, len, &off, " marking_rate %u", s->marking_rate);
	if (off)
		memmove(buf, buf + 1, strlen(buf));
}

/* "a,b,c" into names; 0 or -EINVAL */
static int split_list(const char *s, struct be_name **names, size_t *n)
{
	size_t cnt = 1, i = 0;
	const char *p;

	for (p = s; *p; p++)
		cnt += *p == ',';
	*names = calloc(cnt, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	for (p = s;; i++) {
		size_t len = strcspn(p, ",");

		if (!len || len >= BE_NAME_LEN) {
			free(*names);
			*names = NULL;
			return -EINVAL;
		}
		memcpy((*names)[i].s, p, len);
		(*names)[i].s[len] = '\0';
		p += len;
		if (!*p)
			break;
		p++;
	}
	*n = i + 1;
	return 0;
}

static int apply_switches(const struct conf *conf, const struct ccmgr_opts *opts,
			  struct backend *be, FILE *out, FILE *err)
{
	char what[512];
	struct be_name *sw = NULL;
	size_t n = 0, i;
	int rc = 0, e;

	ccmgr_describe_sw(&conf->sw, what, sizeof(what));
	if (!be) {
		fprintf(err, "dcms static: no switch backend\n");
		return 1;
	}
	e = opts->switches ? split_list(opts->switches, &sw, &n) :
			     be->ops->switches(be, &sw, &n);
	if (e) {
		fprintf(err, "dcms static: %s: %s%s%s\n",
			opts->switches ? "bad --switches list" : "cannot list the switches",
			strerror(-e), be->msg[0] ? ": " : "", be->msg);
		return 1;
	}
	if (!n)
		fprintf(err, "dcms static: no switch to configure\n");
	for (i = 0; i < n; i++) {
		if (opts->dry_run) {
			fprintf(out, "switch %s: would set %s\n", sw[i].s, what);
			continue;
		}
		e = be->ops->cc_set_switch(be, sw[i].s, &conf->sw);
		if (e) {
			fprintf(err, "dcms static: switch %s: %s%s%s\n", sw[i].s, strerror(-e),
				be->msg[0] ? ": " : "", be->msg);
			rc = 1;
			continue;
		}
		fprintf(out, "switch %s: %s\n", sw[i].s, what);
	}
	free(sw);
	return rc;
}

/*
 * One CA port over the backend. One without a CC agent is skipped, as
 * OpenSM does, unless it was asked for by name.
 */
static int set_ca(const struct conf *conf, const struct ccmgr_opts *opts, struct backend *be,
		  const struct be_ca *ca, bool named, FILE *out, FILE *err)
{
	unsigned int blocks = be_cct_blocks(conf->ca.cct_len);
	bool skip;
	int e;

	if (opts->dry_run) {
		fprintf(out,
			"hca %s (LID %u): would set CACongestionSetting (Port_Control 0x%x, Control_Map 0x%04x) and %u CCT block%s\n",
			ca->name, ca->lid, conf->ca.port_control, be_ca_control_map(&conf->ca),
			blocks, blocks == 1 ? "" : "s");
		return 0;
	}
	e = be->ops->cc_set_ca(be, ca, &conf->ca);
	if (!e) {
		fprintf(out, "hca %s (LID %u): CACongestionSetting and %u CCT block%s set\n",
			ca->name, ca->lid, blocks, blocks == 1 ? "" : "s");
		return 0;
	}
	skip = e == -EOPNOTSUPP && !named;
	if (be->msg[0])
		fprintf(err, "dcms static: %s", be->msg);
	else
		fprintf(err, "dcms static: hca %s (LID %u): %s", ca->name, ca->lid, strerror(-e));
	fprintf(err, "%s\n", skip ? ", skipped" : "");
	return skip ? 0 : 1;
}

/* By CC MADs: every CA port of the discovery, or those of the CAs named */
static int apply_cas_mad(const struct conf *conf, const struct ccmgr_opts *opts,
			 struct backend *be, FILE *out, FILE *err)
{
	struct be_name *want = NULL;
	struct be_ca *ca = NULL;
	size_t n = 0, nwant = 0, i, j;
	int rc = 0, e;

	e = opts->ca_devices ? split_list(opts->ca_devices, &want, &nwant) : 0;
	if (e) {
		fprintf(err, "dcms static: bad --ca-devices list: %s\n", strerror(-e));
		return 1;
	}
	e = be->ops->cas(be, &ca, &n);
	if (e) {
		fprintf(err, "dcms static: cannot list the HCAs: %s%s%s\n", strerror(-e),
			be->msg[0] ? ": " : "", be->msg);
		free(want);
		return 1;
	}
	if (!want) {
		if (!n)
			fprintf(err, "dcms static: no HCA to configure\n");
		for (i = 0; i < n; i++)
			rc |= set_ca(conf, opts, be, &ca[i], false, out, err);
	}
	/* a name is a node's: every port of its HCAs */
	for (j = 0; j < nwant; j++) {
		bool found = false;

		for (i = 0; i < n; i++) {
			if (strcmp(ca[i].name, want[j].s))
				continue;
			found = true;
			rc |= set_ca(conf, opts, be, &ca[i], true, out, err);
		}
		if (!found) {
			fprintf(err, "dcms static: hca %s: not in the fabric discovery\n",
				want[j].s);
			rc = 1;
		}
	}
	free(ca);
	free(want);
	return rc;
}

/* rxe devices by sysfs, where the backend does not reach the HCAs */
static int apply_cas_sysfs(const struct conf *conf, const struct ccmgr_opts *opts,
			   FILE *out, FILE *err)
{
	const char *root = opts->sysfs_root ? opts->sysfs_root : CA_SYSFS_ROOT;
	struct be_name *dev = NULL;
	char msg[512];
	size_t n = 0, i;
	int rc = 0, e;

	e = opts->ca_devices ? split_list(opts->ca_devices, &dev, &n) :
			       ca_list(root, &dev, &n);
	if (e) {
		fprintf(err, "dcms static: %s: %s\n",
			opts->ca_devices ? "bad --ca-devices list" : "cannot list the rdma devices",
			strerror(-e));
		return 1;
	}
	if (!n) {
		fprintf(err, "dcms static: %s: no rdma device in %s/class/infiniband\n",
			"HCA congestion control not available", root);
		free(dev);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (!ca_cc_available(root, dev[i].s)) {
			fprintf(err, "dcms static: HCA congestion control not available on %s\n",
				dev[i].s);
			rc = 1;
			continue;
		}
		if (opts->dry_run) {
			fprintf(out, "hca %s: would set the CA settings\n", dev[i].s);
			continue;
		}
		e = ca_apply(root, dev[i].s, &conf->ca, msg, sizeof(msg));
		if (e) {
			fprintf(err, "dcms static: hca %s: %s\n", dev[i].s, msg);
			rc = 1;
			continue;
		}
		fprintf(out, "hca %s: CA congestion settings applied\n", dev[i].s);
	}
	free(dev);
	return rc;
}

static int apply_cas(const struct conf *conf, const struct ccmgr_opts *opts,
		     struct backend *be, FILE *out, FILE *err)
{
	if (be && be->ops->cc_set_ca && be->ops->cas)
		return apply_cas_mad(conf, opts, be, out, err);
	return apply_cas_sysfs(conf, opts, out, err);
}

int ccmgr_run(const struct conf *conf, const struct ccmgr_opts *opts,
	      struct backend *be, FILE *out, FILE *err)
{
	int rc = 0;

	if (!conf->cc_enable) {
		fprintf(out, "congestion_control FALSE: nothing applied\n");
		return 0;
	}
	if (!conf->sw.set && !conf_has_ca(conf)) {
		fprintf(err, "dcms static: no cc_* setting in the configuration\n");
		return 1;
	}
	if (conf->sw.set && apply_switches(conf, opts, be, out, err))
		rc = 1;
	if (conf_has_ca(conf) && !opts->no_ca && apply_cas(conf, opts, be, out, err))
		rc = 1;
	return rc;
}
