/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ibsw generic netlink family over libmnl, the one netlink layer of the
 * tools that talk to it (ibswctl, dcms): the socket with extended acks, the
 * family and its monitor group resolved, one request with its replies at a
 * time (genl.c); requests built and replies parsed into tables
 * (genl_msg.c). The attribute numbers are the uapi header's.
 */
#ifndef IBSW_GENL_H
#define IBSW_GENL_H

#include <stdbool.h>
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

/* genl.c: the socket */
int ibsw_genl_open(struct ibsw_genl *g, size_t rbuf_size);
int ibsw_genl_xfer(struct ibsw_genl *g, struct nlmsghdr *req, ibsw_genl_cb cb, void *data);
/* Join the monitor group: -ENOENT if the family has none */
int ibsw_genl_subscribe(struct ibsw_genl *g);
/*
 * Pass each notification of the family to @cb until it returns non-zero
 * (returned; never -ENOBUFS). -ENOBUFS: notifications were lost, call again
 * to go on; another -errno: the socket failed.
 */
int ibsw_genl_listen(struct ibsw_genl *g, ibsw_genl_cb cb, void *data);
void ibsw_genl_close(struct ibsw_genl *g);

/* genl_msg.c: requests */

/* A request of any generic netlink family (@type: its id), in @buf */
struct nlmsghdr *genl_msg_start(void *buf, uint16_t type, uint8_t cmd, uint8_t version,
				uint16_t flags);

/*
 * Start a request of the ibsw family in @buf (at least MNL_SOCKET_BUFFER_SIZE
 * or what its attributes need): the netlink header of type @family (0 lets
 * the transport fill it in), NLM_F_REQUEST | @flags, and the genl header.
 * Attributes follow with mnl_attr_put*().
 */
struct nlmsghdr *ibsw_genl_msg_start(void *buf, uint16_t family, uint8_t cmd,
				     uint16_t flags);
/* A "uint" attribute: 4 bytes when the value fits, else 8, as the kernel sends */
void ibsw_attr_put_uint(struct nlmsghdr *nlh, uint16_t type, uint64_t val);

/* genl_msg.c: replies */

/*
 * The replies to request @seq among the @n bytes at @buf, as received: the
 * messages of other requests or ports are skipped; each data message goes
 * to @cb (if any) while *@status is 0, which then holds what @cb returned.
 * NLMSG_ERROR or NLMSG_DONE ends the request: its error, if any, replaces
 * *@status, its extack in g->ext_msg and g->ext_miss_type. Return: whether
 * the request has ended (else more is to be received).
 */
bool ibsw_genl_replies(struct ibsw_genl *g, const void *buf, size_t n, uint32_t seq,
		       ibsw_genl_cb cb, void *data, int *status);

/* The attributes after the genl header: NULL if the message is too short */
const void *ibsw_genl_attrs(const struct nlmsghdr *nlh, size_t *len);

/*
 * @attr if a whole attribute starts there within the @len bytes at @data,
 * else NULL. Walks the attributes of a payload:
 * for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr))
 */
const struct nlattr *ibsw_attr_ok(const struct nlattr *attr, const void *data, size_t len);

/* What a reply's attribute must hold (the spec's types) */
enum ibsw_attr_type {
	IBSW_ATTR_ANY,
	IBSW_ATTR_U8,
	IBSW_ATTR_U16,
	IBSW_ATTR_U32,
	IBSW_ATTR_S32,
	IBSW_ATTR_UINT,		/* 4 or 8 bytes */
	IBSW_ATTR_STRING,	/* NUL-terminated */
	IBSW_ATTR_BINARY,
	IBSW_ATTR_NEST,
};

struct ibsw_attr_set;

/* An attribute of the spec, by its number in the uapi header */
struct ibsw_attr_def {
	const char *name;	/* the spec's name, "xmit-data" */
	enum ibsw_attr_type type;
	unsigned int fmt;	/* how a tool shows it, the tool's own */
	bool multi;		/* a multi-attr */
	const struct ibsw_attr_set *nest;
};

struct ibsw_attr_set {
	const char *name;
	unsigned int max;
	const struct ibsw_attr_def *attr;	/* [1..max] */
};

/* Whether @attr's payload fits @type */
bool ibsw_attr_fits(const struct nlattr *attr, enum ibsw_attr_type type);

/*
 * The attributes in the @len bytes at @data into @tb[0..@max], by type: the
 * last of a multi-attr, NULL where none. Types 0 and above @max (newer than
 * the tool) are skipped. With @set, each attribute is checked against its
 * type there. Return: 0, or the type of the first attribute that does not
 * fit (@tb then partly filled).
 */
unsigned int ibsw_attr_parse(const void *data, size_t len, unsigned int max,
			     const struct ibsw_attr_set *set, const struct nlattr **tb);
unsigned int ibsw_attr_parse_nest(const struct nlattr *nest, unsigned int max,
				  const struct ibsw_attr_set *set,
				  const struct nlattr **tb);
/* Those of a message, after its genl header; a short message has none */
unsigned int ibsw_attr_parse_msg(const struct nlmsghdr *nlh, unsigned int max,
				 const struct ibsw_attr_set *set,
				 const struct nlattr **tb);

/* An unsigned attribute of 1, 2, 4 or 8 bytes ("uint": 4 or 8); else 0 */
uint64_t ibsw_attr_uint(const struct nlattr *attr);
/* A string attribute into @buf, cut to fit; "" if @attr is NULL */
void ibsw_attr_strcpy(char *buf, size_t len, const struct nlattr *attr);

#endif /* IBSW_GENL_H */
