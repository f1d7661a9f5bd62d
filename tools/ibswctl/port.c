// SPDX-License-Identifier: GPL-2.0
/* ibswctl port { show | set } */
#include "ibswctl.h"

#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl [-d] port show [SW[/PORT]]\n"
		"       ibswctl port set SW/PORT [rate RATE] [width WIDTH] [speed SPEED] [vls N] [lid LID]\n"
		"                [buffer CREDITS | buffer VL:CREDITS[,VL:CREDITS...]]\n"
		"                [vlarb-high VL:WEIGHT[,VL:WEIGHT...] | none]\n"
		"                [vlarb-low VL:WEIGHT[,VL:WEIGHT...] | none] [vlarb-limit N]\n"
		"                [sl2vl [in PORT] VL,VL,... (16 values)]... [hca-rate BPS]\n"
		"                [hoq-life N]\n"
		"RATE: e.g. 4xQDR; WIDTH: 1x 4x 8x 12x; SPEED: SDR DDR QDR FDR10 FDR EDR HDR NDR.\n"
		"vls: data VLs the port operates, 1 to %d. buffer: input buffer sizes in\n"
		"64-byte credits, of every VL or of the ones listed. vlarb-limit: LimitOfHighPriority\n"
		"in 4 KiB units, 255 unlimited. sl2vl: the VL of each SL for packets leaving\n"
		"this port, from input port PORT (0: the host side) or from every port; VL 15 drops.\n"
		"hca-rate: a host port's HCA injection rate, bit/s with an optional k, M or G\n"
		"(13G); 0: the default, 98.75%% of the link's rate. hoq-life: HOQLife, a packet at\n"
		"the head of an output VL's queue is discarded after 4.096 us * 2^N of emulated\n"
		"time, 20 to 31 never; default 18.\n",
		IBSW_NR_DATA_VLS);
}

static int port_show(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	uint32_t port = 0;
	int err;

	if (argc > 1) {
		ctl_err(ctl, "port show: expected at most SW[/PORT]");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (argc && ctl_parse_swport(ctl, argv[0], sw, sizeof(sw), &port, false))
		return CTL_USAGE;
	nlh = ctl_msg_start(ctl, IBSW_CMD_PORT_GET, port ? 0 : NLM_F_DUMP, 0);
	if (argc)
		mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	if (port)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	err = ctl_show(ctl, nlh, &ctl_port_attrs, ctl_print_port, NULL, true);
	if (err)
		return ctl_nl_err(ctl, err, "port show%s%s", argc ? " " : "", argc ? argv[0] : "");
	return CTL_OK;
}

#define MAX_SL2VL	(IBSW_MAX_PORTS + 2)

struct port_set {
	bool width, speed, vls, lid, limit, hca_rate, hoq_life;
	uint32_t width_v, speed_v, vls_v, lid_v, limit_v, hoq_life_v;
	uint64_t hca_rate_v;
	uint16_t buffer_set;
	uint32_t credits[IBSW_NR_DATA_VLS];
	struct ctl_vlarb high, low;
	unsigned int nr_sl2vl;
	struct {
		bool has_in;
		uint32_t in;
		uint8_t map[IBSW_NR_SLS];
	} sl2vl[MAX_SL2VL];
};

/* Parse "KEY VALUE..." after SW/PORT; CTL_USAGE on errors */
static int port_set_parse(struct ctl *ctl, int argc, char **argv, struct port_set *ps)
{
	const char *key, *val;
	int i;

	for (i = 0; i < argc; i += 2) {
		key = argv[i];
		if (i + 1 >= argc) {
			ctl_err(ctl, "port set: \"%s\" needs a value", key);
			return CTL_USAGE;
		}
		val = argv[i + 1];
		if (!strcmp(key, "rate")) {
			if (ctl_parse_rate(ctl, val, &ps->width_v, &ps->speed_v))
				return CTL_USAGE;
			ps->width = true;
			ps->speed = true;
		} else if (!strcmp(key, "width")) {
			if (ctl_parse_width(ctl, val, &ps->width_v))
				return CTL_USAGE;
			ps->width = true;
		} else if (!strcmp(key, "speed")) {
			if (ctl_parse_speed(ctl, val, &ps->speed_v))
				return CTL_USAGE;
			ps->speed = true;
		} else if (!strcmp(key, "vls")) {
			if (ctl_parse_u32(ctl, "VL count", val, 1, IBSW_NR_DATA_VLS, &ps->vls_v))
				return CTL_USAGE;
			ps->vls = true;
		} else if (!strcmp(key, "lid")) {
			if (ctl_parse_u32(ctl, "LID", val, 0, IBSW_LID_UNICAST_MAX, &ps->lid_v))
				return CTL_USAGE;
			ps->lid = true;
		} else if (ctl_matches(key, "buffer")) {
			if (ctl_parse_buffers(ctl, val, &ps->buffer_set, ps->credits))
				return CTL_USAGE;
		} else if (!strcmp(key, "vlarb-high")) {
			if (ctl_parse_vlarb(ctl, "vlarb-high list", val, &ps->high))
				return CTL_USAGE;
		} else if (!strcmp(key, "vlarb-low")) {
			if (ctl_parse_vlarb(ctl, "vlarb-low list", val, &ps->low))
				return CTL_USAGE;
		} else if (!strcmp(key, "vlarb-limit")) {
			if (ctl_parse_u32(ctl, "vlarb-limit", val, 0, 255, &ps->limit_v))
				return CTL_USAGE;
			ps->limit = true;
		} else if (!strcmp(key, "hca-rate")) {
			if (ctl_parse_bps(ctl, "HCA rate", val, &ps->hca_rate_v))
				return CTL_USAGE;
			ps->hca_rate = true;
		} else if (!strcmp(key, "hoq-life")) {
			if (ctl_parse_u32(ctl, "hoq-life", val, 0, 31,
					  &ps->hoq_life_v))
				return CTL_USAGE;
			ps->hoq_life = true;
		} else if (!strcmp(key, "sl2vl")) {
			if (ps->nr_sl2vl == MAX_SL2VL) {
				ctl_err(ctl, "port set: too many sl2vl tables");
				return CTL_USAGE;
			}
			ps->sl2vl[ps->nr_sl2vl].has_in = false;
			if (!strcmp(val, "in")) {
				if (i + 3 >= argc) {
					ctl_err(ctl, "port set: expected sl2vl in PORT VL,VL,...");
					return CTL_USAGE;
				}
				if (ctl_parse_u32(ctl, "sl2vl input port", argv[i + 2], 0,
						  IBSW_MAX_PORTS, &ps->sl2vl[ps->nr_sl2vl].in))
					return CTL_USAGE;
				ps->sl2vl[ps->nr_sl2vl].has_in = true;
				i += 2;
				val = argv[i + 1];
			}
			if (ctl_parse_sl2vl(ctl, val, ps->sl2vl[ps->nr_sl2vl].map))
				return CTL_USAGE;
			ps->nr_sl2vl++;
		} else {
			ctl_err(ctl, "port set: unknown argument \"%s\"", key);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	if (!ps->width && !ps->speed && !ps->vls && !ps->lid && !ps->limit &&
	    !ps->buffer_set && !ps->high.given && !ps->low.given && !ps->nr_sl2vl &&
	    !ps->hca_rate && !ps->hoq_life) {
		ctl_err(ctl, "port set: nothing to set");
		usage(ctl->err);
		return CTL_USAGE;
	}
	return CTL_OK;
}

static void put_vlarb(struct nlmsghdr *nlh, uint16_t type, const struct ctl_vlarb *list)
{
	struct nlattr *nest;
	unsigned int i;

	if (!list->given)
		return;
	if (!list->n) {		/* an empty nest clears the list */
		nest = mnl_attr_nest_start(nlh, type);
		mnl_attr_nest_end(nlh, nest);
		return;
	}
	for (i = 0; i < list->n; i++) {
		nest = mnl_attr_nest_start(nlh, type);
		mnl_attr_put_u32(nlh, IBSW_A_VLARB_ENTRY_VL, list->vl[i]);
		mnl_attr_put_u32(nlh, IBSW_A_VLARB_ENTRY_WEIGHT, list->weight[i]);
		mnl_attr_nest_end(nlh, nest);
	}
}

static int port_set(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct port_set ps;
	unsigned int i;
	uint32_t port;
	int err;

	if (argc < 1) {
		ctl_err(ctl, "port set: expected SW/PORT");
		usage(ctl->err);
		return CTL_USAGE;
	}
	memset(&ps, 0, sizeof(ps));
	if (ctl_parse_swport(ctl, argv[0], sw, sizeof(sw), &port, true))
		return CTL_USAGE;
	err = port_set_parse(ctl, argc - 1, argv + 1, &ps);
	if (err)
		return err;
	nlh = ctl_msg_start(ctl, IBSW_CMD_PORT_SET, 0, ps.nr_sl2vl * 48);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	if (ps.width)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_WIDTH, ps.width_v);
	if (ps.speed)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_SPEED, ps.speed_v);
	if (ps.vls)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_NR_VLS, ps.vls_v);
	if (ps.lid)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_LID, ps.lid_v);
	for (i = 0; i < IBSW_NR_DATA_VLS; i++) {
		if (!(ps.buffer_set & (1u << i)))
			continue;
		nest = mnl_attr_nest_start(nlh, IBSW_A_PORT_VL);
		mnl_attr_put_u32(nlh, IBSW_A_VL_VL, i);
		mnl_attr_put_u32(nlh, IBSW_A_VL_BUFFER_CREDITS, ps.credits[i]);
		mnl_attr_nest_end(nlh, nest);
	}
	put_vlarb(nlh, IBSW_A_PORT_VLARB_HIGH, &ps.high);
	put_vlarb(nlh, IBSW_A_PORT_VLARB_LOW, &ps.low);
	if (ps.limit)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_VLARB_HIGH_LIMIT, ps.limit_v);
	for (i = 0; i < ps.nr_sl2vl; i++) {
		nest = mnl_attr_nest_start(nlh, IBSW_A_PORT_SL2VL);
		if (ps.sl2vl[i].has_in)
			mnl_attr_put_u32(nlh, IBSW_A_SL2VL_IN_PORT, ps.sl2vl[i].in);
		mnl_attr_put(nlh, IBSW_A_SL2VL_MAP, IBSW_NR_SLS, ps.sl2vl[i].map);
		mnl_attr_nest_end(nlh, nest);
	}
	if (ps.hca_rate)
		ibsw_attr_put_uint(nlh, IBSW_A_PORT_HCA_RATE, ps.hca_rate_v);
	if (ps.hoq_life)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_HOQ_LIFE, ps.hoq_life_v);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "port set %s/%u", sw, port);
	return CTL_OK;
}

static const struct ctl_cmd cmds[] = {
	{ "show", port_show },
	{ "list", port_show },
	{ "set", port_set },
};

int cmd_port(struct ctl *ctl, int argc, char **argv)
{
	return ctl_dispatch(ctl, "port", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
