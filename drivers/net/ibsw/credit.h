/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Input buffer credits.
 *
 * Every switch port has an input buffer per VL, sized in 64-byte credits
 * (design §4.1). A struct ibsw_credit_buf counts the free credits of one.
 * It is at once the receiver's buffer and the transmitter's view of it
 * (IBA's FCCL - FCTBS, vol 1 7.9): in one kernel a freed credit is
 * visible at once, so there is no flow control packet to wait for and no
 * second counter to reconcile.
 *
 * - The transmitter takes credits for a packet before it sends it, under
 *   its own engine lock: a host's HCA engine on a host's link, the
 *   upstream output engine on a link between switches. There is one
 *   transmitter per buffer.
 * - The credits come back when the packet leaves the buffer: when the
 *   output engine it is queued in has sent it on, after that engine's lock
 *   is dropped, and never under the lock of the engine that takes them.
 *
 * Takers and returners therefore hold different locks or none, and the
 * count is an atomic_t: no function here needs a lock, none sleeps, and
 * all are safe in any context. (A host's TX queues are stopped by its HCA
 * transmitter's FIFO, engine.c, not by these credits.)
 */
#ifndef _IBSW_CREDIT_H
#define _IBSW_CREDIT_H

#include <linux/atomic.h>
#include <linux/types.h>

#include "rate.h"

/**
 * struct ibsw_credit_buf - credits of one (port, VL) input buffer
 * @free: credits not held by a packet, in the buffer or on its way to it
 * @size: size of the buffer in credits
 */
struct ibsw_credit_buf {
	atomic_t	free;
	u32		size;
};

int ibsw_credit_init(struct ibsw_credit_buf *buf, unsigned int size,
		     unsigned int max_len);
bool ibsw_credit_take(struct ibsw_credit_buf *buf, unsigned int len);
void ibsw_credit_return(struct ibsw_credit_buf *buf, unsigned int len);

/**
 * ibsw_credit_free() - free credits of a buffer
 * @buf: the buffer
 *
 * Context: any; a snapshot that returns may raise at any time.
 * Return: the number of free credits.
 */
static inline unsigned int ibsw_credit_free(const struct ibsw_credit_buf *buf)
{
	return atomic_read(&buf->free);
}

/**
 * ibsw_credit_can_take() - is there room for a packet?
 * @buf: the buffer
 * @len: wire length of the packet
 *
 * For the output engine's eligibility test: the VL of a link between
 * switches has downstream credit for its next packet. Only the single
 * transmitter takes credits, so the answer stays true until it does.
 *
 * Context: any.
 * Return: true if ibsw_credit_take() of @len would succeed.
 */
static inline bool ibsw_credit_can_take(const struct ibsw_credit_buf *buf,
					unsigned int len)
{
	return ibsw_credit_free(buf) >= ibsw_wire_credits(len);
}

#endif /* _IBSW_CREDIT_H */
