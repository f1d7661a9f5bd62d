// SPDX-License-Identifier: GPL-2.0
/*
 * ibswctl hca clock: put the congestion control of the patched rxe on the
 * fabric's clock. rxe turns CCTI_Timer and the injection rate delays into
 * wall-clock time with its own copy of the time scale and of its link's
 * data rate (ports/1/cc/time_scale and link_rate in sysfs), as it cannot
 * see ibsw. The fabric builder sets both for every host it creates, and
 * fabric set scale passes a new scale on to every such device. A stock
 * rxe has no ports/1/cc: nothing to do there.
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
		"Usage: ibswctl hca clock DEV [scale N] [rate RATE]\n"
		"DEV: an rdma device of the patched rxe. Sets its congestion control's time\n"
		"scale (default: the fabric's) and link rate (RATE as for link add, or bit/s).\n");
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

/**
 * ctl_hca_sync_scale() - a new time scale for every patched rxe
 * @ctl: the tool
 * @scale: the fabric's time scale
 *
 * The devices of every host namespace are in sysfs (rdma's shared netns
 * mode, the default).
 *
 * Return: the number of devices set, or -errno of the first failure
 * (said on ctl->err); the others are still set.
 */
int ctl_hca_sync_scale(struct ctl *ctl, uint32_t scale)
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

static int hca_clock(struct ctl *ctl, int argc, char **argv)
{
	uint32_t scale = 0, width, speed;
	uint64_t rate_bps = 0;
	char *end;
	int i;

	if (argc < 1 || !*argv[0] || strchr(argv[0], '/') || !strcmp(argv[0], "..")) {
		ctl_err(ctl, "hca clock: expected an rdma device name");
		usage(ctl->err);
		return CTL_USAGE;
	}
	for (i = 1; i < argc; i += 2) {
		const char *key = argv[i], *val;

		if (i + 1 >= argc) {
			ctl_err(ctl, "hca clock: \"%s\" needs a value", key);
			return CTL_USAGE;
		}
		val = argv[i + 1];
		if (ctl_matches(key, "scale")) {
			if (ctl_parse_u32(ctl, "time scale", val, 1, IBSW_TIME_SCALE_MAX, &scale))
				return CTL_USAGE;
		} else if (ctl_matches(key, "rate")) {
			errno = 0;
			rate_bps = strtoull(val, &end, 10);
			if (*val >= '0' && *val <= '9' && !*end && !errno && rate_bps)
				continue;
			if (ctl_parse_rate(ctl, val, &width, &speed))
				return CTL_USAGE;
			rate_bps = ctl_rate_bps(width, speed);
		} else {
			ctl_err(ctl, "hca clock: unknown argument \"%s\"", key);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	if (!has_cc(ctl, argv[0])) {
		if (ctl->details)
			fprintf(ctl->out, "%s: no ports/1/cc (a stock rxe?): nothing to set\n",
				argv[0]);
		return CTL_OK;
	}
	if (!scale) {
		scale = ctl_fabric_scale(ctl);
		if (!scale) {
			ctl_err(ctl, "hca clock: cannot read the fabric's time scale (ibsw loaded?)");
			return CTL_FAIL;
		}
	}
	/* the link rate stays as it is unless given */
	if (cc_write(ctl, argv[0], "time_scale", scale) ||
	    (rate_bps && cc_write(ctl, argv[0], "link_rate", rate_bps)))
		return CTL_FAIL;
	return CTL_OK;
}

int cmd_hca(struct ctl *ctl, int argc, char **argv)
{
	static const struct ctl_cmd cmds[] = {
		{ "clock", hca_clock },
	};

	if (argc < 1) {
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, "hca", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
