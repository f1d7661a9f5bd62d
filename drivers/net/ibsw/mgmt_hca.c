// SPDX-License-Identifier: GPL-2.0
/*
 * The management HCA: an InfiniBand-link-layer ib_device of one port, on
 * which ib_core's MAD layer opens QP0 and QP1, so that the subnet manager
 * and the diagnostics (OpenSM, infiniband-diags) run on the emulated
 * fabric through /dev/infiniband/umadN and issmN, unmodified.
 *
 * It has only what the MAD layer uses: PDs, one kind of CQ, UD QPs of
 * types SMI and GSI, address handles and a DMA MR. Memory is the kernel's
 * own (no dma_device: ib_uses_virt_dma(), so an SGE's address is a kernel
 * pointer). A send is copied into a packet (mad_pkt.h) and completes at
 * once, as a wire would take it; the packet enters the switch port the
 * HCA is cabled to through the port's HCA transmitter, SMPs on VL15. What
 * the port's engine sends back is delivered to QP0 or QP1. Its own SMA
 * (process_mad) answers what ib_core hands it; MADs to its own LID loop
 * back to its QPs. Registering it and cabling it are mgmt_ctl.c's.
 */

#include <linux/slab.h>
#include <linux/spinlock.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_verbs.h>

#include "engine.h"
#include "mad_pkt.h"
#include "mgmt_hca.h"
#include "smp_attr.h"
#include "smp_route.h"

/* A MAD as a receive buffer holds it: after the space of a GRH */
#define IBSW_MGMT_GRH_LEN	40
#define IBSW_MGMT_RECV_LEN	(IBSW_MGMT_GRH_LEN + IB_MGMT_MAD_SIZE)

#define IBSW_MGMT_MAX_WR	1024
#define IBSW_MGMT_MAX_SGE	4
#define IBSW_MGMT_MAX_CQE	4096
#define IBSW_MGMT_PKEYS		1
#define IBSW_MGMT_VENDOR_ID	0	/* no OUI: not a Mellanox ID (0xFF90) */
#define IBSW_MGMT_DEVICE_ID	0x1b5e
/* MADs posted and not yet handed to the port's transmitter */
#define IBSW_MGMT_TXQ_MAX	256

struct ibsw_mgmt_pd {
	struct ib_pd	ibpd;
};

struct ibsw_mgmt_ah {
	struct ib_ah		ibah;
	struct rdma_ah_attr	attr;
};

struct ibsw_mgmt_mr {
	struct ib_mr	ibmr;
};

/**
 * struct ibsw_mgmt_cq - a completion queue: a ring of work completions
 * @ibcq: the verbs object
 * @lock: protects the rest
 * @wc: the ring, @size entries
 * @size: entries
 * @head: next to poll
 * @count: entries held
 * @armed: the consumer asked for a notification (req_notify_cq)
 * @overflow: completions lost to a full ring
 */
struct ibsw_mgmt_cq {
	struct ib_cq		ibcq;
	spinlock_t		lock;	/* see kernel-doc */
	struct ib_wc		*wc;
	unsigned int		size;
	unsigned int		head;
	unsigned int		count;
	bool			armed;
	u64			overflow;
};

/* A posted receive: where the MAD goes and what completes it */
struct ibsw_mgmt_rwqe {
	struct ib_cqe	*wr_cqe;
	u64		addr;
	u32		length;
};

/**
 * struct ibsw_mgmt_qp - QP0 or QP1 of the management HCA's port
 * @ibqp: the verbs object
 * @lock: protects the rest
 * @state: as modify_qp set it
 * @qkey: its Q_Key
 * @rq: posted receives, a ring of @rq_size
 * @rq_size: entries
 * @rq_head: oldest posted receive
 * @rq_count: receives posted
 */
struct ibsw_mgmt_qp {
	struct ib_qp		ibqp;
	spinlock_t		lock;	/* see kernel-doc */
	enum ib_qp_state	state;
	u32			qkey;
	struct ibsw_mgmt_rwqe	*rq;
	unsigned int		rq_size;
	unsigned int		rq_head;
	unsigned int		rq_count;
};

static inline struct ibsw_mgmt *to_mgmt(struct ib_device *ibdev)
{
	return container_of(ibdev, struct ibsw_mgmt, ibdev);
}

static inline struct ibsw_mgmt_cq *to_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct ibsw_mgmt_cq, ibcq);
}

static inline struct ibsw_mgmt_qp *to_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct ibsw_mgmt_qp, ibqp);
}

static inline struct ibsw_mgmt_ah *to_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct ibsw_mgmt_ah, ibah);
}

/* ---- device and port ---- */

static int ibsw_mgmt_query_device(struct ib_device *ibdev,
				  struct ib_device_attr *attr,
				  struct ib_udata *udata)
{
	struct ibsw_mgmt *m = to_mgmt(ibdev);

	if (udata && udata->inlen)
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->sys_image_guid = cpu_to_be64(m->guid);
	attr->vendor_id = IBSW_MGMT_VENDOR_ID;
	attr->vendor_part_id = IBSW_MGMT_DEVICE_ID;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_qp = 2;
	attr->max_qp_wr = IBSW_MGMT_MAX_WR;
	attr->max_send_sge = IBSW_MGMT_MAX_SGE;
	attr->max_recv_sge = IBSW_MGMT_MAX_SGE;
	attr->max_sge_rd = IBSW_MGMT_MAX_SGE;
	attr->max_cq = 16;
	attr->max_cqe = IBSW_MGMT_MAX_CQE;
	attr->max_mr = 16;
	attr->max_pd = 16;
	attr->max_ah = 4096;
	attr->max_pkeys = IBSW_MGMT_PKEYS;
	attr->local_ca_ack_delay = 15;
	return 0;
}

static void ibsw_mgmt_port_attr(struct ibsw_mgmt *m, struct ib_port_attr *a)
{
	lockdep_assert_held(&m->lock);
	a->subnet_prefix = m->gid_prefix;
	a->state = m->port_state;
	a->phys_state = m->phys_state;
	a->max_mtu = IB_MTU_4096;
	a->active_mtu = IB_MTU_4096;
	a->phys_mtu = 4096;
	a->gid_tbl_len = 1;
	a->port_cap_flags = m->cap_mask;
	a->max_msg_sz = IB_MGMT_MAD_SIZE;
	a->pkey_tbl_len = IBSW_MGMT_PKEYS;
	a->lid = m->lid;
	a->lmc = m->lmc;
	a->sm_lid = m->sm_lid;
	a->sm_sl = m->sm_sl;
	a->max_vl_num = IBSW_PI_VL_CAP_4;
	a->subnet_timeout = m->subnet_timeout;
	a->active_width = IB_WIDTH_4X;
	a->active_speed = IB_SPEED_QDR;
}

static int ibsw_mgmt_query_port(struct ib_device *ibdev, u32 port,
				struct ib_port_attr *attr)
{
	unsigned long flags;
	struct ibsw_mgmt *m = to_mgmt(ibdev);

	spin_lock_irqsave(&m->lock, flags);
	ibsw_mgmt_port_attr(m, attr);
	spin_unlock_irqrestore(&m->lock, flags);
	return 0;
}

/* issm: opening it sets IsSM, closing it clears it; ib_cm sets CM_SUP */
static int ibsw_mgmt_modify_port(struct ib_device *ibdev, u32 port, int mask,
				 struct ib_port_modify *mod)
{
	unsigned long flags;
	struct ibsw_mgmt *m = to_mgmt(ibdev);

	spin_lock_irqsave(&m->lock, flags);
	m->cap_mask = (m->cap_mask | mod->set_port_cap_mask) &
		      ~mod->clr_port_cap_mask;
	spin_unlock_irqrestore(&m->lock, flags);
	return 0;
}

static int ibsw_mgmt_port_immutable(struct ib_device *ibdev, u32 port,
				    struct ib_port_immutable *imm)
{
	imm->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	imm->pkey_tbl_len = IBSW_MGMT_PKEYS;
	imm->gid_tbl_len = 1;
	imm->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer ibsw_mgmt_link_layer(struct ib_device *ibdev,
						 u32 port)
{
	return IB_LINK_LAYER_INFINIBAND;
}

static int ibsw_mgmt_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
				u16 *pkey)
{
	if (index >= IBSW_MGMT_PKEYS)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int ibsw_mgmt_query_gid(struct ib_device *ibdev, u32 port, int index,
			       union ib_gid *gid)
{
	unsigned long flags;
	struct ibsw_mgmt *m = to_mgmt(ibdev);

	if (index)
		return -EINVAL;
	spin_lock_irqsave(&m->lock, flags);
	gid->global.subnet_prefix = cpu_to_be64(m->gid_prefix);
	spin_unlock_irqrestore(&m->lock, flags);
	gid->global.interface_id = cpu_to_be64(m->guid);
	return 0;
}

static int ibsw_mgmt_modify_device(struct ib_device *ibdev, int mask,
				   struct ib_device_modify *mod)
{
	if (mask & ~IB_DEVICE_MODIFY_NODE_DESC)
		return -EOPNOTSUPP;
	if (mask & IB_DEVICE_MODIFY_NODE_DESC)
		memcpy(ibdev->node_desc, mod->node_desc, IB_DEVICE_NODE_DESC_MAX);
	return 0;
}

/* ---- PD, AH, MR ---- */

static int ibsw_mgmt_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return udata ? -EOPNOTSUPP : 0;
}

static int ibsw_mgmt_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int ibsw_mgmt_create_ah(struct ib_ah *ibah,
			       struct rdma_ah_init_attr *init,
			       struct ib_udata *udata)
{
	if (udata)
		return -EOPNOTSUPP;
	to_ah(ibah)->attr = *init->ah_attr;
	return 0;
}

/* The MAD layer matches a LID-routed response to its request by the AH */
static int ibsw_mgmt_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_ah(ibah)->attr;
	return 0;
}

static int ibsw_mgmt_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

static struct ib_mr *ibsw_mgmt_get_dma_mr(struct ib_pd *pd, int access)
{
	struct ibsw_mgmt_mr *mr = kzalloc(sizeof(*mr), GFP_KERNEL);

	if (!mr)
		return ERR_PTR(-ENOMEM);
	return &mr->ibmr;
}

/* No user memory: ib_core wants the op for a kernel verbs provider */
static struct ib_mr *ibsw_mgmt_reg_user_mr(struct ib_pd *pd, u64 start,
					   u64 length, u64 virt, int access,
					   struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int ibsw_mgmt_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	kfree(container_of(ibmr, struct ibsw_mgmt_mr, ibmr));
	return 0;
}

/* ---- CQ ---- */

static int ibsw_mgmt_create_cq(struct ib_cq *ibcq,
			       const struct ib_cq_init_attr *attr,
			       IBSW_CREATE_CQ_ATTRS *attrs)
{
	struct ibsw_mgmt_cq *cq = to_cq(ibcq);

	if (attrs || attr->flags)
		return -EOPNOTSUPP;
	if (!attr->cqe || attr->cqe > IBSW_MGMT_MAX_CQE)
		return -EINVAL;
	cq->wc = kvcalloc(attr->cqe, sizeof(*cq->wc), GFP_KERNEL);
	if (!cq->wc)
		return -ENOMEM;
	spin_lock_init(&cq->lock);
	cq->size = attr->cqe;
	ibcq->cqe = attr->cqe;
	return 0;
}

static int ibsw_mgmt_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	kvfree(to_cq(ibcq)->wc);
	return 0;
}

/*
 * Add a completion and, if the consumer asked, tell it. The MAD layer's
 * handler only queues its work, so it may be called from any context.
 */
static void ibsw_mgmt_cq_add(struct ibsw_mgmt_cq *cq, const struct ib_wc *wc)
{
	bool notify = false;
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count < cq->size) {
		cq->wc[(cq->head + cq->count) % cq->size] = *wc;
		cq->count++;
		notify = cq->armed;
		cq->armed = false;
	} else {
		cq->overflow++;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static int ibsw_mgmt_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct ibsw_mgmt_cq *cq = to_cq(ibcq);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num && cq->count) {
		wc[n++] = cq->wc[cq->head];
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static int ibsw_mgmt_req_notify_cq(struct ib_cq *ibcq,
				   enum ib_cq_notify_flags flags)
{
	struct ibsw_mgmt_cq *cq = to_cq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	cq->armed = true;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->count)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

/* ---- QP ---- */

static int ibsw_mgmt_create_qp(struct ib_qp *ibqp,
			       struct ib_qp_init_attr *init,
			       struct ib_udata *udata)
{
	unsigned long flags;
	struct ibsw_mgmt *m = to_mgmt(ibqp->device);
	struct ibsw_mgmt_qp *qp = to_qp(ibqp);
	unsigned int n = init->qp_type == IB_QPT_SMI ? 0 : 1;

	if (udata || init->create_flags || init->srq)
		return -EOPNOTSUPP;
	if (init->qp_type != IB_QPT_SMI && init->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	if (!init->cap.max_recv_wr ||
	    init->cap.max_recv_wr > IBSW_MGMT_MAX_WR ||
	    init->cap.max_send_wr > IBSW_MGMT_MAX_WR ||
	    init->cap.max_recv_sge > IBSW_MGMT_MAX_SGE ||
	    init->cap.max_send_sge > IBSW_MGMT_MAX_SGE)
		return -EINVAL;
	qp->rq = kvcalloc(init->cap.max_recv_wr, sizeof(*qp->rq), GFP_KERNEL);
	if (!qp->rq)
		return -ENOMEM;
	spin_lock_init(&qp->lock);
	qp->rq_size = init->cap.max_recv_wr;
	qp->state = IB_QPS_RESET;
	ibqp->qp_num = n;

	spin_lock_irqsave(&m->lock, flags);
	if (m->qp[n]) {
		spin_unlock_irqrestore(&m->lock, flags);
		kvfree(qp->rq);
		return -EBUSY;
	}
	m->qp[n] = qp;
	spin_unlock_irqrestore(&m->lock, flags);
	return 0;
}

static int ibsw_mgmt_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			       int mask, struct ib_udata *udata)
{
	unsigned long flags;
	struct ibsw_mgmt_qp *qp = to_qp(ibqp);

	if (udata)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&qp->lock, flags);
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_STATE)
		qp->state = attr->qp_state;
	spin_unlock_irqrestore(&qp->lock, flags);
	return 0;
}

static int ibsw_mgmt_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			      int mask, struct ib_qp_init_attr *init)
{
	unsigned long flags;
	struct ibsw_mgmt_qp *qp = to_qp(ibqp);

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	spin_lock_irqsave(&qp->lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->qkey = qp->qkey;
	spin_unlock_irqrestore(&qp->lock, flags);
	attr->port_num = 1;
	init->qp_type = ibqp->qp_type;
	init->port_num = 1;
	return 0;
}

static int ibsw_mgmt_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	unsigned long flags;
	struct ibsw_mgmt *m = to_mgmt(ibqp->device);
	struct ibsw_mgmt_qp *qp = to_qp(ibqp);

	spin_lock_irqsave(&m->lock, flags);
	m->qp[ibqp->qp_num] = NULL;
	spin_unlock_irqrestore(&m->lock, flags);
	/* A delivery that found it under m->lock is done with it */
	synchronize_net();
	kvfree(qp->rq);
	return 0;
}

static int ibsw_mgmt_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			       const struct ib_recv_wr **bad)
{
	struct ibsw_mgmt_qp *qp = to_qp(ibqp);
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		struct ibsw_mgmt_rwqe *e;

		if (wr->num_sge != 1 || qp->rq_count == qp->rq_size) {
			err = wr->num_sge != 1 ? -EINVAL : -ENOMEM;
			*bad = wr;
			break;
		}
		e = &qp->rq[(qp->rq_head + qp->rq_count) % qp->rq_size];
		e->wr_cqe = wr->wr_cqe;
		e->addr = wr->sg_list[0].addr;
		e->length = wr->sg_list[0].length;
		qp->rq_count++;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	return err;
}

/**
 * ibsw_mgmt_deliver() - a MAD arrives at one of the port's QPs
 * @m: the management HCA
 * @qpn: 0 or 1
 * @mad: the MAD, IB_MGMT_MAD_SIZE bytes
 * @slid: source LID (0xffff for a directed-route SMP)
 * @sl: its SL
 * @src_qp: the sender's QP
 *
 * Context: any; BH disabled or process context.
 * Return: true if a posted receive took it, false if it was dropped.
 */
static bool ibsw_mgmt_deliver(struct ibsw_mgmt *m, unsigned int qpn,
			      const void *mad, u16 slid, u8 sl, u32 src_qp)
{
	struct ibsw_mgmt_rwqe e = {};
	struct ibsw_mgmt_qp *qp;
	struct ib_wc wc = {};
	unsigned long flags;
	bool ok = false;

	spin_lock_irqsave(&m->lock, flags);
	qp = m->qp[qpn];
	if (qp) {
		spin_lock(&qp->lock);
		if (qp->state >= IB_QPS_RTR && qp->state <= IB_QPS_SQD &&
		    qp->rq_count) {
			e = qp->rq[qp->rq_head];
			qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
			qp->rq_count--;
			ok = true;
		}
		spin_unlock(&qp->lock);
	}
	if (!ok) {
		/* interrupts are off: no other writer on this CPU */
		if (!qpn)
			ibsw_stats_add(&m->stats, IBSW_CNT_VL15_DROPPED, 1);
		spin_unlock_irqrestore(&m->lock, flags);
		return false;
	}
	wc.wr_cqe = e.wr_cqe;
	wc.qp = &qp->ibqp;
	if (e.length < IBSW_MGMT_RECV_LEN) {
		wc.status = IB_WC_LOC_LEN_ERR;
	} else {
		memset((void *)(uintptr_t)e.addr, 0, IBSW_MGMT_GRH_LEN);
		memcpy((void *)(uintptr_t)e.addr + IBSW_MGMT_GRH_LEN, mad,
		       IB_MGMT_MAD_SIZE);
		wc.status = IB_WC_SUCCESS;
		wc.byte_len = IBSW_MGMT_RECV_LEN;
	}
	wc.opcode = IB_WC_RECV;
	wc.src_qp = src_qp;
	wc.slid = slid;
	wc.sl = sl;
	wc.port_num = 1;
	ibsw_mgmt_cq_add(to_cq(qp->ibqp.recv_cq), &wc);
	spin_unlock_irqrestore(&m->lock, flags);
	return true;
}

/* Copy a send's gather list into one MAD; false if it is not one */
static bool ibsw_mgmt_gather(const struct ib_send_wr *wr, u8 *mad)
{
	unsigned int i, off = 0;

	for (i = 0; i < wr->num_sge; i++) {
		const struct ib_sge *sge = &wr->sg_list[i];

		if (sge->length > IB_MGMT_MAD_SIZE - off)
			return false;
		memcpy(mad + off, (void *)(uintptr_t)sge->addr, sge->length);
		off += sge->length;
	}
	return off == IB_MGMT_MAD_SIZE;
}

/*
 * Send one MAD: to the port's own QPs if addressed to its LID; else onto
 * the link, by @tx_work (while the port is not cabled, it is lost as on a
 * dark link). SMPs go on VL15, GMPs on the data VL of their SL.
 */
static void ibsw_mgmt_send(struct ibsw_mgmt *m, struct ibsw_mgmt_qp *qp,
			   const struct ib_ud_wr *ud, const u8 *mad)
{
	const struct rdma_ah_attr *ah = &to_ah(ud->ah)->attr;
	struct ibsw_mad_addr a = {
		.sl = rdma_ah_get_sl(ah),
		.dlid = rdma_ah_get_dlid(ah),
		.pkey = IB_DEFAULT_PKEY_FULL,
		.dqp = ud->remote_qpn,
		/* The high bit asks for the QP's own Q_Key (IBA 10.2.4) */
		.qkey = ud->remote_qkey & IB_QP_SET_QKEY ? qp->qkey :
			ud->remote_qkey,
		.sqp = qp->ibqp.qp_num,
	};
	bool smp = qp->ibqp.qp_num == 0;
	struct ibsw_skb_cb *cb;
	struct sk_buff *skb;
	unsigned long flags;
	u16 lid;

	spin_lock_irqsave(&m->lock, flags);
	lid = m->lid;
	spin_unlock_irqrestore(&m->lock, flags);
	if (lid && a.dlid == lid) {
		ibsw_mgmt_deliver(m, a.dqp ? 1 : 0, mad, lid, a.sl, a.sqp);
		return;
	}
	skb = alloc_skb(IBSW_MAD_PKT_LEN, GFP_ATOMIC);
	if (skb) {
		/* A GMP's VL is its SL's on the link: tx_work sets it */
		a.vl = smp ? IBSW_VL15 : 0;
		/* A directed-route SMP from a port without a LID */
		a.slid = lid ?: (smp ? be16_to_cpu(IB_LID_PERMISSIVE) : 0);
		ibsw_mad_hdrs_put(skb_put(skb, IBSW_MAD_OFF), &a);
		skb_put_data(skb, mad, IB_MGMT_MAD_SIZE);
		skb_put_zero(skb, IBSW_ICRC_LEN);
		cb = ibsw_cb(skb);
		memset(cb, 0, sizeof(*cb));
		cb->wire_len = IBSW_MAD_WIRE_LEN;
		cb->dlid = a.dlid;
		cb->slid = a.slid;
		cb->sl = a.sl;
		cb->in_vl = a.vl;
		cb->out_vl = a.vl;
		cb->flags = IBSW_CB_IB;
	}
	spin_lock_irqsave(&m->lock, flags);
	if (skb && rcu_access_pointer(m->port) &&
	    skb_queue_len(&m->txq) < IBSW_MGMT_TXQ_MAX) {
		__skb_queue_tail(&m->txq, skb);
		skb = NULL;
		queue_work(system_highpri_wq, &m->tx_work);
	} else {
		ibsw_stats_add(&m->stats, IBSW_CNT_XMIT_DISCARDS, 1);
	}
	spin_unlock_irqrestore(&m->lock, flags);
	kfree_skb(skb);
}

/*
 * A GMP into the HCA transmitter of the port, on its SL's VL (the HCA
 * side's SL-to-VL table, as a host's): it waits for the switch's credits
 * there, as data does.
 */
static int ibsw_mgmt_gmp_enqueue(struct ibsw_port *port, struct sk_buff *skb,
				 unsigned int *vlp)
{
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	const struct ibsw_sl2vl_tab *tab = rcu_dereference(port->sl2vl);
	unsigned int vl = ibsw_sl2vl_get(&tab->map[0], cb->sl);

	if (ibsw_vl_drop(vl, READ_ONCE(port->nr_vls)))
		return -ERANGE;
	skb->data[0] = (skb->data[0] & 0x0f) | vl << 4;	/* LRH VL */
	cb->in_vl = vl;
	cb->out_vl = vl;
	*vlp = vl;
	return ibsw_hca_enqueue(port->hca, skb, NULL);
}

/* Hand the posted MADs to the port's HCA transmitter, BH disabled */
void ibsw_mgmt_tx_work(struct work_struct *work)
{
	struct ibsw_mgmt *m = container_of(work, struct ibsw_mgmt, tx_work);
	struct sk_buff_head list;
	struct ibsw_port *port;
	struct sk_buff *skb;
	unsigned long flags;

	__skb_queue_head_init(&list);
	spin_lock_irqsave(&m->lock, flags);
	skb_queue_splice_init(&m->txq, &list);
	spin_unlock_irqrestore(&m->lock, flags);

	local_bh_disable();
	rcu_read_lock();
	port = rcu_dereference(m->port);
	while ((skb = __skb_dequeue(&list))) {
		struct ibsw_skb_cb *cb = ibsw_cb(skb);
		/* the skb is the transmitter's once it took it */
		unsigned int len = cb->wire_len, vl = IBSW_VL15;

		if (port) {
			cb->in_port = port->num;
			if (cb->out_vl == IBSW_VL15 ?
			    !ibsw_engine_enqueue_vl15(port->hca, skb) :
			    !ibsw_mgmt_gmp_enqueue(port, skb, &vl)) {
				ibsw_stats_pkt(&m->stats, true, vl, len);
				continue;
			}
		}
		ibsw_stats_add(&m->stats, IBSW_CNT_XMIT_DISCARDS, 1);
		kfree_skb(skb);
	}
	rcu_read_unlock();
	local_bh_enable();
}

/*
 * The addresses and the MAD of a packet from the switch: a management
 * HCA's (IBA local headers) or a host's (RoCEv2, its LIDs and SL the
 * switch's view of its IP header). NULL if it is not a MAD.
 */
static const u8 *ibsw_mgmt_mad_of(struct sk_buff *skb, struct ibsw_mad_addr *a)
{
	const struct ibsw_skb_cb *cb = ibsw_cb(skb);

	if (skb_linearize(skb))
		return NULL;
	if (cb->flags & IBSW_CB_IB)
		return ibsw_mad_hdrs_get(skb->data, skb->len, a) ? NULL :
		       skb->data + IBSW_MAD_OFF;
	if (cb->bth_off >= skb->len ||
	    ibsw_mad_roce_get(skb->data + cb->bth_off,
			      skb->len - cb->bth_off, a))
		return NULL;
	a->slid = cb->slid;
	a->dlid = cb->dlid;
	a->sl = cb->sl;
	return skb->data + cb->bth_off + IBSW_BTH_LEN + IBSW_DETH_LEN;
}

/**
 * ibsw_mgmt_receive() - packets the switch port sent to the HCA
 * @m: the management HCA
 * @list: the packets, in the order they left the link; emptied
 *
 * Context: BH disabled, RCU.
 */
void ibsw_mgmt_receive(struct ibsw_mgmt *m, struct sk_buff_head *list)
{
	struct ibsw_mad_addr a;
	struct sk_buff *skb;
	const u8 *mad;

	while ((skb = __skb_dequeue(list))) {
		ibsw_stats_pkt(&m->stats, false, ibsw_cb(skb)->out_vl,
			       ibsw_cb(skb)->wire_len);
		mad = ibsw_mgmt_mad_of(skb, &a);
		/* QP0 takes SMPs only (VL15), QP1 GMPs only (data VLs) */
		if (mad && a.dqp == (ibsw_cb(skb)->out_vl != IBSW_VL15))
			ibsw_mgmt_deliver(m, a.dqp, mad, a.slid, a.sl, a.sqp);
		kfree_skb(skb);
	}
}

/**
 * ibsw_mgmt_mac() - the Ethernet address hosts know a management HCA by
 * @m: the HCA, or NULL
 * @mac: its address: 02:b5:de (locally administered, ibsw's) and the low
 *	three bytes of its GUID
 *
 * Hosts resolve the addresses mapped to its LID to this (neigh.c), and
 * the GMPs it sends them come from it.
 *
 * Return: false if @m is NULL.
 */
bool ibsw_mgmt_mac(const struct ibsw_mgmt *m, u8 *mac)
{
	if (!m)
		return false;
	mac[0] = 0x02;
	mac[1] = 0xb5;
	mac[2] = 0xde;
	mac[3] = m->guid >> 16;
	mac[4] = m->guid >> 8;
	mac[5] = m->guid;
	return true;
}

/*
 * The MAD layer posts under its queue's spinlock with interrupts off:
 * nothing here sleeps. Every send completes, or the layer's queue fills.
 */
static int ibsw_mgmt_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			       const struct ib_send_wr **bad)
{
	struct ibsw_mgmt *m = to_mgmt(ibqp->device);
	struct ibsw_mgmt_qp *qp = to_qp(ibqp);
	u8 mad[IB_MGMT_MAD_SIZE];

	for (; wr; wr = wr->next) {
		struct ib_wc wc = {
			.wr_cqe = wr->wr_cqe,
			.opcode = IB_WC_SEND,
			.qp = ibqp,
			.port_num = 1,
		};

		if (wr->opcode != IB_WR_SEND || READ_ONCE(qp->state) != IB_QPS_RTS) {
			*bad = wr;
			return -EINVAL;
		}
		if (ibsw_mgmt_gather(wr, mad)) {
			ibsw_mgmt_send(m, qp, ud_wr(wr), mad);
			wc.status = IB_WC_SUCCESS;
			wc.byte_len = IB_MGMT_MAD_SIZE;
		} else {
			wc.status = IB_WC_LOC_LEN_ERR;
		}
		if (wr->send_flags & IB_SEND_SIGNALED || wc.status)
			ibsw_mgmt_cq_add(to_cq(ibqp->send_cq), &wc);
	}
	return 0;
}

/* ---- the port's SMA ---- */

static void ibsw_mgmt_node_info(struct ibsw_mgmt *m, u8 *data)
{
	struct ibsw_smp_node_info ni = {
		.node_type = RDMA_NODE_IB_CA,
		.num_ports = 1,
		.sys_image_guid = m->guid,
		.node_guid = m->guid,
		.port_guid = m->guid,
		.partition_cap = IBSW_MGMT_PKEYS,
		.device_id = IBSW_MGMT_DEVICE_ID,
		.local_port_num = 1,
		.vendor_id = IBSW_MGMT_VENDOR_ID,
	};

	ibsw_smp_node_info_put(data, &ni);
}

static void ibsw_mgmt_port_info(struct ibsw_mgmt *m, u8 *data)
{
	struct ibsw_smp_port_info pi;

	lockdep_assert_held(&m->lock);
	ibsw_smp_port_info_init(&pi, IB_WIDTH_4X, IBSW_PI_SPEED_QDR,
				IBSW_PI_VL_CAP_4);
	pi.mkey = m->mkey;
	pi.gid_prefix = m->gid_prefix;
	pi.lid = m->lid;
	pi.master_sm_lid = m->sm_lid;
	pi.cap_mask = m->cap_mask;
	pi.mkey_lease_period = m->mkey_lease;
	pi.local_port_num = 1;
	pi.port_state = m->port_state;
	pi.phys_state = m->phys_state;
	pi.mkey_protect_bits = m->mkey_prot;
	pi.lmc = m->lmc;
	pi.master_sm_sl = m->sm_sl;
	pi.subnet_timeout = m->subnet_timeout;
	ibsw_smp_port_info_put(data, &pi);
}

/*
 * A PortInfo Set from the SM: LID, SM LID and SL, M_Key, subnet timeout;
 * the port state moves as the SM asks within what the link allows.
 * Return: the SMP status, 0 if it was taken.
 */
static u16 ibsw_mgmt_port_info_set(struct ibsw_mgmt *m, const u8 *data,
				   struct ib_event *ev)
{
	struct ibsw_smp_port_info pi;

	lockdep_assert_held(&m->lock);
	ibsw_smp_port_info_get(data, &pi);
	if (pi.lid >= be16_to_cpu(IB_MULTICAST_LID_BASE) ||
	    pi.master_sm_lid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (pi.port_state > IB_PORT_ACTIVE)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (pi.lid != m->lid || pi.lmc != m->lmc)
		ev->event = IB_EVENT_LID_CHANGE;
	else if (pi.master_sm_lid != m->sm_lid || pi.master_sm_sl != m->sm_sl)
		ev->event = IB_EVENT_SM_CHANGE;
	m->mkey = pi.mkey;
	m->gid_prefix = pi.gid_prefix;
	m->lid = pi.lid;
	m->lmc = pi.lmc;
	m->sm_lid = pi.master_sm_lid;
	m->sm_sl = pi.master_sm_sl;
	m->mkey_lease = pi.mkey_lease_period;
	m->mkey_prot = pi.mkey_protect_bits;
	m->subnet_timeout = pi.subnet_timeout;
	switch (pi.port_state) {
	case IB_PORT_DOWN:
		/* Retrain: a cabled link comes back in INIT */
		if (m->phys_state == IB_PORT_PHYS_STATE_LINK_UP)
			m->port_state = IB_PORT_INIT;
		break;
	case IB_PORT_ARMED:
		if (m->port_state == IB_PORT_INIT)
			m->port_state = IB_PORT_ARMED;
		else if (m->port_state != IB_PORT_ARMED)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		break;
	case IB_PORT_ACTIVE:
		if (m->port_state == IB_PORT_ARMED) {
			m->port_state = IB_PORT_ACTIVE;
			ev->event = IB_EVENT_PORT_ACTIVE;
		} else if (m->port_state != IB_PORT_ACTIVE) {
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		}
		break;
	}
	if (pi.client_reregister)
		ev->event = IB_EVENT_CLIENT_REREGISTER;
	return 0;
}

/* Answer an SMP for this port; false if the SM on this port takes it */
bool ibsw_mgmt_sma(struct ibsw_mgmt *m, const struct ib_smp *in,
		   struct ib_smp *out)
{
	unsigned long flags;
	struct ib_event ev = { .device = &m->ibdev, .element.port_num = 1 };
	u16 status = 0;

	*out = *in;
	switch (ibsw_smp_sma_check(in)) {
	case IBSW_SMA_ANSWER:
		break;
	case IBSW_SMA_BAD_VERSION:
		status = IB_MGMT_MAD_STATUS_BAD_VERSION;
		goto reply;
	case IBSW_SMA_BAD_METHOD:
		status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD;
		goto reply;
	default:
		return false;
	}
	/* SMInfo is the SM's to answer while this port is an SM's */
	if (in->attr_id == IB_SMP_ATTR_SM_INFO)
		return false;
	memset(out->data, 0, sizeof(out->data));
	spin_lock_irqsave(&m->lock, flags);
	switch (be16_to_cpu(in->attr_id)) {
	case 0x0010:	/* NodeDescription */
		if (in->method != IB_MGMT_METHOD_GET)
			status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		else
			ibsw_smp_node_desc_put(out->data, m->ibdev.node_desc);
		break;
	case 0x0011:	/* NodeInfo */
		if (in->method != IB_MGMT_METHOD_GET)
			status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		else
			ibsw_mgmt_node_info(m, out->data);
		break;
	case 0x0015:	/* PortInfo: 0 is the port it came in on */
		if (be32_to_cpu(in->attr_mod) > 1) {
			status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
			break;
		}
		if (in->method == IB_MGMT_METHOD_SET) {
			status = ibsw_mgmt_port_info_set(m, in->data, &ev);
			/*
			 * The switch port takes the LID, and the addresses
			 * mapped to it (the work does nothing if it is the
			 * port's already); not by the event, which a client
			 * reregistration in the same Set replaces
			 */
			schedule_work(&m->lid_work);
		}
		ibsw_mgmt_port_info(m, out->data);
		break;
	case 0x0016: {	/* P_KeyTable, block 0 */
		u16 pkeys[IBSW_SMP_PKEY_BLOCK] = { IB_DEFAULT_PKEY_FULL };

		if (be32_to_cpu(in->attr_mod) & 0xffff)
			status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		else
			ibsw_smp_pkey_put(out->data, pkeys);
		break;
	}
	default:
		status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		break;
	}
	spin_unlock_irqrestore(&m->lock, flags);
	if (ev.event)
		ib_dispatch_event(&ev);
reply:
	/*
	 * The MAD layer sends the reply and does its directed-route send
	 * step (P from N + 1 to N); here only the method and direction.
	 */
	ibsw_smp_reply_hdr(out, status);
	return true;
}

const struct ib_device_ops ibsw_mgmt_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = 0,

	.alloc_pd = ibsw_mgmt_alloc_pd,
	.create_ah = ibsw_mgmt_create_ah,
	.create_cq = ibsw_mgmt_create_cq,
	.create_qp = ibsw_mgmt_create_qp,
	.dealloc_pd = ibsw_mgmt_dealloc_pd,
	.dereg_mr = ibsw_mgmt_dereg_mr,
	.destroy_ah = ibsw_mgmt_destroy_ah,
	.destroy_cq = ibsw_mgmt_destroy_cq,
	.destroy_qp = ibsw_mgmt_destroy_qp,
	.get_dma_mr = ibsw_mgmt_get_dma_mr,
	.get_link_layer = ibsw_mgmt_link_layer,
	.get_port_immutable = ibsw_mgmt_port_immutable,
	.modify_device = ibsw_mgmt_modify_device,
	.modify_port = ibsw_mgmt_modify_port,
	.modify_qp = ibsw_mgmt_modify_qp,
	.poll_cq = ibsw_mgmt_poll_cq,
	.post_recv = ibsw_mgmt_post_recv,
	.post_send = ibsw_mgmt_post_send,
	.process_mad = ibsw_mgmt_process_mad,
	.query_device = ibsw_mgmt_query_device,
	.query_ah = ibsw_mgmt_query_ah,
	.query_gid = ibsw_mgmt_query_gid,
	.query_pkey = ibsw_mgmt_query_pkey,
	.query_port = ibsw_mgmt_query_port,
	.query_qp = ibsw_mgmt_query_qp,
	.reg_user_mr = ibsw_mgmt_reg_user_mr,
	.req_notify_cq = ibsw_mgmt_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, ibsw_mgmt_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, ibsw_mgmt_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, ibsw_mgmt_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, ibsw_mgmt_qp, ibqp),
};
