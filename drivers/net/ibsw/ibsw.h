/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ibsw internals: the fabric, switches, ports and host ports, and the
 * prototypes the core files share. The netlink code (netlink.c,
 * netlink_cc.c) sees none of this; its contract is ctl.h. The engines
 * have their own header, engine.h.
 *
 * The datapath, in the order a packet meets it (design §4):
 *
 *   host.c     ibsw_host_xmit(): rxe's frame enters the host port's netdev,
 *              is parsed and classified (DLID, SL, VL) and queued in ...
 *   engine.c   ibsw_hca_enqueue(): ... the HCA transmitter's FIFO of its
 *              VL. The engine (ibsw_engine_pass()) sends it at the link's
 *              rate, taking the switch input buffer's credits, into ...
 *   input.c    ibsw_switch_receive(): the switch input port, which looks up
 *              the output port (LFT) and VL (SL-to-VL) and queues it in ...
 *   engine.c   ibsw_engine_enqueue(): the output port's VoQ for that input.
 *              The output engine arbitrates (VL arbitration, round-robin
 *              over input ports), marks FECN under congestion, and sends
 *              it to the next switch's input (input.c again) or ...
 *   host.c     ibsw_host_deliver(): the destination host port, whose NAPI
 *              poll hands it to the host's stack and its rxe device.
 *   input.c    ibsw_credit_release(): as a packet leaves an input buffer its
 *              credits go back and the transmitter upstream is kicked.
 *   neigh.c    ARP and IPv6 neighbour solicitations a host sends are
 *              answered at its port from the fabric's address table.
 *   mad.c      Subnet management packets (VL15, no credits) take their
 *              directed-route step or LID route at each switch, and go to
 *              the SMAs (sma.c, process context) of the switch or of the
 *              emulated CA behind a host port.
 *   mgmt_hca.c The management HCA: the ib_device OpenSM runs on; its MADs
 *              enter and leave the fabric at its switch port.
 *   remote.c   A remote link: what a port's output engine sends leaves on
 *              a netdev for a switch of another kernel
 *              (ibsw_remote_xmit()); what that switch sends arrives in
 *              ibsw_remote_rcv() and enters input.c like any link's.
 *
 * Pure logic, without netdevs, tested by KUnit beside it: pkt.c (RoCEv2
 * parsing and marking), fwd.c (address table, LFT), vlarb.c (VL
 * arbitration, SL-to-VL), rate.c (link rates, pacing), credit.c (input
 * buffer credits), cc.c (congestion control arithmetic), rlink.c (remote
 * link frames and credits), smp_route.c
 * (directed-route SMPs at one node, SMA header checks), smp_attr.c (the
 * subnet management attributes an SMA answers, encoded and decoded).
 *
 * The control plane, under RTNL: fabric.c, switch.c (switches, ports,
 * links), host_ctl.c (host port netdevs), engine_ctl.c, ccctl.c
 * (congestion control settings, the CongestionLog), stats.c (reading
 * counters; the datapath counts with the inline ibsw_stat_*() below),
 * sysfs.c, netlink.c and netlink_cc.c; in process context too: the SMAs
 * and agents (sma.c, agent.c), the management HCAs (mgmt_ctl.c) and the
 * MADs one answers for its own port (mgmt_mad.c: its SMA, its PMA). It
 * calls into the datapath; the datapath calls nothing of it.
 *
 * Locking, in short (design §4.2):
 * - RTNL serialises the control plane: creating, connecting, configuring
 *   and destroying objects. Tables the datapath reads (address table, LFT,
 *   SL-to-VL, peers, netdevs) are published with rcu_assign_pointer().
 * - Each engine has a spinlock protecting its queues, arbiter, pacing
 *   state and the pointer to where it delivers. The datapath never holds
 *   two engine locks at once: deliveries, credit returns and kicks of
 *   other engines happen after the lock is dropped.
 * - One context at a time runs an engine, deliveries included (its
 *   @running flag), so packets are delivered in the order they left the
 *   wire. Order: run ownership -> any engine lock -> a host port's RX
 *   queue lock. A run that finds the engine owned asks the owner to pass
 *   again and returns: it never waits.
 * - Input buffer credits are atomics (credit.h); counters are per-cpu.
 */
#ifndef _IBSW_H
#define _IBSW_H

#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/wait_bit.h>
#include <linux/xarray.h>

#include "cc.h"
#include "compat.h"
#include "ctl.h"
#include "credit.h"
#include "fwd.h"
#include "rate.h"
#include "vlarb.h"

/* Port defaults (the task's and design §3) */
#define IBSW_DEFAULT_TIME_SCALE	1000
#define IBSW_DEFAULT_WIDTH	IBSW_LINK_WIDTH_4X
#define IBSW_DEFAULT_SPEED	IBSW_LINK_SPEED_QDR
#define IBSW_DEFAULT_NR_VLS	4
/*
 * 64 KiB per VL. A link keeps its rate only while its receiver's buffer
 * covers the link's traffic over the engines' timer slack (wall-clock
 * rate x slack): at the default scale a 4x QDR link moves 4 MB/s of wall
 * time, and the test VM's soft hrtimers fire up to about 5 ms late, so
 * 16 KiB lost a third of the rate (tests/integration/switch_rate.sh).
 */
#define IBSW_DEFAULT_CREDITS	1024
#define IBSW_BUFFER_CREDITS_MAX	65535

/* The largest IB packet a buffer must hold: MTU 4096 */
#define IBSW_IB_MTU_MAX		4096

/* Host port netdev: rxe picks IB MTU 4096 from a netdev MTU above 4096 */
#define IBSW_HOST_MTU		4200
#define IBSW_HOST_TXQLEN	10000

/*
 * Packets a host port's RX queue holds for NAPI: the link is paced, so
 * only a stalled receiver (or pacing off) fills it.
 */
#define IBSW_HOST_RXQ_MAX	4096

/* ibsw_skb_cb flags */
#define IBSW_CB_FECN		BIT(0)	/* BTH FECN is set */
#define IBSW_CB_BECN		BIT(1)	/* BTH BECN is set */
#define IBSW_CB_CC_ELIGIBLE	BIT(2)	/* a unicast request or read response */
/* A native IB packet (LRH first: a management HCA's), not RoCEv2 */
#define IBSW_CB_IB		BIT(3)

/**
 * struct ibsw_skb_cb - what the switch knows of a packet, in skb->cb
 * @wire_len: IB wire length (LRH to VCRC)
 * @dlid: destination LID
 * @slid: LID of the sending HCA port (the LRH's SLID), 0 if it has none
 * @bth_off: offset of the BTH from the Ethernet header, for marking
 * @l4_off: offset of the UDP header, for its checksum when marking
 * @in_port: input port on the switch it is queued in (0: HCA FIFO)
 * @in_vl: VL of the input buffer whose credits it holds
 * @out_vl: VL it leaves on
 * @sl: service level
 * @flags: IBSW_CB_*
 */
struct ibsw_skb_cb {
	u16	wire_len;
	u16	dlid;
	u16	slid;
	u16	bth_off;
	u16	l4_off;
	u8	in_port;
	u8	in_vl;
	u8	out_vl;
	u8	sl;
	u8	flags;
};

static_assert(sizeof(struct ibsw_skb_cb) <= sizeof_field(struct sk_buff, cb));

static inline struct ibsw_skb_cb *ibsw_cb(struct sk_buff *skb)
{
	return (struct ibsw_skb_cb *)skb->cb;
}

/**
 * struct ibsw_sma_cb - an SMP on its way to an SMA, in skb->cb
 * @pkt: what the switch knows of it
 * @sw_id: the switch whose SMA answers
 * @port: the port it came in on (for the switch's SMA), or the host port
 *	of the CA it is for
 * @ca: for the emulated CA behind host port @port
 */
struct ibsw_sma_cb {
	struct ibsw_skb_cb	pkt;
	u32			sw_id;
	u8			port;
	bool			ca;
};

static_assert(sizeof(struct ibsw_sma_cb) <= sizeof_field(struct sk_buff, cb));

static inline struct ibsw_sma_cb *ibsw_sma_cb(struct sk_buff *skb)
{
	return (struct ibsw_sma_cb *)skb->cb;
}

/* SMPs waiting for the SMAs (process context); more are dropped */
#define IBSW_SMA_QLEN		256
/* GMPs waiting for the switches' agents, likewise */
#define IBSW_AGENT_QLEN		256

struct ibsw_agent;
struct ibsw_engine;
struct ibsw_mgmt;
struct ibsw_port;
struct ibsw_remote;
struct ibsw_sma;

/*
 * Per-VL counters kept per CPU: the data and packet counters, the first
 * of enum ibsw_counter. The engine keeps the others (ibsw_engine_cnt).
 */
#define IBSW_NR_PCPU_VL_COUNTERS	(IBSW_CNT_RCV_PKTS + 1)

/**
 * struct ibsw_pcpu_stats - one CPU's share of a port's counters
 * @syncp: makes 64-bit reads consistent on 32-bit machines
 * @port: port counters (those of struct ibsw_engine_cnt unused)
 * @vl: per-VL data and packet counters
 */
struct ibsw_pcpu_stats {
	struct u64_stats_sync	syncp;
	u64_stats_t		port[IBSW_NR_COUNTERS];
	u64_stats_t		vl[IBSW_NR_DATA_VLS][IBSW_NR_PCPU_VL_COUNTERS];
};

/**
 * struct ibsw_stats - the counters of a port, a switch's or a management
 *	HCA's (stats.c)
 * @pcpu: each CPU's share, raw units (data in bytes)
 * @base: the sums at the last clear, which readers subtract
 * @vl_base: likewise per VL
 */
struct ibsw_stats {
	struct ibsw_pcpu_stats __percpu	*pcpu;
	u64				base[IBSW_NR_COUNTERS];
	u64				vl_base[IBSW_NR_DATA_VLS][IBSW_NR_PCPU_VL_COUNTERS];
};

/**
 * struct ibsw_sl2vl_tab - SL-to-VL tables of one output port
 * @rcu: frees it after a grace period
 * @nr: entries, the switch's nr_ports + 1
 * @map: table of each input port, 0 the HCA side of a host port
 */
struct ibsw_sl2vl_tab {
	struct rcu_head		rcu;
	unsigned int		nr;
	struct ibsw_sl2vl	map[] __counted_by(nr);
};

struct ibsw_vl_kobj;

/**
 * struct ibsw_port - a switch port
 * @kobj: /sys/class/ibsw/SW/ports/N; its release frees the port
 * @sw: the switch
 * @num: port number, 1 to nr_ports
 * @kind: what it is connected to (RTNL; READ_ONCE in the datapath)
 * @width: link width (RTNL)
 * @speed: link speed (RTNL)
 * @rate_bps: data rate (RTNL; READ_ONCE elsewhere)
 * @hca_bps: a host's HCA injection rate as configured, 0: the default
 *	(RTNL; READ_ONCE elsewhere)
 * @clock_ppm: offset of its transmitter's clock (RTNL; READ_ONCE elsewhere)
 * @nr_vls: OperVLs (RTNL; READ_ONCE in the datapath)
 * @hoq_life: HOQLife of its output (RTNL; READ_ONCE elsewhere; its engine
 *	keeps a copy)
 * @lid: LID of a host port
 * @vlarb: arbitration table of the output, as configured
 * @hca_vlarb: arbitration table of the HCA transmitter, as configured
 * @peer: the other end of a link
 * @netdev: a host port's netdev
 * @upstream: the engine that sends into @in: the HCA's or the peer's
 * @sl2vl: SL-to-VL tables for packets leaving through this port
 * @in: input buffer of each VL
 * @out: output engine
 * @hca: HCA transmitter of a host port or management HCA (allocated for
 *	every port)
 * @mgmt: a management HCA cabled to it
 * @remote: a remote link's end (remote.c)
 * @stats: counters
 * @cc: its SwitchPortCongestionSetting (RTNL)
 * @vls_kobj: sysfs directory vls/
 * @vl_kobj: sysfs directory of each operated VL
 */
struct ibsw_port {
	struct kobject			kobj;
	struct ibsw_switch		*sw;
	unsigned int			num;
	enum ibsw_port_kind		kind;
	enum ibsw_link_width		width;
	enum ibsw_link_speed		speed;
	u64				rate_bps;
	u64				hca_bps;
	s32				clock_ppm;
	u8				nr_vls;
	u8				hoq_life;
	u16				lid;
	struct ibsw_vlarb_table		vlarb;
	struct ibsw_vlarb_table		hca_vlarb;
	struct ibsw_port __rcu		*peer;
	struct net_device __rcu		*netdev;
	struct ibsw_engine __rcu	*upstream;
	struct ibsw_sl2vl_tab __rcu	*sl2vl;
	struct ibsw_credit_buf		in[IBSW_NR_DATA_VLS];
	struct ibsw_engine		*out;
	struct ibsw_engine		*hca;
	struct ibsw_mgmt __rcu		*mgmt;
	struct ibsw_remote __rcu	*remote;
	struct ibsw_stats		stats;
	struct ibsw_cc_port_setting	cc;
	struct kobject			*vls_kobj;
	struct ibsw_vl_kobj		*vl_kobj[IBSW_NR_DATA_VLS];
};

/**
 * struct ibsw_switch - a switch
 * @dev: /sys/class/ibsw/NAME; its release frees the switch
 * @id: index in the fabric
 * @name: unique name
 * @nr_ports: ports 1..@nr_ports
 * @lft: linear forwarding table
 * @ports_kobj: sysfs directory ports/
 * @cc: its SwitchCongestionSetting (RTNL)
 * @cc_threshold_events: times a port VL entered the congestion state
 * @sma_lid: LID of its port 0, as the SM set it (RTNL; READ_ONCE in the
 *	datapath)
 * @sma: its SMA's state (RTNL)
 * @agent: its general service agents' state (RTNL)
 * @ports: the ports, [1..@nr_ports]; [0] unused
 */
struct ibsw_switch {
	struct device			dev;
	u32				id;
	char				name[IBSW_NAME_LEN + 1];
	unsigned int			nr_ports;
	struct ibsw_lft __rcu		*lft;
	struct kobject			*ports_kobj;
	struct ibsw_cc_setting		cc;
	atomic64_t			cc_threshold_events;
	u16				sma_lid;
	struct ibsw_sma			*sma;
	struct ibsw_agent		*agent;
	struct ibsw_port		*ports[];
};

/**
 * struct ibsw_fabric - the one fabric of the kernel
 * @time_scale: wall-clock time per unit of emulated time (READ_ONCE)
 * @pacing: links run at their rates (READ_ONCE)
 * @clock_seed: seed of the ports' clock offsets (RTNL)
 * @clock_ppm: largest clock offset (RTNL)
 * @addrs: address table, destination address -> DLID
 * @switches: switches by id
 * @next_id: id of the next switch
 * @lids: host ports by LID (RCU readable)
 * @nr_hosts: host ports
 * @nr_objs: objects not yet released whose release is this module's code
 *	(switch devices, port and VL kobjects): module exit waits for 0
 * @sma_queue: SMPs for the SMAs of switches and emulated CAs
 * @sma_work: answers them, in process context under RTNL
 * @agent_queue: GMPs for the general service agents of the switches
 * @agent_work: answers them, in process context under RTNL
 */
struct ibsw_fabric {
	u32				time_scale;
	bool				pacing;
	u32				clock_seed;
	u32				clock_ppm;
	struct ibsw_addr_table __rcu	*addrs;
	struct xarray			switches;
	u32				next_id;
	struct xarray			lids;
	u32				nr_hosts;
	atomic_t			nr_objs;
	struct sk_buff_head		sma_queue;
	struct work_struct		sma_work;
	struct sk_buff_head		agent_queue;
	struct work_struct		agent_work;
};

extern struct ibsw_fabric ibsw_fabric;

/*
 * An object whose release runs this module's code is made, or released.
 * A kobject's release can come long after its last visible use (a sysfs
 * reader, or CONFIG_DEBUG_KOBJECT_RELEASE's delay), and kobject_del()
 * drops the parent's reference at once: a port's release may follow its
 * switch's, so each such object is counted, not only the switch devices.
 */
static inline void ibsw_obj_made(void)
{
	atomic_inc(&ibsw_fabric.nr_objs);
}

static inline void ibsw_obj_released(void)
{
	if (atomic_dec_and_test(&ibsw_fabric.nr_objs))
		wake_up_var(&ibsw_fabric.nr_objs);
}

/* Wait until every object counted by ibsw_obj_made() is released */
static inline void ibsw_objs_wait(void)
{
	wait_var_event(&ibsw_fabric.nr_objs, !atomic_read(&ibsw_fabric.nr_objs));
}

/**
 * struct ibsw_host - netdev private data of a host port
 * @port: the switch port, NULL once detached
 * @napi: delivers @rxq to the stack
 * @rxq: packets from the switch, in the order they left the link
 * @rx_on: @napi is enabled and @rxq and @neighq take packets (@rxq.lock;
 *	RTNL to change)
 * @neighq: answers to the host's ARP requests and neighbour solicitations,
 *	handed up by @neigh_timer (neigh.c)
 * @neigh_timer: fires a tick after the first answer queued
 * @net_hold: the host's namespace, held from the netdev's unregistering
 *	until it is freed (ibsw_host_destructor()); NULL when the namespace's
 *	own exit unregisters it
 */
struct ibsw_host {
	struct ibsw_port __rcu	*port;
	struct napi_struct	napi;
	struct sk_buff_head	rxq;
	bool			rx_on;
	struct sk_buff_head	neighq;
	struct timer_list	neigh_timer;
	struct net		*net_hold;
};

/**
 * ibsw_lid_port_rcu() - the host port that has a LID
 * @lid: the LID
 *
 * Context: rcu_read_lock(); the port stays valid until it is unlocked.
 * Return: the port, or NULL.
 */
static inline struct ibsw_port *ibsw_lid_port_rcu(u16 lid)
{
	return xa_load(&ibsw_fabric.lids, lid);
}

/*
 * The datapath: BH disabled, under RCU, no RTNL
 */

/* input.c */
void ibsw_switch_receive(struct ibsw_port *in, struct sk_buff *skb);
void ibsw_credit_release(struct ibsw_port *in, unsigned int vl,
			 unsigned int len);

/* host.c */
u16 ibsw_host_select_queue(struct net_device *dev, struct sk_buff *skb,
			   struct net_device *sb_dev);
netdev_tx_t ibsw_host_xmit(struct sk_buff *skb, struct net_device *dev);
void ibsw_host_deliver(struct ibsw_port *port, struct sk_buff_head *list);
void ibsw_host_rx_drop(struct ibsw_port *port, struct net_device *dev,
		       struct sk_buff_head *list);
int ibsw_host_poll(struct napi_struct *napi, int budget);

/* mad.c */
void ibsw_smp_receive(struct ibsw_port *in, struct sk_buff *skb);
void ibsw_smp_send(struct ibsw_port *in, struct ibsw_port *out,
		   struct sk_buff *skb);
void ibsw_smp_route(struct ibsw_port *in, u16 lid, struct sk_buff *skb);
void ibsw_gmp_receive(struct ibsw_port *in, struct sk_buff *skb);
void ibsw_gmp_send(struct ibsw_switch *sw, struct sk_buff *skb);

/* mgmt_hca.c: what its port's engine sends it, its MAC for RoCEv2 */
void ibsw_mgmt_receive(struct ibsw_mgmt *m, struct sk_buff_head *list);
bool ibsw_mgmt_mac(const struct ibsw_mgmt *m, u8 *mac);

/* neigh.c */
void ibsw_neigh_timer(struct timer_list *t);
void ibsw_neigh_rcv(struct ibsw_port *port, struct net_device *dev,
		    struct sk_buff *skb);

/* Counting, per CPU (stats.c reads and clears) */

/**
 * ibsw_stats_add() - add to a counter
 * @st: the counters
 * @cnt: the counter; data counters take bytes
 * @val: the amount
 *
 * Context: BH (or interrupts) disabled: the per-cpu writer must not be
 * interrupted by another writer on the same CPU.
 */
static inline void ibsw_stats_add(struct ibsw_stats *st,
				  enum ibsw_counter cnt, u64 val)
{
	struct ibsw_pcpu_stats *s = this_cpu_ptr(st->pcpu);

	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->port[cnt], val);
	u64_stats_update_end(&s->syncp);
}

/**
 * ibsw_stats_pkt() - count a packet sent or received, on the port and VL
 * @st: the port's counters
 * @xmit: sent (else received)
 * @vl: its VL on this port
 * @len: its wire length
 *
 * Context: BH (or interrupts) disabled.
 */
static inline void ibsw_stats_pkt(struct ibsw_stats *st, bool xmit,
				  unsigned int vl, unsigned int len)
{
	struct ibsw_pcpu_stats *s = this_cpu_ptr(st->pcpu);
	enum ibsw_counter data = xmit ? IBSW_CNT_XMIT_DATA : IBSW_CNT_RCV_DATA;
	enum ibsw_counter pkts = xmit ? IBSW_CNT_XMIT_PKTS : IBSW_CNT_RCV_PKTS;

	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->port[data], len);
	u64_stats_inc(&s->port[pkts]);
	if (vl < IBSW_NR_DATA_VLS) {
		u64_stats_add(&s->vl[vl][data], len);
		u64_stats_inc(&s->vl[vl][pkts]);
	}
	u64_stats_update_end(&s->syncp);
}

/* The same for a switch port (BH disabled) */
static inline void ibsw_stat_add(struct ibsw_port *port,
				 enum ibsw_counter cnt, u64 val)
{
	ibsw_stats_add(&port->stats, cnt, val);
}

static inline void ibsw_stat_pkt(struct ibsw_port *port, bool xmit,
				 unsigned int vl, unsigned int len)
{
	ibsw_stats_pkt(&port->stats, xmit, vl, len);
}

static inline void ibsw_stat_inc(struct ibsw_port *port,
				 enum ibsw_counter cnt)
{
	ibsw_stats_add(&port->stats, cnt, 1);
}

/* A packet for an output that was gone: PortXmitDiscards, of them inactive */
static inline void ibsw_stat_inactive_discard(struct ibsw_port *port)
{
	ibsw_stats_add(&port->stats, IBSW_CNT_XMIT_DISCARDS, 1);
	ibsw_stats_add(&port->stats, IBSW_CNT_INACTIVE_DISCARDS, 1);
}

/*
 * The control plane: RTNL unless said otherwise
 */

/* fabric.c */
void ibsw_notify_port(struct ibsw_port *port);
int ibsw_lid_claim(struct ibsw_port *port, u16 lid,
		   struct netlink_ext_ack *extack);
int ibsw_host_set_lid(struct ibsw_port *port, u16 lid);
void ibsw_lid_release(struct ibsw_port *port);

/* switch.c */
extern struct class ibsw_class;
void ibsw_switch_destroy_all(void);
void ibsw_fabric_fold_wait(void);
void ibsw_fabric_rescale(void);
void ibsw_fabric_reclock(void);
void ibsw_port_set_rate(struct ibsw_port *port, enum ibsw_link_width width,
			enum ibsw_link_speed speed);

/* host_ctl.c */
extern struct rtnl_link_ops ibsw_link_ops;
struct net_device *ibsw_host_netdev_new(struct ibsw_port *port,
					const char *ifname, struct net *net,
					const u8 *mac,
					struct netlink_ext_ack *extack);
void ibsw_host_attach(struct ibsw_port *port, struct net_device *dev);
void ibsw_host_detach(struct ibsw_port *port, struct list_head *head);

/* ccctl.c */
void ibsw_cc_switch_init(struct ibsw_switch *sw);
void ibsw_cc_port_update(struct ibsw_port *port);

/* stats.c */
int ibsw_stats_alloc(struct ibsw_stats *st);
void ibsw_stats_free(struct ibsw_stats *st);
int ibsw_stats_report(const struct ibsw_stats *st, struct ibsw_counters *cnt,
		      struct ibsw_counters *vl_cnt);
int ibsw_stats_reset(struct ibsw_stats *st, u32 cnt, u32 vl_cnt, u16 vls);
void ibsw_stats_read(struct ibsw_port *port, struct ibsw_counters *cnt,
		     struct ibsw_counters *vl_cnt);
int ibsw_stats_clear(struct ibsw_port *port);
int ibsw_stats_clear_sel(struct ibsw_port *port, u32 cnt, u32 vl_cnt,
			 u16 vls);

/* sysfs.c */
extern const struct attribute_group *ibsw_switch_groups[];
extern const struct kobj_type ibsw_port_ktype;
int ibsw_sysfs_ports_add(struct ibsw_switch *sw);
void ibsw_sysfs_ports_del(struct ibsw_switch *sw);
int ibsw_sysfs_vls_update(struct ibsw_port *port);
void ibsw_port_release(struct ibsw_port *port);

#endif /* _IBSW_H */
