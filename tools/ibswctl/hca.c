// SPDX-License-Identifier: GPL-2.0
/*
 * ibswctl hca clock: put the congestion control of the patched rxe on the
 * fabric's clock. rxe turns CCTI_Timer and the injection rate delays into
 * wall-clock time with its own copy of the time scale and of its link's
 * data rate (ports/1/cc/time_scale and link_rate in sysfs), as it cannot
 * see ibsw. The fabric builder sets both for every host it creates, and
 * fabric set scale passes a new scale on to every such device. A stock
 * rxe has no ports/1/cc: nothing to do there. In rdma's exclusive netns
 * mode a host's device is in sysfs only as its namespace sees it, so
 * these files are written from inside the namespace.
 */
#include "ibswctl.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl hca clock DEV [scale N] [rate RATE] [netns NS]\n"
		"       ibswctl hca desc DEV TEXT [netns NS]\n"
		"DEV: an rdma device of the patched rxe. Sets its congestion control's time\n"
		"scale (default: the fabric's) and link rate (RATE as for link add, or bit/s).\n"
		"desc: DEV's NodeDescription (node_desc), at most 64 bytes, as rdma-ndd sets it\n"
		"(\"HOST DEV\"); DEV may be any rdma device, a management HCA too.\n"
		"NS: the namespace of DEV's host, where rdma's exclusive netns mode shows it.\n");
}

/* ports/1/cc of an rdma device, or its file name */
static void cc_path(const struct ctl *ctl, char *buf, size_t len, const char *dev,
		    const char *file)
{
	snprintf(buf, len, "%s/class/infiniband/%s/ports/1/cc%s%s", ctl->sys_root, dev,
		 file ? "/" : "", file ? file : "");
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) == EOF)
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int cc_write(struct ctl *ctl, const char *dev, const char *file, uint64_t val)
{
	char path[PATH_MAX], text[32];
	int err;

	cc_path(ctl, path, sizeof(path), dev, file);
	snprintf(text, sizeof(text), "%" PRIu64 "\n", val);
	err = write_text(path, text);
	if (err)
		ctl_err(ctl, "%s <- %" PRIu64 ": %s", path, val, strerror(-err));
	return err;
}

static bool has_cc(const struct ctl *ctl, const char *dev)
{
	char path[PATH_MAX];

	cc_path(ctl, path, sizeof(path), dev, "time_scale");
	return !access(path, F_OK);
}

/* The patched rxe devices of the sysfs at ctl->sys_root: the count, or -errno */
static int sync_scale(struct ctl *ctl, uint32_t scale)
{
	char dir[PATH_MAX];
	struct dirent *de;
	int n = 0, first = 0, err;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/infiniband", ctl->sys_root);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !has_cc(ctl, de->d_name))
			continue;
		err = cc_write(ctl, de->d_name, "time_scale", scale);
		if (err && !first)
			first = err;
		if (!err)
			n++;
	}
	closedir(d);
	return first ? first : n;
}

/* in a namespace: exit status 0, or 1 for a failure */
static int sync_scale_fn(struct ctl *ctl, void *arg)
{
	return sync_scale(ctl, *(uint32_t *)arg) < 0;
}

/**
 * ctl_hca_sync_scale() - a new time scale for every patched rxe
 * @ctl: the tool
 * @scale: the fabric's time scale
 *
 * In rdma's shared netns mode (the default) the devices of every host
 * namespace are in the initial namespace's sysfs. In the exclusive mode
 * each is in its namespace's only: every namespace "ip netns" knows is
 * looked at too.
 *
 * Return: 0 or more, or -errno of the first failure (said on ctl->err);
 * the others are still set.
 */
int ctl_hca_sync_scale(struct ctl *ctl, uint32_t scale)
{
	int ret = sync_scale(ctl, scale), rc;
	struct dirent *de;
	DIR *d;

	if (ctl_rdma_netns_mode(ctl) != CTL_RDMA_EXCLUSIVE)
		return ret;
	d = opendir(ctl->netns_dir);
	if (!d)
		return ret;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		rc = ctl->ops->in_netns(ctl, de->d_name, sync_scale_fn, &scale);
		/* a namespace that went meanwhile had nothing to set */
		if (rc && rc != -ENOENT && ret >= 0)
			ret = rc < 0 ? rc : -EIO;
	}
	closedir(d);
	return ret;
}

struct clock_args {
	const char *dev;
	uint32_t scale;
	uint64_t rate_bps;
};

enum { CLOCK_SET, CLOCK_FAILED, CLOCK_NO_CC };

static int clock_set(struct ctl *ctl, void *arg)
{
	const struct clock_args *a = arg;

	if (!has_cc(ctl, a->dev))
		return CLOCK_NO_CC;
	/* the link rate stays as it is unless given */
	if (cc_write(ctl, a->dev, "time_scale", a->scale) ||
	    (a->rate_bps && cc_write(ctl, a->dev, "link_rate", a->rate_bps)))
		return CLOCK_FAILED;
	return CLOCK_SET;
}

static bool dev_here(const struct ctl *ctl, const char *dev)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/infiniband/%s", ctl->sys_root, dev);
	return !access(path, F_OK);
}

/* hca clock ... netns NS, for a device the initial namespace does not see */
static int clock_in_netns(struct ctl *ctl, const char *netns, struct clock_args *a)
{
	int rc;

	if (!a->scale) {
		a->scale = ctl_fabric_scale(ctl);
		if (!a->scale) {
			ctl_err(ctl, "hca clock: cannot read the fabric's time scale (ibsw loaded?)");
			return CTL_FAIL;
		}
	}
	rc = ctl->ops->in_netns(ctl, netns, clock_set, a);
	if (rc < 0) {
		ctl_err(ctl, "hca clock: cannot enter network namespace %s: %s", netns,
			strerror(-rc));
		return CTL_FAIL;
	}
	if (rc == CLOCK_NO_CC) {
		if (ctl->details)
			fprintf(ctl->out,
				"%s: no ports/1/cc in %s (a stock rxe?): nothing to set\n",
				a->dev, netns);
		return CTL_OK;
	}
	return rc == CLOCK_SET ? CTL_OK : CTL_FAIL;
}

static int hca_clock(struct ctl *ctl, int argc, char **argv)
{
	struct clock_args a = { 0 };
	const char *netns = NULL;
	uint32_t width, speed;
	char *end;
	int i;

	if (argc < 1 || !*argv[0] || strchr(argv[0], '/') || !strcmp(argv[0], "..")) {
		ctl_err(ctl, "hca clock: expected an rdma device name");
		usage(ctl->err);
		return CTL_USAGE;
	}
	a.dev = argv[0];
	for (i = 1; i < argc; i += 2) {
		const char *key = argv[i], *val;

		if (i + 1 >= argc) {
			ctl_err(ctl, "hca clock: \"%s\" needs a value", key);
			return CTL_USAGE;
		}
		val = argv[i + 1];
		if (ctl_matches(key, "scale")) {
			if (ctl_parse_u32(ctl, "time scale", val, 1, IBSW_TIME_SCALE_MAX, &a.scale))
				return CTL_USAGE;
		} else if (ctl_matches(key, "rate")) {
			errno = 0;
			a.rate_bps = strtoull(val, &end, 10);
			if (*val >= '0' && *val <= '9' && !*end && !errno && a.rate_bps)
				continue;
			if (ctl_parse_rate(ctl, val, &width, &speed))
				return CTL_USAGE;
			a.rate_bps = ctl_rate_bps(width, speed);
		} else if (ctl_matches(key, "netns")) {
			if (!*val || strchr(val, '/') || !strcmp(val, ".") || !strcmp(val, "..")) {
				ctl_err(ctl, "hca clock: bad namespace name \"%s\"", val);
				return CTL_USAGE;
			}
			netns = val;
		} else {
			ctl_err(ctl, "hca clock: unknown argument \"%s\"", key);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	/* only the exclusive mode hides a device from the initial namespace */
	if (netns && !dev_here(ctl, a.dev) && ctl_rdma_netns_mode(ctl) == CTL_RDMA_EXCLUSIVE)
		return clock_in_netns(ctl, netns, &a);
	if (!has_cc(ctl, a.dev)) {
		if (ctl->details)
			fprintf(ctl->out, "%s: no ports/1/cc (a stock rxe?): nothing to set\n",
				a.dev);
		return CTL_OK;
	}
	if (!a.scale) {
		a.scale = ctl_fabric_scale(ctl);
		if (!a.scale) {
			ctl_err(ctl, "hca clock: cannot read the fabric's time scale (ibsw loaded?)");
			return CTL_FAIL;
		}
	}
	return clock_set(ctl, &a) == CLOCK_SET ? CTL_OK : CTL_FAIL;
}

struct desc_args {
	const char *dev;
	const char *text;
};

static int desc_set(struct ctl *ctl, void *arg)
{
	const struct desc_args *a = arg;
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/node_desc", ctl->sys_root, a->dev);
	err = ctl->ops->write_file(ctl, path, a->text);
	if (err)
		ctl_err(ctl, "hca desc: %s <- \"%s\": %s", path, a->text, strerror(-err));
	return err ? CTL_FAIL : CTL_OK;
}

/* hca desc DEV TEXT [netns NS]: the NodeDescription an SMA reports */
static int hca_desc(struct ctl *ctl, int argc, char **argv)
{
	struct desc_args a;
	const char *netns = NULL;
	int rc;

	if (argc != 2 && !(argc == 4 && ctl_matches(argv[2], "netns"))) {
		ctl_err(ctl, "hca desc: expected DEV TEXT [netns NS]");
		usage(ctl->err);
		return CTL_USAGE;
	}
	a.dev = argv[0];
	a.text = argv[1];
	if (!*a.dev || strchr(a.dev, '/') || !strcmp(a.dev, ".") || !strcmp(a.dev, "..")) {
		ctl_err(ctl, "hca desc: bad rdma device name \"%s\"", a.dev);
		return CTL_USAGE;
	}
	/* IB_DEVICE_NODE_DESC_MAX; the kernel would cut it silently */
	if (strlen(a.text) > 64 || strchr(a.text, '\n')) {
		ctl_err(ctl, "hca desc: \"%s\": at most 64 bytes, one line", a.text);
		return CTL_USAGE;
	}
	if (argc == 4) {
		netns = argv[3];
		if (!*netns || strchr(netns, '/') || !strcmp(netns, ".") || !strcmp(netns, "..")) {
			ctl_err(ctl, "hca desc: bad namespace name \"%s\"", netns);
			return CTL_USAGE;
		}
	}
	if (!netns || dev_here(ctl, a.dev) || ctl_rdma_netns_mode(ctl) != CTL_RDMA_EXCLUSIVE)
		return desc_set(ctl, &a);
	rc = ctl->ops->in_netns(ctl, netns, desc_set, &a);
	if (rc < 0) {
		ctl_err(ctl, "hca desc: cannot enter network namespace %s: %s", netns,
			strerror(-rc));
		return CTL_FAIL;
	}
	return rc ? CTL_FAIL : CTL_OK;
}

int cmd_hca(struct ctl *ctl, int argc, char **argv)
{
	static const struct ctl_cmd cmds[] = {
		{ "clock", hca_clock },
		{ "desc", hca_desc },
	};

	if (argc < 1) {
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, "hca", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
