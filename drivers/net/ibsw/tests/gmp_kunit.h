/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the KUnit suites of the GS agents' header checks share
 * (pma_attr_kunit.c, cc_mad_attr_kunit.c): a request's header as a table
 * row, and the statuses by name.
 */
#ifndef _IBSW_GMP_KUNIT_H
#define _IBSW_GMP_KUNIT_H

#include <linux/types.h>
#include <rdma/ib_mad.h>

#include "../pma_attr.h"

#define GET		0x01
#define SET		0x02
#define OK		0
#define VERSION		0x0004
#define METHOD		0x0008
#define ATTR		0x000c
#define VALUE		0x001c
#define NO_REPLY	IBSW_MAD_NO_REPLY

/**
 * struct kt_gmp_case - a request and the check's verdict
 * @desc: what it is
 * @base_version: BaseVersion
 * @mgmt_class: MgmtClass
 * @class_version: ClassVersion
 * @method: Method
 * @attr: AttributeID
 * @mod: AttributeModifier
 * @port_select: the PMA's PortSelect (data byte 1); CC rows leave it 0
 * @nr_ports: the switch's ports
 * @exp: the status, or %NO_REPLY
 */
struct kt_gmp_case {
	const char	*desc;
	u8		base_version;
	u8		mgmt_class;
	u8		class_version;
	u8		method;
	u16		attr;
	u32		mod;
	u8		port_select;
	unsigned int	nr_ports;
	int		exp;
};

static inline void kt_gmp_hdr(struct ib_mad_hdr *hdr,
			      const struct kt_gmp_case *c)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->base_version = c->base_version;
	hdr->mgmt_class = c->mgmt_class;
	hdr->class_version = c->class_version;
	hdr->method = c->method;
	hdr->attr_id = cpu_to_be16(c->attr);
	hdr->attr_mod = cpu_to_be32(c->mod);
}

#endif /* _IBSW_GMP_KUNIT_H */
