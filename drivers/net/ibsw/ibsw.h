/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ibsw internals: the fabric, switches, ports, output port engines, and
 * the prototypes the core files share. netlink.c sees none of this; its
 * contract is ctl.h.
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
#include <linux/hrtimer.h>
#include <linux/kobject.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/xarray.h>

#include "cc.h"
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

/* Input ports of an engine: 0 (a host's HCA side) to IBSW_MAX_PORTS */
#define IBSW_MAX_SRC		(IBSW_MAX_PORTS + 1)

/* Packets an engine sends in one run, catching up or unpaced */
#define IBSW_ENGINE_BATCH	64

/* Engines one CPU runs nested before it defers to their timers */
#define IBSW_ENGINE_DEPTH	4

/* Passes a run makes on request before it leaves the rest to the timer */
#define IBSW_ENGINE_PASSES	4

/*
 * Packets a host port's RX queue holds for NAPI: the link is paced, so
 * only a stalled receiver (or pacing off) fills it.
 */
#define IBSW_HOST_RXQ_MAX	4096

/*
 * Timer slack a busy link catches up on (design §2's max_lag): the test
 * VM's soft hrtimers fire up to a few milliseconds late.
 */
#define IBSW_PACE_SLACK_NS	(5 * NSEC_PER_MSEC)

/* Most an HCA FIFO holds before the netdev queue of its VL stops */
#define IBSW_HCA_FIFO_MAX	(256 * 1024)

/*
 * Most it ever holds: a stopped queue lets one more packet in, so only a
 * sender that ignores the stop (none should) reaches this; its packets
 * are dropped (hca_discards) rather than growing the FIFO without bound.
 */
#define IBSW_HCA_FIFO_CAP	(2 * IBSW_HCA_FIFO_MAX)

/* Index of the port-wide entry in the PortXmitWait arrays */
#define IBSW_WAIT_PORT		IBSW_NR_DATA_VLS

/* ibsw_skb_cb flags */
#define IBSW_CB_FECN		BIT(0)	/* BTH FECN is set */
#define IBSW_CB_BECN		BIT(1)	/* BTH BECN is set */
#define IBSW_CB_CC_ELIGIBLE	BIT(2)	/* a unicast request or read response */

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

struct ibsw_port;

/**
 * struct ibsw_cc_log - a switch's CongestionLog
 * @lock: protects the rest; taken once per marked packet, under an engine
 *	lock (engine lock -> log lock, never the other way)
 * @ring: the most recent marking events
 * @events: LogEventsCounter: marking events since the last clear
 * @port_map: ports that marked since the last clear
 * @threshold_events: times a port VL entered the congestion state
 */
struct ibsw_cc_log {
	spinlock_t		lock;	/* the log, see above */
	struct ibsw_cc_ring	ring;
	u32			events;
	u8			port_map[IBSW_CC_MASK_LEN];
	atomic64_t		threshold_events;
};

/**
 * struct ibsw_engine - a transmitter: a switch output port or a host's HCA
 * @lock: protects everything below but @timer, @port, @hca and @nr_src
 * @timer: soft hrtimer that runs the engine
 * @port: the port it belongs to
 * @hca: the HCA transmitter of a host port (sources: per-VL FIFOs, index
 *	0); otherwise a switch output port (sources: VoQs per input port)
 * @nr_src: sources per VL
 * @open: accepts packets; false while the port is unconnected
 * @scheduled: the timer is armed (or about to run)
 * @running: a context owns the run (ibsw_engine_step())
 * @rerun: the owner of the run must pass once more
 * @peer: link: the port it delivers to
 * @down: input buffers of the receiver (NULL: always credit, a host HCA)
 * @queued: VLs with a packet queued
 * @last_src: input port served last, per VL (round-robin)
 * @busy: input ports with a packet queued, per VL
 * @arb: VL arbiter
 * @rate_bps: data rate of the link, what its counters are in
 * @pace_bps: rate it sends at: @rate_bps off by its clock offset, or an
 *	HCA's injection rate
 * @busy_until: wall-clock ns at which the packet on the wire has left
 * @backlog: when the timer was armed, packets could follow the one on the
 *	wire: a timer later than the slack loses the link time
 * @wire: the packet on the wire, or NULL
 * @fifo_bytes: HCA: wire bytes in each VL's FIFO
 * @fifo_limit: HCA: FIFO bytes at which the VL's netdev queue stops
 * @wait_mask: which PortXmitWait clocks run (bit v: VL v; bit 15: port)
 * @wait_last: when they were last accounted
 * @wait_ns: accumulated waiting, wall-clock ns, since @wait_ticks
 * @wait_ticks: waiting converted at earlier rates
 * @late_ns: wall-clock ns the busy link lost to a late run, since
 *	@late_ticks
 * @late_ticks: that time converted at earlier rates
 * @cc: congestion control settings of a switch output (threshold 0: off)
 * @cc_level: entry and exit fills of each VL
 * @cc_fill: credits queued per VL, over all input ports
 * @cc_state: VLs in the congestion state
 * @cc_victim: VLs that are victims, not roots (@cc_root_run)
 * @cc_root_run: per VL, passes in a row that ended with credit or nothing
 *	queued (ibsw_cc_root_run())
 * @cc_mark: Marking_Rate state, per VL
 * @cc_time: time in the congestion state, wall-clock ns, since @cc_ticks
 * @cc_ticks: that time converted at earlier rates
 * @cc_fecn: packets marked, per VL and (%IBSW_CC_PORT) in all
 * @voq: the queues, [src * IBSW_NR_DATA_VLS + vl]
 */
struct ibsw_engine {
	spinlock_t		lock;	/* the engine state, see above */
	struct hrtimer		timer;
	struct ibsw_port	*port;
	bool			hca;
	unsigned int		nr_src;

	bool			open;
	bool			scheduled;
	bool			running;
	bool			rerun;
	struct ibsw_port	*peer;
	struct ibsw_credit_buf	*down;
	u16			queued;
	u8			last_src[IBSW_NR_DATA_VLS];
	unsigned long		busy[IBSW_NR_DATA_VLS][BITS_TO_LONGS(IBSW_MAX_SRC)];
	struct ibsw_vlarb	arb;
	u64			rate_bps;
	u64			pace_bps;
	u64			busy_until;
	bool			backlog;
	struct sk_buff		*wire;
	u32			fifo_bytes[IBSW_NR_DATA_VLS];
	u32			fifo_limit;

	u16			wait_mask;
	u64			wait_last;
	u64			wait_ns[IBSW_NR_DATA_VLS + 1];
	u64			wait_ticks[IBSW_NR_DATA_VLS + 1];
	u64			late_ns;
	u64			late_ticks;

	struct ibsw_cc_params	cc;
	struct ibsw_cc_level	cc_level[IBSW_NR_DATA_VLS];
	u32			cc_fill[IBSW_NR_DATA_VLS];
	u16			cc_state;
	u16			cc_victim;
	u8			cc_root_run[IBSW_NR_DATA_VLS];
	struct ibsw_cc_marker	cc_mark[IBSW_NR_DATA_VLS];
	struct ibsw_cc_clock	cc_time;
	u64			cc_ticks[IBSW_NR_DATA_VLS + 1];
	u64			cc_fecn[IBSW_NR_DATA_VLS + 1];

	struct sk_buff_head	voq[];
};

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
 * struct ibsw_engine_cnt - the counters an output engine keeps
 * @wait: PortXmitWait ticks, per VL and (%IBSW_WAIT_PORT) the port
 * @time_cong: PortXmitTimeCong ticks, likewise (%IBSW_CC_PORT)
 * @fecn: packets FECN-marked, likewise
 * @late: ticks the busy link lost because the engine ran late
 */
struct ibsw_engine_cnt {
	u64	wait[IBSW_NR_DATA_VLS + 1];
	u64	time_cong[IBSW_NR_DATA_VLS + 1];
	u64	fecn[IBSW_NR_DATA_VLS + 1];
	u64	late;
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
 * @lid: LID of a host port
 * @vlarb: arbitration table of the output, as configured
 * @peer: the other end of a link
 * @netdev: a host port's netdev
 * @upstream: the engine that sends into @in: the HCA's or the peer's
 * @sl2vl: SL-to-VL tables for packets leaving through this port
 * @in: input buffer of each VL
 * @out: output engine
 * @hca: HCA transmitter of a host port (allocated for every port)
 * @stats: counters
 * @base: counter values at the last clear, raw units
 * @vl_base: likewise per VL
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
	u16				lid;
	struct ibsw_vlarb_table		vlarb;
	struct ibsw_port __rcu		*peer;
	struct net_device __rcu		*netdev;
	struct ibsw_engine __rcu	*upstream;
	struct ibsw_sl2vl_tab __rcu	*sl2vl;
	struct ibsw_credit_buf		in[IBSW_NR_DATA_VLS];
	struct ibsw_engine		*out;
	struct ibsw_engine		*hca;
	struct ibsw_pcpu_stats __percpu	*stats;
	u64				base[IBSW_NR_COUNTERS];
	u64				vl_base[IBSW_NR_DATA_VLS][IBSW_NR_PCPU_VL_COUNTERS];
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
 * @cc_log: its CongestionLog
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
	struct ibsw_cc_log		cc_log;
	struct ibsw_port		*ports[];
};

/**
 * struct ibsw_fabric - the one fabric of the kernel
 * @time_scale: wall-clock time per unit of emulated time (READ_ONCE)
 * @pacing: links run at their rates (READ_ONCE)
 * @clock_seed: seed of the ports' clock offsets (RTNL)
 * @clock_ppm: largest clock offset (RTNL)
 * @notify: send netlink notifications (cleared while the module unloads)
 * @addrs: address table, destination address -> DLID
 * @switches: switches by id
 * @next_id: id of the next switch
 * @lids: host ports by LID (RCU readable)
 * @nr_hosts: host ports
 * @nr_devs: switch devices not yet released
 */
struct ibsw_fabric {
	u32				time_scale;
	bool				pacing;
	u32				clock_seed;
	u32				clock_ppm;
	bool				notify;
	struct ibsw_addr_table __rcu	*addrs;
	struct xarray			switches;
	u32				next_id;
	struct xarray			lids;
	u32				nr_hosts;
	atomic_t			nr_devs;
};

extern struct ibsw_fabric ibsw_fabric;

/* fabric.c */
void ibsw_notify_port(struct ibsw_port *port);
struct ibsw_port *ibsw_lid_port_rcu(u16 lid);
int ibsw_lid_claim(struct ibsw_port *port, u16 lid,
		   struct netlink_ext_ack *extack);
void ibsw_lid_release(struct ibsw_port *port);

/* switch.c */
extern const struct class ibsw_class;
void ibsw_switch_destroy_all(void);
void ibsw_fabric_fold_wait(void);
void ibsw_fabric_rescale(void);
void ibsw_fabric_reclock(void);

/* host.c */
extern struct rtnl_link_ops ibsw_link_ops;
struct net_device *ibsw_host_netdev_new(struct ibsw_port *port,
					const char *ifname, struct net *net,
					const u8 *mac,
					struct netlink_ext_ack *extack);
void ibsw_host_attach(struct ibsw_port *port, struct net_device *dev);
void ibsw_host_detach(struct ibsw_port *port, struct list_head *head);
void ibsw_host_deliver(struct ibsw_port *port, struct sk_buff_head *list);

/* engine.c */
struct ibsw_engine *ibsw_engine_alloc(struct ibsw_port *port, bool hca);
void ibsw_engine_free(struct ibsw_engine *e);
void ibsw_engine_open(struct ibsw_engine *e, struct ibsw_port *peer,
		      struct ibsw_credit_buf *down);
void ibsw_engine_close(struct ibsw_engine *e);
void ibsw_engine_trim(struct ibsw_engine *e, unsigned int nr_vls);
void ibsw_engine_set_rate(struct ibsw_engine *e, u64 rate_bps, u64 pace_bps);
void ibsw_engine_rescale(struct ibsw_engine *e);
void ibsw_engine_set_vlarb(struct ibsw_engine *e,
			   const struct ibsw_vlarb_table *table);
void ibsw_engine_read_cnt(struct ibsw_engine *e, struct ibsw_engine_cnt *cnt);
void ibsw_engine_clear_cnt(struct ibsw_engine *e);
void ibsw_engine_set_cc(struct ibsw_engine *e,
			const struct ibsw_cc_params *cc);
u16 ibsw_engine_cc_state(struct ibsw_engine *e);
int ibsw_hca_enqueue(struct ibsw_engine *e, struct sk_buff *skb,
		     struct netdev_queue *txq);
void ibsw_switch_receive(struct ibsw_port *in, struct sk_buff *skb);
void ibsw_credit_release(struct ibsw_port *in, unsigned int vl,
			 unsigned int len);

/* ccctl.c */
void ibsw_cc_switch_init(struct ibsw_switch *sw);
void ibsw_cc_port_update(struct ibsw_port *port);
void ibsw_cc_log_mark(struct ibsw_port *port, unsigned int vl,
		      const struct ibsw_skb_cb *cb, u64 now);

/* stats.c */
int ibsw_stats_alloc(struct ibsw_port *port);
void ibsw_stats_free(struct ibsw_port *port);
void ibsw_stat_add(struct ibsw_port *port, enum ibsw_counter cnt, u64 val);
void ibsw_stat_pkt(struct ibsw_port *port, bool xmit, unsigned int vl,
		   unsigned int len);
void ibsw_stats_read(struct ibsw_port *port, struct ibsw_counters *cnt,
		     struct ibsw_counters *vl_cnt);
int ibsw_stats_clear(struct ibsw_port *port);

/**
 * ibsw_stat_inc() - count one event on a port
 * @port: the port
 * @cnt: the counter
 *
 * Context: BH disabled.
 */
static inline void ibsw_stat_inc(struct ibsw_port *port,
				 enum ibsw_counter cnt)
{
	ibsw_stat_add(port, cnt, 1);
}

/* sysfs.c */
extern const struct attribute_group *ibsw_switch_groups[];
extern const struct kobj_type ibsw_port_ktype;
int ibsw_sysfs_ports_add(struct ibsw_switch *sw);
void ibsw_sysfs_ports_del(struct ibsw_switch *sw);
int ibsw_sysfs_vls_update(struct ibsw_port *port);
void ibsw_port_release(struct ibsw_port *port);

#endif /* _IBSW_H */
