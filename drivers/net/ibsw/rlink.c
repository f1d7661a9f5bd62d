// SPDX-License-Identifier: GPL-2.0
/*
 * Remote links: frame headers, settings, sequence numbers and credit
 * arithmetic, free of netdevs (rlink.h has the format).
 */

#include <kunit/visibility.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "rate.h"
#include "rlink.h"

/*
 * The most a counter may move at once: a larger jump is not a peer's
 * counting but a corrupt or forged frame (2^24 blocks is 1 GiB, far more
 * than any buffer).
 */
#define IBSW_RL_JUMP_MAX	BIT(24)

/* The IBSW_CB_* bits a DATA frame may carry (ibsw.h) */
#define IBSW_RL_FLAGS_MASK	0x0f
#define IBSW_RL_FLAG_IB		0x08

void ibsw_rl_hdr_build(struct ibsw_rl_hdr *h, enum ibsw_rl_type type,
		       u32 link_id, u32 epoch, u32 seq)
{
	h->magic = cpu_to_be16(IBSW_RL_MAGIC);
	h->version = IBSW_RL_VERSION;
	h->type = type;
	h->link_id = cpu_to_be32(link_id);
	h->epoch = cpu_to_be32(epoch);
	h->seq = cpu_to_be32(seq);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_hdr_build);

/**
 * ibsw_rl_hdr_check() - is this a link header we speak?
 * @h: the header
 *
 * Return: its type, or -EPROTO (not ours, another version, a type we do
 * not know, or epoch 0, which no sender uses).
 */
int ibsw_rl_hdr_check(const struct ibsw_rl_hdr *h)
{
	if (h->magic != cpu_to_be16(IBSW_RL_MAGIC) ||
	    h->version != IBSW_RL_VERSION || !h->epoch)
		return -EPROTO;
	if (h->type < IBSW_RL_DATA || h->type > IBSW_RL_BYE)
		return -EPROTO;
	return h->type;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_hdr_check);

/**
 * ibsw_rl_seq_check() - where a frame stands in its sender's sequence
 * @have: a frame of this epoch was taken already
 * @last: the number of the newest taken
 * @seq: the number of this one
 * @lost: set to the frames skipped, for %IBSW_RL_SEQ_GAP
 *
 * The first frame of an epoch is taken as it comes. After it, only newer
 * frames are: a late frame is dropped, even though it is not lost, since
 * a CREDIT sent after it may already have counted its blocks (rlink.h).
 *
 * Return: enum ibsw_rl_seq.
 */
enum ibsw_rl_seq ibsw_rl_seq_check(bool have, u32 last, u32 seq, u32 *lost)
{
	u32 d = seq - last;

	*lost = 0;
	if (!have || d == 1)
		return IBSW_RL_SEQ_NEXT;
	if (d == 0 || d > S32_MAX)
		return IBSW_RL_SEQ_OLD;
	*lost = d - 1;
	return IBSW_RL_SEQ_GAP;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_seq_check);

void ibsw_rl_data_build(struct ibsw_rl_data *d, unsigned int vl,
			unsigned int sl, unsigned int flags,
			unsigned int wire_len, u16 dlid, u16 slid,
			unsigned int bth_off, unsigned int l4_off)
{
	d->vl = vl;
	d->sl = sl;
	d->flags = flags & IBSW_RL_FLAGS_MASK;
	d->rsvd = 0;
	d->wire_len = cpu_to_be16(wire_len);
	d->dlid = cpu_to_be16(dlid);
	d->slid = cpu_to_be16(slid);
	d->bth_off = cpu_to_be16(bth_off);
	d->l4_off = cpu_to_be16(l4_off);
	d->rsvd2 = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_data_build);

/**
 * ibsw_rl_data_check() - can the switch take the packet a DATA describes?
 * @d: its description
 * @pkt_len: the bytes that follow it: the packet
 * @nr_vls: the receiving port's OperVLs
 *
 * The description is the peer's word for what the switch would otherwise
 * parse, so everything the datapath trusts in it is checked here: a VL
 * the port operates, a length that takes credits and fits the largest
 * packet, and headers inside the packet (marking writes at @bth_off and
 * fixes the UDP checksum at @l4_off).
 *
 * Return: 0, -ERANGE for a VL the port does not operate, -EMSGSIZE for a
 * length over the largest packet, -EINVAL for anything else.
 */
int ibsw_rl_data_check(const struct ibsw_rl_data *d, unsigned int pkt_len,
		       unsigned int nr_vls)
{
	unsigned int wire_len = be16_to_cpu(d->wire_len);
	unsigned int bth_off = be16_to_cpu(d->bth_off);
	unsigned int l4_off = be16_to_cpu(d->l4_off);

	if (d->sl >= IBSW_NR_SLS || d->flags & ~IBSW_RL_FLAGS_MASK ||
	    !wire_len || !pkt_len)
		return -EINVAL;
	if (d->vl >= IBSW_NR_DATA_VLS || d->vl >= nr_vls)
		return -ERANGE;
	if (wire_len > ibsw_wire_len_max(4096) ||
	    pkt_len > ibsw_wire_len_max(4096) + IBSW_RL_PKT_EXTRA)
		return -EMSGSIZE;
	if (bth_off + 12 > pkt_len)
		return -EINVAL;
	if (!(d->flags & IBSW_RL_FLAG_IB) &&
	    (l4_off + 8 > bth_off || l4_off < 14))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_data_check);

void ibsw_rl_hello_build(struct ibsw_rl_hello *h, u32 peer_epoch,
			 const struct ibsw_rl_settings *s, unsigned int port,
			 const char *switch_name,
			 const struct ibsw_rl_stamp *t)
{
	memset(h, 0, sizeof(*h));
	h->peer_epoch = cpu_to_be32(peer_epoch);
	h->time_scale = cpu_to_be32(s->time_scale);
	h->pacing = s->pacing;
	h->width = s->width;
	h->speed = s->speed;
	h->nr_vls = s->nr_vls;
	h->port = port;
	h->sent_ns = cpu_to_be64(t->sent_ns);
	h->echo_ns = cpu_to_be64(t->echo_ns);
	h->held_ns = cpu_to_be32(t->held_ns);
	strscpy_pad(h->switch_name, switch_name, sizeof(h->switch_name));
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_hello_build);

void ibsw_rl_hello_parse(const struct ibsw_rl_hello *h,
			 struct ibsw_rl_settings *s, struct ibsw_rl_stamp *t)
{
	s->time_scale = be32_to_cpu(h->time_scale);
	s->pacing = h->pacing;
	s->width = h->width;
	s->speed = h->speed;
	s->nr_vls = h->nr_vls;
	t->sent_ns = be64_to_cpu(h->sent_ns);
	t->echo_ns = be64_to_cpu(h->echo_ns);
	t->held_ns = be32_to_cpu(h->held_ns);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_hello_parse);

/**
 * ibsw_rl_stamp_make() - the time stamps of a HELLO sent now
 * @t: filled in
 * @now: this end's clock
 * @heard_ns: the sender's stamp of the newest HELLO heard from the peer,
 *	0 if none
 * @heard_at: this end's clock when that HELLO arrived
 *
 * A stamp held longer than its 32-bit field counts (4.29 s, longer than a
 * silent peer lives) or one from the future is not echoed.
 */
void ibsw_rl_stamp_make(struct ibsw_rl_stamp *t, u64 now, u64 heard_ns,
			u64 heard_at)
{
	t->sent_ns = now;
	t->echo_ns = 0;
	t->held_ns = 0;
	if (heard_ns && heard_at <= now && now - heard_at <= U32_MAX) {
		t->echo_ns = heard_ns;
		t->held_ns = now - heard_at;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_stamp_make);

/**
 * ibsw_rl_rtt_sample() - the round trip a peer's HELLO measures
 * @t: its time stamps; @t->echo_ns is one of this end's
 * @now: this end's clock as it arrived
 * @rtt: the round trip: from sending @t->echo_ns to now, less the time
 *	the peer held it
 *
 * Return: false if it measures none (no echo, or one that does not fit:
 * not from this end's clock).
 */
bool ibsw_rl_rtt_sample(const struct ibsw_rl_stamp *t, u64 now, u64 *rtt)
{
	u64 away;

	if (!t->echo_ns || t->echo_ns > now)
		return false;
	away = now - t->echo_ns;
	if (away < t->held_ns)
		return false;
	*rtt = away - t->held_ns;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_rtt_sample);

/* Add a sample to @r */
void ibsw_rl_rtt_add(struct ibsw_rl_rtt *r, u64 rtt)
{
	r->last = rtt;
	if (!r->samples++) {
		r->min = rtt;
		r->max = rtt;
		r->srtt = rtt;
		return;
	}
	r->min = min(r->min, rtt);
	r->max = max(r->max, rtt);
	/* srtt + (rtt - srtt) / 8, without a negative intermediate */
	r->srtt = r->srtt - r->srtt / 8 + rtt / 8;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_rtt_add);

/**
 * ibsw_rl_settings_match() - can two ends with these settings be a link?
 * @a: one end's
 * @b: the other's
 *
 * The time scale and pacing are the fabric's and must be equal: with two
 * scales the credits would still keep the link lossless but every time
 * measured across it would be wrong. The OperVLs must be equal too. The
 * rate is not: the link trains to the narrower width and slower speed, as
 * a link inside one kernel does; only a value neither end could have is
 * refused.
 *
 * Return: %IBSW_RL_MATCH, or what differs.
 */
enum ibsw_rl_mismatch ibsw_rl_settings_match(const struct ibsw_rl_settings *a,
					     const struct ibsw_rl_settings *b)
{
	if (a->time_scale != b->time_scale)
		return IBSW_RL_BAD_SCALE;
	if (a->pacing != b->pacing)
		return IBSW_RL_BAD_PACING;
	if (a->nr_vls != b->nr_vls)
		return IBSW_RL_BAD_VLS;
	if (a->width > IBSW_LINK_WIDTH_MAX || b->width > IBSW_LINK_WIDTH_MAX ||
	    a->speed > IBSW_LINK_SPEED_MAX || b->speed > IBSW_LINK_SPEED_MAX)
		return IBSW_RL_BAD_RATE;
	return IBSW_RL_MATCH;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_settings_match);

const char *ibsw_rl_mismatch_name(enum ibsw_rl_mismatch m)
{
	static const char * const names[] = {
		[IBSW_RL_MATCH] = "none",
		[IBSW_RL_BAD_SCALE] = "time-scale",
		[IBSW_RL_BAD_PACING] = "pacing",
		[IBSW_RL_BAD_VLS] = "nr-vls",
		[IBSW_RL_BAD_RATE] = "rate",
	};

	return m < ARRAY_SIZE(names) ? names[m] : "unknown";
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_mismatch_name);

/**
 * ibsw_rl_tx_grant() - the peer advertised a credit limit
 * @tx: the transmitter's state of the VL
 * @fccl: the limit (FCCL)
 *
 * Limits only grow; an older one (a CREDIT overtaken by a newer) grants
 * nothing, and so does one that would let the transmitter run more than
 * any buffer ahead of what it sent.
 *
 * Return: the blocks it grants beyond the last limit, 0 if none.
 */
u32 ibsw_rl_tx_grant(struct ibsw_rl_tx_vl *tx, u32 fccl)
{
	u32 d = fccl - tx->cl;

	if (!d || d > S32_MAX || fccl - tx->tbs > IBSW_RL_JUMP_MAX)
		return 0;
	tx->cl = fccl;
	return d;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_tx_grant);

/**
 * ibsw_rl_rx_sync() - the peer said how many blocks it has sent (FCTBS)
 * @rx: the receiver's state of the VL
 * @fctbs: the peer's count
 *
 * Every frame older than the CREDIT that carries @fctbs has been taken or
 * will be dropped (ibsw_rl_seq_check()), so blocks counted in @fctbs and
 * not in ABR were lost: ABR takes @fctbs, and the buffer space they would
 * have held is advertised again. A count behind ABR changes nothing.
 */
void ibsw_rl_rx_sync(struct ibsw_rl_rx_vl *rx, u32 fctbs)
{
	u32 d = fctbs - rx->abr;

	if (!d || d > IBSW_RL_JUMP_MAX)
		return;
	rx->lost += d;
	rx->abr = fctbs;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_rx_sync);

/**
 * ibsw_rl_credit_delay_ns() - how long freed credits may wait to be
 *	advertised
 * @pacing: the fabric paces its links
 * @rate_bps: the link's data rate
 * @scale: the fabric's time scale
 * @buf_credits: the receiving buffer's size
 *
 * A CREDIT per freed packet would double the frames on the carrying
 * netdev. The receiver sends one at once when a VL has an eighth of its
 * buffer to advertise, so the wait only matters at low rates: it is the
 * wall-clock time the link takes to fill a sixteenth of the buffer, which
 * the transmitter never misses, within 100 us and 10 ms. An unpaced link
 * has no rate: 1 ms.
 *
 * Return: the wait in wall-clock ns.
 */
u64 ibsw_rl_credit_delay_ns(bool pacing, u64 rate_bps, unsigned int scale,
			    unsigned int buf_credits)
{
	u64 ns;

	if (!pacing || !rate_bps)
		return IBSW_RL_CREDIT_UNPACED_NS;
	/* Block by block: a whole buffer's bytes could overflow the product */
	ns = ibsw_rate_xmit_ns(IBSW_CREDIT_LEN, rate_bps, scale) *
	     (buf_credits / 16);
	return clamp_t(u64, ns, IBSW_RL_CREDIT_MIN_NS, IBSW_RL_CREDIT_MAX_NS);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_credit_delay_ns);

/**
 * ibsw_rl_fccl() - the credit limit to advertise for a VL
 * @rx: the receiver's state of the VL
 * @free: free blocks of its input buffer
 *
 * Return: ABR + @free, modulo 2^32 (IBA's FCCL, 32 bits wide).
 */
u32 ibsw_rl_fccl(const struct ibsw_rl_rx_vl *rx, unsigned int free)
{
	return rx->abr + free;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_rl_fccl);
