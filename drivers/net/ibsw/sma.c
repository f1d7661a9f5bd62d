// SPDX-License-Identifier: GPL-2.0
/*
 * The subnet management agents of the emulated fabric: one for every
 * switch (its port 0, base SP0) and one for every emulated CA (the rxe
 * device behind a host port), answering the SMPs that mad.c hands over.
 * They run in process context under RTNL, so a Set changes the state
 * that netlink changes, through the same functions, with the same
 * notifications.
 */

#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "engine.h"
#include "mad_pkt.h"
#include "sma.h"
#include "smp_attr.h"
#include "smp_route.h"

/* The switches' and emulated CAs' device: not a Mellanox ID (0xFF90) */
#define IBSW_SMA_DEVICE_ID	0x1b5f
#define IBSW_SMA_VENDOR_ID	0
/* OpenSM takes the smallest of the fabric; 48K is what ibsim reports */
#define IBSW_SMA_LFT_CAP	0xc000
#define IBSW_SMA_MCAST_CAP	IBSW_SMA_MFT_LIDS
/*
 * IsSLMappingSupported: OpenSM programs a switch's SL-to-VL tables when
 * port 0 has it, a CA's when its port has it
 */
#define IBSW_SMA_PORT0_CAP	IB_PORT_SL_MAP_SUP
#define IBSW_SMA_CA_CAP		(IB_PORT_CM_SUP | IB_PORT_CLIENT_REG_SUP | \
				 IB_PORT_SL_MAP_SUP)

/* A GUID for the switch and its port 0: ibsw's, from the switch's id */
static u64 ibsw_sma_switch_guid(const struct ibsw_switch *sw)
{
	return IBSW_GUID_BASE | (u64)(sw->id + 1) << 16;
}

static struct ibsw_sma *ibsw_sma_get(struct ibsw_switch *sw)
{
	struct ibsw_sma *sma = sw->sma;
	unsigned int i;

	ASSERT_RTNL();
	if (sma)
		return sma;
	sma = kzalloc(struct_size(sma, port, sw->nr_ports + 1), GFP_KERNEL);
	if (!sma)
		return NULL;
	sma->gid_prefix = IBSW_GID_PREFIX_DEFAULT;
	sma->subnet_timeout = 18;
	for (i = 0; i <= sw->nr_ports; i++)
		sma->port[i].state = IB_PORT_INIT;
	for (i = 1; i <= sw->nr_ports; i++)
		ibsw_sl2vl_default(&sma->port[i].sl2vl0, sw->ports[i]->nr_vls);
	sw->sma = sma;
	return sma;
}

/* ---- the switch ---- */

static void ibsw_sma_node_info(struct ibsw_switch *sw, unsigned int in,
			       u8 *data)
{
	struct ibsw_smp_node_info ni = {
		.node_type = RDMA_NODE_IB_SWITCH,
		.num_ports = sw->nr_ports,
		.sys_image_guid = ibsw_sma_switch_guid(sw),
		.node_guid = ibsw_sma_switch_guid(sw),
		.port_guid = ibsw_sma_switch_guid(sw),
		.partition_cap = 1,
		.device_id = IBSW_SMA_DEVICE_ID,
		.local_port_num = in,
		.vendor_id = IBSW_SMA_VENDOR_ID,
	};

	ibsw_smp_node_info_put(data, &ni);
}

static void ibsw_sma_switch_info(struct ibsw_switch *sw, struct ibsw_sma *sma,
				 u8 *data)
{
	const struct ibsw_lft *lft = rtnl_dereference(sw->lft);
	struct ibsw_smp_switch_info si = {
		.linear_fdb_cap = IBSW_SMA_LFT_CAP,
		.mcast_fdb_cap = IBSW_SMA_MCAST_CAP,
		.linear_fdb_top = lft ? lft->top : 0,
		.default_port = 0,
		.life_time_value = sma->life_time,
		.port_state_change = sma->port_state_change,
		.mcast_fdb_top = sma->mft_top,
	};

	ibsw_smp_switch_info_put(data, &si);
}

/*
 * The LFT cut or padded (no route) to end at top; a table that is not
 * there stays so.
 */
static int ibsw_sma_lft_resize(struct ibsw_switch *sw, unsigned int top)
{
	const struct ibsw_lft *old = rtnl_dereference(sw->lft);
	struct ibsw_lft *lft;

	if (!old || old->top == top)
		return 0;
	lft = ibsw_lft_alloc(top, old);
	if (IS_ERR(lft))
		return PTR_ERR(lft);
	ibsw_switch_publish_lft(sw, lft);
	return 0;
}

static u16 ibsw_sma_switch_info_set(struct ibsw_switch *sw,
				    struct ibsw_sma *sma, const u8 *data)
{
	struct ibsw_smp_switch_info si;

	ibsw_smp_switch_info_get(data, &si);
	if (si.linear_fdb_top > IBSW_LID_UNICAST_MAX)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	/*
	 * LinearFDBTop: the switch discards unicast DLIDs above it. The SM
	 * sets it to its highest LID; the table ends there, and so do the
	 * LFT blocks the SM writes after it.
	 */
	if (ibsw_sma_lft_resize(sw, si.linear_fdb_top))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	sma->lft_top = si.linear_fdb_top;
	sma->lft_top_set = true;
	sma->life_time = si.life_time_value;
	/* Write 1 to clear */
	if (si.port_state_change)
		sma->port_state_change = false;
	sma->mft_top = si.mcast_fdb_top;
	return 0;
}

/* A switch port's link: up when something is at its other end */
static bool ibsw_sma_link_up(const struct ibsw_port *port)
{
	return port->kind != IBSW_PORT_KIND_NONE;
}

static u8 ibsw_sma_width(const struct ibsw_port *port)
{
	static const u8 w[] = {
		[IBSW_LINK_WIDTH_1X] = IB_WIDTH_1X,
		[IBSW_LINK_WIDTH_4X] = IB_WIDTH_4X,
		[IBSW_LINK_WIDTH_8X] = IB_WIDTH_8X,
		[IBSW_LINK_WIDTH_12X] = IB_WIDTH_12X,
	};

	return port->width < ARRAY_SIZE(w) && w[port->width] ? w[port->width] :
	       IB_WIDTH_4X;
}

/* LinkSpeedActive and LinkSpeedExtActive of a port's speed */
static void ibsw_sma_speed(const struct ibsw_port *port, u8 *speed, u8 *ext)
{
	*ext = IBSW_PI_SPEED_EXT_NONE;
	switch (port->speed) {
	case IBSW_LINK_SPEED_SDR:
		*speed = IBSW_PI_SPEED_SDR;
		break;
	case IBSW_LINK_SPEED_DDR:
		*speed = IBSW_PI_SPEED_DDR;
		break;
	case IBSW_LINK_SPEED_QDR:
		*speed = IBSW_PI_SPEED_QDR;
		break;
	default:
		/* FDR and beyond: extended speeds, not advertised (bit 0x4000) */
		*speed = IBSW_PI_SPEED_QDR;
		break;
	}
}

static u8 ibsw_sma_vl_cap(unsigned int nr_vls)
{
	if (nr_vls >= 15)
		return IBSW_PI_VL_CAP_15;
	if (nr_vls >= 8)
		return IBSW_PI_VL_CAP_8;
	if (nr_vls >= 4)
		return IBSW_PI_VL_CAP_4;
	if (nr_vls >= 2)
		return IBSW_PI_VL_CAP_2;
	return IBSW_PI_VL_CAP_1;
}

/* PortInfo's M_Key fields */
static void ibsw_sma_mkey_get(const struct ibsw_sma_mkey *mk,
			      struct ibsw_smp_port_info *pi)
{
	pi->mkey = mk->key;
	pi->mkey_lease_period = mk->lease_period;
	pi->mkey_protect_bits = mk->protect;
	pi->mkey_violations = mk->violations;
}

static void ibsw_sma_port_info(struct ibsw_switch *sw, struct ibsw_sma *sma,
			       unsigned int num, unsigned int in, u8 *data)
{
	struct ibsw_smp_port_info pi;
	struct ibsw_port *port;
	u8 speed, ext;

	if (!num) {
		/* Base port 0: always up, holds the switch's LID and keys */
		ibsw_smp_port_info_init(&pi, IB_WIDTH_4X, IBSW_PI_SPEED_SDR,
					IBSW_PI_VL_CAP_4);
		pi.cap_mask = IBSW_SMA_PORT0_CAP;
		pi.lid = sw->sma_lid;
		pi.port_state = IB_PORT_ACTIVE;
		pi.phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else {
		port = sw->ports[num];
		ibsw_sma_speed(port, &speed, &ext);
		ibsw_smp_port_info_init(&pi, ibsw_sma_width(port), speed,
					ibsw_sma_vl_cap(port->nr_vls));
		pi.link_speed_ext_active = ext;
		pi.vl_high_limit = port->vlarb.high_limit;
		pi.hoq_life = port->hoq_life;
		pi.vl_arb_high_cap = IBSW_VLARB_MAX_ENTRIES;
		pi.vl_arb_low_cap = IBSW_VLARB_MAX_ENTRIES;
		if (ibsw_sma_link_up(port)) {
			pi.port_state = sma->port[num].state;
			pi.phys_state = IB_PORT_PHYS_STATE_LINK_UP;
		} else {
			pi.port_state = IB_PORT_DOWN;
			pi.phys_state = IB_PORT_PHYS_STATE_POLLING;
		}
	}
	pi.gid_prefix = sma->gid_prefix;
	pi.master_sm_lid = sma->sm_lid;
	ibsw_sma_mkey_get(&sma->mkey, &pi);
	pi.lmc = sma->lmc;
	pi.master_sm_sl = sma->sm_sl;
	pi.subnet_timeout = sma->subnet_timeout;
	pi.local_port_num = in;
	ibsw_smp_port_info_put(data, &pi);
}

/* A PortInfo Set's M_Key fields; a running lease goes on */
static void ibsw_sma_mkey_set(struct ibsw_sma_mkey *mk,
			      const struct ibsw_smp_port_info *pi)
{
	mk->key = pi->mkey;
	mk->protect = pi->mkey_protect_bits;
	mk->lease_period = pi->mkey_lease_period;
}

/* A PortInfo Set's PortState, through the state machine of smp_attr.c */
static u16 ibsw_sma_port_state(u8 *state, u8 want, bool up)
{
	if (ibsw_smp_port_state(*state, want, up, state))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	return 0;
}

static u16 ibsw_sma_port_info_set(struct ibsw_switch *sw,
				  struct ibsw_sma *sma, unsigned int num,
				  const u8 *data)
{
	struct ibsw_smp_port_info pi;
	struct ibsw_port_cfg *cfg;
	struct ibsw_port *port;
	u16 status;
	u8 state;
	int err;

	ibsw_smp_port_info_get(data, &pi);
	if (!num) {
		if (pi.lid >= be16_to_cpu(IB_MULTICAST_LID_BASE) ||
		    pi.master_sm_lid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		WRITE_ONCE(sw->sma_lid, pi.lid);
		sma->lmc = pi.lmc;
		sma->sm_lid = pi.master_sm_lid;
		sma->sm_sl = pi.master_sm_sl;
		ibsw_sma_mkey_set(&sma->mkey, &pi);
		sma->gid_prefix = pi.gid_prefix;
		sma->subnet_timeout = pi.subnet_timeout;
		return 0;
	}
	port = sw->ports[num];
	state = sma->port[num].state;
	status = ibsw_sma_port_state(&state, pi.port_state,
				     ibsw_sma_link_up(port));
	if (status)
		return status;
	/*
	 * OpenSM's QoS sets VLHighLimit here (netlink's vlarb-limit), and
	 * every sweep HOQLife (hoq-life)
	 */
	if (pi.vl_high_limit != port->vlarb.high_limit ||
	    pi.hoq_life != port->hoq_life) {
		cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
		if (!cfg)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		cfg->set = IBSW_PORT_CFG_VLARB_LIMIT | IBSW_PORT_CFG_HOQ_LIFE;
		cfg->vlarb.high_limit = pi.vl_high_limit;
		cfg->hoq_life = pi.hoq_life;
		err = ibsw_port_set(sw, num, cfg, NULL);
		kfree(cfg);
		if (err)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	sma->port[num].state = state;
	return 0;
}

/*
 * LinearForwardingTable: 64 LIDs a block, as netlink's lft-set sets it, up
 * to the LinearFDBTop the SM set
 */
static u16 ibsw_sma_lft(struct ibsw_switch *sw, const struct ibsw_sma *sma,
			unsigned int block, bool set, u8 *data)
{
	const struct ibsw_lft *lft = rtnl_dereference(sw->lft);
	unsigned int first = block * IBSW_SMP_LFT_BLOCK, len, i;

	if (first > IBSW_LID_UNICAST_MAX)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	len = lft ? lft->top + 1 : 0;
	if (set) {
		unsigned int top = max(len, first + IBSW_SMP_LFT_BLOCK) - 1;
		u8 ports[IBSW_SMP_LFT_BLOCK];
		struct ibsw_lft *new;

		/* up to LinearFDBTop once the SM has set it */
		top = min(top, IBSW_LID_UNICAST_MAX);
		if (sma->lft_top_set)
			top = min_t(unsigned int, top, sma->lft_top);
		new = ibsw_lft_alloc(top, lft);
		if (IS_ERR(new))
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		ibsw_smp_lft_get(data, ports);
		/* Port 0 is the switch itself: ibsw routes its LID in mad.c */
		for (i = 0; i < IBSW_SMP_LFT_BLOCK && first + i <= top; i++)
			new->port[first + i] = ports[i] && ports[i] <= sw->nr_ports ?
					       ports[i] : IBSW_LFT_NO_ROUTE;
		ibsw_switch_publish_lft(sw, new);
		lft = new;
		len = top + 1;
	}
	ibsw_smp_lft_put(data, lft && first < len ? lft->port + first : NULL,
			 first < len ? len - first : 0);
	/* The switch's own LID reads as port 0 */
	if (sw->sma_lid >= first && sw->sma_lid < first + IBSW_SMP_LFT_BLOCK)
		data[sw->sma_lid - first] = 0;
	return 0;
}

/* MulticastForwardingTable: stored, not used by the datapath */
static u16 ibsw_sma_mft(struct ibsw_switch *sw, struct ibsw_sma *sma,
			u32 mod, bool set, u8 *data)
{
	unsigned int block = mod & 0x1ff, pos = mod >> 28;

	if (block || pos >= IBSW_SMA_MFT_POSITIONS ||
	    pos * 16 > sw->nr_ports)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (set)
		ibsw_smp_mft_get(data, sma->mft[pos]);
	ibsw_smp_mft_put(data, sma->mft[pos]);
	return 0;
}

/* A Set of one SL-to-VL table of @port, as netlink's port-set makes it */
static int ibsw_sma_sl2vl_set(struct ibsw_port *port, unsigned int in,
			      const struct ibsw_sl2vl *map)
{
	struct ibsw_port_sl2vl s = { .in_port = in, .map = *map };
	struct ibsw_port_cfg *cfg;
	int err;

	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	cfg->nr_sl2vl = 1;
	cfg->sl2vl = &s;
	err = ibsw_port_set(port->sw, port->num, cfg, NULL);
	kfree(cfg);
	return err;
}

/*
 * SLtoVLMappingTable of a switch: output port @out's table for packets
 * from input port @in, the same table netlink's sl2vl sets. Input port 0,
 * the base port 0, has a table of the SMA's own.
 */
static u16 ibsw_sma_sl2vl(struct ibsw_switch *sw, struct ibsw_sma *sma,
			  u32 mod, bool set, u8 *data)
{
	unsigned int in, out;
	struct ibsw_sl2vl map;

	if (ibsw_smp_sl2vl_mod(mod, &in, &out) || !out ||
	    out > sw->nr_ports || in > sw->nr_ports)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (set) {
		ibsw_smp_sl2vl_get(data, &map);
		if (!in)
			sma->port[out].sl2vl0 = map;
		else if (ibsw_sma_sl2vl_set(sw->ports[out], in, &map))
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	if (!in)
		map = sma->port[out].sl2vl0;
	else if (ibsw_port_get_sl2vl(sw, out, in, &map))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	ibsw_smp_sl2vl_put(data, &map);
	return 0;
}

/*
 * VLArbitrationTable: a block of the output arbiter of @port, or (@hca)
 * of the arbiter of the HCA behind a host port, set as netlink sets them.
 * An SM's list has a fixed length, ibsw's stops at its last entry: see
 * ibsw_smp_vlarb_merge().
 */
static u16 ibsw_sma_vlarb(struct ibsw_port *port, bool hca, bool high,
			  unsigned int first, bool set, u8 *data)
{
	const struct ibsw_vlarb_table *cur = hca ? &port->hca_vlarb :
					     &port->vlarb;
	struct ibsw_vlarb_entry block[IBSW_SMP_VLARB_BLOCK];
	struct ibsw_vlarb_table *t;
	struct ibsw_port_cfg *cfg;
	int err;

	if (set) {
		cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
		if (!cfg)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		t = hca ? &cfg->hca_vlarb : &cfg->vlarb;
		*t = *cur;
		ibsw_smp_vlarb_get(data, block);
		if (high)
			t->nr_high = ibsw_smp_vlarb_merge(t->high, t->nr_high,
							  first, block);
		else
			t->nr_low = ibsw_smp_vlarb_merge(t->low, t->nr_low,
							 first, block);
		cfg->set = hca ? IBSW_PORT_CFG_HCA_VLARB :
			   high ? IBSW_PORT_CFG_VLARB_HIGH :
			   IBSW_PORT_CFG_VLARB_LOW;
		/* An SM writes a block at a time, and may starve a VL */
		cfg->starve_ok = true;
		/* A VL above 14 is refused here, as netlink refuses it */
		err = ibsw_port_set(port->sw, port->num, cfg, NULL);
		kfree(cfg);
		if (err)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	if (high)
		ibsw_smp_vlarb_block(cur->high, cur->nr_high, first, block);
	else
		ibsw_smp_vlarb_block(cur->low, cur->nr_low, first, block);
	ibsw_smp_vlarb_put(data, block);
	return 0;
}

/* GUIDInfo: GUIDCap is 1, so block 0 with the port GUID, read-only */
static u16 ibsw_sma_guid_info(u64 guid, u32 mod, u8 *data)
{
	u64 guids[IBSW_SMP_GUID_BLOCK] = { guid };

	/* A Set can change nothing: entry 0 is read-only, there is no 1 */
	if (mod)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	ibsw_smp_guid_info_put(data, guids);
	return 0;
}

static u16 ibsw_sma_switch(struct ibsw_switch *sw, struct ibsw_sma *sma,
			   unsigned int in, struct ib_smp *smp)
{
	bool set = smp->method == IB_MGMT_METHOD_SET;
	u32 mod = be32_to_cpu(smp->attr_mod);
	u16 pkeys[IBSW_SMP_PKEY_BLOCK] = { IB_DEFAULT_PKEY_FULL };
	unsigned int first, out;
	u8 in_data[IB_SMP_DATA_SIZE];
	u16 status = 0;
	bool high;

	memcpy(in_data, smp->data, sizeof(in_data));
	memset(smp->data, 0, sizeof(smp->data));
	switch (be16_to_cpu(smp->attr_id)) {
	case 0x0010:	/* NodeDescription */
		if (set)
			return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		ibsw_smp_node_desc_put(smp->data, sw->name);
		return 0;
	case 0x0011:	/* NodeInfo */
		if (set)
			return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		ibsw_sma_node_info(sw, in, smp->data);
		return 0;
	case 0x0012:	/* SwitchInfo */
		status = set ? ibsw_sma_switch_info_set(sw, sma, in_data) : 0;
		ibsw_sma_switch_info(sw, sma, smp->data);
		return status;
	case 0x0014:	/* GUIDInfo of port 0, the only one with a GUID */
		return ibsw_sma_guid_info(ibsw_sma_switch_guid(sw), mod,
					  smp->data);
	case 0x0015:	/* PortInfo */
		if ((mod & 0xff) > sw->nr_ports)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		if (set)
			status = ibsw_sma_port_info_set(sw, sma, mod & 0xff,
							in_data);
		ibsw_sma_port_info(sw, sma, mod & 0xff, in, smp->data);
		return status;
	case 0x0016:	/* P_KeyTable: block 0 of port 0, full member */
		if ((mod & 0xffff) || (mod >> 16) > sw->nr_ports)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		ibsw_smp_pkey_put(smp->data, pkeys);
		return 0;
	case 0x0017:	/* SLtoVLMappingTable */
		if (set)
			memcpy(smp->data, in_data, sizeof(in_data));
		return ibsw_sma_sl2vl(sw, sma, mod, set, smp->data);
	case 0x0018:	/* VLArbitrationTable of an output port */
		if (ibsw_smp_vlarb_mod(mod, &high, &first, &out) || !out ||
		    out > sw->nr_ports)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		if (set)
			memcpy(smp->data, in_data, sizeof(in_data));
		return ibsw_sma_vlarb(sw->ports[out], false, high, first, set,
				      smp->data);
	case 0x0019:	/* LinearForwardingTable */
		if (set)
			memcpy(smp->data, in_data, sizeof(in_data));
		return ibsw_sma_lft(sw, sma, mod, set, smp->data);
	case 0x001b:	/* MulticastForwardingTable */
		if (set)
			memcpy(smp->data, in_data, sizeof(in_data));
		return ibsw_sma_mft(sw, sma, mod, set, smp->data);
	default:
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
}

/* ---- the emulated CA behind a host port ---- */

static u64 ibsw_sma_ca_guid(const struct ibsw_port *port,
			    struct ib_device *ibdev)
{
	if (ibdev)
		return be64_to_cpu(ibdev->node_guid);
	return IBSW_GUID_BASE | (u64)(port->sw->id + 1) << 16 | port->num;
}

/*
 * A PortInfo Set of a CA: the LID (the host port's), the SM's LID and SL,
 * VLHighLimit (its HCA arbiter's LimitOfHighPriority) and the port state.
 * Nothing is changed for a state the port cannot take.
 */
static u16 ibsw_sma_ca_port_info_set(struct ibsw_port *port,
				     struct ibsw_sma_port *ca, const u8 *data)
{
	struct ibsw_smp_port_info pi;
	struct ibsw_port_cfg *cfg;
	u8 state;
	int err;

	ibsw_smp_port_info_get(data, &pi);
	if (ibsw_smp_port_state(ca->state, pi.port_state, true, &state))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (pi.lid && pi.lid != port->lid && ibsw_host_set_lid(port, pi.lid))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (pi.vl_high_limit != port->hca_vlarb.high_limit) {
		cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
		if (!cfg)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		cfg->set = IBSW_PORT_CFG_HCA_VLARB;
		cfg->hca_vlarb = port->hca_vlarb;
		cfg->hca_vlarb.high_limit = pi.vl_high_limit;
		err = ibsw_port_set(port->sw, port->num, cfg, NULL);
		kfree(cfg);
		if (err)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	ca->sm_lid = pi.master_sm_lid;
	ca->sm_sl = pi.master_sm_sl;
	ca->state = state;
	ibsw_sma_mkey_set(&ca->mkey, &pi);
	return 0;
}

static u16 ibsw_sma_ca(struct ibsw_switch *sw, struct ibsw_sma *sma,
		       struct ibsw_port *port, struct ib_smp *smp)
{
	struct net_device *dev = rtnl_dereference(port->netdev);
	bool set = smp->method == IB_MGMT_METHOD_SET;
	u16 pkeys[IBSW_SMP_PKEY_BLOCK] = { IB_DEFAULT_PKEY_FULL };
	struct ibsw_sma_port *ca = &sma->port[port->num];
	struct ib_device *ibdev = NULL;
	struct ibsw_smp_node_info ni;
	struct ibsw_smp_port_info pi;
	u8 in_data[IB_SMP_DATA_SIZE];
	unsigned int first, unused;
	struct ibsw_sl2vl map;
	u16 status = 0;
	u8 speed, ext;
	bool high;
	u64 guid;

	if (dev)
		ibdev = ib_device_get_by_netdev(dev, RDMA_DRIVER_RXE);
	guid = ibsw_sma_ca_guid(port, ibdev);
	memcpy(in_data, smp->data, sizeof(in_data));
	memset(smp->data, 0, sizeof(smp->data));
	switch (be16_to_cpu(smp->attr_id)) {
	case 0x0010:	/* NodeDescription: the rxe device's */
		if (set)
			status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		else
			ibsw_smp_node_desc_put(smp->data,
					       ibdev ? ibdev->node_desc :
					       dev ? dev->name : "");
		break;
	case 0x0011:	/* NodeInfo */
		memset(&ni, 0, sizeof(ni));
		ni.node_type = RDMA_NODE_IB_CA;
		ni.num_ports = 1;
		ni.sys_image_guid = guid;
		ni.node_guid = guid;
		ni.port_guid = guid;
		ni.partition_cap = 1;
		ni.device_id = IBSW_SMA_DEVICE_ID;
		ni.local_port_num = 1;
		if (set)
			status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		else
			ibsw_smp_node_info_put(smp->data, &ni);
		break;
	case 0x0015:	/* PortInfo of port 1 (0: the port it came in on) */
		if (be32_to_cpu(smp->attr_mod) > 1) {
			status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
			break;
		}
		if (set)
			status = ibsw_sma_ca_port_info_set(port, ca, in_data);
		ibsw_sma_speed(port, &speed, &ext);
		ibsw_smp_port_info_init(&pi, ibsw_sma_width(port), speed,
					ibsw_sma_vl_cap(port->nr_vls));
		pi.link_speed_ext_active = ext;
		pi.gid_prefix = IBSW_GID_PREFIX_DEFAULT;
		ibsw_sma_mkey_get(&ca->mkey, &pi);
		pi.lid = port->lid;
		pi.master_sm_lid = ca->sm_lid;
		pi.master_sm_sl = ca->sm_sl;
		pi.cap_mask = IBSW_SMA_CA_CAP;
		pi.local_port_num = 1;
		pi.port_state = ca->state;
		pi.phys_state = IB_PORT_PHYS_STATE_LINK_UP;
		pi.vl_high_limit = port->hca_vlarb.high_limit;
		pi.vl_arb_high_cap = IBSW_VLARB_MAX_ENTRIES;
		pi.vl_arb_low_cap = IBSW_VLARB_MAX_ENTRIES;
		pi.subnet_timeout = 18;
		ibsw_smp_port_info_put(smp->data, &pi);
		break;
	case 0x0016:	/* P_KeyTable, block 0 */
		if (be32_to_cpu(smp->attr_mod) & 0xffff)
			status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		else
			ibsw_smp_pkey_put(smp->data, pkeys);
		break;
	case 0x0014:	/* GUIDInfo */
		status = ibsw_sma_guid_info(guid, be32_to_cpu(smp->attr_mod),
					    smp->data);
		break;
	case 0x0017:	/* SLtoVLMappingTable: the HCA side's; no modifier */
		if (set) {
			ibsw_smp_sl2vl_get(in_data, &map);
			if (ibsw_sma_sl2vl_set(port, 0, &map)) {
				status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
				break;
			}
		}
		ibsw_port_get_sl2vl(sw, port->num, 0, &map);
		ibsw_smp_sl2vl_put(smp->data, &map);
		break;
	case 0x0018:	/* VLArbitrationTable of the HCA; the port is its own */
		if (ibsw_smp_vlarb_mod(be32_to_cpu(smp->attr_mod), &high,
				       &first, &unused)) {
			status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
			break;
		}
		if (set)
			memcpy(smp->data, in_data, sizeof(in_data));
		status = ibsw_sma_vlarb(port, true, high, first, set,
					smp->data);
		break;
	default:
		status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		break;
	}
	if (ibdev)
		ib_device_put(ibdev);
	return status;
}

/* ---- answering ---- */

/*
 * Turn the request in @skb into its reply and send it: a directed-route
 * reply back along its return path, a LID-routed one to the requester's
 * LID. @sw's port @p is where it came in (the switch's SMA) or the host
 * port of the CA that answers.
 */
static void ibsw_sma_reply(struct ibsw_switch *sw, unsigned int p, bool ca,
			   struct sk_buff *skb, u16 status)
{
	struct ib_smp *smp = (struct ib_smp *)(skb->data + IBSW_MAD_OFF);
	struct ibsw_mad_addr a;
	unsigned int out;

	ibsw_mad_hdrs_get(skb->data, skb->len, &a);
	ibsw_smp_reply_hdr(smp, status);
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
		out = ibsw_smp_dr_make_reply(smp);
		/* C14-13:1: it leaves by the port the request came in on */
		if (out != (ca ? 1 : p))
			goto drop;
	} else {
		a.dlid = a.slid;
		a.slid = ca ? sw->ports[p]->lid : sw->sma_lid;
	}
	swap(a.dqp, a.sqp);
	ibsw_mad_hdrs_put(skb->data, &a);
	memset(skb->cb, 0, sizeof(skb->cb));
	ibsw_cb(skb)->wire_len = IBSW_MAD_WIRE_LEN;
	ibsw_cb(skb)->in_vl = IBSW_VL15;
	ibsw_cb(skb)->out_vl = IBSW_VL15;
	ibsw_cb(skb)->in_port = p;
	ibsw_cb(skb)->flags = IBSW_CB_IB;

	local_bh_disable();
	rcu_read_lock();
	if (ca)
		/* The CA sends it: it enters the switch at the host port */
		ibsw_smp_receive(sw->ports[p], skb);
	else if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		ibsw_smp_send(sw->ports[p], sw->ports[p], skb);
	else
		ibsw_smp_route(sw->ports[p], a.dlid, skb);
	rcu_read_unlock();
	local_bh_enable();
	return;
drop:
	kfree_skb(skb);
}

/*
 * The M_Key check of a Get, Set or TrapRepress (smp_route.c), with the
 * lease of IBA 14.2.4.2: a violation starts M_KeyLeasePeriod seconds
 * (none if 0: the protection never lapses), an SMP with the right key
 * stops them, and when they run out the protection is off (level 0). A
 * violation is counted in PortInfo's M_KeyViolations and in mkey_violations
 * of @port, the switch port it came in on or the CA's host port.
 */
static enum ibsw_mkey_verdict ibsw_sma_mkey(struct ibsw_sma_mkey *mk,
					    const struct ib_smp *smp,
					    struct ibsw_port *port)
{
	enum ibsw_mkey_verdict v;

	if (mk->lease_end && time_after_eq(jiffies, mk->lease_end)) {
		mk->lease_end = 0;
		mk->protect = 0;
	}
	v = ibsw_smp_mkey_check(smp->method, be64_to_cpu(smp->mkey), mk->key,
				mk->protect);
	if (v == IBSW_MKEY_VALID)
		mk->lease_end = 0;
	if (v != IBSW_MKEY_VIOLATION)
		return v;
	if (mk->violations < U16_MAX)
		mk->violations++;
	local_bh_disable();
	ibsw_stat_inc(port, IBSW_CNT_MKEY_VIOLATIONS);
	local_bh_enable();
	/* 0 is "no lease running": a lease ending at jiffies 0 ends at 1 */
	if (!mk->lease_end && mk->lease_period)
		mk->lease_end = (jiffies + mk->lease_period * HZ) ?: 1;
	return v;
}

static void ibsw_sma_one(struct sk_buff *skb)
{
	struct ibsw_sma_cb scb = *ibsw_sma_cb(skb);
	struct ib_smp *smp = (struct ib_smp *)(skb->data + IBSW_MAD_OFF);
	enum ibsw_sma_verdict verdict;
	enum ibsw_mkey_verdict access;
	struct ibsw_sma_mkey *mk;
	struct ibsw_switch *sw;
	struct ibsw_sma *sma;
	u16 status;

	sw = xa_load(&ibsw_fabric.switches, scb.sw_id);
	if (!sw || !scb.port || scb.port > sw->nr_ports)
		goto drop;
	sma = ibsw_sma_get(sw);
	if (!sma)
		goto drop;
	verdict = ibsw_smp_sma_check(smp);
	switch (verdict) {
	case IBSW_SMA_ANSWER:
		break;
	case IBSW_SMA_BAD_VERSION:
		ibsw_sma_reply(sw, scb.port, scb.ca, skb,
			       IB_MGMT_MAD_STATUS_BAD_VERSION);
		return;
	case IBSW_SMA_BAD_METHOD:
		ibsw_sma_reply(sw, scb.port, scb.ca, skb,
			       IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD);
		return;
	default:
		/* Never answered, but a TrapRepress's M_Key is checked */
		if (smp->base_version != IB_MGMT_BASE_VERSION ||
		    smp->method != IB_MGMT_METHOD_TRAP_REPRESS)
			goto drop;
		break;
	}
	if (scb.ca && sw->ports[scb.port]->kind != IBSW_PORT_KIND_HOST)
		goto drop;
	mk = scb.ca ? &sma->port[scb.port].mkey : &sma->mkey;
	access = ibsw_sma_mkey(mk, smp, sw->ports[scb.port]);
	/* A violation is not answered (IBA 14.2.4): the requester times out */
	if (access == IBSW_MKEY_VIOLATION || verdict != IBSW_SMA_ANSWER)
		goto drop;
	if (scb.ca)
		status = ibsw_sma_ca(sw, sma, sw->ports[scb.port], smp);
	else
		status = ibsw_sma_switch(sw, sma, scb.port, smp);
	if (access == IBSW_MKEY_READ_HIDDEN &&
	    smp->attr_id == IB_SMP_ATTR_PORT_INFO)
		memset(smp->data, 0, sizeof(smp->mkey));	/* M_Key, 0-7 */
	ibsw_sma_reply(sw, scb.port, scb.ca, skb, status);
	return;
drop:
	kfree_skb(skb);
}

/**
 * ibsw_sma_work() - answer the SMPs waiting for the SMAs
 * @work: ibsw_fabric.sma_work
 *
 * Context: process; takes RTNL.
 */
void ibsw_sma_work(struct work_struct *work)
{
	struct sk_buff_head *q = &ibsw_fabric.sma_queue;
	struct sk_buff *skb;

	rtnl_lock();
	while ((skb = skb_dequeue(q)))
		ibsw_sma_one(skb);
	rtnl_unlock();
}

/**
 * ibsw_sma_link_change() - a switch port's link went up or down
 * @port: the port
 *
 * The port starts over in INIT and the switch tells the SM at its next
 * sweep (SwitchInfo PortStateChange).
 *
 * Context: RTNL.
 */
void ibsw_sma_link_change(struct ibsw_port *port)
{
	struct ibsw_sma *sma = port->sw->sma;

	ASSERT_RTNL();
	if (!sma)
		return;
	sma->port[port->num].state = IB_PORT_INIT;
	sma->port_state_change = true;
}
