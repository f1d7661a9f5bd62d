/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control plane of an ibsw fabric, as the netlink family (netlink.c,
 * netlink_cc.c) and the module's init/exit ladder (main.c) see it. The objects behind it
 * (ibsw.h) stay opaque here, so the netlink code only marshals.
 *
 * Locking: every function here runs in process context with RTNL held
 * (ASSERT_RTNL()), may sleep, and reports a rejection in @extack with a
 * message that names the bad value. Control-plane state is only changed
 * under RTNL; the datapath reads it under RCU.
 *
 * Notifications: the functions that change something send the matching
 * notification to the monitor group themselves (through ibsw_nl_notify_*()),
 * so a change made any other way (a host netdev or its namespace deleted)
 * is announced too. They call them unconditionally: whether anything is
 * sent (the family registered, someone listening) is decided in netlink.c
 * alone.
 */
#ifndef _IBSW_CTL_H
#define _IBSW_CTL_H

#include <linux/bitops.h>
#include <linux/if_ether.h>
#include <linux/if.h>
#include <linux/types.h>

#include <uapi/linux/ibsw.h>

#include "fwd.h"
#include "vlarb.h"

struct net;
struct netlink_ext_ack;
struct ibsw_switch;

/*
 * Counters of a port and of its VLs, in the order of the uapi's
 * IBSW_A_COUNTERS_* (attribute = IBSW_A_COUNTERS_XMIT_DATA + counter).
 * Data counters hold bytes of IB wire length; they are reported in 32-bit
 * words (bytes / 4), as the IBA counts them. XMIT_WAIT holds ticks.
 */
enum ibsw_counter {
	IBSW_CNT_XMIT_DATA,
	IBSW_CNT_RCV_DATA,
	IBSW_CNT_XMIT_PKTS,
	IBSW_CNT_RCV_PKTS,
	IBSW_CNT_XMIT_WAIT,
	IBSW_CNT_XMIT_DISCARDS,
	IBSW_CNT_RCV_ERRORS,
	IBSW_CNT_RCV_SWITCH_RELAY_ERRORS,
	IBSW_CNT_RCV_FOREIGN,
	IBSW_CNT_RCV_VL_DISCARDS,
	IBSW_CNT_RCV_OVERSIZE,
	IBSW_CNT_NEIGH_REPLIES,
	IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS,
	IBSW_CNT_XMIT_TIME_CONG,
	IBSW_CNT_XMIT_FECN,
	IBSW_CNT_RCV_FECN,
	IBSW_CNT_RCV_BECN,
	IBSW_CNT_XMIT_LATE,
	IBSW_CNT_HCA_DISCARDS,
	IBSW_CNT_RCV_CONSTRAINT_ERRORS,
	IBSW_CNT_VL15_DROPPED,
	IBSW_CNT_MKEY_VIOLATIONS,
	IBSW_CNT_INACTIVE_DISCARDS,
	IBSW_CNT_HOQ_DISCARDS,
	IBSW_NR_COUNTERS
};

static_assert((int)IBSW_NR_COUNTERS == (int)IBSW_A_COUNTERS_MAX);

/* Counters kept per VL too, as bits of enum ibsw_counter */
#define IBSW_VL_COUNTERS	(BIT(IBSW_CNT_XMIT_DATA) |		\
				 BIT(IBSW_CNT_RCV_DATA) |		\
				 BIT(IBSW_CNT_XMIT_PKTS) |		\
				 BIT(IBSW_CNT_RCV_PKTS) |		\
				 BIT(IBSW_CNT_XMIT_WAIT) |		\
				 BIT(IBSW_CNT_XMIT_TIME_CONG) |		\
				 BIT(IBSW_CNT_XMIT_FECN))
#define IBSW_NR_VL_COUNTERS	7
static_assert(hweight32(IBSW_VL_COUNTERS) == IBSW_NR_VL_COUNTERS);

/**
 * ibsw_counter_per_vl() - is a counter kept per VL too?
 * @cnt: the counter
 *
 * Return: true for the counters of %IBSW_VL_COUNTERS.
 */
static inline bool ibsw_counter_per_vl(unsigned int cnt)
{
	return cnt < IBSW_NR_COUNTERS && (IBSW_VL_COUNTERS & BIT(cnt));
}

/* sysfs file names, /sys/class/infiniband style: "port_xmit_data", ... */
extern const char * const ibsw_counter_names[IBSW_NR_COUNTERS];

/**
 * struct ibsw_counters - a consistent snapshot of counters
 * @val: value of each counter, as reported (data in 32-bit words)
 */
struct ibsw_counters {
	u64	val[IBSW_NR_COUNTERS];
};

/**
 * struct ibsw_fabric_info - the fabric's settings and sizes
 * @time_scale: wall-clock time per unit of emulated time
 * @pacing: links transmit at their data rates
 * @clock_seed: seed of the ports' clock offsets
 * @clock_ppm: largest clock offset, ppm
 * @nr_switches: switches
 * @nr_hosts: host ports
 * @nr_addrs: entries of the address table
 */
struct ibsw_fabric_info {
	u32	time_scale;
	bool	pacing;
	u32	clock_seed;
	u32	clock_ppm;
	u32	nr_switches;
	u32	nr_hosts;
	u32	nr_addrs;
};

void ibsw_fabric_info(struct ibsw_fabric_info *info);
/**
 * struct ibsw_fabric_cfg - a fabric-set request; NULL: not given
 * @time_scale: wall-clock time per unit of emulated time
 * @pacing: links transmit at their data rates
 * @clock_seed: seed of the ports' clock offsets
 * @clock_ppm: largest clock offset, ppm
 */
struct ibsw_fabric_cfg {
	const u32	*time_scale;
	const bool	*pacing;
	const u32	*clock_seed;
	const u32	*clock_ppm;
};

int ibsw_fabric_set(const struct ibsw_fabric_cfg *cfg,
		    struct netlink_ext_ack *extack);

int ibsw_addr_set(const struct ibsw_addr *addrs, unsigned int nr,
		  struct netlink_ext_ack *extack);
bool ibsw_addr_get(unsigned int i, struct ibsw_addr *addr);

/**
 * struct ibsw_switch_info - what identifies a switch
 * @id: index, assigned at creation, never reused while the module is loaded
 * @name: unique name
 * @nr_ports: ports 1..@nr_ports
 * @lft_top: LinearFDBTop, 0 without a forwarding table
 */
struct ibsw_switch_info {
	u32	id;
	char	name[IBSW_NAME_LEN + 1];
	u32	nr_ports;
	u32	lft_top;
};

struct ibsw_switch *ibsw_switch_create(const char *name, unsigned int nr_ports,
				       struct netlink_ext_ack *extack);
void ibsw_switch_destroy(struct ibsw_switch *sw);
struct ibsw_switch *ibsw_switch_find(const char *name);
struct ibsw_switch *ibsw_switch_next(u32 id);
void ibsw_switch_info(const struct ibsw_switch *sw,
		      struct ibsw_switch_info *info);

int ibsw_switch_set_lft(struct ibsw_switch *sw, const u8 *ports,
			unsigned int len, struct netlink_ext_ack *extack);
struct ibsw_lft;
void ibsw_switch_publish_lft(struct ibsw_switch *sw, struct ibsw_lft *lft);
unsigned int ibsw_switch_get_lft(const struct ibsw_switch *sw, u8 *buf,
				 unsigned int size);

/* Which fields of struct ibsw_port_cfg are given */
#define IBSW_PORT_CFG_WIDTH		BIT(0)
#define IBSW_PORT_CFG_SPEED		BIT(1)
#define IBSW_PORT_CFG_NR_VLS		BIT(2)
#define IBSW_PORT_CFG_LID		BIT(3)
#define IBSW_PORT_CFG_VLARB_HIGH	BIT(4)
#define IBSW_PORT_CFG_VLARB_LOW		BIT(5)
#define IBSW_PORT_CFG_VLARB_LIMIT	BIT(6)
#define IBSW_PORT_CFG_HCA_RATE		BIT(7)
#define IBSW_PORT_CFG_HCA_VLARB		BIT(8)
#define IBSW_PORT_CFG_HOQ_LIFE		BIT(9)

/**
 * struct ibsw_port_sl2vl - one SL-to-VL table of a port-set request
 * @in_port: input port it applies to, 0 for the HCA side of a host port;
 *	ignored if @all
 * @all: applies to every input port (and the HCA side)
 * @map: VL of each SL
 */
struct ibsw_port_sl2vl {
	u8		in_port;
	bool		all;
	struct ibsw_sl2vl map;
};

/**
 * struct ibsw_port_cfg - a port-set (or link-new, host-new) request
 * @set: IBSW_PORT_CFG_* bits of the scalar fields and lists given
 * @width: link width
 * @speed: link speed
 * @nr_vls: OperVLs, 1 to %IBSW_NR_DATA_VLS
 * @lid: LID of a host port, 0 for none
 * @hca_bps: a host's HCA injection rate in bit/s, 0 for the default
 * @hoq_life: HOQLife of the output, 0 to %IBSW_HOQ_LIFE_MAX
 * @buffer_set: bit v set: @buffer_credits[v] is given
 * @buffer_credits: input buffer size of each VL, in 64-byte credits
 * @vlarb: arbitration lists and limit; only the parts @set names count
 * @hca_vlarb: a host port's HCA arbitration table, whole (the CA's SMA
 *	sets it; netlink only shows it)
 * @nr_sl2vl: entries of @sl2vl
 * @sl2vl: SL-to-VL tables, applied in order
 * @starve_ok: the output's arbitration lists may leave a VL the port
 *	operates without weight (an SM's Set: the IBA allows it, and HOQLife
 *	bounds how long that VL's packets wait); netlink's are refused
 */
struct ibsw_port_cfg {
	u32			set;
	enum ibsw_link_width	width;
	enum ibsw_link_speed	speed;
	u8			nr_vls;
	u16			lid;
	u64			hca_bps;
	u8			hoq_life;
	u16			buffer_set;
	u32			buffer_credits[IBSW_NR_DATA_VLS];
	struct ibsw_vlarb_table	vlarb;
	struct ibsw_vlarb_table	hca_vlarb;
	unsigned int		nr_sl2vl;
	const struct ibsw_port_sl2vl *sl2vl;
	bool			starve_ok;
};

int ibsw_port_set(struct ibsw_switch *sw, unsigned int port,
		  const struct ibsw_port_cfg *cfg,
		  struct netlink_ext_ack *extack);

int ibsw_link_create(struct ibsw_switch *sw, unsigned int port,
		     struct ibsw_switch *peer, unsigned int peer_port,
		     const struct ibsw_port_cfg *cfg,
		     struct netlink_ext_ack *extack);
int ibsw_link_destroy(struct ibsw_switch *sw, unsigned int port,
		      struct netlink_ext_ack *extack);

int ibsw_host_create(struct ibsw_switch *sw, unsigned int port,
		     const char *ifname, struct net *net, const u8 *mac,
		     const struct ibsw_port_cfg *cfg,
		     struct netlink_ext_ack *extack);
struct ibsw_mgmt;
struct ibsw_mgmt *ibsw_mgmt_create(const char *name, u64 guid,
				   const char *desc, struct net *net);
void ibsw_mgmt_destroy(struct ibsw_mgmt *m);
u64 ibsw_mgmt_default_guid(const struct ibsw_switch *sw, unsigned int num);
int ibsw_mgmt_port_create(struct ibsw_switch *sw, unsigned int port,
			  struct ibsw_mgmt *m, u16 lid,
			  struct netlink_ext_ack *extack);
int ibsw_mgmt_port_destroy(struct ibsw_switch *sw, unsigned int port,
			   struct netlink_ext_ack *extack);
void ibsw_mgmt_reap_wait(void);
int ibsw_host_destroy(struct ibsw_switch *sw, unsigned int port,
		      struct netlink_ext_ack *extack);

int ibsw_remote_create(struct ibsw_switch *sw, unsigned int port,
		       struct net_device *dev, u32 remote_id, const u8 *mac,
		       const struct ibsw_port_cfg *cfg,
		       struct netlink_ext_ack *extack);
int ibsw_remote_destroy(struct ibsw_switch *sw, unsigned int port,
			struct netlink_ext_ack *extack);

int ibsw_counters_clear(struct ibsw_switch *sw, unsigned int port,
			struct netlink_ext_ack *extack);

/**
 * struct ibsw_vl_info - one VL of a port
 * @buffer_credits: size of its input buffer, in credits
 * @buffer_free: credits of that buffer free now
 * @cnt: its counters; only those of %IBSW_VL_COUNTERS count
 */
struct ibsw_vl_info {
	u32			buffer_credits;
	u32			buffer_free;
	struct ibsw_counters	cnt;
};

/**
 * struct ibsw_port_info - a snapshot of a port, for a reply
 * @sw: its switch
 * @port: its number
 * @kind: what it is connected to
 * @width: link width
 * @speed: link speed
 * @rate_bps: data rate, bit/s of emulated time
 * @hca_bps: the rate a host's HCA injects at
 * @clock_ppm: offset of the port's transmit clock
 * @nr_vls: OperVLs
 * @hoq_life: HOQLife of the port's output
 * @lid: LID of a host port
 * @peer: the other switch of a link
 * @peer_port: its port
 * @ifname: a host port's netdev name
 * @ifindex: its index
 * @net: its namespace, valid while RTNL is held
 * @mac: its address
 * @vl: per-VL state, 0 to @nr_vls - 1
 * @vlarb: arbitration table of the port's output
 * @hca_vlarb: arbitration table of a host port's HCA
 * @cnt: port counters
 * @ibdev: a management HCA's ib_device name
 * @guid: a management HCA's GUID
 * @remote_id: a remote link's id (@ifname: the netdev carrying it; @peer's
 *	name and @peer_port: the peer as it announced itself, if heard)
 * @remote_state: its enum ibsw_remote_state
 * @remote_cnt: its counters (remote.h's enum ibsw_rl_counter)
 * @remote_loop: its credit loop, IBSW_A_REMOTE_LOOP_* - 1 (nanoseconds)
 */
struct ibsw_port_info {
	struct ibsw_switch_info	sw;
	u32			port;
	enum ibsw_port_kind	kind;
	enum ibsw_link_width	width;
	enum ibsw_link_speed	speed;
	u64			rate_bps;
	u64			hca_bps;
	s32			clock_ppm;
	u32			nr_vls;
	u32			hoq_life;
	u32			lid;
	struct ibsw_switch_info	peer;
	u32			peer_port;
	char			ifname[IFNAMSIZ];
	int			ifindex;
	struct net		*net;
	u8			mac[ETH_ALEN];
	struct ibsw_vl_info	vl[IBSW_NR_DATA_VLS];
	struct ibsw_vlarb_table	vlarb;
	struct ibsw_vlarb_table	hca_vlarb;
	struct ibsw_counters	cnt;
	char			ibdev[64];
	u64			guid;
	u32			remote_id;
	u8			remote_state;
	u64			remote_cnt[IBSW_A_REMOTE_COUNTERS_MAX];
	u64			remote_loop[IBSW_A_REMOTE_LOOP_MAX];
};

int ibsw_port_info(const struct ibsw_switch *sw, unsigned int port,
		   struct ibsw_port_info *info);
int ibsw_port_get_sl2vl(const struct ibsw_switch *sw, unsigned int port,
			unsigned int in_port, struct ibsw_sl2vl *map);

/* Congestion control (ccctl.c): SwitchCongestionSetting and friends */

/* Bytes of a 256-bit port mask: bit n (port n) is bit n % 8 of byte 31 - n / 8 */
#define IBSW_CC_MASK_BYTES	32

/* Which fields of struct ibsw_cc_port_setting a cc-set gives */
#define IBSW_CC_PORT_VALID		BIT(0)
#define IBSW_CC_PORT_CONTROL_TYPE	BIT(1)
#define IBSW_CC_PORT_THRESHOLD		BIT(2)
#define IBSW_CC_PORT_PACKET_SIZE	BIT(3)
#define IBSW_CC_PORT_MARKING_RATE	BIT(4)

/**
 * struct ibsw_cc_port_setting - SwitchPortCongestionSetting of a port
 *	(Control_Type 0), with its state in a reply
 * @port: port number
 * @set: in a request, the IBSW_CC_PORT_* fields given
 * @valid: the values below override the switch's
 * @control_type: 0 (congestion control); 1 (credit starvation) is refused
 * @threshold: 0 to 15
 * @packet_size: in credits
 * @marking_rate: eligible packets left unmarked between marked ones
 * @vls_congested: in a reply, bit v: VL v is in the congestion state
 */
struct ibsw_cc_port_setting {
	u32	port;
	u32	set;
	u8	valid;
	u8	control_type;
	u8	threshold;
	u8	packet_size;
	u16	marking_rate;
	u32	vls_congested;
};

/* Which fields of struct ibsw_cc_setting a cc-set gives */
#define IBSW_CC_SET_VICTIM_MASK		BIT(0)
#define IBSW_CC_SET_CREDIT_MASK		BIT(1)
#define IBSW_CC_SET_THRESHOLD		BIT(2)
#define IBSW_CC_SET_PACKET_SIZE		BIT(3)
#define IBSW_CC_SET_CS_THRESHOLD	BIT(4)
#define IBSW_CC_SET_CS_RETURN_DELAY	BIT(5)
#define IBSW_CC_SET_MARKING_RATE	BIT(6)
#define IBSW_CC_SET_CONTROL_MAP		BIT(7)
#define IBSW_CC_SET_FILL_COMPARE	BIT(8)

/**
 * struct ibsw_cc_setting - SwitchCongestionSetting of a switch
 * @set: in a request, the IBSW_CC_SET_* fields given
 * @control_map: IBSW_CC_CONTROL_MAP_* of the request (with
 *	%IBSW_CC_SET_CONTROL_MAP: only those components apply); in a reply,
 *	the components the last cc-set applied
 * @victim_mask: ports that may enter the congestion state as victims
 * @credit_mask: ports that apply credit starvation (only zero)
 * @threshold: 0 (off) to 15
 * @packet_size: in credits
 * @cs_threshold: credit starvation threshold (only 0)
 * @cs_return_delay: credit starvation return delay (only 0)
 * @marking_rate: eligible packets left unmarked between marked ones
 * @fill_compare: IBSW_CC_FILL_COMPARE_*, how the VoQs' fills meet the
 *	threshold; not a SwitchCongestionSetting field, so no Control_Map
 *	component selects it
 */
struct ibsw_cc_setting {
	u32	set;
	u32	control_map;
	u8	victim_mask[IBSW_CC_MASK_BYTES];
	u8	credit_mask[IBSW_CC_MASK_BYTES];
	u8	threshold;
	u8	packet_size;
	u8	cs_threshold;
	u16	cs_return_delay;
	u16	marking_rate;
	u8	fill_compare;
};

/**
 * struct ibsw_cc_info - a switch's congestion control, for a reply
 * @info: CongestionInfo (0: no credit starvation)
 * @sw: the switch's settings
 * @nr_ports: entries of @port
 * @port: settings and state of ports 1..@nr_ports, at [0..@nr_ports - 1]
 */
struct ibsw_cc_info {
	u16				info;
	struct ibsw_cc_setting		sw;
	unsigned int			nr_ports;
	struct ibsw_cc_port_setting	port[IBSW_MAX_PORTS];
};

int ibsw_cc_get(const struct ibsw_switch *sw, struct ibsw_cc_info *info);
int ibsw_cc_set(struct ibsw_switch *sw, const struct ibsw_cc_setting *req,
		const struct ibsw_cc_port_setting *ports, unsigned int nr,
		struct netlink_ext_ack *extack);

/**
 * struct ibsw_cc_log_event - a CongestionLogEvent (switch)
 * @slid: source LID (of the sending HCA port), 0 if unknown
 * @dlid: destination LID
 * @sl: service level
 * @timestamp: emulated time, 1.024 us units
 * @port: output port that marked the packet
 * @vl: its VL
 */
struct ibsw_cc_log_event {
	u32	slid;
	u32	dlid;
	u32	sl;
	u32	timestamp;
	u32	port;
	u32	vl;
};

/**
 * struct ibsw_cc_log_info - a switch's CongestionLog
 * @events_counter: marking events since the log was last cleared
 * @threshold_events: times a port VL entered the congestion state
 * @current_timestamp: emulated time now, 1.024 us units
 * @port_map: ports that marked since the last clear (256-bit mask)
 * @nr_events: entries of @event
 * @event: the most recent events, oldest first
 */
struct ibsw_cc_log_info {
	u32			events_counter;
	u64			threshold_events;
	u32			current_timestamp;
	u8			port_map[IBSW_CC_MASK_BYTES];
	unsigned int		nr_events;
	struct ibsw_cc_log_event event[IBSW_CC_LOG_EVENTS];
};

void ibsw_cc_log_get(struct ibsw_switch *sw, struct ibsw_cc_log_info *info);
void ibsw_cc_log_clear(struct ibsw_switch *sw);

/* Object lifetimes: main.c's ladder */
int ibsw_core_init(void);
void ibsw_core_exit(void);

/* netlink.c */
int ibsw_nl_init(void);
void ibsw_nl_exit(void);
void ibsw_nl_notify_fabric(void);
void ibsw_nl_notify_switch(const struct ibsw_switch *sw, u8 cmd);
void ibsw_nl_notify_port(const struct ibsw_switch *sw, unsigned int port);

/* netlink_cc.c */
void ibsw_nl_notify_cc(const struct ibsw_switch *sw);

#endif /* _IBSW_CTL_H */
