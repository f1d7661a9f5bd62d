/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How dcms talks to the switches and HCAs. The daemon and the static manager
 * see only struct backend_ops: the ibsw generic netlink family
 * (backend_genl.c), or PerfMgt and CC MADs through umad (backend_mad.c, for
 * ibsw's switches as for a real fabric's). The HCA side (ca_sysfs.c) is
 * separate and small on purpose: its interface is still being written.
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

/* ca_sysfs.c: CACongestionSetting and the CCT of an HCA */
#define CA_SYSFS_ROOT	"/sys"

/* The rdma devices under ROOT/class/infiniband; *names is malloc'd */
int ca_list(const char *root, struct be_name **names, size_t *n);
/* Does DEV's port 1 have the congestion control interface? */
bool ca_cc_available(const char *root, const char *dev);
/* Apply the settings given in ca; 0 or -errno, the reason in msg */
int ca_apply(const char *root, const char *dev, const struct cc_ca_setting *ca,
	     char *msg, size_t msglen);

#endif /* DCMS_BACKEND_H */
