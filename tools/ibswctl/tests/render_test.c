// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of how ibswctl renders replies and notifications, as text and
 * as JSON (checked with jq when it is installed): hand-built messages fed
 * through the fake transport.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void put_counters(struct nlmsghdr *nlh, uint16_t type, uint64_t base, unsigned int n)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);
	unsigned int id;

	for (id = 1; id <= n; id++) {
		/* "uint": 4 bytes when it fits, 8 otherwise, as the kernel does */
		if (base * id > UINT32_MAX)
			mnl_attr_put_u64(nlh, id, base * id);
		else
			mnl_attr_put_u32(nlh, id, base * id);
	}
	mnl_attr_nest_end(nlh, nest);
}

static void put_vlarb(struct nlmsghdr *nlh, uint16_t type, uint32_t vl, uint32_t w)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);

	mnl_attr_put_u32(nlh, IBSW_A_VLARB_ENTRY_VL, vl);
	mnl_attr_put_u32(nlh, IBSW_A_VLARB_ENTRY_WEIGHT, w);
	mnl_attr_nest_end(nlh, nest);
}

/* S1/1: a host port with two VLs, arbitration tables and an SL-to-VL table */
static void host_port(struct nlmsghdr *nlh, bool vl_counters)
{
	static const uint8_t mac[6] = { 2, 0x1b, 0, 0, 0, 3 };
	static const uint8_t map[16] = { 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 15 };
	struct nlattr *nest;
	uint32_t vl;

	mnl_attr_put_u32(nlh, IBSW_A_PORT_SWITCH_ID, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, 1);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_KIND, IBSW_PORT_KIND_HOST);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_WIDTH, IBSW_LINK_WIDTH_4X);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_DDR);
	mnl_attr_put_u64(nlh, IBSW_A_PORT_RATE, 16000000000ULL);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_NR_VLS, 2);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_LID, 3);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_IFNAME, "ib0");
	mnl_attr_put_u32(nlh, IBSW_A_PORT_IFINDEX, 2);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_NETNS_ID, 0);
	mnl_attr_put(nlh, IBSW_A_PORT_MAC, 6, mac);
	for (vl = 0; vl < 2; vl++) {
		nest = mnl_attr_nest_start(nlh, IBSW_A_PORT_VL);
		mnl_attr_put_u32(nlh, IBSW_A_VL_VL, vl);
		mnl_attr_put_u32(nlh, IBSW_A_VL_BUFFER_CREDITS, 130);
		mnl_attr_put_u32(nlh, IBSW_A_VL_BUFFER_FREE, 130 - 65 * vl);
		if (vl_counters)
			put_counters(nlh, IBSW_A_VL_COUNTERS, 10 * (vl + 1), 5);
		mnl_attr_nest_end(nlh, nest);
	}
	put_vlarb(nlh, IBSW_A_PORT_VLARB_LOW, 0, 64);
	put_vlarb(nlh, IBSW_A_PORT_VLARB_LOW, 1, 32);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_VLARB_HIGH_LIMIT, 255);
	nest = mnl_attr_nest_start(nlh, IBSW_A_PORT_SL2VL);
	mnl_attr_put_u32(nlh, IBSW_A_SL2VL_IN_PORT, 0);
	mnl_attr_put(nlh, IBSW_A_SL2VL_MAP, 16, map);
	mnl_attr_nest_end(nlh, nest);
	put_counters(nlh, IBSW_A_PORT_COUNTERS, 1, IBSW_A_COUNTERS_MAX);
	/* 98.75% of 16 Gb/s, the default */
	mnl_attr_put_u64(nlh, IBSW_A_PORT_HCA_RATE, 15800000000ULL);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_CLOCK_PPM, (uint32_t)-37);
}

/* S1/4: a link to S2/5 */
static void link_port(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, IBSW_A_PORT_SWITCH_ID, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, 4);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_KIND, IBSW_PORT_KIND_LINK);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_WIDTH, IBSW_LINK_WIDTH_4X);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_QDR);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_RATE, 0);	/* 4 bytes: the table's rate then */
	mnl_attr_put_u32(nlh, IBSW_A_PORT_NR_VLS, 4);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_LID, 0);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PEER_SWITCH_ID, 1);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_PEER_SWITCH_NAME, "S2");
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PEER_PORT, 5);
	put_counters(nlh, IBSW_A_PORT_COUNTERS, 1ULL << 31, 2);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_CLOCK_PPM, 12);
}

/*
 * S1/7: a remote link on eth1 (id 42), up to S9/3 (its peer as it announced
 * itself: absent while down); counter n is n * 1000, link-ups 2^32 + 18:
 * "uint", 4 bytes when it fits, as the kernel sends them
 */
static void remote_port(struct nlmsghdr *nlh, uint8_t state)
{
	struct nlattr *nest;
	unsigned int id;

	mnl_attr_put_u32(nlh, IBSW_A_PORT_SWITCH_ID, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, 7);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_KIND, IBSW_PORT_KIND_REMOTE);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_WIDTH, IBSW_LINK_WIDTH_4X);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_QDR);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_RATE, 0);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_NR_VLS, 4);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_LID, 0);
	if (state == IBSW_REMOTE_STATE_UP) {
		mnl_attr_put_strz(nlh, IBSW_A_PORT_PEER_SWITCH_NAME, "S9");
		mnl_attr_put_u32(nlh, IBSW_A_PORT_PEER_PORT, 3);
	}
	mnl_attr_put_strz(nlh, IBSW_A_PORT_IFNAME, "eth1");
	mnl_attr_put_u32(nlh, IBSW_A_PORT_IFINDEX, 3);
	put_counters(nlh, IBSW_A_PORT_COUNTERS, 1, 2);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_CLOCK_PPM, 5);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_REMOTE_ID, 42);
	mnl_attr_put_u8(nlh, IBSW_A_PORT_REMOTE_STATE, state);
	nest = mnl_attr_nest_start(nlh, IBSW_A_PORT_REMOTE_COUNTERS);
	for (id = 1; id <= IBSW_A_REMOTE_COUNTERS_MAX; id++) {
		if (id == IBSW_A_REMOTE_COUNTERS_LINK_UPS)
			mnl_attr_put_u64(nlh, id, (1ULL << 32) + 18);
		else
			mnl_attr_put_u32(nlh, id, id * 1000);
	}
	mnl_attr_nest_end(nlh, nest);
}

#define REMOTE_TAIL " ifname eth1 rate 4xQDR (32 Gb/s) clock +5ppm vls 4 ifindex 3\n"
#define REMOTE_UP "S1/7: remote id 42 state up peer S9/3" REMOTE_TAIL
#define REMOTE_DOWN "S1/7: remote id 42 state down" REMOTE_TAIL
#define REMOTE_COUNTERS							\
	"    remote tx_frames 1000 tx_bytes 2000 rx_frames 3000 rx_bytes 4000\n"	\
	"    remote tx_drops 5000 tx_too_big 6000 rx_seq_gaps 7000 rx_lost_frames 8000\n" \
	"    remote rx_late 9000 rx_bad 10000 rx_wrong_epoch 11000 rx_down 12000\n"	\
	"    remote rx_overrun 13000 credit_tx 14000 credit_rx 15000 hello_tx 16000\n"	\
	"    remote hello_rx 17000 link_ups 4294967314 link_downs 19000 mismatches 20000\n"
#define REMOTE_JSON_COUNTERS						\
	"{\"tx_frames\":1000,\"tx_bytes\":2000,\"rx_frames\":3000,\"rx_bytes\":4000,"	\
	"\"tx_drops\":5000,\"tx_too_big\":6000,\"rx_seq_gaps\":7000,"			\
	"\"rx_lost_frames\":8000,\"rx_late\":9000,\"rx_bad\":10000,"			\
	"\"rx_wrong_epoch\":11000,\"rx_down\":12000,\"rx_overrun\":13000,"		\
	"\"credit_tx\":14000,\"credit_rx\":15000,\"hello_tx\":16000,\"hello_rx\":17000,"	\
	"\"link_ups\":4294967314,\"link_downs\":19000,\"mismatches\":20000}"

#define REMOTE_JSON_UP "\"remote_id\":42,\"remote_state\":\"up\",\"remote_counters\":"
#define REMOTE_JSON_KEYS							\
	"[\"tx_frames\",\"tx_bytes\",\"rx_frames\",\"rx_bytes\",\"tx_drops\","		\
	"\"tx_too_big\",\"rx_seq_gaps\",\"rx_lost_frames\",\"rx_late\",\"rx_bad\","	\
	"\"rx_wrong_epoch\",\"rx_down\",\"rx_overrun\",\"credit_tx\",\"credit_rx\","	\
	"\"hello_tx\",\"hello_rx\",\"link_ups\",\"link_downs\",\"mismatches\"]\n"

#define HOST_LINE "S1/1: host ifname ib0 lid 3 rate 4xDDR (16 Gb/s) clock -37ppm "	\
	"hca-rate 15.8 Gb/s vls 2 mac 02:1b:00:00:00:03 ifindex 2 netns-id 0\n"
#define LINK_LINE "S1/4: link peer S2/5 rate 4xQDR (32 Gb/s) clock +12ppm vls 4\n"

static void switch_reply(struct t *t, uint32_t id, const char *name, uint32_t ports, uint32_t top)
{
	struct nlmsghdr *r = t_reply(t, IBSW_CMD_SWITCH_GET);

	mnl_attr_put_u32(r, IBSW_A_SWITCH_ID, id);
	mnl_attr_put_strz(r, IBSW_A_SWITCH_NAME, name);
	mnl_attr_put_u32(r, IBSW_A_SWITCH_NR_PORTS, ports);
	mnl_attr_put_u32(r, IBSW_A_SWITCH_LFT_TOP, top);
}

static void check_jq(const char *json, const char *filter, const char *want)
{
	char *got = t_jq(json, filter);

	if (!t_have_jq())
		return;
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void switches(void **state)
{
	struct t *t = t_new();

	(void)state;
	switch_reply(t, 0, "S1", 36, 9);
	switch_reply(t, 1, "S2", 8, 0);
	assert_int_equal(t_run(t, "switch show"), 0);
	assert_string_equal(t_out(t), "S1: id 0 ports 36 lft-top 9\nS2: id 1 ports 8 lft-top 0\n");

	t_clear(t);
	switch_reply(t, 0, "S1", 36, 9);
	switch_reply(t, 1, "S2", 8, 0);
	assert_int_equal(t_run(t, "-j switch show"), 0);
	assert_string_equal(t_out(t), "[{"
			    "\"id\":0,\"name\":\"S1\",\"nr_ports\":36,\"lft_top\":9},{"
			    "\"id\":1,\"name\":\"S2\",\"nr_ports\":8,\"lft_top\":0}]\n");

	t_clear(t);
	switch_reply(t, 0, "S1", 36, 9);
	assert_int_equal(t_run(t, "-j -p switch show S1"), 0);
	assert_string_equal(t_out(t), "[\n  {\n    \"id\": 0,\n    \"name\": \"S1\",\n"
			    "    \"nr_ports\": 36,\n    \"lft_top\": 9\n  }\n]\n");
	assert_true(t_json_valid(t_out(t)));

	/* nothing: an empty array, so jq pipelines keep working */
	t_clear(t);
	assert_int_equal(t_run(t, "-j switch show"), 0);
	assert_string_equal(t_out(t), "[]\n");
	t_clear(t);
	assert_int_equal(t_run(t, "-jp switch show"), 0);
	assert_string_equal(t_out(t), "[]\n");
	t_free(t);
}

static void ports_text(void **state)
{
	struct t *t = t_new();

	(void)state;
	host_port(t_reply(t, IBSW_CMD_PORT_GET), false);
	link_port(t_reply(t, IBSW_CMD_PORT_GET));
	assert_int_equal(t_run(t, "port show S1"), 0);
	assert_string_equal(t_out(t), HOST_LINE
			    "    buffers (free/credits) vl0 130/130 vl1 65/130\n"
			    LINK_LINE);

	t_clear(t);
	host_port(t_reply(t, IBSW_CMD_PORT_GET), false);
	link_port(t_reply(t, IBSW_CMD_PORT_GET));
	assert_int_equal(t_run(t, "-d port show S1"), 0);
	assert_string_equal(t_out(t), HOST_LINE
			    "    buffers (free/credits) vl0 130/130 vl1 65/130\n"
			    "    vlarb-high none\n"
			    "    vlarb-low 0:64,1:32\n"
			    "    vlarb-limit 255\n"
			    "    sl2vl in 0 0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,15\n"
			    LINK_LINE
			    "    vlarb-high none\n"
			    "    vlarb-low none\n");
	t_free(t);
}

static void remote_text(void **state)
{
	struct t *t = t_new();

	(void)state;
	remote_port(t_reply(t, IBSW_CMD_PORT_GET), IBSW_REMOTE_STATE_UP);
	assert_int_equal(t_run(t, "port show S1/7"), 0);
	assert_string_equal(t_out(t), REMOTE_UP);
	assert_string_equal(t_err(t), "");

	/* down: the peer not heard yet, so none */
	t_clear(t);
	remote_port(t_reply(t, IBSW_CMD_PORT_GET), IBSW_REMOTE_STATE_DOWN);
	assert_int_equal(t_run(t, "port show S1/7"), 0);
	assert_string_equal(t_out(t), REMOTE_DOWN);

	/* with -d, the remote counters by name, four to a line, after the tables */
	t_clear(t);
	remote_port(t_reply(t, IBSW_CMD_PORT_GET), IBSW_REMOTE_STATE_UP);
	link_port(t_reply(t, IBSW_CMD_PORT_GET));
	assert_int_equal(t_run(t, "-d port show S1"), 0);
	assert_string_equal(t_out(t), REMOTE_UP
			    "    vlarb-high none\n"
			    "    vlarb-low none\n"
			    REMOTE_COUNTERS
			    LINK_LINE
			    "    vlarb-high none\n"
			    "    vlarb-low none\n");

	/* a state newer than the tool: its number */
	t_clear(t);
	remote_port(t_reply(t, IBSW_CMD_PORT_GET), 7);
	assert_int_equal(t_run(t, "port show S1/7"), 0);
	assert_string_equal(t_out(t), "S1/7: remote id 42 state 7" REMOTE_TAIL);
	t_free(t);
}

static void remote_json(void **state)
{
	struct t *t = t_new();
	const char *out;

	(void)state;
	remote_port(t_reply(t, IBSW_CMD_PORT_GET), IBSW_REMOTE_STATE_UP);
	remote_port(t_reply(t, IBSW_CMD_PORT_GET), IBSW_REMOTE_STATE_DOWN);
	assert_int_equal(t_run(t, "-j port show S1"), 0);
	out = t_out(t);
	assert_true(t_json_valid(out));
	/* whole, without jq: the keys in the uapi's order, u64 above 2^32 */
	assert_non_null(strstr(out, REMOTE_JSON_UP REMOTE_JSON_COUNTERS "}"));
	assert_non_null(strstr(out, "\"remote_state\":\"down\""));
	check_jq(out, "length", "2\n");
	check_jq(out, ".[0] | [.switch_name, .port, .kind, .ifname, .ifindex, .remote_id,\n"
		 ".remote_state, .peer_switch_name, .peer_port, .width, .speed, .nr_vls]",
		 "[\"S1\",7,\"remote\",\"eth1\",3,42,\"up\",\"S9\",3,\"4x\",\"qdr\",4]\n");
	check_jq(out, ".[0].remote_counters | keys_unsorted", REMOTE_JSON_KEYS);
	check_jq(out, ".[0].remote_counters | [.tx_frames, .link_ups, .mismatches]",
		 "[1000,4294967314,20000]\n");
	check_jq(out, ".[1] | [.remote_state, has(\"peer_switch_name\"), has(\"peer_port\"),\n"
		 ".remote_counters.hello_tx]", "[\"down\",false,false,16000]\n");
	check_jq(out, "[.[] | select(.kind == \"remote\" and .remote_state == \"up\") | .port]",
		 "[7]\n");

	/* pretty: the same */
	t_clear(t);
	remote_port(t_reply(t, IBSW_CMD_PORT_GET), IBSW_REMOTE_STATE_UP);
	assert_int_equal(t_run(t, "-p port show S1/7"), 0);
	assert_true(t_json_valid(t_out(t)));
	assert_non_null(strstr(t_out(t), "\n    \"remote_state\": \"up\",\n"));
	check_jq(t_out(t), ".[0].remote_counters.rx_seq_gaps", "7000\n");

	/* a state newer than the tool: its number */
	t_clear(t);
	remote_port(t_reply(t, IBSW_CMD_PORT_GET), 2);
	assert_int_equal(t_run(t, "-j port show S1/7"), 0);
	assert_non_null(strstr(t_out(t), "\"remote_state\":2,"));
	t_free(t);
}

/* A remote port's changes (up, down, peer heard) come as port-change */
static void remote_monitor(void **state)
{
	struct t *t = t_new();

	(void)state;
	remote_port(t_notify(t, IBSW_CMD_PORT_CHANGE_NTF), IBSW_REMOTE_STATE_DOWN);
	remote_port(t_notify(t, IBSW_CMD_PORT_CHANGE_NTF), IBSW_REMOTE_STATE_UP);
	assert_int_equal(t_run(t, "monitor"), 0);
	assert_string_equal(t_out(t), "port-change: " REMOTE_DOWN "port-change: " REMOTE_UP);

	t_clear(t);
	remote_port(t_notify(t, IBSW_CMD_PORT_CHANGE_NTF), IBSW_REMOTE_STATE_UP);
	assert_int_equal(t_run(t, "-j monitor"), 0);
	check_jq(t_out(t), "[.event, .port.kind, .port.remote_state, .port.remote_id,\n"
		 ".port.peer_switch_name, .port.remote_counters.link_ups]",
		 "[\"port-change\",\"remote\",\"up\",42,\"S9\",4294967314]\n");
	t_free(t);
}

static void ports_json(void **state)
{
	struct t *t = t_new();
	const char *out;

	(void)state;
	host_port(t_reply(t, IBSW_CMD_PORT_GET), true);
	link_port(t_reply(t, IBSW_CMD_PORT_GET));
	assert_int_equal(t_run(t, "-j port show"), 0);
	out = t_out(t);
	assert_true(t_json_valid(out));
	check_jq(out, "length", "2\n");
	check_jq(out, ".[0] | [.switch_name, .port, .kind, .width, .speed, .rate,\n"
		 ".nr_vls, .lid, .ifname, .mac]",
		 "[\"S1\",1,\"host\",\"4x\",\"ddr\",16000000000,2,3,\"ib0\",\"02:1b:00:00:00:03\"]\n");
	check_jq(out, ".[0].vl[1] | [.vl, .buffer_credits, .buffer_free,\n"
		 ".counters.xmit_data, .counters.xmit_wait]", "[1,130,65,20,100]\n");
	check_jq(out, ".[0] | [.vlarb_low, .vlarb_high_limit]",
		 "[[{\"vl\":0,\"weight\":64},{\"vl\":1,\"weight\":32}],255]\n");
	check_jq(out, ".[0].sl2vl",
		 "[{\"in_port\":0,\"map\":[0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,15]}]\n");
	check_jq(out, ".[0].counters | [.xmit_data, .excessive_buffer_overrun_errors,\n"
		 ".xmit_time_cong, .xmit_fecn, .rcv_fecn, .rcv_becn, .xmit_late, .hca_discards,\n"
		 "(keys|length)]", "[1,13,14,15,16,17,18,19,24]\n");
	check_jq(out, "[.[] | [.clock_ppm, .hca_rate]]", "[[-37,15800000000],[12,null]]\n");
	check_jq(out, ".[1] | [.kind, .peer_switch_name, .peer_port, .rate, .counters.rcv_data]",
		 "[\"link\",\"S2\",5,0,4294967296]\n");
	check_jq(out, ".[0] | has(\"vlarb_high\")", "false\n");
	t_free(t);
}

#define CNT_LINE4	\
	"    ExcessiveBufferOverrunErrors 13 PortXmitTimeCong 14 PortXmitFECN 15 PortPktRcvFECN 16"

static void counters_out(void **state)
{
	struct t *t = t_new();
	const char *out;

	(void)state;
	host_port(t_reply(t, IBSW_CMD_PORT_GET), true);
	link_port(t_reply(t, IBSW_CMD_PORT_GET));
	assert_int_equal(t_run(t, "counters show S1 vl"), 0);
	assert_string_equal(t_out(t), "S1/1\n"
			    "    PortXmitData 1 PortRcvData 2 PortXmitPkts 3 PortRcvPkts 4\n"
			    "    PortXmitWait 5 PortXmitDiscards 6 PortRcvErrors 7 PortRcvSwitchRelayErrors 8\n"
			    "    RcvForeign 9 RcvVLDiscards 10 RcvOversize 11 NeighReplies 12\n"
			    CNT_LINE4 "\n"
			    "    PortPktRcvBECN 17 XmitLate 18 HcaDiscards 19 PortRcvConstraintErrors 20\n"
			    "    VL15Dropped 21 M_KeyViolations 22 PortInactiveDiscards 23 PortSwHOQLifetimeLimitDiscards 24\n"
			    "  vl 0\n"
			    "    PortXmitData 10 PortRcvData 20 PortXmitPkts 30 PortRcvPkts 40\n"
			    "    PortXmitWait 50\n"
			    "  vl 1\n"
			    "    PortXmitData 20 PortRcvData 40 PortXmitPkts 60 PortRcvPkts 80\n"
			    "    PortXmitWait 100\n"
			    "S1/4\n"
			    "    PortXmitData 2147483648 PortRcvData 4294967296\n");

	t_clear(t);
	host_port(t_reply(t, IBSW_CMD_PORT_GET), true);
	assert_int_equal(t_run(t, "counters show S1/1"), 0);
	assert_null(strstr(t_out(t), "vl 0"));

	t_clear(t);
	host_port(t_reply(t, IBSW_CMD_PORT_GET), true);
	link_port(t_reply(t, IBSW_CMD_PORT_GET));
	assert_int_equal(t_run(t, "-j counters show S1 vl"), 0);
	out = t_out(t);
	assert_true(t_json_valid(out));
	check_jq(out, "[.[] | .switch_name + \"/\" + (.port|tostring)]", "[\"S1/1\",\"S1/4\"]\n");
	check_jq(out, ".[0] | [.counters.rcv_switch_relay_errors, .vl[1].vl,\n"
		 ".vl[1].counters.rcv_pkts]", "[8,1,80]\n");
	check_jq(out, ".[1] | [.counters.rcv_data, (.vl|length)]", "[4294967296,0]\n");

	t_clear(t);
	host_port(t_reply(t, IBSW_CMD_PORT_GET), true);
	assert_int_equal(t_run(t, "-j counters show"), 0);
	check_jq(t_out(t), ".[0] | has(\"vl\")", "false\n");
	t_free(t);
}

static void fabric_out(void **state)
{
	struct t *t = t_new();
	struct nlmsghdr *r;

	(void)state;
	r = t_reply(t, IBSW_CMD_FABRIC_GET);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_TIME_SCALE, 100);
	mnl_attr_put_u8(r, IBSW_A_FABRIC_PACING, 1);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_NR_SWITCHES, 2);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_NR_HOSTS, 7);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_NR_ADDRS, 14);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_CLOCK_SEED, 1);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_CLOCK_PPM, 100);
	assert_int_equal(t_run(t, "fabric show"), 0);
	assert_string_equal(t_out(t),
			    "time-scale 100 pacing on clock-seed 1 clock-ppm 100 switches 2 hosts 7 addrs 14\n");

	t_clear(t);
	r = t_reply(t, IBSW_CMD_FABRIC_GET);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_TIME_SCALE, 1);
	mnl_attr_put_u8(r, IBSW_A_FABRIC_PACING, 0);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_CLOCK_SEED, 4294967295U);
	mnl_attr_put_u32(r, IBSW_A_FABRIC_CLOCK_PPM, 0);
	assert_int_equal(t_run(t, "-j fabric"), 0);
	assert_string_equal(t_out(t),
			    "{\"time_scale\":1,\"pacing\":false,\"clock_seed\":4294967295,\"clock_ppm\":0}\n");
	t_free(t);
}

static void lft_out(void **state)
{
	static const uint8_t lft[] = { 255, 0, 4, 1, 2, 255, 0 };
	struct t *t = t_new();
	struct nlmsghdr *r;

	(void)state;
	r = t_reply(t, IBSW_CMD_LFT_GET);
	mnl_attr_put_u32(r, IBSW_A_SWITCH_ID, 0);
	mnl_attr_put_strz(r, IBSW_A_SWITCH_NAME, "S1");
	mnl_attr_put_u32(r, IBSW_A_SWITCH_LFT_TOP, 6);
	mnl_attr_put(r, IBSW_A_SWITCH_LFT, sizeof(lft), lft);
	assert_int_equal(t_run(t, "lft show S1"), 0);
	assert_string_equal(t_out(t),
			    "S1: lft-top 6\n  lid 2 port 4\n  lid 3 port 1\n  lid 4 port 2\n");

	t_clear(t);
	r = t_reply(t, IBSW_CMD_LFT_GET);
	mnl_attr_put_u32(r, IBSW_A_SWITCH_ID, 0);
	mnl_attr_put_strz(r, IBSW_A_SWITCH_NAME, "S1");
	mnl_attr_put_u32(r, IBSW_A_SWITCH_LFT_TOP, 6);
	mnl_attr_put(r, IBSW_A_SWITCH_LFT, sizeof(lft), lft);
	assert_int_equal(t_run(t, "-j lft show S1"), 0);
	assert_string_equal(t_out(t),
			    "{\"id\":0,\"name\":\"S1\",\"lft\":[255,0,4,1,2,255,0],\"lft_top\":6}\n");
	t_free(t);
}

static void addr_entry(struct t *t, const char *ip, uint32_t lid)
{
	struct nlmsghdr *r = t_reply(t, IBSW_CMD_ADDR_GET);
	struct nlattr *nest;
	uint8_t bytes[16];

	assert_int_equal(ctl_parse_ip(&t->ctl, ip, bytes), 0);
	nest = mnl_attr_nest_start(r, IBSW_A_FABRIC_ADDR);
	mnl_attr_put(r, IBSW_A_ADDR_IP, 16, bytes);
	mnl_attr_put_u32(r, IBSW_A_ADDR_LID, lid);
	mnl_attr_nest_end(r, nest);
}

static void addr_out(void **state)
{
	struct t *t = t_new();

	(void)state;
	addr_entry(t, "10.0.0.3", 3);
	addr_entry(t, "fd00:1b::1:3", 259);
	assert_int_equal(t_run(t, "addr show"), 0);
	assert_string_equal(t_out(t), "10.0.0.3 lid 3\nfd00:1b::1:3 lid 259\n");

	t_clear(t);
	addr_entry(t, "10.0.0.3", 3);
	addr_entry(t, "fd00:1b::1:3", 259);
	assert_int_equal(t_run(t, "-j addr show"), 0);
	assert_string_equal(t_out(t), "[{"
			    "\"ip\":\"10.0.0.3\",\"lid\":3},{\"ip\":\"fd00:1b::1:3\",\"lid\":259}]\n");
	t_free(t);
}

static void monitor_out(void **state)
{
	struct t *t = t_new();
	struct nlmsghdr *n;

	(void)state;
	n = t_notify(t, IBSW_CMD_SWITCH_NEW_NTF);
	mnl_attr_put_u32(n, IBSW_A_SWITCH_ID, 3);
	mnl_attr_put_strz(n, IBSW_A_SWITCH_NAME, "S4");
	mnl_attr_put_u32(n, IBSW_A_SWITCH_NR_PORTS, 8);
	link_port(t_notify(t, IBSW_CMD_PORT_CHANGE_NTF));
	n = t_notify(t, IBSW_CMD_FABRIC_CHANGE_NTF);
	mnl_attr_put_u32(n, IBSW_A_FABRIC_TIME_SCALE, 50);
	n = t_notify(t, 99);		/* unknown: skipped */
	n = t_notify(t, IBSW_CMD_SWITCH_DEL_NTF);
	mnl_attr_put_strz(n, IBSW_A_SWITCH_NAME, "S4");
	assert_int_equal(t_run(t, "monitor"), 0);
	assert_string_equal(t_out(t),
			    "switch-new: S4: id 3 ports 8\n"
			    "port-change: " LINK_LINE
			    "fabric-change: time-scale 50\n"
			    "switch-del: S4:\n");

	t_clear(t);
	n = t_notify(t, IBSW_CMD_SWITCH_CHANGE_NTF);
	mnl_attr_put_strz(n, IBSW_A_SWITCH_NAME, "S4");
	mnl_attr_put_u32(n, IBSW_A_SWITCH_LFT_TOP, 12);
	n = t_notify(t, IBSW_CMD_FABRIC_CHANGE_NTF);
	mnl_attr_put_u8(n, IBSW_A_FABRIC_PACING, 0);
	assert_int_equal(t_run(t, "-jp monitor"), 0);
	assert_string_equal(t_out(t),
			    "{\"event\":\"switch-change\",\"switch\":{\"name\":\"S4\",\"lft_top\":12}}\n"
			    "{\"event\":\"fabric-change\",\"fabric\":{\"pacing\":false}}\n");
	t_free(t);
}

static void cc_port_setting(struct nlmsghdr *nlh, uint32_t port, bool valid, uint8_t threshold,
			    uint8_t size, uint16_t rate, uint32_t vls)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, IBSW_A_CC_PORT_SETTING);

	mnl_attr_put_u32(nlh, IBSW_A_CC_PORT_PORT, port);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_VALID, valid);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_CONTROL_TYPE, 0);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_THRESHOLD, threshold);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_PACKET_SIZE, size);
	mnl_attr_put_u16(nlh, IBSW_A_CC_PORT_MARKING_RATE, rate);
	mnl_attr_put_u32(nlh, IBSW_A_CC_PORT_VLS_CONGESTED, vls);
	mnl_attr_nest_end(nlh, nest);
}

/* S2 of seed 002: marking on, victim mask on the host ports 1-4, port 2 congested */
static void cc_reply(struct nlmsghdr *r, bool ports)
{
	uint8_t victim[CTL_MASK_LEN] = { 0 }, credit[CTL_MASK_LEN] = { 0 };

	victim[31] = 0x1e;
	mnl_attr_put_strz(r, IBSW_A_CC_SWITCH_NAME, "S2");
	mnl_attr_put_u16(r, IBSW_A_CC_INFO, 0);
	mnl_attr_put_u32(r, IBSW_A_CC_CONTROL_MAP, IBSW_CC_CONTROL_MAP_VICTIM_MASK |
			 IBSW_CC_CONTROL_MAP_THRESHOLD | IBSW_CC_CONTROL_MAP_MARKING_RATE);
	mnl_attr_put(r, IBSW_A_CC_VICTIM_MASK, CTL_MASK_LEN, victim);
	mnl_attr_put(r, IBSW_A_CC_CREDIT_MASK, CTL_MASK_LEN, credit);
	mnl_attr_put_u8(r, IBSW_A_CC_THRESHOLD, 15);
	mnl_attr_put_u8(r, IBSW_A_CC_PACKET_SIZE, 8);
	mnl_attr_put_u8(r, IBSW_A_CC_CS_THRESHOLD, 0);
	mnl_attr_put_u16(r, IBSW_A_CC_CS_RETURN_DELAY, 1 << 14 | 5);
	mnl_attr_put_u16(r, IBSW_A_CC_MARKING_RATE, 1);
	mnl_attr_put_u8(r, IBSW_A_CC_FILL_COMPARE, IBSW_CC_FILL_COMPARE_PER_INPUT);
	if (!ports)
		return;
	cc_port_setting(r, 1, false, 0, 0, 0, 0);
	cc_port_setting(r, 2, false, 0, 0, 0, 1);
	cc_port_setting(r, 3, true, 4, 2, 100, 0);
	cc_port_setting(r, 5, true, 10, 1, 0, 1u << 0 | 1u << 3);
}

#define CC_HEAD "S2: threshold 15 packet_size 8 marking_rate 1 fill_compare per-input\n"	\
	"    victim_mask 0x1e (ports 1-4) credit_mask 0x0\n"				\
	"    cs_threshold 0 cs_return_delay 1:5 "					\
	"control_map 0x15 (victim-mask,threshold,marking-rate) info 0x0\n"

#define OFF_SETTINGS	" threshold 0 packet_size 0 marking_rate 0 control_type 0"
#define CONGESTED_03	" congested vls 0,3"
#define CC_JSON_SW	"[\"S2\",0,[\"victim-mask\",\"threshold\",\"marking-rate\"],[1,2,3,4],[],"
#define CC_JSON_PORT5	"{\"port\":5,\"valid\":true,\"control_type\":0,\"threshold\":10,"	\
	"\"packet_size\":1,\"marking_rate\":0,\"vls_congested\":[0,3]}\n"

static void cc_show_out(void **state)
{
	struct t *t = t_new();
	struct nlmsghdr *r;
	const char *out;

	(void)state;
	cc_reply(t_reply(t, IBSW_CMD_CC_GET), true);
	assert_int_equal(t_run(t, "cc show S2"), 0);
	assert_string_equal(t_out(t), CC_HEAD
			    "    port 2: congested vls 0\n"
			    "    port 3: threshold 4 packet_size 2 marking_rate 100\n"
			    "    port 5: threshold 10 packet_size 1 marking_rate 0 congested vls 0,3\n");

	t_clear(t);
	cc_reply(t_reply(t, IBSW_CMD_CC_GET), true);
	assert_int_equal(t_run(t, "-d cc show S2"), 0);
	assert_string_equal(t_out(t), CC_HEAD
			    "    port 1: valid off" OFF_SETTINGS "\n"
			    "    port 2: valid off" OFF_SETTINGS " congested vls 0\n"
			    "    port 3: valid on threshold 4 packet_size 2 marking_rate 100 control_type 0\n"
			    "    port 5: valid on threshold 10 packet_size 1 marking_rate 0 control_type 0"
			    CONGESTED_03 "\n");

	/* defaults: everything off, nothing congested */
	t_clear(t);
	cc_reply(t_reply(t, IBSW_CMD_CC_GET), false);
	assert_int_equal(t_run(t, "cc show S2"), 0);
	assert_string_equal(t_out(t), CC_HEAD);

	t_clear(t);
	cc_reply(t_reply(t, IBSW_CMD_CC_GET), true);
	assert_int_equal(t_run(t, "-j cc show S2"), 0);
	out = t_out(t);
	assert_true(t_json_valid(out));
	check_jq(out, "[.switch_name, .info, .control_map, .victim_mask, .credit_mask,\n"
		 ".threshold, .packet_size, .cs_threshold, .cs_return_delay, .marking_rate]",
		 CC_JSON_SW "15,8,0,16389,1]\n");
	check_jq(out, "[.port_setting[] | select(.vls_congested | length > 0) | .port]", "[2,5]\n");
	check_jq(out, ".port_setting[3]", CC_JSON_PORT5);
	check_jq(out, "[.port_setting[] | select(.valid) | .port]", "[3,5]\n");
	check_jq(out, ".fill_compare", "\"per-input\"\n");

	/* a way of comparing this ibswctl does not know: its number */
	t_clear(t);
	r = t_reply(t, IBSW_CMD_CC_GET);
	mnl_attr_put_strz(r, IBSW_A_CC_SWITCH_NAME, "S2");
	mnl_attr_put_u16(r, IBSW_A_CC_INFO, 0);
	mnl_attr_put_u8(r, IBSW_A_CC_FILL_COMPARE, 7);
	assert_int_equal(t_run(t, "cc show S2"), 0);
	assert_string_equal(t_out(t), "S2: fill_compare 7\n    info 0x0\n");
	t_clear(t);
	r = t_reply(t, IBSW_CMD_CC_GET);
	mnl_attr_put_strz(r, IBSW_A_CC_SWITCH_NAME, "S2");
	mnl_attr_put_u8(r, IBSW_A_CC_FILL_COMPARE, 7);
	assert_int_equal(t_run(t, "-j cc show S2"), 0);
	check_jq(t_out(t), ".fill_compare", "7\n");
	t_free(t);
}

static void cc_log_event(struct nlmsghdr *r, uint32_t slid, uint32_t dlid, uint32_t ts)
{
	struct nlattr *nest = mnl_attr_nest_start(r, IBSW_A_CC_LOG_EVENT);

	mnl_attr_put_u32(r, IBSW_A_CC_LOG_EVENT_SLID, slid);
	mnl_attr_put_u32(r, IBSW_A_CC_LOG_EVENT_DLID, dlid);
	mnl_attr_put_u32(r, IBSW_A_CC_LOG_EVENT_SL, 0);
	mnl_attr_put_u32(r, IBSW_A_CC_LOG_EVENT_TIMESTAMP, ts);
	mnl_attr_put_u32(r, IBSW_A_CC_LOG_EVENT_PORT, 2);
	mnl_attr_put_u32(r, IBSW_A_CC_LOG_EVENT_VL, 0);
	mnl_attr_nest_end(r, nest);
}

static void cc_log_reply(struct nlmsghdr *r, bool events)
{
	uint8_t map[CTL_MASK_LEN] = { 0 };

	if (events)
		map[31] = 0x04;
	mnl_attr_put_strz(r, IBSW_A_CC_LOG_SWITCH_NAME, "S2");
	mnl_attr_put_u32(r, IBSW_A_CC_LOG_EVENTS_COUNTER, events ? 1234 : 0);
	mnl_attr_put_u64(r, IBSW_A_CC_LOG_THRESHOLD_EVENTS, events ? 5000000000ULL : 0);
	mnl_attr_put_u32(r, IBSW_A_CC_LOG_CURRENT_TIMESTAMP, 4000000000U);
	mnl_attr_put(r, IBSW_A_CC_LOG_PORT_MAP, CTL_MASK_LEN, map);
	if (!events)
		return;
	cc_log_event(r, 5, 7, 100);
	cc_log_event(r, 6, 7, 101);
	cc_log_event(r, 1, 7, 102);
}

#define LOG_HEAD	"S2: events_counter 1234 threshold_events 5000000000 current_timestamp 4000000000"
#define LOG_HEAD0	"S2: events_counter 0 threshold_events 0 current_timestamp 4000000000"
#define LOG_JSON_EVENT	"{\"slid\":1,\"dlid\":7,\"sl\":0,\"timestamp\":102,\"port\":2,\"vl\":0}\n"

static void cc_log_out(void **state)
{
	struct t *t = t_new();
	const char *out;

	(void)state;
	cc_log_reply(t_reply(t, IBSW_CMD_CC_LOG_GET), true);
	assert_int_equal(t_run(t, "cc log S2"), 0);
	assert_string_equal(t_out(t), LOG_HEAD " port_map 0x4 (ports 2)\n"
			    "    slid 5 dlid 7 sl 0 port 2 vl 0 timestamp 100\n"
			    "    slid 6 dlid 7 sl 0 port 2 vl 0 timestamp 101\n"
			    "    slid 1 dlid 7 sl 0 port 2 vl 0 timestamp 102\n");

	t_clear(t);
	cc_log_reply(t_reply(t, IBSW_CMD_CC_LOG_GET), false);
	assert_int_equal(t_run(t, "cc log S2"), 0);
	assert_string_equal(t_out(t), LOG_HEAD0 " port_map 0x0\n");

	t_clear(t);
	cc_log_reply(t_reply(t, IBSW_CMD_CC_LOG_GET), true);
	assert_int_equal(t_run(t, "cc log S2 -j"), 0);
	out = t_out(t);
	assert_true(t_json_valid(out));
	check_jq(out, "[.switch_name, .events_counter, .threshold_events, .current_timestamp,\n"
		 ".port_map, (.event | length), ([.event[].slid] | unique)]",
		 "[\"S2\",1234,5000000000,4000000000,[2],3,[1,5,6]]\n");
	check_jq(out, ".event[2]", LOG_JSON_EVENT);

	/* an empty log: event is absent, as the kernel sends none */
	t_clear(t);
	cc_log_reply(t_reply(t, IBSW_CMD_CC_LOG_GET), false);
	assert_int_equal(t_run(t, "-j cc log S2"), 0);
	check_jq(t_out(t), "[.events_counter, (.event // [] | length), .port_map]", "[0,0,[]]\n");

	/* a mask of the wrong size is malformed for the renderer: shown raw in JSON */
	t_clear(t);
	mnl_attr_put(t_reply(t, IBSW_CMD_CC_LOG_GET), IBSW_A_CC_LOG_PORT_MAP, 2, "\x01\x02");
	assert_int_equal(t_run(t, "-j cc log S2"), 0);
	check_jq(t_out(t), ".port_map", "[1,2]\n");
	t_free(t);
}

static void cc_monitor_out(void **state)
{
	struct t *t = t_new();

	(void)state;
	cc_reply(t_notify(t, IBSW_CMD_CC_CHANGE_NTF), false);
	assert_int_equal(t_run(t, "monitor"), 0);
	assert_string_equal(t_out(t), "cc-change: " CC_HEAD);
	t_clear(t);
	cc_reply(t_notify(t, IBSW_CMD_CC_CHANGE_NTF), false);
	assert_int_equal(t_run(t, "-j monitor"), 0);
	check_jq(t_out(t), "[.event, .cc.switch_name, .cc.threshold]",
		 "[\"cc-change\",\"S2\",15]\n");
	t_free(t);
}

static void malformed_replies(void **state)
{
	struct t *t = t_new();
	struct nlattr *nest;
	struct nlmsghdr *r;

	(void)state;
	r = t_reply(t, IBSW_CMD_SWITCH_GET);
	mnl_attr_put_u16(r, IBSW_A_SWITCH_ID, 1);	/* a u32 of 2 bytes */
	assert_int_equal(t_run(t, "switch show"), 1);
	assert_string_equal(t_err(t), "ibswctl: malformed attribute switch/id in a reply\n"
			    "ibswctl: switch show: Invalid argument\n");

	t_clear(t);
	r = t_reply(t, IBSW_CMD_SWITCH_GET);
	mnl_attr_put(r, IBSW_A_SWITCH_NAME, 3, "abc");	/* no NUL */
	assert_int_equal(t_run(t, "switch show"), 1);

	/* a u16 of 1 byte */
	t_clear(t);
	r = t_reply(t, IBSW_CMD_CC_GET);
	mnl_attr_put_u8(r, IBSW_A_CC_MARKING_RATE, 1);
	assert_int_equal(t_run(t, "cc show S1"), 1);
	assert_string_equal(t_err(t), "ibswctl: malformed attribute cc/marking-rate in a reply\n"
			    "ibswctl: cc show S1: Invalid argument\n");

	/* a remote port's id of 2 bytes, a remote counter of 2 bytes */
	t_clear(t);
	r = t_reply(t, IBSW_CMD_PORT_GET);
	mnl_attr_put_u16(r, IBSW_A_PORT_REMOTE_ID, 42);
	assert_int_equal(t_run(t, "port show"), 1);
	assert_string_equal(t_err(t), "ibswctl: malformed attribute port/remote-id in a reply\n"
			    "ibswctl: port show: Invalid argument\n");
	t_clear(t);
	remote_port(r = t_reply(t, IBSW_CMD_PORT_GET), IBSW_REMOTE_STATE_UP);
	nest = mnl_attr_nest_start(r, IBSW_A_PORT_REMOTE_COUNTERS);
	mnl_attr_put_u16(r, IBSW_A_REMOTE_COUNTERS_RX_BAD, 1);
	mnl_attr_nest_end(r, nest);
	assert_int_equal(t_run(t, "-d port show"), 0);
	assert_string_equal(t_out(t), REMOTE_UP "    vlarb-high none\n    vlarb-low none\n");
	assert_string_equal(t_err(t),
			    "ibswctl: malformed attribute remote-counters/rx-bad in a reply\n");

	/* unknown attributes are newer than the tool: ignored */
	t_clear(t);
	r = t_reply(t, IBSW_CMD_SWITCH_GET);
	mnl_attr_put_strz(r, IBSW_A_SWITCH_NAME, "S1");
	mnl_attr_put_u32(r, IBSW_A_SWITCH_MAX + 1, 5);
	assert_int_equal(t_run(t, "switch show"), 0);
	assert_string_equal(t_out(t), "S1:\n");
	t_free(t);
}

static void json_writer(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct jw jw;

	(void)state;
	assert_non_null(f);
	jw_init(&jw, f, false);
	jw_obj_open(&jw, NULL);
	jw_str(&jw, "s", "a\"b\\c\n\t\x01");
	jw_s64(&jw, "n", -5);
	jw_bool(&jw, "b", true);
	jw_null(&jw, "z");
	jw_obj_open(&jw, "o");
	jw_obj_close(&jw);
	jw_arr_open(&jw, "e");
	jw_arr_close(&jw);
	jw_obj_close(&jw);
	jw_u64(&jw, NULL, 18446744073709551615ULL);
	fclose(f);
	assert_string_equal(buf, "{"
			    "\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\",\"n\":-5,\"b\":true,\"z\":null,\"o\":{"
			    "},\"e\":[]}\n18446744073709551615\n");
	free(buf);
}

int main(int argc, char **argv)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(switches),
		cmocka_unit_test(ports_text),
		cmocka_unit_test(ports_json),
		cmocka_unit_test(remote_text),
		cmocka_unit_test(remote_json),
		cmocka_unit_test(remote_monitor),
		cmocka_unit_test(counters_out),
		cmocka_unit_test(fabric_out),
		cmocka_unit_test(lft_out),
		cmocka_unit_test(addr_out),
		cmocka_unit_test(monitor_out),
		cmocka_unit_test(cc_show_out),
		cmocka_unit_test(cc_log_out),
		cmocka_unit_test(cc_monitor_out),
		cmocka_unit_test(malformed_replies),
		cmocka_unit_test(json_writer),
	};

	(void)argc;
	(void)argv;
	return t_run_group("render", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
