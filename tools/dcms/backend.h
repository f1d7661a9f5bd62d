/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How dcms talks to the switches and HCAs. The daemon and the static manager
 * see only struct backend_ops: the ibsw generic netlink family
 * (backend_genl.c), or PerfMgt and CC MADs through umad (backend_mad.c, for
 * ibsw's switches as for a real fabric's). The MAD backend also reaches the
 * HCAs, as a subnet's CC manager does; with netlink the HCA side is rxe's
 * sysfs (ca_sysfs.c), separate and small on purpose: its interface is still
 * being written.
 */
#ifndef DCMS_BACKEND_H
#define DCMS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "dcms_algo.h"

/* SwitchPortCongestionSetting of one port (Control_Type 0) */
struct be_port_cc {
	bool valid;
	uint8_t threshold;
	uint8_t packet_size;
	uint16_t marking_rate;
};

/* SwitchCongestionSetting values that ports fall back on, and every port's */
struct be_switch_cc {
	uint8_t threshold;
	uint8_t packet_size;
	uint16_t marking_rate;
	unsigned int nports;
	struct be_port_cc port[DCMS_PORTS_MAX + 1];	/* [1..nports] */
};

/* A switch or device name */
#define BE_NAME_LEN	(DCMS_NAME_MAX + 1)

struct be_name {
	char s[BE_NAME_LEN];
};

/* An HCA port: its node's name ("H1" of "H1 rxe_H1") and the port's LID */
struct be_ca {
	char name[BE_NAME_LEN];
	uint16_t lid;
};

/* CongestionControlTable: entries per block, and the blocks of a Set */
#define BE_CCT_BLOCK	64

/* As OpenSM: an empty table is still one block, with CCTI_Limit 0 */
static inline unsigned int be_cct_blocks(unsigned int len)
{
	return len ? (len + BE_CCT_BLOCK - 1) / BE_CCT_BLOCK : 1;
}

/*
 * The SLs a CACongestionSetting Set changes: cc_ca_cong_setting_control_map
 * as given (OpenSM's; SLs without keys get zero entries), else the SLs
 * given keys
 */
static inline uint16_t be_ca_control_map(const struct cc_ca_setting *ca)
{
	uint16_t map = 0;
	unsigned int sl;

	if (ca->set & CC_CA_CONTROL_MAP)
		return ca->control_map;
	for (sl = 0; sl < CC_NR_SLS; sl++)
		if (ca->sl[sl].set)
			map |= 1u << sl;
	return map;
}

struct backend;

struct backend_ops {
	const char *name;
	/* the fabric's time scale: wall-clock time per unit of emulated time */
	int (*time_scale)(struct backend *b, uint32_t *scale);
	/* every switch (genl: in creation order, mad: by name); *names is malloc'd */
	int (*switches)(struct backend *b, struct be_name **names, size_t *n);
	/*
	 * Every port of a switch with its counters (PortXmitWait, PortXmitData,
	 * PortXmitCongTime) and N(s, p); *ports is malloc'd. -ENODEV: no such
	 * switch.
	 */
	int (*read_ports)(struct backend *b, const char *sw,
			  struct dcms_port_sample **ports, size_t *n);
	int (*cc_get)(struct backend *b, const char *sw, struct be_switch_cc *cc);
	/* Change one port's setting: every field of pc is applied */
	int (*cc_set_port)(struct backend *b, const char *sw, unsigned int port,
			   const struct be_port_cc *pc);
	/* SwitchCongestionSetting: the fields of s->set */
	int (*cc_set_switch)(struct backend *b, const char *sw,
			     const struct cc_sw_setting *s);
	/*
	 * The HCAs, NULL where the backend does not reach them (genl: the
	 * static manager uses ca_sysfs.c). cas: every CA port but the
	 * backend's own, by name; *cas is malloc'd. cc_set_ca:
	 * CACongestionSetting, then the CongestionControlTable blocks;
	 * -EOPNOTSUPP if the port has no CC agent, b->msg says why.
	 */
	int (*cas)(struct backend *b, struct be_ca **cas, size_t *n);
	int (*cc_set_ca)(struct backend *b, const struct be_ca *ca,
			 const struct cc_ca_setting *s);
	void (*close)(struct backend *b);
};

struct backend {
	const struct backend_ops *ops;
	void *priv;
	char msg[512];		/* why the last call failed (the kernel's extack) */
};

/* The ibsw generic netlink family; 0 or -errno with the reason in b->msg */
int backend_genl_open(struct backend *b);
/*
 * PerfMgt and CC MADs on the umad port conf->mad_ca/mad_port, the switches
 * from a fabric discovery (done here once); 0 or -errno with b->msg.
 */
int backend_mad_open(struct backend *b, const struct conf *conf);

/* The effective Marking_Rate of a port: its own if valid, else the switch's */
static inline uint16_t be_effective_mr(const struct be_switch_cc *cc, unsigned int port)
{
	return cc->port[port].valid ? cc->port[port].marking_rate : cc->marking_rate;
}

/* ca_sysfs.c: CACongestionSetting and the CCT of an rxe device */
#define CA_SYSFS_ROOT	"/sys"

/* The rdma devices under ROOT/class/infiniband; *names is malloc'd */
int ca_list(const char *root, struct be_name **names, size_t *n);
/* Does DEV's port 1 have the congestion control interface? */
bool ca_cc_available(const char *root, const char *dev);
/* Apply the settings given in ca; 0 or -errno, the reason in msg */
int ca_apply(const char *root, const char *dev, const struct cc_ca_setting *ca,
	     char *msg, size_t msglen);

#endif /* DCMS_BACKEND_H */
