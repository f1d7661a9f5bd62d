// SPDX-License-Identifier: GPL-2.0
/*
 * The rdma subsystem's network namespace mode while a fabric is up.
 *
 * ib_core has one mode for the whole system. In the shared mode (its
 * default) every rdma device is seen in every network namespace, through a
 * compat device with the whole sysfs tree of the device in each of them: a
 * fabric of N hosts, each a namespace with its own rxe device, makes
 * N * (N + 1) such trees. In the exclusive mode a device is seen only in
 * its own namespace (the patched rxe binds a device to its netdev's), so
 * every host has one tree and sees its own device only. The mode can
 * change only while no namespace but the initial one exists.
 *
 * "fabric up ... rdma-netns MODE" switches before it makes any namespace
 * and saves the mode it replaced in IBSWCTL_RDMA_NETNS_PATH. The file
 * belongs to the system, like the mode, not to one fabric: fabrics with
 * other descriptions may be up at the same time, and whichever goes down
 * last, from whatever process, finds it and restores the mode.
 */
#define _GNU_SOURCE
#include "ibswctl.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RESTORE_POLL_MS	50

const char *ctl_rdma_netns_name(int mode)
{
	return mode == CTL_RDMA_SHARED ? "shared" : "exclusive";
}

int ctl_rdma_netns_parse(const char *s)
{
	if (!strcmp(s, "shared"))
		return CTL_RDMA_SHARED;
	if (!strcmp(s, "exclusive"))
		return CTL_RDMA_EXCLUSIVE;
	return -EINVAL;
}

int ctl_rdma_netns_mode(struct ctl *ctl)
{
	int mode = ctl->ops->rdma_netns(ctl, -1);

	return mode < 0 ? CTL_RDMA_SHARED : mode;
}

/* The file holds one line, the mode's name */
int ctl_rdma_netns_saved(struct ctl *ctl)
{
	FILE *f = fopen(ctl->rdma_netns_path, "r");
	char buf[32];
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return ctl_rdma_netns_parse(buf);
}

static void fill_mode(FILE *f, const void *mode)
{
	fprintf(f, "%s\n", ctl_rdma_netns_name(*(const int *)mode));
}

/* Written atomically, as the fabric description is */
static int save(struct ctl *ctl, int mode)
{
	return ctl_write_atomic(ctl, "the rdma netns mode to restore", ctl->rdma_netns_path,
				fill_mode, &mode);
}

/* How many namespaces "ip netns" knows: other fabrics, the user's */
static unsigned int named_netns(struct ctl *ctl)
{
	DIR *d = opendir(ctl->netns_dir);
	unsigned int n = 0;
	struct dirent *de;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Set the mode. It cannot change while a namespace other than the initial
 * one exists, and those deleted by name may still be dismantled: while no
 * namespace is left by name, try again for up to ctl->rdma_netns_wait_ms.
 * The mode, or -errno; *named: the namespaces by name when it was -EBUSY.
 */
static int set_waiting(struct ctl *ctl, int mode, unsigned int *named)
{
	unsigned int waited = 0;
	int err;

	*named = 0;
	for (;;) {
		err = ctl->ops->rdma_netns(ctl, mode);
		if (err != -EBUSY)
			return err;
		*named = named_netns(ctl);
		if (*named || waited >= ctl->rdma_netns_wait_ms)
			return err;
		sleep_ms(RESTORE_POLL_MS);
		waited += RESTORE_POLL_MS;
	}
}

int ctl_rdma_netns_enter(struct ctl *ctl, int mode)
{
	unsigned int named;
	int cur, err;

	cur = ctl->ops->rdma_netns(ctl, -1);
	if (cur < 0) {
		ctl_err(ctl, "cannot read the rdma netns mode: %s (is ib_core loaded?)",
			strerror(-cur));
		return -1;
	}
	if (cur == mode)
		return 0;
	err = set_waiting(ctl, mode, &named);
	if (err == -EBUSY) {
		ctl_err(ctl, "cannot switch rdma to the %s netns mode: network namespaces other than the initial one exist (ip netns list; lsns -t net)",
			ctl_rdma_netns_name(mode));
		return -1;
	}
	if (err < 0) {
		ctl_err(ctl, "cannot switch rdma to the %s netns mode: %s",
			ctl_rdma_netns_name(mode), strerror(-err));
		return -1;
	}
	if (save(ctl, cur)) {
		ctl->ops->rdma_netns(ctl, cur);
		return -1;
	}
	return 1;
}

int ctl_rdma_netns_restore(struct ctl *ctl)
{
	unsigned int named;
	int saved, cur, err;

	saved = ctl_rdma_netns_saved(ctl);
	if (saved == -ENOENT)
		return 0;
	if (saved < 0) {
		ctl_err(ctl, "%s: %s: not an rdma netns mode to restore", ctl->rdma_netns_path,
			strerror(-saved));
		return -1;
	}
	cur = ctl->ops->rdma_netns(ctl, -1);
	/* without ib_core the mode went with it: its next load starts afresh */
	if (cur < 0 || cur == saved)
		goto done;
	err = set_waiting(ctl, saved, &named);
	if (err >= 0)
		goto done;
	if (err == -EBUSY && named) {
		/* another fabric's, or the user's: the last fabric down restores */
		fprintf(ctl->err,
			"ibswctl: rdma stays in the %s netns mode while network namespaces exist (%u in %s); the fabric down that finds none restores the %s mode\n",
			ctl_rdma_netns_name(cur), named, ctl->netns_dir,
			ctl_rdma_netns_name(saved));
		return 0;
	}
	ctl_err(ctl, "cannot restore the %s rdma netns mode: %s; when no namespace is left: rdma system set netns %s; rm %s",
		ctl_rdma_netns_name(saved),
		err == -EBUSY ? "network namespaces still exist (lsns -t net)" : strerror(-err),
		ctl_rdma_netns_name(saved), ctl->rdma_netns_path);
	return -1;
done:
	if (unlink(ctl->rdma_netns_path) && errno != ENOENT) {
		ctl_err(ctl, "cannot remove %s: %s", ctl->rdma_netns_path, strerror(errno));
		return -1;
	}
	return 0;
}

static int has_dev(struct ctl *ctl, void *arg)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/infiniband/%s", ctl->sys_root, (const char *)arg);
	return ctl->ops->exists(ctl, path);
}

int ctl_netns_has_rdma_dev(struct ctl *ctl, const char *ns, const char *dev)
{
	return ctl->ops->in_netns(ctl, ns, has_dev, (void *)dev);
}
