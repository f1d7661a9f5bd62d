// SPDX-License-Identifier: GPL-2.0
/*
 * Directed-route SMP processing at one node (IBA vol 1 14.2.2) and the
 * header checks of an SMA; see smp_route.h.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_verbs.h>

#include "smp_route.h"

/* A port a switch may send an SMP out of: 1 to its last external port */
static bool ibsw_smp_port_valid(unsigned int port, unsigned int nr_ports)
{
	return port >= 1 && port <= nr_ports;
}

/*
 * Outgoing (D = 0), C14-9. On receive the node is at hop P:
 *   P = 0, N != 0	the sender step was not done: drop (C14-9:1)
 *   1 <= P < N		intermediate hop, switches only (C14-9:2)
 *   P = N		end of the directed part (C14-9:3)
 *   P = N + 1		came by LID routing after the directed part (C14-9:4)
 *   P > N + 1		drop (C14-9:5)
 * N = 0 with P = 0 is C14-9:3: the row for P = 0 needs N != 0.
 */
static enum ibsw_smp_verdict ibsw_smp_dr_outgoing(struct ib_smp *smp,
						  bool is_switch,
						  unsigned int in_port,
						  unsigned int nr_ports,
						  unsigned int *out_port)
{
	unsigned int p = smp->hop_ptr, n = smp->hop_cnt;

	if (p == 0 && n != 0)
		return IBSW_SMP_DROP_HOP_PTR;

	if (p >= 1 && p < n) {
		unsigned int next = smp->initial_path[p + 1];

		if (!is_switch)
			return IBSW_SMP_DROP_CA_RELAY;
		if (!ibsw_smp_port_valid(next, nr_ports))
			return IBSW_SMP_DROP_BAD_PORT;
		/* Receive: record the ingress port; send: step on */
		smp->return_path[p] = in_port;
		smp->hop_ptr = p + 1;
		*out_port = next;
		return IBSW_SMP_FORWARD;
	}

	if (p == n) {
		bool permissive = smp->dr_dlid == IB_LID_PERMISSIVE;

		if (!is_switch && !permissive)
			return IBSW_SMP_DROP_DLID;
		if (n != 0)
			smp->return_path[p] = in_port;
		smp->hop_ptr = n + 1;
		return permissive ? IBSW_SMP_LOCAL : IBSW_SMP_LID_ROUTE;
	}

	if (p == n + 1)
		return IBSW_SMP_LOCAL;

	return IBSW_SMP_DROP_HOP_PTR;
}

/*
 * Returning (D = 1), C14-13. On receive the node is at hop P - 1:
 *   2 <= P <= N	intermediate hop, switches only (C14-13:2)
 *   P = 1		end of the directed part, the SM's node (C14-13:3)
 *   P = 0		came by LID routing after the directed part (C14-13:4)
 *   P >= N + 1	drop: N + 1 is the responder's own step (C14-13:1),
 *			done before the reply leaves it; above, C14-13:5
 * With N = 0, P = 1 is C14-13:3: the row for N + 1 needs N != 0.
 */
static enum ibsw_smp_verdict ibsw_smp_dr_returning(struct ib_smp *smp,
						   bool is_switch,
						   unsigned int nr_ports,
						   unsigned int *out_port)
{
	unsigned int p = smp->hop_ptr, n = smp->hop_cnt;

	if (p >= 2 && p <= n) {
		unsigned int next = smp->return_path[p - 1];

		if (!is_switch)
			return IBSW_SMP_DROP_CA_RELAY;
		if (!ibsw_smp_port_valid(next, nr_ports))
			return IBSW_SMP_DROP_BAD_PORT;
		smp->hop_ptr = p - 1;
		*out_port = next;
		return IBSW_SMP_FORWARD;
	}

	if (p == 1) {
		bool permissive = smp->dr_slid == IB_LID_PERMISSIVE;

		if (!is_switch && !permissive)
			return IBSW_SMP_DROP_SLID;
		smp->hop_ptr = 0;
		return permissive ? IBSW_SMP_LOCAL : IBSW_SMP_LID_ROUTE;
	}

	if (p == 0)
		return IBSW_SMP_LOCAL;

	return IBSW_SMP_DROP_HOP_PTR;
}

/**
 * ibsw_smp_dr_recv() - process a DR SMP that arrived at a node
 * @smp: the SMP, class %IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE; updated in place
 * @is_switch: whether the node is a switch (else a CA)
 * @in_port: the port it arrived on: 1 to @nr_ports
 * @nr_ports: the node's external ports (a switch's NumPorts, without
 *	port 0), at most 254
 * @out_port: set to the port to send it out of on %IBSW_SMP_FORWARD, to 0
 *	on every other verdict
 *
 * Does the receive step of C14-9 or C14-13 at this node and, when the
 * SMP goes on by directed route, the send step too, so what comes back
 * is final. The SMP changes only as the IBA says:
 *
 * - outgoing, 1 <= P < N, switch: ReturnPath[P] := @in_port, P += 1,
 *   %IBSW_SMP_FORWARD out InitialPath[P] (the new P);
 * - outgoing, P = N: ReturnPath[N] := @in_port if N != 0, P := N + 1;
 *   %IBSW_SMP_LOCAL if DrDLID is permissive, else %IBSW_SMP_LID_ROUTE at
 *   a switch (to DrDLID) and %IBSW_SMP_DROP_DLID at a CA. A switch that
 *   receives P = N = 1 from the SM's HCA thus answers it itself, at P = 2;
 * - outgoing, P = N + 1: %IBSW_SMP_LOCAL, unchanged (C14-9:4: it reached
 *   this node by LID routing once its directed part had ended);
 * - returning, 2 <= P <= N, switch: P -= 1, %IBSW_SMP_FORWARD out
 *   ReturnPath[P] (the new P);
 * - returning, P = 1: P := 0; %IBSW_SMP_LOCAL (to the SM) if DrSLID is
 *   permissive, else %IBSW_SMP_LID_ROUTE at a switch (to DrSLID) and
 *   %IBSW_SMP_DROP_SLID at a CA;
 * - returning, P = 0: %IBSW_SMP_LOCAL, unchanged (C14-13:4).
 *
 * A CA applies the same rules but is never an intermediate hop. Every
 * other case is a drop, and on every drop the SMP is left exactly as it
 * arrived: the checks come before the writes. That includes a returning
 * SMP arriving with P = N + 1 (N != 0): that P exists only at the
 * responder, which moves it to N (C14-13:1, ibsw_smp_dr_make_reply())
 * before the reply leaves, so no node receives it.
 *
 * Nothing here looks at the LRH, the ports' states or the versions and
 * method: the caller checks links, ibsw_smp_sma_check() the rest.
 *
 * Context: any.
 * Return: the verdict.
 */
enum ibsw_smp_verdict ibsw_smp_dr_recv(struct ib_smp *smp, bool is_switch,
				       unsigned int in_port,
				       unsigned int nr_ports,
				       unsigned int *out_port)
{
	*out_port = 0;

	/* C14-6: hop counts 0 to 63 only */
	if (smp->hop_cnt >= IB_SMP_MAX_PATH_HOPS)
		return IBSW_SMP_DROP_HOP_COUNT;

	if (smp->status & IB_SMP_DIRECTION)
		return ibsw_smp_dr_returning(smp, is_switch, nr_ports,
					     out_port);
	return ibsw_smp_dr_outgoing(smp, is_switch, in_port, nr_ports,
				    out_port);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_dr_recv);

/**
 * ibsw_smp_dr_make_reply() - turn a DR request into its reply
 * @smp: a request that ibsw_smp_dr_recv() gave %IBSW_SMP_LOCAL while
 *	outgoing, with the attribute data the reply carries already in place
 *
 * The responder's part of C14-13:1 and of the reply rules: Method becomes
 * GetResp (for a Set too), the D bit is set (the other status bits are
 * kept, so an error the SMA put there stays), and P := N. TID, attribute,
 * modifier, M_Key, DrSLID, DrDLID, HopCount, InitialPath and ReturnPath
 * are kept: OpenSM takes its stored path back from InitialPath.
 *
 * With N = 0 the SM is on this node: P goes from N + 1 = 1 straight to 0,
 * C14-13:3 done at the same node, and the reply does not leave it.
 *
 * Context: any.
 * Return: the port the reply leaves by, ReturnPath[N]; the caller sends
 * it out only if that is the port the request arrived on, which it is
 * when the directed part of the request ended here (C14-13:1; Linux fails
 * such a send with -EINVAL). 0 if N is 0 (or 64 or more, which
 * ibsw_smp_dr_recv() never accepts).
 */
unsigned int ibsw_smp_dr_make_reply(struct ib_smp *smp)
{
	unsigned int n = smp->hop_cnt;

	smp->method = IB_MGMT_METHOD_GET_RESP;
	smp->status |= IB_SMP_DIRECTION;
	smp->hop_ptr = n;
	if (n == 0 || n >= IB_SMP_MAX_PATH_HOPS)
		return 0;
	return smp->return_path[n];
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_dr_make_reply);

/**
 * ibsw_smp_reply_hdr() - Method and Status of an SMA's reply
 * @smp: the request, of either class
 * @status: the SMA's status for it
 *
 * Method becomes GetResp (for a Set too) and Status the SMA's, with the D
 * bit of a directed-route SMP set. What the requester had in Status is
 * not kept: a request's Status is not the responder's (IBA 13.4.7), and
 * ORed into the reply it turned an applied Set into an error.
 *
 * Context: any.
 */
void ibsw_smp_reply_hdr(struct ib_smp *smp, u16 status)
{
	smp->method = IB_MGMT_METHOD_GET_RESP;
	smp->status = cpu_to_be16(status);
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		smp->status |= IB_SMP_DIRECTION;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_reply_hdr);

/**
 * ibsw_smp_sma_check() - header checks of an SMP given to an SMA
 * @smp: an SMP of either class (LID-routed or directed route) that
 *	arrived for this node's SMA (a DR SMP: ibsw_smp_dr_recv() gave
 *	%IBSW_SMP_LOCAL)
 *
 * In this order:
 *
 * - a base version other than 1: ignored. Linux's MAD layer drops these
 *   before any agent sees them; the rest of such a MAD has no known
 *   layout (OPA's 0x80 has another), so no reply could be built;
 * - a class other than the two SMP classes: ignored, not an SMP;
 * - a response (R bit, e.g. GetResp), Trap, Report or TrapRepress:
 *   ignored, an SMA never answers them (and consumes a TrapRepress);
 * - a DR SMP with the D bit set: ignored, a returning SMP is the SM's;
 * - a class version other than 1: %IBSW_SMA_BAD_VERSION;
 * - a method other than Get and Set: %IBSW_SMA_BAD_METHOD;
 * - else %IBSW_SMA_ANSWER: the attribute and modifier are the SMA's to
 *   check (status 0x000C or 0x001C).
 *
 * What is never answered is checked first, so that no error reply ever
 * answers a reply.
 *
 * Context: any.
 * Return: the verdict.
 */
enum ibsw_sma_verdict ibsw_smp_sma_check(const struct ib_smp *smp)
{
	if (smp->base_version != IB_MGMT_BASE_VERSION)
		return IBSW_SMA_IGNORE;
	if (smp->mgmt_class != IB_MGMT_CLASS_SUBN_LID_ROUTED &&
	    smp->mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return IBSW_SMA_IGNORE;
	if (smp->method & IB_MGMT_METHOD_RESP)
		return IBSW_SMA_IGNORE;
	switch (smp->method) {
	case IB_MGMT_METHOD_TRAP:
	case IB_MGMT_METHOD_REPORT:
	case IB_MGMT_METHOD_TRAP_REPRESS:
		return IBSW_SMA_IGNORE;
	}
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE &&
	    (smp->status & IB_SMP_DIRECTION))
		return IBSW_SMA_IGNORE;
	if (smp->class_version != 1)
		return IBSW_SMA_BAD_VERSION;
	if (smp->method != IB_MGMT_METHOD_GET &&
	    smp->method != IB_MGMT_METHOD_SET)
		return IBSW_SMA_BAD_METHOD;
	return IBSW_SMA_ANSWER;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_sma_check);

/**
 * ibsw_smp_mkey_check() - the M_Key check of an SMA (IBA vol 1, 14.2.4)
 * @method: the SMP's method
 * @smp_key: the M_Key in the SMP
 * @port_key: the port's M_Key (a switch's: port 0's)
 * @protect: the port's M_KeyProtectBits, 0 to 3
 *
 * A key that matches, or a port M_Key of 0, passes everything. Otherwise:
 *
 * ========  ======================  =============  ===========
 * protect   Get                     Set            TrapRepress
 * ========  ======================  =============  ===========
 * 0         answered                violation      violation
 * 1         answered, M_Key as 0    violation      violation
 * 2, 3      violation               violation      violation
 * ========  ======================  =============  ===========
 *
 * Level 3 checks what level 2 does. Other methods are not checked (an
 * SMA never answers them): %IBSW_MKEY_VALID.
 *
 * Context: any.
 * Return: the verdict.
 */
enum ibsw_mkey_verdict ibsw_smp_mkey_check(u8 method, u64 smp_key,
					   u64 port_key, u8 protect)
{
	if (!port_key || smp_key == port_key)
		return IBSW_MKEY_VALID;
	switch (method) {
	case IB_MGMT_METHOD_GET:
		if (protect == 0)
			return IBSW_MKEY_READ;
		if (protect == 1)
			return IBSW_MKEY_READ_HIDDEN;
		return IBSW_MKEY_VIOLATION;
	case IB_MGMT_METHOD_SET:
	case IB_MGMT_METHOD_TRAP_REPRESS:
		return IBSW_MKEY_VIOLATION;
	default:
		return IBSW_MKEY_VALID;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_mkey_check);
