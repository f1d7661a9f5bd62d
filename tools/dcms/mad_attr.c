// SPDX-License-Identifier: GPL-2.0
/*
 * The PMA and CC attributes the MAD backend reads and writes, in libibmad's
 * field definitions (which match IBA vol 1 annexes A10 and 16.1.4; the unit
 * tests hold them against hand-written bytes). data is always the attribute
 * area, bytes 64 to 255 of the MAD: libibmad's rpc copies exactly that.
 */
#include "backend_mad.h"

#include <stdio.h>
#include <string.h>

#include <infiniband/mad.h>

/* Cong_Parm, the Marking_Rate for Control_Type 0 */
#define SP_MARKING_RATE_F \
	IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_CONG_PARM_MARKING_RATE_F

/* libibmad's accessors take non-const buffers even to read */
#define RD(data)	((void *)(uintptr_t)(data))

void mad_pc_ext_decode(const uint8_t data[MAD_ATTR_LEN], uint64_t *xmit_data,
		       uint64_t *xmit_wait)
{
	*xmit_data = mad_get_field64(RD(data), 0, IB_PC_EXT_XMT_BYTES_F);
	/* needs CapabilityMask2 bit 1, which ibsw sets; 0 where it is absent */
	*xmit_wait = mad_get_field64(RD(data), 0, IB_PC_EXT_XMT_WAIT_F);
}

uint32_t mad_xmit_con_ctrl_decode(const uint8_t data[MAD_ATTR_LEN])
{
	return mad_get_field(RD(data), 0, IB_PC_XMIT_CON_CTRL_TIME_CONG_F);
}

void mad_sw_cc_decode(const uint8_t data[MAD_ATTR_LEN], struct cc_sw_setting *s)
{
	memset(s, 0, sizeof(*s));
	s->set = CC_SW_CONTROL_MAP | CC_SW_VICTIM_MASK | CC_SW_CREDIT_MASK | CC_SW_THRESHOLD |
		 CC_SW_PACKET_SIZE | CC_SW_CS_THRESHOLD | CC_SW_CS_RETURN_DELAY |
		 CC_SW_MARKING_RATE;
	s->control_map = mad_get_field(RD(data), 0, IB_CC_SWITCH_CONGESTION_SETTING_CONTROL_MAP_F);
	mad_get_array(RD(data), 0, IB_CC_SWITCH_CONGESTION_SETTING_VICTIM_MASK_F, s->victim_mask);
	mad_get_array(RD(data), 0, IB_CC_SWITCH_CONGESTION_SETTING_CREDIT_MASK_F, s->credit_mask);
	s->threshold = mad_get_field(RD(data), 0, IB_CC_SWITCH_CONGESTION_SETTING_THRESHOLD_F);
	s->packet_size = mad_get_field(RD(data), 0, IB_CC_SWITCH_CONGESTION_SETTING_PACKET_SIZE_F);
	s->cs_threshold = mad_get_field(RD(data), 0,
					IB_CC_SWITCH_CONGESTION_SETTING_CS_THRESHOLD_F);
	s->cs_return_delay = mad_get_field(RD(data), 0,
					   IB_CC_SWITCH_CONGESTION_SETTING_CS_RETURN_DELAY_F);
	s->marking_rate = mad_get_field(RD(data), 0,
					IB_CC_SWITCH_CONGESTION_SETTING_MARKING_RATE_F);
}

void mad_sw_cc_encode(uint8_t data[MAD_ATTR_LEN], const struct cc_sw_setting *s)
{
	memset(data, 0, MAD_ATTR_LEN);
	mad_set_field(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_CONTROL_MAP_F, s->control_map);
	mad_set_array(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_VICTIM_MASK_F,
		      RD(s->victim_mask));
	mad_set_array(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_CREDIT_MASK_F,
		      RD(s->credit_mask));
	mad_set_field(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_THRESHOLD_F, s->threshold & 0xf);
	mad_set_field(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_PACKET_SIZE_F, s->packet_size);
	mad_set_field(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_CS_THRESHOLD_F,
		      s->cs_threshold & 0xf);
	mad_set_field(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_CS_RETURN_DELAY_F,
		      s->cs_return_delay);
	mad_set_field(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_MARKING_RATE_F, s->marking_rate);
}

void mad_sw_cc_merge(struct cc_sw_setting *cur, const struct cc_sw_setting *given)
{
	uint32_t map = 0;

	if (given->set & CC_SW_VICTIM_MASK) {
		memcpy(cur->victim_mask, given->victim_mask, CC_MASK_LEN);
		map |= MAD_CM_VICTIM_MASK;
	}
	if (given->set & CC_SW_CREDIT_MASK) {
		memcpy(cur->credit_mask, given->credit_mask, CC_MASK_LEN);
		map |= MAD_CM_CREDIT_MASK;
	}
	/* one Control_Map bit for two fields: the one not given stays as read */
	if (given->set & CC_SW_THRESHOLD) {
		cur->threshold = given->threshold;
		map |= MAD_CM_THRESHOLD;
	}
	if (given->set & CC_SW_PACKET_SIZE) {
		cur->packet_size = given->packet_size;
		map |= MAD_CM_THRESHOLD;
	}
	if (given->set & CC_SW_CS_THRESHOLD) {
		cur->cs_threshold = given->cs_threshold;
		map |= MAD_CM_CS;
	}
	if (given->set & CC_SW_CS_RETURN_DELAY) {
		cur->cs_return_delay = given->cs_return_delay;
		map |= MAD_CM_CS;
	}
	if (given->set & CC_SW_MARKING_RATE) {
		cur->marking_rate = given->marking_rate;
		map |= MAD_CM_MARKING_RATE;
	}
	/* as the genl cc-set: a Control_Map given restricts what applies */
	if (given->set & CC_SW_CONTROL_MAP)
		map &= given->control_map;
	cur->control_map = map;
}

void mad_sw_port_decode(const uint8_t data[MAD_ATTR_LEN], unsigned int e,
			struct be_port_cc *pc)
{
	const enum MAD_FIELDS mr = SP_MARKING_RATE_F;
	int base = (e % MAD_SW_PORT_BLOCK) * 4;

	pc->valid = mad_get_field(RD(data), base,
				  IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_VALID_F);
	pc->threshold = mad_get_field(RD(data), base,
				      IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_THRESHOLD_F);
	pc->packet_size = mad_get_field(RD(data), base,
					IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_PACKET_SIZE_F);
	pc->marking_rate = mad_get_field(RD(data), base, mr);
}

void mad_sw_port_encode(uint8_t data[MAD_ATTR_LEN], unsigned int e,
			const struct be_port_cc *pc)
{
	const enum MAD_FIELDS mr = SP_MARKING_RATE_F;
	int base = (e % MAD_SW_PORT_BLOCK) * 4;

	/* the reserved bits too: the element is ours */
	memset(data + base, 0, 4);
	mad_set_field(data, base, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_VALID_F,
		      pc->valid);
	mad_set_field(data, base, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_CONTROL_TYPE_F, 0);
	mad_set_field(data, base, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_THRESHOLD_F,
		      pc->threshold & 0xf);
	mad_set_field(data, base, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_PACKET_SIZE_F,
		      pc->packet_size);
	mad_set_field(data, base, mr, pc->marking_rate);
}

void mad_ca_cc_encode(uint8_t data[MAD_ATTR_LEN], const struct cc_ca_setting *s)
{
	uint16_t map = be_ca_control_map(s);
	unsigned int sl;

	memset(data, 0, MAD_ATTR_LEN);
	mad_set_field(data, 0, IB_CC_CA_CONGESTION_SETTING_PORT_CONTROL_F, s->port_control);
	mad_set_field(data, 0, IB_CC_CA_CONGESTION_SETTING_CONTROL_MAP_F, map);
	for (sl = 0; sl < CC_NR_SLS; sl++) {
		const struct cc_ca_entry *e = &s->sl[sl];
		int base = 4 + 8 * sl;

		/* the CA ignores the entries outside the map: left zero */
		if (!(map & 1u << sl))
			continue;
		mad_set_field(data, base, IB_CC_CA_CONGESTION_ENTRY_CCTI_TIMER_F, e->ccti_timer);
		mad_set_field(data, base, IB_CC_CA_CONGESTION_ENTRY_CCTI_INCREASE_F,
			      e->ccti_increase);
		mad_set_field(data, base, IB_CC_CA_CONGESTION_ENTRY_TRIGGER_THRESHOLD_F,
			      e->trigger_threshold);
		mad_set_field(data, base, IB_CC_CA_CONGESTION_ENTRY_CCTI_MIN_F, e->ccti_min);
	}
}

void mad_cct_encode(uint8_t data[MAD_ATTR_LEN], const struct cc_ca_setting *s,
		    unsigned int block)
{
	unsigned int first = block * BE_CCT_BLOCK, j;

	memset(data, 0, MAD_ATTR_LEN);
	mad_set_field(data, 0, IB_CC_CONGESTION_CONTROL_TABLE_CCTI_LIMIT_F,
		      s->cct_len ? s->cct_len - 1 : 0);
	for (j = 0; j < BE_CCT_BLOCK && first + j < s->cct_len; j++) {
		const struct cc_cct_entry *c = &s->cct[first + j];
		/* 16-bit entries: libibmad's offsets within 32-bit words need a base each */
		uint8_t *entry = data + 4 + 2 * j;

		mad_set_field(entry, 0, IB_CC_CONGESTION_CONTROL_TABLE_ENTRY_CCT_SHIFT_F,
			      c->shift & 3);
		mad_set_field(entry, 0, IB_CC_CONGESTION_CONTROL_TABLE_ENTRY_CCT_MULTIPLIER_F,
			      c->multiplier & 0x3fff);
	}
}

void mad_status_str(unsigned int status, char *buf, size_t len)
{
	/* IBA 13.4.7, Table 112: bits 2-4 are the code, 8-14 class specific */
	static const char *const code[8] = {
		"", "bad class version", "method not supported",
		"method and attribute not supported", "", "", "", "invalid attribute or modifier",
	};
	const char *what = code[(status >> 2) & 7];

	if (status & 1)
		what = "busy";
	else if (status & 2)
		what = "redirect";
	if (*what)
		snprintf(buf, len, "0x%04x (%s)", status, what);
	else
		snprintf(buf, len, "0x%04x", status);
}
