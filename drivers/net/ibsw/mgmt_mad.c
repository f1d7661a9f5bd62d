// SPDX-License-Identifier: GPL-2.0
/*
 * The MADs a management HCA answers for its own port (ib_core's
 * process_mad, in process context): SMPs go to its SMA (mgmt_hca.c), and
 * PerfMgt GMPs to its PMA here, with the switches' codecs (pma_attr.c).
 * Its counters are kept by the datapath (mgmt_hca.c); PortXmitWait is its
 * transmitter engine's.
 */

#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_verbs.h>

#include "engine.h"
#include "mgmt_hca.h"
#include "pma_attr.h"

/* The port's counters as its PMA reports them (data in 32-bit words) */
static void ibsw_mgmt_pma_read(struct ibsw_mgmt *m, struct ibsw_counters *c)
{
	struct ibsw_engine_cnt ec = {};
	struct ibsw_port *port;
	unsigned int v;

	ibsw_stats_report(&m->stats, &c[0], &c[1]);
	/* PortXmitWait: its transmitter's, waiting for the switch's credits */
	rcu_read_lock();
	port = rcu_dereference(m->port);
	if (port)
		ibsw_engine_read_cnt(port->hca, &ec);
	rcu_read_unlock();
	c[0].val[IBSW_CNT_XMIT_WAIT] = ec.wait[IBSW_NR_DATA_VLS];
	for (v = 0; v < IBSW_NR_DATA_VLS; v++)
		c[1 + v].val[IBSW_CNT_XMIT_WAIT] = ec.wait[v];
}

/*
 * A Set's CounterSelect: those counters to 0, the transmitter's too. Two
 * Sets at once each leave the sums of their moment: no lock needed.
 */
static void ibsw_mgmt_pma_clear(struct ibsw_mgmt *m,
				const struct ibsw_pma_clear *clr)
{
	struct ibsw_port *port;

	ibsw_stats_reset(&m->stats, clr->cnt, clr->vl_cnt, clr->vls);
	rcu_read_lock();
	port = rcu_dereference(m->port);
	if (port)
		ibsw_engine_clear_sel(port->hca, clr->cnt, clr->vl_cnt,
				      clr->vls);
	rcu_read_unlock();
}

/*
 * The port's PMA (class PerfMgt), as the switches' (agent.c): the same
 * attributes, of what the port put on and took off its link; PortSelect
 * 1 or 0xFF (every port: the one). A Set clears what its CounterSelect
 * names; both are answered with the counters as they are then.
 * Return: the MAD status, or IBSW_MAD_NO_REPLY.
 */
static int ibsw_mgmt_pma(struct ibsw_mgmt *m, const struct ib_mad *in,
			 struct ib_mad *out)
{
	u8 *data = (u8 *)out + IBSW_PMA_DATA_OFFSET;
	u16 attr = be16_to_cpu(in->mad_hdr.attr_id);
	struct ibsw_pma_clear clr;
	struct ibsw_counters *c;
	int status;

	*out = *in;
	status = ibsw_pma_check(&in->mad_hdr, data, 1);
	if (status)
		return status;
	/* PortSelect 0 is a switch's management port */
	if (attr != IBSW_PMA_ATTR_CLASS_PORT_INFO && !data[1])
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (in->mad_hdr.method == IB_MGMT_METHOD_SET) {
		ibsw_pma_clear_get(data, attr, &clr);
		ibsw_mgmt_pma_clear(m, &clr);
	}
	c = kcalloc(1 + IBSW_NR_DATA_VLS, sizeof(*c), GFP_KERNEL);
	if (!c)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	ibsw_mgmt_pma_read(m, c);
	ibsw_pma_put(data, attr, data[1], &c[0], &c[1]);
	kfree(c);
	return 0;
}

/*
 * ib_core's process_mad: the MADs the HCA answers itself, its SMA's and
 * its PMA's, in process context (the MAD layer's work). The rest goes on
 * to their agents (SA, CM).
 */
int ibsw_mgmt_process_mad(struct ib_device *ibdev, int flags, u32 port,
			  const struct ib_wc *in_wc, const struct ib_grh *in_grh,
			  const struct ib_mad *in, struct ib_mad *out,
			  size_t *out_size, u16 *out_pkey_index)
{
	struct ibsw_mgmt *m = container_of(ibdev, struct ibsw_mgmt, ibdev);

	switch (in->mad_hdr.mgmt_class) {
	case IB_MGMT_CLASS_SUBN_LID_ROUTED:
	case IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE:
		if (ibsw_mgmt_sma(m, (const struct ib_smp *)in,
				  (struct ib_smp *)out))
			return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
		return IB_MAD_RESULT_SUCCESS;
	case IB_MGMT_CLASS_PERF_MGMT: {
		int status = ibsw_mgmt_pma(m, in, out);

		/*
		 * Not a request (a response to this port's own perfquery, a
		 * notice): on to the agent waiting for it
		 */
		if (status == IBSW_MAD_NO_REPLY)
			return IB_MAD_RESULT_SUCCESS;
		out->mad_hdr.status = cpu_to_be16(status);
		out->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
		return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
	}
	default:
		/* Everything else goes on to its agent (SA, CM) */
		return IB_MAD_RESULT_SUCCESS;
	}
}
