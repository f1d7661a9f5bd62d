// SPDX-License-Identifier: GPL-2.0
/*
 * The ibsw generic netlink family over libmnl (genl.h). Requests get an ack
 * unless they are dumps; the replies of other requests on the socket (a
 * monitor's events) are skipped.
 */
#define _GNU_SOURCE
#include "genl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <uapi/linux/ibsw.h>

/* A request longer than this grows the socket's send buffer (address tables) */
#define LARGE_REQUEST	100000

static void family_groups(struct ibsw_genl *g, const struct nlattr *groups)
{
	const struct nlattr *grp, *a;

	mnl_attr_for_each_nested(grp, groups) {
		const char *name = NULL;
		uint32_t id = 0;

		mnl_attr_for_each_nested(a, grp) {
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
			    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
				name = mnl_attr_get_str(a);
			else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
				 mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				id = mnl_attr_get_u32(a);
		}
		if (name && id && !strcmp(name, IBSW_MCGRP_MONITOR))
			g->mcgrp = id;
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ibsw_genl *g = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U16) >= 0)
			g->family = mnl_attr_get_u16(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			family_groups(g, a);
	}
	return 0;
}

/**
 * ibsw_genl_xfer() - send a request, pass its replies to @cb
 * @g: an open socket
 * @req: the request, its type already the family's (or GENL_ID_CTRL)
 * @cb: called for each reply message until it returns non-zero, or NULL
 * @data: for @cb
 *
 * Return: the request's error (its extack in g->ext_msg), else @cb's first
 * non-zero return, else 0; -errno if the socket failed.
 */
int ibsw_genl_xfer(struct ibsw_genl *g, struct nlmsghdr *req, ibsw_genl_cb cb, void *data)
{
	int status = 0, size;
	ssize_t n;

	g->ext_msg[0] = '\0';
	g->ext_miss_type = 0;
	req->nlmsg_seq = ++g->seq;
	if (!(req->nlmsg_flags & NLM_F_DUMP))
		req->nlmsg_flags |= NLM_F_ACK;
	if (req->nlmsg_len > LARGE_REQUEST) {
		size = req->nlmsg_len * 2;
		if (setsockopt(mnl_socket_get_fd(g->sock), SOL_SOCKET, SO_SNDBUFFORCE,
			       &size, sizeof(size)))
			setsockopt(mnl_socket_get_fd(g->sock), SOL_SOCKET, SO_SNDBUF,
				   &size, sizeof(size));
	}
	if (mnl_socket_sendto(g->sock, req, req->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(g->sock, g->rbuf, g->rbuf_size);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (ibsw_genl_replies(g, g->rbuf, n, req->nlmsg_seq, cb, data, &status))
			return status;
	}
}

/**
 * ibsw_genl_open() - open a socket and resolve the ibsw family
 * @g: filled in
 * @rbuf_size: the receive buffer, at least the largest reply
 *
 * Return: 0; -ENOENT if there is no ibsw family (the module is not
 * loaded); another -errno if the socket or the query failed. @g is closed
 * on failure.
 */
int ibsw_genl_open(struct ibsw_genl *g, size_t rbuf_size)
{
	char buf[256];		/* the family query */
	struct nlmsghdr *nlh;
	int one = 1, err;

	memset(g, 0, sizeof(*g));
	g->rbuf_size = rbuf_size;
	g->rbuf = malloc(rbuf_size);
	if (!g->rbuf)
		return -ENOMEM;
	g->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!g->sock || mnl_socket_bind(g->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto fail;
	}
	mnl_socket_setsockopt(g->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(g->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	g->portid = mnl_socket_get_portid(g->sock);
	g->seq = getpid() << 12;

	nlh = genl_msg_start(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IBSW_FAMILY_NAME);
	err = ibsw_genl_xfer(g, nlh, family_cb, g);
	if (!err && !g->family)
		err = -ENOENT;
	if (!err)
		return 0;
fail:
	ibsw_genl_close(g);
	return err;
}

int ibsw_genl_subscribe(struct ibsw_genl *g)
{
	int grp = g->mcgrp;

	if (!grp)
		return -ENOENT;
	if (mnl_socket_setsockopt(g->sock, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		return -errno;
	return 0;
}

int ibsw_genl_listen(struct ibsw_genl *g, ibsw_genl_cb cb, void *data)
{
	struct nlmsghdr *nlh;
	int err, left;
	ssize_t n;

	for (;;) {
		n = mnl_socket_recvfrom(g->sock, g->rbuf, g->rbuf_size);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		left = n;
		for (nlh = (struct nlmsghdr *)g->rbuf; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_type != g->family)
				continue;
			err = cb(nlh, data);
			if (err)
				return err;
		}
	}
}

void ibsw_genl_close(struct ibsw_genl *g)
{
	if (g->sock)
		mnl_socket_close(g->sock);
	free(g->rbuf);
	g->sock = NULL;
	g->rbuf = NULL;
}
