/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The management HCA (mgmt_hca.c): an InfiniBand ib_device of one port on
 * which the subnet manager and the diagnostics run.
 */
#ifndef _IBSW_MGMT_HCA_H
#define _IBSW_MGMT_HCA_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_verbs.h>

#include "ibsw.h"

struct ibsw_mgmt_qp;

/**
 * struct ibsw_mgmt - a management HCA
 * @ibdev: the ib_device
 * @lock: protects the port's state and @qp (irq-safe: the MAD layer calls
 *	in with interrupts off)
 * @qp: QP0 and QP1, while they exist
 * @guid: node, system image and port GUID
 * @gid_prefix: GID prefix (PortInfo)
 * @mkey: M_Key
 * @lid: LID (0: none yet)
 * @sm_lid: the master SM's LID
 * @mkey_lease: M_KeyLeasePeriod
 * @cap_mask: CapabilityMask (IsSM while an SM holds issm)
 * @port_state: PortState (enum ib_port_state)
 * @phys_state: PortPhysicalState (enum ib_port_phys_state)
 * @lmc: LMC
 * @sm_sl: the master SM's SL
 * @mkey_prot: M_KeyProtectBits
 * @subnet_timeout: SubnetTimeOut
 * @stats: its PMA's counters of what it put on and took off its link,
 *	per CPU as a switch port's (VL15Dropped, PortXmitDiscards: MADs QP0
 *	had no receive for, and MADs sent while the port had no link)
 * @port: the switch port it is cabled to, NULL once detached
 * @txq: MADs posted, for @tx_work to send (the MAD layer posts with
 *	interrupts off; the datapath runs with BH disabled)
 * @tx_work: sends @txq into the switch port
 * @lid_work: makes a LID the SM set the switch port's (RTNL)
 * @reap: on the list of detached HCAs waiting to be unregistered
 */
struct ibsw_mgmt {
	struct ib_device	ibdev;
	spinlock_t		lock;	/* see kernel-doc */
	struct ibsw_mgmt_qp	*qp[2];
	u64			guid;
	u64			gid_prefix;
	u64			mkey;
	u16			lid;
	u16			sm_lid;
	u16			mkey_lease;
	u32			cap_mask;
	u8			port_state;
	u8			phys_state;
	u8			lmc;
	u8			sm_sl;
	u8			mkey_prot;
	u8			subnet_timeout;
	struct ibsw_stats	stats;
	struct ibsw_port __rcu	*port;
	struct sk_buff_head	txq;
	struct work_struct	tx_work;
	struct work_struct	lid_work;
	struct list_head	reap;
};

extern const struct ib_device_ops ibsw_mgmt_ops;
void ibsw_mgmt_tx_work(struct work_struct *work);
bool ibsw_mgmt_sma(struct ibsw_mgmt *m, const struct ib_smp *in,
		   struct ib_smp *out);

/* mgmt_mad.c: the MADs it answers itself, in process context */
int ibsw_mgmt_process_mad(struct ib_device *ibdev, int flags, u32 port,
			  const struct ib_wc *in_wc, const struct ib_grh *in_grh,
			  const struct ib_mad *in, struct ib_mad *out,
			  size_t *out_size, u16 *out_pkey_index);

struct ibsw_mgmt *ibsw_mgmt_create(const char *name, u64 guid,
				   const char *desc, struct net *net);
void ibsw_mgmt_destroy(struct ibsw_mgmt *m);
void ibsw_mgmt_link(struct ibsw_mgmt *m, bool up);
void ibsw_mgmt_set_lid(struct ibsw_mgmt *m, u16 lid);

/* mgmt_ctl.c: cabling, under RTNL; unregistering, outside it */
struct ibsw_switch;
struct netlink_ext_ack;
u64 ibsw_mgmt_default_guid(const struct ibsw_switch *sw, unsigned int num);
void ibsw_mgmt_attach(struct ibsw_port *port, struct ibsw_mgmt *m);
void ibsw_mgmt_lid_work(struct work_struct *work);
void ibsw_mgmt_detach(struct ibsw_port *port);
void ibsw_mgmt_reap(void);
void ibsw_mgmt_reap_wait(void);

#endif /* _IBSW_MGMT_HCA_H */
