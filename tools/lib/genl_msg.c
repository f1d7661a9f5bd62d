// SPDX-License-Identifier: GPL-2.0
/*
 * The messages of the ibsw family (genl.h): requests built, replies checked
 * and parsed. No I/O, so that the unit tests can feed it bytes.
 */
#define _GNU_SOURCE
#include "genl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <uapi/linux/ibsw.h>

struct nlmsghdr *genl_msg_start(void *buf, uint16_t type, uint8_t cmd, uint8_t version,
				uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

struct nlmsghdr *ibsw_genl_msg_start(void *buf, uint16_t family, uint8_t cmd,
				     uint16_t flags)
{
	return genl_msg_start(buf, family, cmd, IBSW_FAMILY_VERSION, flags);
}

void ibsw_attr_put_uint(struct nlmsghdr *nlh, uint16_t type, uint64_t val)
{
	if (val > UINT32_MAX)
		mnl_attr_put_u64(nlh, type, val);
	else
		mnl_attr_put_u32(nlh, type, val);
}

/* The extended ack TLVs of an NLMSG_ERROR or NLMSG_DONE message, from @off */
static void parse_extack(struct ibsw_genl *g, const struct nlmsghdr *nlh, size_t off)
{
	const struct nlattr *a;
	const char *data;
	size_t len;
	int left;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len <= MNL_NLMSG_HDRLEN + off)
		return;
	data = (const char *)mnl_nlmsg_get_payload(nlh) + off;
	left = nlh->nlmsg_len - MNL_NLMSG_HDRLEN - off;
	for (a = (const struct nlattr *)data; mnl_attr_ok(a, left);
	     left -= MNL_ALIGN(a->nla_len), a = mnl_attr_next(a)) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			snprintf(g->ext_msg, sizeof(g->ext_msg), "%s", mnl_attr_get_str(a));
		else if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MISS_TYPE &&
			 mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			g->ext_miss_type = mnl_attr_get_u32(a);
	}
	/* the kernel's messages may end in a newline */
	len = strlen(g->ext_msg);
	while (len && g->ext_msg[len - 1] == '\n')
		g->ext_msg[--len] = '\0';
}

/* The status of an NLMSG_ERROR or NLMSG_DONE message, its extack noted */
static int reply_status(struct ibsw_genl *g, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off;
	int err;

	if (nlh->nlmsg_type == NLMSG_DONE) {
		if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(int))
			return 0;
		err = *(const int *)mnl_nlmsg_get_payload(nlh);
		if (err)
			parse_extack(g, nlh, MNL_ALIGN(sizeof(int)));
		return err;
	}
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*e))
		return -EBADMSG;
	err = e->error;
	if (!err)
		return 0;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	parse_extack(g, nlh, MNL_ALIGN(off));
	return err;
}

bool ibsw_genl_replies(struct ibsw_genl *g, const void *buf, size_t n, uint32_t seq,
		       ibsw_genl_cb cb, void *data, int *status)
{
	const struct nlmsghdr *nlh;
	int left = n, err;

	for (nlh = buf; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != g->portid)
			continue;
		if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_DONE) {
			err = reply_status(g, nlh);
			if (err)
				*status = err;
			return true;
		}
		if (nlh->nlmsg_type < NLMSG_MIN_TYPE || !cb || *status)
			continue;
		*status = cb(nlh, data);
	}
	return false;
}

const void *ibsw_genl_attrs(const struct nlmsghdr *nlh, size_t *len)
{
	size_t hdr = MNL_ALIGN(sizeof(struct genlmsghdr));

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + hdr) {
		*len = 0;
		return NULL;
	}
	*len = nlh->nlmsg_len - MNL_NLMSG_HDRLEN - hdr;
	return mnl_nlmsg_get_payload_offset(nlh, hdr);
}

const struct nlattr *ibsw_attr_ok(const struct nlattr *attr, const void *data, size_t len)
{
	size_t used = (const char *)attr - (const char *)data;

	return used < len && mnl_attr_ok(attr, len - used) ? attr : NULL;
}

bool ibsw_attr_fits(const struct nlattr *attr, enum ibsw_attr_type type)
{
	uint16_t len = mnl_attr_get_payload_len(attr);
	const char *s;

	switch (type) {
	case IBSW_ATTR_U8:
		return len >= 1;
	case IBSW_ATTR_U16:
		return len >= 2;
	case IBSW_ATTR_U32:
	case IBSW_ATTR_S32:
		return len == 4;
	case IBSW_ATTR_UINT:
		return len == 4 || len == 8;
	case IBSW_ATTR_STRING:
		s = mnl_attr_get_payload(attr);
		return len >= 1 && memchr(s, '\0', len);
	default:
		return true;
	}
}

unsigned int ibsw_attr_parse(const void *data, size_t len, unsigned int max,
			     const struct ibsw_attr_set *set, const struct nlattr **tb)
{
	const struct nlattr *attr;
	uint16_t type;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr)) {
		type = mnl_attr_get_type(attr);
		if (!type || type > max)
			continue;	/* newer than this tool */
		if (set && !ibsw_attr_fits(attr, set->attr[type].type))
			return type;
		tb[type] = attr;
	}
	return 0;
}

unsigned int ibsw_attr_parse_nest(const struct nlattr *nest, unsigned int max,
				  const struct ibsw_attr_set *set,
				  const struct nlattr **tb)
{
	return ibsw_attr_parse(mnl_attr_get_payload(nest), mnl_attr_get_payload_len(nest),
			       max, set, tb);
}

unsigned int ibsw_attr_parse_msg(const struct nlmsghdr *nlh, unsigned int max,
				 const struct ibsw_attr_set *set,
				 const struct nlattr **tb)
{
	size_t len;
	const void *data = ibsw_genl_attrs(nlh, &len);

	return ibsw_attr_parse(data, len, max, set, tb);
}

uint64_t ibsw_attr_uint(const struct nlattr *attr)
{
	switch (mnl_attr_get_payload_len(attr)) {
	case 1:
		return mnl_attr_get_u8(attr);
	case 2:
		return mnl_attr_get_u16(attr);
	case 4:
		return mnl_attr_get_u32(attr);
	case 8:
		return mnl_attr_get_u64(attr);
	default:
		return 0;
	}
}

void ibsw_attr_strcpy(char *buf, size_t len, const struct nlattr *attr)
{
	size_t n = attr ? mnl_attr_get_payload_len(attr) : 0;
	const char *s = attr ? mnl_attr_get_payload(attr) : "";

	n = strnlen(s, n);
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}
