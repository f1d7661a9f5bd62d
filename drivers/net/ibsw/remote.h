/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A remote link: a switch port whose peer is a switch port of another
 * kernel, reached over a netdev (design §9). remote.c is its datapath and
 * its link state machine; the wire format and arithmetic are rlink.[ch].
 */
#ifndef _IBSW_REMOTE_H
#define _IBSW_REMOTE_H

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/workqueue.h>

#include "ibsw.h"
#include "rlink.h"

/* HELLO and CREDIT keepalives, wall-clock */
#define IBSW_RL_HELLO_MS	100
/* A peer silent this long has gone: the link goes down */
#define IBSW_RL_DEAD_MS		3000

enum ibsw_rl_state {
	IBSW_RL_DOWN,
	IBSW_RL_UP,
};

/* Counters of a remote link (sysfs ports/N/remote/) */
enum ibsw_rl_counter {	/* the order of IBSW_A_REMOTE_COUNTERS_* */
	IBSW_RL_TX_FRAMES,
	IBSW_RL_TX_BYTES,
	IBSW_RL_RX_FRAMES,
	IBSW_RL_RX_BYTES,
	IBSW_RL_TX_DROPS,
	IBSW_RL_TX_TOO_BIG,
	IBSW_RL_RX_SEQ_GAPS,
	IBSW_RL_RX_LOST_FRAMES,
	IBSW_RL_RX_LATE,
	IBSW_RL_RX_BAD,
	IBSW_RL_RX_WRONG_EPOCH,
	IBSW_RL_RX_DOWN,
	IBSW_RL_RX_OVERRUN,
	IBSW_RL_CREDIT_TX,
	IBSW_RL_CREDIT_RX,
	IBSW_RL_HELLO_TX,
	IBSW_RL_HELLO_RX,
	IBSW_RL_LINK_UPS,
	IBSW_RL_LINK_DOWNS,
	IBSW_RL_MISMATCHES,
	IBSW_RL_NR_COUNTERS
};

static_assert((int)IBSW_RL_NR_COUNTERS == (int)IBSW_A_REMOTE_COUNTERS_MAX);

extern const char * const ibsw_rl_counter_names[IBSW_RL_NR_COUNTERS];

struct ibsw_rl_pcpu {
	struct u64_stats_sync	syncp;
	u64_stats_t		cnt[IBSW_RL_NR_COUNTERS];
};

/**
 * struct ibsw_remote - a remote link's end in this kernel
 * @node: in the table of links, by lower netdev and link id (RCU)
 * @rcu: frees it after a grace period
 * @port: the switch port
 * @dev: the netdev that carries it (a reference held)
 * @dev_tracker: for that reference
 * @link_id: the link's id, the same at both ends
 * @peer_mac: where frames go: configured, or learned from the peer's
 *	frames, broadcast until then
 * @mac_fixed: @peer_mac was configured
 * @settings: this end's, as configured (RTNL)
 * @epoch: this end's epoch
 * @state: enum ibsw_rl_state (RTNL; READ_ONCE elsewhere)
 * @tx_lock: numbers frames and counts their blocks in the order they go
 *	to @dev, so no CREDIT's FCTBS overtakes the DATA it counts
 * @tx_seq: number of the next frame
 * @tx: the transmitter's state per VL (@tbs under @tx_lock, @cl under
 *	@rx_lock)
 * @credit: the peer's input buffers as this end sees them: the output
 *	engine's downstream credits, free = FCCL - FCTBS
 * @rx_lock: the receiver's state below
 * @peer_epoch: the peer's epoch, 0 until heard
 * @have_seq: a frame of @peer_epoch was taken
 * @rx_last: the newest frame number taken
 * @rx: the receiver's state per VL; @abr read locklessly to advertise
 * @peer: the peer's settings, from its last HELLO
 * @peer_name: its switch's name
 * @peer_port: its port number
 * @heard_us: the peer's last HELLO carried our epoch
 * @mismatch: why the last HELLO could not bring the link up
 * @heard_ns: the time stamp of the peer's newest HELLO, to echo
 * @heard_at: when it arrived (ktime_get_ns())
 * @rtt: the round trips the peer's echoes measured
 * @want: what the state work must do (IBSW_RL_WANT_*), under @rx_lock
 * @last_rx: jiffies of the last frame from the peer
 * @advertised: FCCL last sent, per VL
 * @credit_ns: how long freed credits may wait (ibsw_rl_credit_delay_ns(),
 *	kept current by @work)
 * @credit_timer: sends a CREDIT the freed credits wait for
 * @work: HELLO keepalives, link up and down (process context, RTNL)
 * @stats: counters, per CPU
 */
struct ibsw_remote {
	struct hlist_node		node;
	struct rcu_head			rcu;
	struct ibsw_port		*port;
	struct net_device		*dev;
	netdevice_tracker		dev_tracker;
	u32				link_id;
	u8				peer_mac[ETH_ALEN];
	bool				mac_fixed;
	struct ibsw_rl_settings		settings;
	u32				epoch;
	u8				state;

	spinlock_t			tx_lock;	/* see above */
	u32				tx_seq;
	struct ibsw_rl_tx_vl		tx[IBSW_NR_DATA_VLS];
	struct ibsw_credit_buf		credit[IBSW_NR_DATA_VLS];

	spinlock_t			rx_lock;	/* see above */
	u32				peer_epoch;
	bool				have_seq;
	u32				rx_last;
	struct ibsw_rl_rx_vl		rx[IBSW_NR_DATA_VLS];
	struct ibsw_rl_settings		peer;
	char				peer_name[IBSW_NAME_LEN + 1];
	u8				peer_port;
	bool				heard_us;
	u8				mismatch;
	u64				heard_ns;
	u64				heard_at;
	struct ibsw_rl_rtt		rtt;
	u8				want;
	unsigned long			last_rx;

	u32				advertised[IBSW_NR_DATA_VLS];
	u64				credit_ns;
	struct hrtimer			credit_timer;
	struct delayed_work		work;
	struct ibsw_rl_pcpu __percpu	*stats;
};

/* What ibsw_remote_rcv() leaves for the state work (@want) */
#define IBSW_RL_WANT_UP		BIT(0)
#define IBSW_RL_WANT_DOWN	BIT(1)

#define IBSW_RL_HASH_BITS	6
extern DECLARE_HASHTABLE(ibsw_remotes, IBSW_RL_HASH_BITS);
extern struct packet_type ibsw_rl_ptype;

static inline u32 ibsw_rl_hash(const struct net_device *dev, u32 link_id)
{
	return link_id ^ dev->ifindex;
}

/* remote.c: the datapath */
void ibsw_remote_xmit(struct ibsw_port *port, struct sk_buff_head *list);
void ibsw_remote_credit_freed(struct ibsw_port *port, unsigned int vl);
void ibsw_rl_add(struct ibsw_remote *rl, enum ibsw_rl_counter c, u64 v);
void ibsw_rl_inc(struct ibsw_remote *rl, enum ibsw_rl_counter c);
struct ibsw_remote *ibsw_rl_find_rcu(const struct net_device *dev,
				     u32 link_id);
struct sk_buff *ibsw_rl_alloc(struct ibsw_remote *rl, unsigned int len);
void ibsw_rl_send(struct ibsw_remote *rl, struct sk_buff *skb,
		  enum ibsw_rl_type type, int vl, unsigned int blocks);
void ibsw_rl_send_credit(struct ibsw_remote *rl);
enum hrtimer_restart ibsw_rl_credit_timer(struct hrtimer *t);

/* remote.c: the control plane (RTNL) */
int ibsw_remote_attach(struct ibsw_port *port, struct net_device *dev,
		       u32 link_id, const u8 *peer_mac,
		       struct netlink_ext_ack *extack);
void ibsw_remote_detach(struct ibsw_port *port);
void ibsw_remote_read(struct ibsw_remote *rl, u64 *cnt);
void ibsw_remote_loop(struct ibsw_remote *rl, u64 *loop);
int ibsw_remote_init(void);
void ibsw_remote_exit(void);

#endif /* _IBSW_REMOTE_H */
