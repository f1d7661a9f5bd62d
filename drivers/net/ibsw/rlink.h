/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Remote links: the wire format and the pure logic of a switch-to-switch
 * link whose two ends are in two kernels (design §9). remote.c carries it
 * on a netdev; this file knows no netdev, so KUnit tests it
 * (tests/rlink_kunit.c).
 *
 * A frame is an Ethernet header (EtherType 0x88B5, IEEE 802 Local
 * Experimental 1), the link header and a body of its type:
 *
 *   DATA    the packet's LRH fields (what struct ibsw_skb_cb holds), then
 *           the packet as the switches carry it (a RoCEv2 frame, or a
 *           management HCA's LRH-first packet)
 *   CREDIT  per VL, FCTBS (64-byte blocks sent) and FCCL (the limit of
 *           blocks the sender of the CREDIT lets its peer reach)
 *   HELLO   the sender's settings and the epoch it last heard from its
 *           peer; the link is up once each end has heard the other's.
 *           Its time stamps measure the carrier's round trip as NTP
 *           does: the peer echoes the newest one it heard, with how long
 *           it held it
 *   BYE     the sender's port goes down (link deleted, switch gone)
 *
 * Credits are IBA's (vol 1 7.9), with 32-bit absolute counters in place
 * of 12-bit ones: a lost CREDIT is superseded by the next, and a lost DATA
 * frame's blocks come back when the next CREDIT's FCTBS resets the
 * receiver's ABR. That is right only if no frame older than a CREDIT is
 * taken after it, so the receiver drops every frame older than the
 * newest it has taken (ibsw_rl_seq_check()).
 */
#ifndef _IBSW_RLINK_H
#define _IBSW_RLINK_H

#include <linux/time64.h>
#include <linux/types.h>

#include "ctl.h"

#define IBSW_RL_ETHERTYPE	0x88B5
#define IBSW_RL_MAGIC		0x4942	/* "IB" */
#define IBSW_RL_VERSION		2

enum ibsw_rl_type {
	IBSW_RL_DATA = 1,
	IBSW_RL_CREDIT,
	IBSW_RL_HELLO,
	IBSW_RL_BYE,
};

/**
 * struct ibsw_rl_hdr - the link header, first in every frame
 * @magic: %IBSW_RL_MAGIC
 * @version: %IBSW_RL_VERSION
 * @type: enum ibsw_rl_type
 * @link_id: the link, as both ends were configured
 * @epoch: the sender's epoch: random, new each time its port is set up
 * @seq: the sender's frame number in its epoch, every type counted
 */
struct ibsw_rl_hdr {
	__be16	magic;
	u8	version;
	u8	type;
	__be32	link_id;
	__be32	epoch;
	__be32	seq;
} __packed;

#define IBSW_RL_HDR_LEN		16
static_assert(sizeof(struct ibsw_rl_hdr) == IBSW_RL_HDR_LEN);

/**
 * struct ibsw_rl_data - what a DATA frame says of its packet: what an
 *	IB link's LRH would, and where the RoCEv2 headers are
 * @vl: the VL it crossed the link on, the receiving buffer's
 * @sl: service level
 * @flags: IBSW_CB_* of the packet (FECN, BECN, CC eligible, native IB)
 * @rsvd: 0
 * @wire_len: IB wire length (LRH to VCRC): the credits it takes
 * @dlid: destination LID
 * @slid: source LID
 * @bth_off: offset of the BTH from the packet's start
 * @l4_off: offset of the UDP header
 * @rsvd2: 0
 */
struct ibsw_rl_data {
	u8	vl;
	u8	sl;
	u8	flags;
	u8	rsvd;
	__be16	wire_len;
	__be16	dlid;
	__be16	slid;
	__be16	bth_off;
	__be16	l4_off;
	__be16	rsvd2;
} __packed;

#define IBSW_RL_DATA_LEN	16
static_assert(sizeof(struct ibsw_rl_data) == IBSW_RL_DATA_LEN);

/**
 * struct ibsw_rl_vl_credit - one VL's credit counters in a CREDIT
 * @fctbs: 64-byte blocks the sender sent on the VL in this epoch pair
 * @fccl: the total of blocks the sender lets its peer have sent: its
 *	ABR plus the free blocks of its buffer
 */
struct ibsw_rl_vl_credit {
	__be32	fctbs;
	__be32	fccl;
} __packed;

/**
 * struct ibsw_rl_credit - body of a CREDIT
 * @nr_vls: VLs described, %IBSW_NR_DATA_VLS
 * @rsvd: 0
 * @vl: VL 0 first
 */
struct ibsw_rl_credit {
	u8				nr_vls;
	u8				rsvd[3];
	struct ibsw_rl_vl_credit	vl[IBSW_NR_DATA_VLS];
} __packed;

#define IBSW_RL_CREDIT_LEN	(4 + 8 * IBSW_NR_DATA_VLS)
static_assert(sizeof(struct ibsw_rl_credit) == IBSW_RL_CREDIT_LEN);

/**
 * struct ibsw_rl_hello - body of a HELLO
 * @peer_epoch: the epoch the sender last heard from its peer, 0 if none
 * @time_scale: the sender's fabric time scale
 * @pacing: its fabric paces links (1) or not (0)
 * @width: its port's enum ibsw_link_width, as configured
 * @speed: its port's enum ibsw_link_speed, as configured
 * @nr_vls: its port's OperVLs
 * @port: its port number
 * @rsvd: 0
 * @sent_ns: the sender's clock (ns) as it sent this HELLO
 * @echo_ns: @sent_ns of the newest HELLO it heard from its peer, 0 if
 *	none
 * @held_ns: how long that HELLO had been here when this one was sent
 * @rsvd2: 0
 * @switch_name: its switch's name, NUL-padded (for the operator)
 */
struct ibsw_rl_hello {
	__be32	peer_epoch;
	__be32	time_scale;
	u8	pacing;
	u8	width;
	u8	speed;
	u8	nr_vls;
	u8	port;
	u8	rsvd[3];
	__be64	sent_ns;
	__be64	echo_ns;
	__be32	held_ns;
	__be32	rsvd2;
	char	switch_name[IBSW_NAME_LEN];
} __packed;

#define IBSW_RL_HELLO_LEN	(40 + IBSW_NAME_LEN)
static_assert(sizeof(struct ibsw_rl_hello) == IBSW_RL_HELLO_LEN);

/**
 * struct ibsw_rl_stamp - a HELLO's time stamps (struct ibsw_rl_hello)
 * @sent_ns: the sender's clock as it sent it
 * @echo_ns: the newest time stamp it heard from its peer, 0 if none
 * @held_ns: how long it held that one before sending this HELLO
 */
struct ibsw_rl_stamp {
	u64	sent_ns;
	u64	echo_ns;
	u32	held_ns;
};

/**
 * struct ibsw_rl_rtt - round trips measured by HELLOs (wall-clock ns)
 * @samples: how many
 * @last: the newest
 * @min: the smallest
 * @max: the largest
 * @srtt: smoothed, as TCP's (RFC 6298: a new sample weighs 1/8)
 */
struct ibsw_rl_rtt {
	u64	samples;
	u64	last;
	u64	min;
	u64	max;
	u64	srtt;
};

/*
 * How much longer than its IB wire length a carried packet may be: a
 * RoCEv2 frame's Ethernet, IPv6 and UDP headers against the LRH and VCRC
 * they stand for, and Ethernet's padding of short frames.
 */
#define IBSW_RL_PKT_EXTRA	64

/* Bytes a frame adds to the packet it carries, Ethernet header included */
#define IBSW_RL_OVERHEAD	(14 + IBSW_RL_HDR_LEN + IBSW_RL_DATA_LEN)

/**
 * struct ibsw_rl_settings - what both ends of a link must agree on, and
 *	what they train to
 * @time_scale: fabric time scale: must be equal
 * @pacing: fabric pacing: must be equal
 * @width: port width as configured; the link runs at the narrower
 * @speed: port speed as configured; the link runs at the slower
 * @nr_vls: OperVLs: must be equal (a VL one end has and the other not
 *	would hold its packets for good)
 */
struct ibsw_rl_settings {
	u32	time_scale;
	bool	pacing;
	u8	width;
	u8	speed;
	u8	nr_vls;
};

/* Why a peer's HELLO does not bring the link up */
enum ibsw_rl_mismatch {
	IBSW_RL_MATCH,
	IBSW_RL_BAD_SCALE,
	IBSW_RL_BAD_PACING,
	IBSW_RL_BAD_VLS,
	IBSW_RL_BAD_RATE,
};

/*
 * The receiver's sequence check: what to do with a frame whose number is
 * @seq when the newest taken was @last (@have: one was).
 */
enum ibsw_rl_seq {
	IBSW_RL_SEQ_NEXT,	/* the one expected */
	IBSW_RL_SEQ_GAP,	/* newer: frames in between were lost */
	IBSW_RL_SEQ_OLD,	/* older than the newest taken, or a copy */
};

/**
 * struct ibsw_rl_rx_vl - the receiver's credit state of one VL
 * @abr: blocks received (IBA's ABR), reset to the peer's FCTBS by CREDITs
 * @lost: blocks the peer sent that never arrived
 */
struct ibsw_rl_rx_vl {
	u32	abr;
	u64	lost;
};

/**
 * struct ibsw_rl_tx_vl - the transmitter's credit state of one VL
 * @tbs: blocks sent (IBA's FCTBS)
 * @cl: the newest credit limit the peer granted (IBA's FCCL, as received)
 */
struct ibsw_rl_tx_vl {
	u32	tbs;
	u32	cl;
};

void ibsw_rl_hdr_build(struct ibsw_rl_hdr *h, enum ibsw_rl_type type,
		       u32 link_id, u32 epoch, u32 seq);
int ibsw_rl_hdr_check(const struct ibsw_rl_hdr *h);
enum ibsw_rl_seq ibsw_rl_seq_check(bool have, u32 last, u32 seq,
				   u32 *lost);
void ibsw_rl_data_build(struct ibsw_rl_data *d, unsigned int vl,
			unsigned int sl, unsigned int flags,
			unsigned int wire_len, u16 dlid, u16 slid,
			unsigned int bth_off, unsigned int l4_off);
int ibsw_rl_data_check(const struct ibsw_rl_data *d, unsigned int pkt_len,
		       unsigned int nr_vls);
void ibsw_rl_hello_build(struct ibsw_rl_hello *h, u32 peer_epoch,
			 const struct ibsw_rl_settings *s, unsigned int port,
			 const char *switch_name,
			 const struct ibsw_rl_stamp *t);
void ibsw_rl_hello_parse(const struct ibsw_rl_hello *h,
			 struct ibsw_rl_settings *s, struct ibsw_rl_stamp *t);
void ibsw_rl_stamp_make(struct ibsw_rl_stamp *t, u64 now, u64 heard_ns,
			u64 heard_at);
bool ibsw_rl_rtt_sample(const struct ibsw_rl_stamp *t, u64 now, u64 *rtt);
void ibsw_rl_rtt_add(struct ibsw_rl_rtt *r, u64 rtt);
enum ibsw_rl_mismatch ibsw_rl_settings_match(const struct ibsw_rl_settings *a,
					     const struct ibsw_rl_settings *b);
const char *ibsw_rl_mismatch_name(enum ibsw_rl_mismatch m);
u32 ibsw_rl_tx_grant(struct ibsw_rl_tx_vl *tx, u32 fccl);
void ibsw_rl_rx_sync(struct ibsw_rl_rx_vl *rx, u32 fctbs);
u32 ibsw_rl_fccl(const struct ibsw_rl_rx_vl *rx, unsigned int free);

/* Bounds of how long freed credits wait to be advertised (wall-clock) */
#define IBSW_RL_CREDIT_MIN_NS	(100 * NSEC_PER_USEC)
#define IBSW_RL_CREDIT_MAX_NS	(10 * NSEC_PER_MSEC)
#define IBSW_RL_CREDIT_UNPACED_NS	NSEC_PER_MSEC

u64 ibsw_rl_credit_delay_ns(bool pacing, u64 rate_bps, unsigned int scale,
			    unsigned int buf_credits);

#endif /* _IBSW_RLINK_H */
