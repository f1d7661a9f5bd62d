// SPDX-License-Identifier: GPL-2.0
/*
 * Input buffer credits: take on send, return on dequeue. See credit.h for
 * who calls what.
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
	unsigned int largest = ibsw_wire_credits(max_len);

	if (!largest || size < largest || size > INT_MAX)
		return -EINVAL;
	buf->size = size;
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
 * Fully ordered: the kick of the transmitter that follows reads whether
 * it is idle only after the credits are visible (ibsw_engine_kick()).
 *
 * Context: any; the output engine of the port the packet was queued for.
 */
void ibsw_credit_return(struct ibsw_credit_buf *buf, unsigned int len)
{
	atomic_add(ibsw_wire_credits(len), &buf->free);
	/* Pairs with the smp_mb() of ibsw_engine_pass(), see its kick */
	smp_mb__after_atomic();
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_credit_return);
