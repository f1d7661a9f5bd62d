// SPDX-License-Identifier: GPL-2.0
/*
 * The HCA side of the static manager: CACongestionSetting and the
 * CongestionControlTable of rxe devices through sysfs,
 * ROOT/class/infiniband/DEV/ports/1/cc/.
 *
 * The rxe interface (issue 6) is still being written: this follows its
 * state of 2026-11-22, and every file name and format is in ca_apply(), so
 * a change touches nothing else:
 *   port_control   one number (bit 0: per-SL rather than per-QP CCTI)
 *   sl_settings    "sl=N ccti_timer=V ccti_increase=V trigger_threshold=V
 *                  ccti_min=V", one write per SL, only the fields given;
 *                  OpenSM's control_map selects the SLs written
 *   cct            "SHIFT:MULT,..." from entry 0 (CCTI_Limit = entries - 1)
 *   enabled        1, written last, once the settings are in place
 */
#define _GNU_SOURCE
#include "backend.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cc_dir(char *buf, size_t len, const char *root, const char *dev)
{
	int n = snprintf(buf, len, "%s/class/infiniband/%s/ports/1/cc", root, dev);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

bool ca_cc_available(const char *root, const char *dev)
{
	char path[4096];
	struct stat st;

	return !cc_dir(path, sizeof(path), root, dev) && !stat(path, &st) &&
	       S_ISDIR(st.st_mode);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int ca_list(const char *root, struct be_name **names, size_t *n)
{
	size_t cap = 0, cnt = 0;
	struct be_name *v = NULL, *nv;
	char path[4096];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	dir = opendir(path);
	if (!dir) {
		*names = NULL;
		*n = 0;
		return errno == ENOENT ? 0 : -errno;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= BE_NAME_LEN)
			continue;
		if (cnt == cap) {
			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				closedir(dir);
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		snprintf(v[cnt++].s, BE_NAME_LEN, "%s", de->d_name);
	}
	closedir(dir);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_name);
	*names = v;
	*n = cnt;
	return 0;
}

/* Write text to DIR/FILE in one write(2), as sysfs wants it */
static int write_file(const char *dir, const char *file, const char *text,
		      char *msg, size_t msglen)
{
	char path[4352];
	size_t len = strlen(text);
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		return err;
	}
	n = write(fd, text, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	if (err)
		snprintf(msg, msglen, "%s: writing \"%s\": %s", path, text, strerror(-err));
	return err;
}

int ca_apply(const char *root, const char *dev, const struct cc_ca_setting *ca,
	     char *msg, size_t msglen)
{
	static const struct {
		const char *key;
		unsigned int bit;
	} per_sl[] = {
		{ "ccti_timer", CC_CA_SL_TIMER },
		{ "ccti_increase", CC_CA_SL_INCREASE },
		{ "trigger_threshold", CC_CA_SL_TRIGGER },
		{ "ccti_min", CC_CA_SL_MIN },
	};
	char dir[4096], text[CC_CCT_MAX * 12 + 16];
	unsigned int sl, i;
	size_t off;
	int err;

	if (cc_dir(dir, sizeof(dir), root, dev) || !ca_cc_available(root, dev)) {
		snprintf(msg, msglen, "HCA congestion control not available on %s", dev);
		return -EOPNOTSUPP;
	}
	if (ca->set & CC_CA_PORT_CONTROL) {
		snprintf(text, sizeof(text), "%u\n", ca->port_control);
		err = write_file(dir, "port_control", text, msg, msglen);
		if (err)
			return err;
	}
	for (sl = 0; sl < CC_NR_SLS; sl++) {
		const struct cc_ca_entry *e = &ca->sl[sl];
		const unsigned int val[] = {
			e->ccti_timer, e->ccti_increase, e->trigger_threshold, e->ccti_min,
		};

		if (!e->set || ((ca->set & CC_CA_CONTROL_MAP) && !(ca->control_map & 1u << sl)))
			continue;
		off = snprintf(text, sizeof(text), "sl=%u", sl);
		for (i = 0; i < ARRAY_SIZE(per_sl); i++)
			if (e->set & per_sl[i].bit)
				off += snprintf(text + off, sizeof(text) - off, " %s=%u",
						per_sl[i].key, val[i]);
		snprintf(text + off, sizeof(text) - off, "\n");
		err = write_file(dir, "sl_settings", text, msg, msglen);
		if (err)
			return err;
	}
	if (ca->set & CC_CA_CCT) {
		for (i = 0, off = 0; i < ca->cct_len; i++)
			off += snprintf(text + off, sizeof(text) - off, "%s%u:%u", i ? "," : "",
					ca->cct[i].shift, ca->cct[i].multiplier);
		snprintf(text + off, sizeof(text) - off, "\n");
		err = write_file(dir, "cct", text, msg, msglen);
		if (err)
			return err;
	}
	return write_file(dir, "enabled", "1\n", msg, msglen);
}
