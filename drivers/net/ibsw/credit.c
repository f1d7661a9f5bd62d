// SPDX-License-Identifier: GPL-2.0
/*
 * Input buffer credits: take on send, return on dequeue, and the stop/wake
 * rule for a host's TX queue. See credit.h for who calls what.
 */

#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>

#include "credit.h"

/**
 * ibsw_credit_init() - set up an empty input buffer
 * @buf: the buffer
 * @size: its size in credits
 * @max_len: wire length of the largest packet the port carries,
 *	ibsw_wire_len_max() of its MTU
 *
 * A buffer that cannot hold one largest packet would block its VL for
 * good, so it is refused.
 *
 * Context: control plane; @buf must not be in use.
 * Return: 0, or -EINVAL if @size is below the credits of @max_len or
 * above INT_MAX.
 */
int ibsw_credit_init(struct ibsw_credit_buf *buf, unsigned int size,
		     unsigned int max_len)
{
	unsigned int stop = ibsw_wire_credits(max_len);

	if (!stop || size < stop || size > INT_MAX)
		return -EINVAL;
	buf->size = size;
	buf->stop = stop;
	atomic_set(&buf->free, size);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_credit_init);

/**
 * ibsw_credit_take() - take the credits of a packet
 * @buf: the receiver's buffer
 * @len: wire length of the packet
 *
 * Either all the credits the packet needs are taken or none: a packet is
 * never sent into a buffer that cannot hold all of it. Fully ordered when
 * it succeeds.
 *
 * Context: any; the buffer's transmitter (see credit.h).
 * Return: true if the credits were taken.
 */
bool ibsw_credit_take(struct ibsw_credit_buf *buf, unsigned int len)
{
	int need = ibsw_wire_credits(len);
	int avail = atomic_read(&buf->free);

	do {
		if (avail < need)
			return false;
	} while (!atomic_try_cmpxchg(&buf->free, &avail, avail - need));
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_credit_take);

/**
 * ibsw_credit_return() - give back the credits of a packet
 * @buf: the buffer the packet leaves
 * @len: wire length of the packet, as it was taken
 *
 * Fully ordered (atomic_add_return()): a caller that then wakes the TX
 * queue reads the queue state after the credits are visible, which pairs
 * with the smp_mb__after_atomic() of the xmit path in
 * ibsw_credit_must_stop(). Of concurrent returners exactly one sees the
 * crossing.
 *
 * Context: any; the output engine of the port the packet was queued for.
 * Return: true if the free credits just reached the stop threshold from
 * below: the caller wakes the host TX queue of this VL, if it has one.
 */
bool ibsw_credit_return(struct ibsw_credit_buf *buf, unsigned int len)
{
	int n = ibsw_wire_credits(len);
	int stop = buf->stop;
	int avail = atomic_add_return(n, &buf->free);

	return avail >= stop && avail - n < stop;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_credit_return);
