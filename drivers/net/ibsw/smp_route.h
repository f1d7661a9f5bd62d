/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Directed-route (DR) subnet management packets at one node: what a
 * switch or a CA does with a DR SMP that arrived on one of its ports
 * (IBA vol 1 14.2.2, C14-6, C14-9, C14-13), how a responder turns a DR
 * request into its reply, and the header checks of an SMA.
 *
 * Pure functions on a struct ib_smp: no locks, no allocation, any
 * context. The switch datapath runs ibsw_smp_dr_recv() at every hop, the
 * SMAs of switches and of emulated CAs answer with
 * ibsw_smp_dr_make_reply().
 *
 * "P" is the hop pointer, "N" the hop count, "D" the direction bit (bit
 * 15 of the status: 0 outgoing, 1 returning). Entry 0 of both paths is
 * unused; InitialPath[i] is the port the SMP leaves hop i by, and
 * ReturnPath[i] the port it arrived at hop i on.
 *
 * The sender step (C14-9:1: P 0 -> 1 at the SM's node) is the sending
 * kernel's MAD layer's; every SMP ibsw sees has had it, so the first
 * switch of a path receives P = 1. Of mixed routes (a LID-routed leg
 * before or after the directed part, which OpenSM never sends) only the
 * rows of the IBA's table are kept: a switch where the directed part
 * ends says %IBSW_SMP_LID_ROUTE, and the node at the end of an outgoing
 * LID-routed leg receives P = N + 1 (C14-9:4). Nothing here takes a
 * returning SMP off a LID-routed leg back onto its directed part.
 */
#ifndef _IBSW_SMP_ROUTE_H
#define _IBSW_SMP_ROUTE_H

#include <linux/types.h>
#include <rdma/ib_smi.h>

/**
 * enum ibsw_smp_verdict - what a node does with an arriving DR SMP
 * @IBSW_SMP_LOCAL: outgoing, to this node's SMA (P is now N + 1); or
 *	returning, to the SM on this node (P is now 0)
 * @IBSW_SMP_FORWARD: switch only: send it out the port returned in
 *	*out_port, P already advanced (outgoing) or moved back (returning)
 * @IBSW_SMP_LID_ROUTE: switch only: the directed part ends here and the
 *	SMP goes on by LID routing, outgoing to DrDLID (P is now N + 1) or
 *	returning to DrSLID (P is now 0)
 * @IBSW_SMP_DROP_HOP_COUNT: N is 64 or more (C14-6)
 * @IBSW_SMP_DROP_HOP_PTR: P has no meaning at a receiving node for this
 *	direction and N (C14-9:1 on receive, C14-9:5, C14-13:5; and a
 *	returning SMP arriving with P = N + 1, see ibsw_smp_dr_recv())
 * @IBSW_SMP_DROP_CA_RELAY: a CA is an intermediate hop (C14-9:2, C14-13:2)
 * @IBSW_SMP_DROP_BAD_PORT: the port a switch would send it out of, from
 *	the InitialPath or ReturnPath, is 0 or above the switch's ports
 * @IBSW_SMP_DROP_DLID: a CA at the end of the directed part of an
 *	outgoing SMP whose DrDLID is not permissive (C14-9:3)
 * @IBSW_SMP_DROP_SLID: a CA at the end of the directed part of a
 *	returning SMP whose DrSLID is not permissive (C14-13:3)
 *
 * Every drop is silent: the requester times out.
 */
enum ibsw_smp_verdict {
	IBSW_SMP_LOCAL,
	IBSW_SMP_FORWARD,
	IBSW_SMP_LID_ROUTE,
	IBSW_SMP_DROP_HOP_COUNT,
	IBSW_SMP_DROP_HOP_PTR,
	IBSW_SMP_DROP_CA_RELAY,
	IBSW_SMP_DROP_BAD_PORT,
	IBSW_SMP_DROP_DLID,
	IBSW_SMP_DROP_SLID,
};

/**
 * enum ibsw_sma_verdict - what an SMA does with an SMP given to it
 * @IBSW_SMA_ANSWER: a Get or Set: process the attribute and answer
 * @IBSW_SMA_BAD_VERSION: answer at once with status
 *	%IB_MGMT_MAD_STATUS_BAD_VERSION (0x0004)
 * @IBSW_SMA_BAD_METHOD: answer at once with status
 *	%IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD (0x0008)
 * @IBSW_SMA_IGNORE: drop it without an answer
 */
enum ibsw_sma_verdict {
	IBSW_SMA_ANSWER,
	IBSW_SMA_BAD_VERSION,
	IBSW_SMA_BAD_METHOD,
	IBSW_SMA_IGNORE,
};

/**
 * enum ibsw_mkey_verdict - an SMA's M_Key check of a Get, Set or TrapRepress
 * @IBSW_MKEY_VALID: the key matches, or the port's M_Key is 0: answer it
 * @IBSW_MKEY_READ: a Get with a wrong key under protection level 0:
 *	answer it, PortInfo's M_Key shown
 * @IBSW_MKEY_READ_HIDDEN: the same under level 1: answer it, PortInfo's
 *	M_Key read as 0
 * @IBSW_MKEY_VIOLATION: no answer; count it and start the lease
 */
enum ibsw_mkey_verdict {
	IBSW_MKEY_VALID,
	IBSW_MKEY_READ,
	IBSW_MKEY_READ_HIDDEN,
	IBSW_MKEY_VIOLATION,
};

enum ibsw_smp_verdict ibsw_smp_dr_recv(struct ib_smp *smp, bool is_switch,
				       unsigned int in_port,
				       unsigned int nr_ports,
				       unsigned int *out_port);
unsigned int ibsw_smp_dr_make_reply(struct ib_smp *smp);
void ibsw_smp_reply_hdr(struct ib_smp *smp, u16 status);
enum ibsw_sma_verdict ibsw_smp_sma_check(const struct ib_smp *smp);
enum ibsw_mkey_verdict ibsw_smp_mkey_check(u8 method, u64 smp_key,
					   u64 port_key, u8 protect);

#endif /* _IBSW_SMP_ROUTE_H */
