// SPDX-License-Identifier: GPL-2.0
/*
 * The real I/O of ibswctl: the generic netlink socket (family and monitor
 * group resolved on first use, extended acks on), running programs, opening
 * namespaces. Kept thin: everything else is tested with fakes of these.
 */
#define _GNU_SOURCE
#include "ibswctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#define RECV_BUF_SIZE	(1024 * 1024)	/* an lft-get reply is 48 KiB and more */

struct nl {
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
	uint32_t mcgrp;		/* 0: not found */
	char *rbuf;
};

struct family_info {
	uint16_t id;
	uint32_t mcgrp;
};

static int family_grp_cb(const struct nlattr *attr, void *data)
{
	struct family_info *fi = data;
	const struct nlattr *a, *name = NULL, *id = NULL;

	mnl_attr_for_each_nested(a, attr) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			name = a;
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			 mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			id = a;
	}
	if (name && id && !strcmp(mnl_attr_get_str(name), IBSW_MCGRP_MONITOR))
		fi->mcgrp = mnl_attr_get_u32(id);
	return MNL_CB_OK;
}

static int family_cb(struct ctl *ctl, const struct nlmsghdr *nlh, void *data)
{
	struct family_info *fi = data;
	const struct nlattr *attr, *grp;

	(void)ctl;
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
			fi->id = mnl_attr_get_u16(attr);
		if (mnl_attr_get_type(attr) == CTRL_ATTR_MCAST_GROUPS)
			mnl_attr_for_each_nested(grp, attr)
				family_grp_cb(grp, fi);
	}
	return 0;
}

/* Extended ack TLVs of an NLMSG_ERROR or NLMSG_DONE message */
static void parse_extack(struct ctl *ctl, const struct nlmsghdr *nlh, size_t offset)
{
	const struct nlattr *attr;
	size_t len;
	const void *data;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len <= MNL_NLMSG_HDRLEN + offset)
		return;
	data = (const char *)mnl_nlmsg_get_payload(nlh) + offset;
	len = nlh->nlmsg_len - MNL_NLMSG_HDRLEN - offset;
	for (attr = data; ctl_attr_valid(attr, data, len); attr = mnl_attr_next(attr)) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
			snprintf(ctl->ext_msg, sizeof(ctl->ext_msg), "%s", mnl_attr_get_str(attr));
		else if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MISS_TYPE &&
			 mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
			ctl->ext_miss_type = mnl_attr_get_u32(attr);
	}
	/* the kernel's messages may end in a newline */
	len = strlen(ctl->ext_msg);
	while (len && ctl->ext_msg[len - 1] == '\n')
		ctl->ext_msg[--len] = '\0';
}

/* Send, then read replies until the ack, the end of a dump or an error. */
static int nl_xfer_raw(struct ctl *ctl, struct nl *nl, struct nlmsghdr *req,
		       ctl_msg_cb cb, void *data)
{
	bool dump = req->nlmsg_flags & NLM_F_DUMP;
	int err = 0, cb_err = 0, left, size;
	struct nlmsghdr *nlh;
	ssize_t n;

	req->nlmsg_seq = ++nl->seq;
	if (!dump)
		req->nlmsg_flags |= NLM_F_ACK;
	if (req->nlmsg_len > 100000) {
		/* large address tables: room for the whole request */
		size = req->nlmsg_len * 2;
		if (setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_SNDBUFFORCE,
			       &size, sizeof(size)))
			setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_SNDBUF,
				   &size, sizeof(size));
	}
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(nl->sock, nl->rbuf, RECV_BUF_SIZE);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		left = n;
		for (nlh = (struct nlmsghdr *)nl->rbuf; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_seq != req->nlmsg_seq || nlh->nlmsg_pid != nl->portid)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
				size_t off = sizeof(*e);

				if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*e))
					return -EBADMSG;
				err = e->error;
				if (err && !(nlh->nlmsg_flags & NLM_F_CAPPED))
					off += e->msg.nlmsg_len - sizeof(e->msg);
				if (err)
					parse_extack(ctl, nlh, MNL_ALIGN(off));
				return err ? err : cb_err;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				if (nlh->nlmsg_len >= MNL_NLMSG_HDRLEN + sizeof(int)) {
					err = *(const int *)mnl_nlmsg_get_payload(nlh);
					if (err)
						parse_extack(ctl, nlh, MNL_ALIGN(sizeof(int)));
				}
				return err ? err : cb_err;
			}
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			if (cb && !cb_err)
				cb_err = cb(ctl, nlh, data);
		}
	}
}

static int nl_open(struct ctl *ctl)
{
	struct family_info fi = { 0 };
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	struct nl *nl;
	char buf[256];
	int one = 1, err;

	if (ctl->priv)
		return 0;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->rbuf = malloc(RECV_BUF_SIZE);
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->rbuf || !nl->sock) {
		err = nl->rbuf ? -errno : -ENOMEM;
		goto fail;
	}
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto fail;
	}
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = getpid() << 12;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IBSW_FAMILY_NAME);
	err = nl_xfer_raw(ctl, nl, nlh, family_cb, &fi);
	if (err == -ENOENT || (!err && !fi.id)) {
		ctl_err(ctl, "generic netlink family \"%s\" not found: is the ibsw module loaded?",
			IBSW_FAMILY_NAME);
		err = -ENOENT;
		goto fail_quiet;
	}
	if (err)
		goto fail;
	nl->family = fi.id;
	nl->mcgrp = fi.mcgrp;
	ctl->priv = nl;
	return 0;
fail:
	ctl_err(ctl, "cannot open the generic netlink socket: %s", strerror(-err));
fail_quiet:
	ctl->reported = true;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl->rbuf);
	free(nl);
	/* -ENOENT: no ibsw family, so no switch either (fabric down relies on it) */
	return err == -ENOENT ? err : -EPROTO;
}

/* Could not talk to the kernel at all: reported already (ctl->reported) */
static int nl_xfer(struct ctl *ctl, struct nlmsghdr *req, ctl_msg_cb cb, void *data)
{
	struct nl *nl;
	int err = nl_open(ctl);

	if (err)
		return err;
	nl = ctl->priv;
	req->nlmsg_type = nl->family;
	return nl_xfer_raw(ctl, nl, req, cb, data);
}

static int nl_listen(struct ctl *ctl, ctl_msg_cb cb, void *data)
{
	struct nlmsghdr *nlh;
	struct nl *nl;
	int err = nl_open(ctl), grp, left;
	ssize_t n;

	if (err)
		return err;
	nl = ctl->priv;
	if (!nl->mcgrp) {
		ctl_err(ctl, "the ibsw family has no \"%s\" group", IBSW_MCGRP_MONITOR);
		return -EPROTO;
	}
	grp = nl->mcgrp;
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		return -errno;
	/* until a signal ends the program: each event is flushed when printed */
	for (;;) {
		n = mnl_socket_recvfrom(nl->sock, nl->rbuf, RECV_BUF_SIZE);
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
		for (nlh = (struct nlmsghdr *)nl->rbuf; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_type != nl->family)
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
	struct nl *nl = ctl->priv;

	if (!nl)
		return;
	mnl_socket_close(nl->sock);
	free(nl->rbuf);
	free(nl);
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
