/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ibsw generic netlink family over libmnl, for the tools that talk to
 * it (ibswctl, dcms): the socket with extended acks, the family and its
 * monitor group resolved, and one request with its replies at a time.
 */
#ifndef IBSW_GENL_H
#define IBSW_GENL_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

struct ibsw_genl {
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;	/* the ibsw family's id */
	uint32_t mcgrp;		/* its monitor group, 0 if it has none */
	char *rbuf;
	size_t rbuf_size;
	char ext_msg[512];	/* extack message of the last failed request */
	uint32_t ext_miss_type;	/* its NLMSGERR_ATTR_MISS_TYPE, 0 if none */
};

/* Called for each reply message; non-zero stops the calls (and is returned) */
typedef int (*ibsw_genl_cb)(const struct nlmsghdr *nlh, void *data);

int ibsw_genl_open(struct ibsw_genl *g, size_t rbuf_size);
int ibsw_genl_xfer(struct ibsw_genl *g, struct nlmsghdr *req, ibsw_genl_cb cb, void *data);
void ibsw_genl_close(struct ibsw_genl *g);

#endif
