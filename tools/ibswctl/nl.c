// SPDX-License-Identifier: GPL-2.0
/*
 * The real I/O of ibswctl: the generic netlink socket (tools/lib's genl.c,
 * opened on first use), running programs, opening namespaces. Kept thin:
 * everything else is tested with fakes of these.
 */
#define _GNU_SOURCE
#include "ibswctl.h"
#include "genl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/netlink.h>

#define RECV_BUF_SIZE	(1024 * 1024)	/* an lft-get reply is 48 KiB and more */

/* A reply callback of ibswctl's kind, called through the library's */
struct reply_call {
	struct ctl *ctl;
	ctl_msg_cb cb;
	void *data;
};

static int reply_cb(const struct nlmsghdr *nlh, void *data)
{
	struct reply_call *c = data;

	return c->cb(c->ctl, nlh, c->data);
}

static int nl_open(struct ctl *ctl)
{
	struct ibsw_genl *g;
	int err;

	if (ctl->priv)
		return 0;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	err = ibsw_genl_open(g, RECV_BUF_SIZE);
	if (!err) {
		ctl->priv = g;
		return 0;
	}
	free(g);
	ctl->reported = true;
	if (err == -ENOENT) {
		/* no ibsw family, so no switch either (fabric down relies on it) */
		ctl_err(ctl, "generic netlink family \"%s\" not found: is the ibsw module loaded?",
			IBSW_FAMILY_NAME);
		return err;
	}
	ctl_err(ctl, "cannot open the generic netlink socket: %s", strerror(-err));
	return -EPROTO;
}

/* Could not talk to the kernel at all: reported already (ctl->reported) */
static int nl_xfer(struct ctl *ctl, struct nlmsghdr *req, ctl_msg_cb cb, void *data)
{
	struct reply_call call = { ctl, cb, data };
	struct ibsw_genl *g;
	int err = nl_open(ctl);

	if (err)
		return err;
	g = ctl->priv;
	req->nlmsg_type = g->family;
	err = ibsw_genl_xfer(g, req, cb ? reply_cb : NULL, &call);
	if (g->ext_msg[0])
		snprintf(ctl->ext_msg, sizeof(ctl->ext_msg), "%s", g->ext_msg);
	if (g->ext_miss_type)
		ctl->ext_miss_type = g->ext_miss_type;
	return err;
}

static int nl_listen(struct ctl *ctl, ctl_msg_cb cb, void *data)
{
	struct ibsw_genl *g;
	struct nlmsghdr *nlh;
	int err = nl_open(ctl), grp, left;
	ssize_t n;

	if (err)
		return err;
	g = ctl->priv;
	if (!g->mcgrp) {
		ctl_err(ctl, "the ibsw family has no \"%s\" group", IBSW_MCGRP_MONITOR);
		return -EPROTO;
	}
	grp = g->mcgrp;
	if (mnl_socket_setsockopt(g->sock, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		return -errno;
	/* until a signal ends the program: each event is flushed when printed */
	for (;;) {
		n = mnl_socket_recvfrom(g->sock, g->rbuf, g->rbuf_size);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				ctl_err(ctl, "notifications lost (receive buffer overrun)");
				continue;
			}
			return -errno;
		}
		left = n;
		for (nlh = (struct nlmsghdr *)g->rbuf; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_type != g->family)
				continue;
			err = cb(ctl, nlh, data);
			if (err)
				return err;
		}
	}
}

static int sys_run(struct ctl *ctl, char *const argv[])
{
	int status;
	pid_t pid;

	fflush(ctl->out);
	fflush(ctl->err);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "ibswctl: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static int sys_netns_open(struct ctl *ctl, const char *name)
{
	char path[4096];
	int fd;

	(void)ctl;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%s", IBSWCTL_NETNS_DIR, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static bool sys_exists(struct ctl *ctl, const char *path)
{
	(void)ctl;
	return !access(path, F_OK);
}

static void nl_close(struct ctl *ctl)
{
	struct ibsw_genl *g = ctl->priv;

	if (!g)
		return;
	ibsw_genl_close(g);
	free(g);
	ctl->priv = NULL;
}

const struct ctl_ops ctl_sys_ops = {
	.xfer = nl_xfer,
	.listen = nl_listen,
	.run = sys_run,
	.netns_open = sys_netns_open,
	.exists = sys_exists,
	.close = nl_close,
};
