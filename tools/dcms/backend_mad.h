/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MAD backend's parts (backend.h has its entry, backend_mad_open()):
 *
 *   mad_attr.c     the attributes' wire layouts (Documentation/mads.md)
 *   mad_fabric.c   the switch and CA tables, from a libibnetdisc discovery
 *   backend_mad.c  struct backend_ops over a MAD agent (below)
 *   mad_umad.c     the agent over libibmad and libibnetdisc
 *
 * The agent is a seam: "Get or Set attribute X of LID L" and "discover the
 * fabric", so that the tests drive backend_mad.c with a fake one holding
 * switch and CA state in IBA byte layout.
 */
#ifndef DCMS_BACKEND_MAD_H
#define DCMS_BACKEND_MAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/ibnetdisc.h>

#include "backend.h"

/* The attribute data of a PMA or CC MAD: bytes 64 to 255 */
#define MAD_ATTR_LEN		192

/* PMA (class 0x04) and CC (class 0x21) attribute IDs */
#define MAD_PC_EXT		0x001d	/* PortCountersExtended */
#define MAD_XMIT_CON_CTRL	0x0034	/* PortXmitConCtrl */
#define MAD_SW_CC		0x0014	/* SwitchCongestionSetting */
#define MAD_SW_PORT_CC		0x0015	/* SwitchPortCongestionSetting */
#define MAD_CA_CC		0x0016	/* CACongestionSetting */
#define MAD_CCT			0x0017	/* CongestionControlTable */

/* SwitchPortCongestionSetting: ports 32 b to 32 b + 31 in block b */
#define MAD_SW_PORT_BLOCK	32

/* Control_Map of SwitchCongestionSetting */
#define MAD_CM_VICTIM_MASK	0x01
#define MAD_CM_CREDIT_MASK	0x02
#define MAD_CM_THRESHOLD	0x04	/* and Packet_Size */
#define MAD_CM_CS		0x08	/* CS_Threshold and CS_ReturnDelay */
#define MAD_CM_MARKING_RATE	0x10
#define MAD_CM_ALL		0x1f

/* ---------------------------------------------------------------- mad_attr.c */

/* PortCountersExtended: PortXmitData (32-bit words), PortXmitWait (ticks) */
void mad_pc_ext_decode(const uint8_t data[MAD_ATTR_LEN], uint64_t *xmit_data,
		       uint64_t *xmit_wait);
/* PortXmitConCtrl: PortXmitTimeCong (ticks) */
uint32_t mad_xmit_con_ctrl_decode(const uint8_t data[MAD_ATTR_LEN]);

/* SwitchCongestionSetting, every field (s->set is CC_SW_* of all of them) */
void mad_sw_cc_decode(const uint8_t data[MAD_ATTR_LEN], struct cc_sw_setting *s);
void mad_sw_cc_encode(uint8_t data[MAD_ATTR_LEN], const struct cc_sw_setting *s);
/*
 * A Set of the fields of given over cur, the switch's setting as read: the
 * Control_Map names the components given (and, if given->control_map is
 * set, only those it names too), the other fields keep cur's values.
 */
void mad_sw_cc_merge(struct cc_sw_setting *cur, const struct cc_sw_setting *given);

/* Element e (0 to 31) of a SwitchPortCongestionSetting block */
void mad_sw_port_decode(const uint8_t data[MAD_ATTR_LEN], unsigned int e,
			struct be_port_cc *pc);
/* Write element e as Control_Type 0 with every field of pc; nothing else */
void mad_sw_port_encode(uint8_t data[MAD_ATTR_LEN], unsigned int e,
			const struct be_port_cc *pc);

/*
 * CACongestionSetting as OpenSM sends it: Port_Control, the Control_Map of
 * be_ca_control_map() and the entries of the SLs in it (the others zero)
 */
void mad_ca_cc_encode(uint8_t data[MAD_ATTR_LEN], const struct cc_ca_setting *s);
/*
 * Block b of the CongestionControlTable (be_cct_blocks()): CCTI_Limit is
 * the table's last index (0 for an empty one) in every block
 */
void mad_cct_encode(uint8_t data[MAD_ATTR_LEN], const struct cc_ca_setting *s,
		    unsigned int block);

/* "0x001c (invalid attribute or modifier)" */
void mad_status_str(unsigned int status, char *buf, size_t len);

/* ---------------------------------------------------------------- mad_fabric.c */

/* A switch port's N(s, p) */
struct mad_port {
	enum dcms_peer peer;
	char peer_switch[BE_NAME_LEN];	/* DCMS_PEER_SWITCH */
	unsigned int peer_port;
};

struct mad_switch {
	char name[BE_NAME_LEN];
	uint64_t guid;
	uint16_t lid;
	unsigned int nports;
	struct mad_port *port;		/* [0..nports], [0] unused */
};

/* A CA port (be_ca, and where it is) */
struct mad_ca {
	struct be_ca ca;
	uint64_t guid;
	unsigned int port;
};

/*
 * The switches of a discovery, sorted by name (strverscmp: S2 before S10),
 * and its CA ports by name, GUID and port number
 */
struct mad_fabric {
	struct mad_switch *sw;
	size_t n;
	struct mad_ca *ca;
	size_t nca;
};

/*
 * The table of the switches of a discovery. A switch's name is its
 * NodeDescription without trailing spaces and NULs; an empty one, one
 * longer than DCMS_NAME_MAX or one shared by several switches is replaced
 * by the GUID ("0x0002c90300001234"). -ENXIO if a switch has LID 0 (no SM
 * has run), -ERANGE if it has more than DCMS_PORTS_MAX ports, the reason in
 * msg; t is then empty.
 *
 * And every CA port but the one the discovery started from (the backend's
 * own), named by the first word of its node's description (rdma-ndd's
 * "HOST DEV": the host), or the GUID where that is empty or too long. A
 * host's HCAs share its name; a port with LID 0 is kept, cc_set_ca() says.
 */
int mad_fabric_build(const ibnd_fabric_t *f, struct mad_fabric *t, char *msg, size_t len);
void mad_fabric_free(struct mad_fabric *t);
const struct mad_switch *mad_fabric_find(const struct mad_fabric *t, const char *name);

/* ---------------------------------------------------------------- the agent */

/*
 * Each MAD call returns 0, -ETIMEDOUT (no answer, or the MAD could not be
 * sent) or -EIO (answered with a non-zero MAD status, in *status). data is
 * the attribute data, MAD_ATTR_LEN bytes: filled with the reply (Get), or
 * sent and then replaced with the reply (Set).
 */
struct mad_agent_ops {
	/* a PMA Get with PortSelect port (the rest of data is zeroed) */
	int (*pma_get)(void *ctx, uint16_t lid, uint16_t attr, uint8_t port,
		       uint8_t *data, unsigned int *status);
	int (*cc_get)(void *ctx, uint16_t lid, uint16_t attr, uint32_t mod, uint64_t cc_key,
		      uint8_t *data, unsigned int *status);
	int (*cc_set)(void *ctx, uint16_t lid, uint16_t attr, uint32_t mod, uint64_t cc_key,
		      uint8_t *data, unsigned int *status);
	/* a new table into t (t is empty); 0 or -errno with the reason in msg */
	int (*discover)(void *ctx, struct mad_fabric *t, char *msg, size_t len);
	void (*close)(void *ctx);
};

/* The knobs of backend_mad.c, from struct conf */
struct mad_be_conf {
	uint64_t cc_key;
	unsigned int timeout_ms;	/* for messages */
	unsigned int rediscover;	/* sweeps; 0: only after a failed MAD */
	uint32_t time_scale;		/* 0: from genl, or 1 */
};

/*
 * The backend over an agent: discovers the fabric once. genl, if not NULL,
 * is an open ibsw genl backend for the time scale (owned from now on, also
 * on failure, as are ctx and the agent). 0 or -errno with b->msg.
 */
int backend_mad_init(struct backend *b, const struct mad_be_conf *mc,
		     const struct mad_agent_ops *ops, void *ctx, struct backend *genl);

/* Discoveries so far (for the tests of the policy) */
unsigned int backend_mad_discoveries(const struct backend *b);

#endif /* DCMS_BACKEND_MAD_H */
