// SPDX-License-Identifier: GPL-2.0
/*
 * Requests and replies: building a genl request, the attribute sets of the
 * spec with their types (to check replies and name JSON keys), and the
 * renderers of replies as text and JSON.
 */
#define _GNU_SOURCE
#include "ibswctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>

static const struct ibsw_attr_def addr_defs[] = {
	[IBSW_A_ADDR_IP] = { "ip", IBSW_ATTR_BINARY, .fmt = CTL_FMT_IP },
	[IBSW_A_ADDR_LID] = { "lid", IBSW_ATTR_U32 },
};

const struct ibsw_attr_set ctl_addr_attrs = {
	"addr", ARRAY_SIZE(addr_defs) - 1, addr_defs
};

static const struct ibsw_attr_def fabric_defs[] = {
	[IBSW_A_FABRIC_TIME_SCALE] = { "time-scale", IBSW_ATTR_U32 },
	[IBSW_A_FABRIC_PACING] = { "pacing", IBSW_ATTR_U8, .fmt = CTL_FMT_BOOL },
	[IBSW_A_FABRIC_NR_SWITCHES] = { "nr-switches", IBSW_ATTR_U32 },
	[IBSW_A_FABRIC_NR_HOSTS] = { "nr-hosts", IBSW_ATTR_U32 },
	[IBSW_A_FABRIC_NR_ADDRS] = { "nr-addrs", IBSW_ATTR_U32 },
	[IBSW_A_FABRIC_ADDR] = { "addr", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_addr_attrs },
	[IBSW_A_FABRIC_CLOCK_SEED] = { "clock-seed", IBSW_ATTR_U32 },
	[IBSW_A_FABRIC_CLOCK_PPM] = { "clock-ppm", IBSW_ATTR_U32 },
};

const struct ibsw_attr_set ctl_fabric_attrs = {
	"fabric", ARRAY_SIZE(fabric_defs) - 1, fabric_defs
};

static const struct ibsw_attr_def switch_defs[] = {
	[IBSW_A_SWITCH_ID] = { "id", IBSW_ATTR_U32 },
	[IBSW_A_SWITCH_NAME] = { "name", IBSW_ATTR_STRING },
	[IBSW_A_SWITCH_NR_PORTS] = { "nr-ports", IBSW_ATTR_U32 },
	[IBSW_A_SWITCH_LFT] = { "lft", IBSW_ATTR_BINARY, .fmt = CTL_FMT_BYTES },
	[IBSW_A_SWITCH_LFT_TOP] = { "lft-top", IBSW_ATTR_U32 },
};

const struct ibsw_attr_set ctl_switch_attrs = {
	"switch", ARRAY_SIZE(switch_defs) - 1, switch_defs
};

static const struct ibsw_attr_def vlarb_defs[] = {
	[IBSW_A_VLARB_ENTRY_VL] = { "vl", IBSW_ATTR_U32 },
	[IBSW_A_VLARB_ENTRY_WEIGHT] = { "weight", IBSW_ATTR_U32 },
};

const struct ibsw_attr_set ctl_vlarb_attrs = {
	"vlarb-entry", ARRAY_SIZE(vlarb_defs) - 1, vlarb_defs
};

static const struct ibsw_attr_def sl2vl_defs[] = {
	[IBSW_A_SL2VL_IN_PORT] = { "in-port", IBSW_ATTR_U32 },
	[IBSW_A_SL2VL_MAP] = { "map", IBSW_ATTR_BINARY, .fmt = CTL_FMT_BYTES },
};

const struct ibsw_attr_set ctl_sl2vl_attrs = {
	"sl2vl", ARRAY_SIZE(sl2vl_defs) - 1, sl2vl_defs
};

static const struct ibsw_attr_def counter_defs[] = {
	[IBSW_A_COUNTERS_XMIT_DATA] = { "xmit-data", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_DATA] = { "rcv-data", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_XMIT_PKTS] = { "xmit-pkts", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_PKTS] = { "rcv-pkts", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_XMIT_WAIT] = { "xmit-wait", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_XMIT_DISCARDS] = { "xmit-discards", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_ERRORS] = { "rcv-errors", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_SWITCH_RELAY_ERRORS] = { "rcv-switch-relay-errors", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_FOREIGN] = { "rcv-foreign", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_VL_DISCARDS] = { "rcv-vl-discards", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_OVERSIZE] = { "rcv-oversize", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_NEIGH_REPLIES] = { "neigh-replies", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_EXCESSIVE_BUFFER_OVERRUN_ERRORS] = {
		"excessive-buffer-overrun-errors", IBSW_ATTR_UINT
	},
	[IBSW_A_COUNTERS_XMIT_TIME_CONG] = { "xmit-time-cong", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_XMIT_FECN] = { "xmit-fecn", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_FECN] = { "rcv-fecn", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_BECN] = { "rcv-becn", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_XMIT_LATE] = { "xmit-late", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_HCA_DISCARDS] = { "hca-discards", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_RCV_CONSTRAINT_ERRORS] = { "rcv-constraint-errors", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_VL15_DROPPED] = { "vl15-dropped", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_MKEY_VIOLATIONS] = { "mkey-violations", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_INACTIVE_DISCARDS] = { "inactive-discards", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_SW_HOQ_LIFETIME_LIMIT_DISCARDS] = {
		"sw-hoq-lifetime-limit-discards", IBSW_ATTR_UINT
	},
};

const struct ibsw_attr_set ctl_counter_attrs = {
	"counters", ARRAY_SIZE(counter_defs) - 1, counter_defs
};

const char *const ctl_counter_iba_names[IBSW_A_COUNTERS_MAX + 1] = {
	[IBSW_A_COUNTERS_XMIT_DATA] = "PortXmitData",
	[IBSW_A_COUNTERS_RCV_DATA] = "PortRcvData",
	[IBSW_A_COUNTERS_XMIT_PKTS] = "PortXmitPkts",
	[IBSW_A_COUNTERS_RCV_PKTS] = "PortRcvPkts",
	[IBSW_A_COUNTERS_XMIT_WAIT] = "PortXmitWait",
	[IBSW_A_COUNTERS_XMIT_DISCARDS] = "PortXmitDiscards",
	[IBSW_A_COUNTERS_RCV_ERRORS] = "PortRcvErrors",
	[IBSW_A_COUNTERS_RCV_SWITCH_RELAY_ERRORS] = "PortRcvSwitchRelayErrors",
	[IBSW_A_COUNTERS_RCV_FOREIGN] = "RcvForeign",
	[IBSW_A_COUNTERS_RCV_VL_DISCARDS] = "RcvVLDiscards",
	[IBSW_A_COUNTERS_RCV_OVERSIZE] = "RcvOversize",
	[IBSW_A_COUNTERS_NEIGH_REPLIES] = "NeighReplies",
	[IBSW_A_COUNTERS_EXCESSIVE_BUFFER_OVERRUN_ERRORS] = "ExcessiveBufferOverrunErrors",
	[IBSW_A_COUNTERS_XMIT_TIME_CONG] = "PortXmitTimeCong",
	[IBSW_A_COUNTERS_XMIT_FECN] = "PortXmitFECN",
	[IBSW_A_COUNTERS_RCV_FECN] = "PortPktRcvFECN",
	[IBSW_A_COUNTERS_RCV_BECN] = "PortPktRcvBECN",
	[IBSW_A_COUNTERS_XMIT_LATE] = "XmitLate",	/* ibsw's own */
	[IBSW_A_COUNTERS_HCA_DISCARDS] = "HcaDiscards",	/* ibsw's own */
	[IBSW_A_COUNTERS_RCV_CONSTRAINT_ERRORS] = "PortRcvConstraintErrors",
	[IBSW_A_COUNTERS_VL15_DROPPED] = "VL15Dropped",
	[IBSW_A_COUNTERS_MKEY_VIOLATIONS] = "M_KeyViolations",
	[IBSW_A_COUNTERS_INACTIVE_DISCARDS] = "PortInactiveDiscards",
	[IBSW_A_COUNTERS_SW_HOQ_LIFETIME_LIMIT_DISCARDS] = "PortSwHOQLifetimeLimitDiscards",
};

static const struct ibsw_attr_def vl_defs[] = {
	[IBSW_A_VL_VL] = { "vl", IBSW_ATTR_U32 },
	[IBSW_A_VL_BUFFER_CREDITS] = { "buffer-credits", IBSW_ATTR_U32 },
	[IBSW_A_VL_BUFFER_FREE] = { "buffer-free", IBSW_ATTR_U32 },
	[IBSW_A_VL_COUNTERS] = { "counters", IBSW_ATTR_NEST, .nest = &ctl_counter_attrs },
};

const struct ibsw_attr_set ctl_vl_attrs = {
	"vl", ARRAY_SIZE(vl_defs) - 1, vl_defs
};

/* u64 in the spec; sent as "uint": 4 bytes when the value fits, else 8 */
static const struct ibsw_attr_def remote_counter_defs[] = {
	[IBSW_A_REMOTE_COUNTERS_TX_FRAMES] = { "tx-frames", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_TX_BYTES] = { "tx-bytes", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_FRAMES] = { "rx-frames", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_BYTES] = { "rx-bytes", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_TX_DROPS] = { "tx-drops", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_TX_TOO_BIG] = { "tx-too-big", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_SEQ_GAPS] = { "rx-seq-gaps", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_LOST_FRAMES] = { "rx-lost-frames", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_LATE] = { "rx-late", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_BAD] = { "rx-bad", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_WRONG_EPOCH] = { "rx-wrong-epoch", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_DOWN] = { "rx-down", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_RX_OVERRUN] = { "rx-overrun", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_CREDIT_TX] = { "credit-tx", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_CREDIT_RX] = { "credit-rx", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_HELLO_TX] = { "hello-tx", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_HELLO_RX] = { "hello-rx", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_LINK_UPS] = { "link-ups", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_LINK_DOWNS] = { "link-downs", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_COUNTERS_MISMATCHES] = { "mismatches", IBSW_ATTR_UINT },
};

const struct ibsw_attr_set ctl_remote_counter_attrs = {
	"remote-counters", ARRAY_SIZE(remote_counter_defs) - 1, remote_counter_defs
};

static const struct ibsw_attr_def remote_loop_defs[] = {
	[IBSW_A_REMOTE_LOOP_CREDIT_WAIT_NS] = { "credit-wait-ns", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_LOOP_RTT_SAMPLES] = { "rtt-samples", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_LOOP_RTT_LAST_NS] = { "rtt-last-ns", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_LOOP_RTT_MIN_NS] = { "rtt-min-ns", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_LOOP_RTT_SRTT_NS] = { "rtt-srtt-ns", IBSW_ATTR_UINT },
	[IBSW_A_REMOTE_LOOP_RTT_MAX_NS] = { "rtt-max-ns", IBSW_ATTR_UINT },
};

const struct ibsw_attr_set ctl_remote_loop_attrs = {
	"remote-loop", ARRAY_SIZE(remote_loop_defs) - 1, remote_loop_defs
};

static const struct ibsw_attr_def port_defs[] = {
	[IBSW_A_PORT_SWITCH_ID] = { "switch-id", IBSW_ATTR_U32 },
	[IBSW_A_PORT_SWITCH_NAME] = { "switch-name", IBSW_ATTR_STRING },
	[IBSW_A_PORT_PORT] = { "port", IBSW_ATTR_U32 },
	[IBSW_A_PORT_KIND] = { "kind", IBSW_ATTR_U32, .fmt = CTL_FMT_KIND },
	[IBSW_A_PORT_WIDTH] = { "width", IBSW_ATTR_U32, .fmt = CTL_FMT_WIDTH },
	[IBSW_A_PORT_SPEED] = { "speed", IBSW_ATTR_U32, .fmt = CTL_FMT_SPEED },
	[IBSW_A_PORT_RATE] = { "rate", IBSW_ATTR_UINT },
	[IBSW_A_PORT_NR_VLS] = { "nr-vls", IBSW_ATTR_U32 },
	[IBSW_A_PORT_LID] = { "lid", IBSW_ATTR_U32 },
	[IBSW_A_PORT_PEER_SWITCH_ID] = { "peer-switch-id", IBSW_ATTR_U32 },
	[IBSW_A_PORT_PEER_SWITCH_NAME] = { "peer-switch-name", IBSW_ATTR_STRING },
	[IBSW_A_PORT_PEER_PORT] = { "peer-port", IBSW_ATTR_U32 },
	[IBSW_A_PORT_IFNAME] = { "ifname", IBSW_ATTR_STRING },
	[IBSW_A_PORT_IFINDEX] = { "ifindex", IBSW_ATTR_U32 },
	[IBSW_A_PORT_NETNS_FD] = { "netns-fd", IBSW_ATTR_S32 },
	[IBSW_A_PORT_NETNS_PID] = { "netns-pid", IBSW_ATTR_U32 },
	[IBSW_A_PORT_NETNS_ID] = { "netns-id", IBSW_ATTR_S32 },
	[IBSW_A_PORT_MAC] = { "mac", IBSW_ATTR_BINARY, .fmt = CTL_FMT_MAC },
	[IBSW_A_PORT_VL] = { "vl", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_vl_attrs },
	[IBSW_A_PORT_VLARB_HIGH] = {
		"vlarb-high", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_vlarb_attrs
	},
	[IBSW_A_PORT_VLARB_LOW] = {
		"vlarb-low", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_vlarb_attrs
	},
	[IBSW_A_PORT_VLARB_HIGH_LIMIT] = { "vlarb-high-limit", IBSW_ATTR_U32 },
	[IBSW_A_PORT_SL2VL] = { "sl2vl", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_sl2vl_attrs },
	[IBSW_A_PORT_COUNTERS] = { "counters", IBSW_ATTR_NEST, .nest = &ctl_counter_attrs },
	[IBSW_A_PORT_HCA_RATE] = { "hca-rate", IBSW_ATTR_UINT },
	[IBSW_A_PORT_CLOCK_PPM] = { "clock-ppm", IBSW_ATTR_S32 },
	[IBSW_A_PORT_IBDEV_NAME] = { "ibdev-name", IBSW_ATTR_STRING },
	[IBSW_A_PORT_GUID] = { "guid", IBSW_ATTR_UINT },
	[IBSW_A_PORT_HCA_VLARB_HIGH] = {
		"hca-vlarb-high", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_vlarb_attrs
	},
	[IBSW_A_PORT_HCA_VLARB_LOW] = {
		"hca-vlarb-low", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_vlarb_attrs
	},
	[IBSW_A_PORT_HCA_VLARB_HIGH_LIMIT] = { "hca-vlarb-high-limit", IBSW_ATTR_U32 },
	[IBSW_A_PORT_REMOTE_ID] = { "remote-id", IBSW_ATTR_U32 },
	[IBSW_A_PORT_REMOTE_STATE] = {
		"remote-state", IBSW_ATTR_U8, .fmt = CTL_FMT_REMOTE_STATE
	},
	[IBSW_A_PORT_REMOTE_COUNTERS] = {
		"remote-counters", IBSW_ATTR_NEST, .nest = &ctl_remote_counter_attrs
	},
	[IBSW_A_PORT_REMOTE_LOOP] = {
		"remote-loop", IBSW_ATTR_NEST, .nest = &ctl_remote_loop_attrs
	},
	[IBSW_A_PORT_HOQ_LIFE] = { "hoq-life", IBSW_ATTR_U32 },
};

const struct ibsw_attr_set ctl_port_attrs = {
	"port", ARRAY_SIZE(port_defs) - 1, port_defs
};

static const struct ibsw_attr_def cc_port_defs[] = {
	[IBSW_A_CC_PORT_PORT] = { "port", IBSW_ATTR_U32 },
	[IBSW_A_CC_PORT_VALID] = { "valid", IBSW_ATTR_U8, .fmt = CTL_FMT_BOOL },
	[IBSW_A_CC_PORT_CONTROL_TYPE] = { "control-type", IBSW_ATTR_U8 },
	[IBSW_A_CC_PORT_THRESHOLD] = { "threshold", IBSW_ATTR_U8 },
	[IBSW_A_CC_PORT_PACKET_SIZE] = { "packet-size", IBSW_ATTR_U8 },
	[IBSW_A_CC_PORT_MARKING_RATE] = { "marking-rate", IBSW_ATTR_U16 },
	[IBSW_A_CC_PORT_VLS_CONGESTED] = { "vls-congested", IBSW_ATTR_U32, .fmt = CTL_FMT_BITS },
};

const struct ibsw_attr_set ctl_cc_port_attrs = {
	"cc-port", ARRAY_SIZE(cc_port_defs) - 1, cc_port_defs
};

static const struct ibsw_attr_def cc_defs[] = {
	[IBSW_A_CC_SWITCH_NAME] = { "switch-name", IBSW_ATTR_STRING },
	[IBSW_A_CC_INFO] = { "info", IBSW_ATTR_U16 },
	[IBSW_A_CC_CONTROL_MAP] = { "control-map", IBSW_ATTR_U32, .fmt = CTL_FMT_CC_MAP },
	[IBSW_A_CC_VICTIM_MASK] = { "victim-mask", IBSW_ATTR_BINARY, .fmt = CTL_FMT_PORTMASK },
	[IBSW_A_CC_CREDIT_MASK] = { "credit-mask", IBSW_ATTR_BINARY, .fmt = CTL_FMT_PORTMASK },
	[IBSW_A_CC_THRESHOLD] = { "threshold", IBSW_ATTR_U8 },
	[IBSW_A_CC_PACKET_SIZE] = { "packet-size", IBSW_ATTR_U8 },
	[IBSW_A_CC_CS_THRESHOLD] = { "cs-threshold", IBSW_ATTR_U8 },
	[IBSW_A_CC_CS_RETURN_DELAY] = { "cs-return-delay", IBSW_ATTR_U16 },
	[IBSW_A_CC_MARKING_RATE] = { "marking-rate", IBSW_ATTR_U16 },
	[IBSW_A_CC_PORT_SETTING] = {
		"port-setting", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_cc_port_attrs
	},
	[IBSW_A_CC_FILL_COMPARE] = {
		"fill-compare", IBSW_ATTR_U8, .fmt = CTL_FMT_FILL_COMPARE
	},
};

const struct ibsw_attr_set ctl_cc_attrs = {
	"cc", ARRAY_SIZE(cc_defs) - 1, cc_defs
};

static const struct ibsw_attr_def cc_log_event_defs[] = {
	[IBSW_A_CC_LOG_EVENT_SLID] = { "slid", IBSW_ATTR_U32 },
	[IBSW_A_CC_LOG_EVENT_DLID] = { "dlid", IBSW_ATTR_U32 },
	[IBSW_A_CC_LOG_EVENT_SL] = { "sl", IBSW_ATTR_U32 },
	[IBSW_A_CC_LOG_EVENT_TIMESTAMP] = { "timestamp", IBSW_ATTR_U32 },
	[IBSW_A_CC_LOG_EVENT_PORT] = { "port", IBSW_ATTR_U32 },
	[IBSW_A_CC_LOG_EVENT_VL] = { "vl", IBSW_ATTR_U32 },
};

const struct ibsw_attr_set ctl_cc_log_event_attrs = {
	"cc-log-event", ARRAY_SIZE(cc_log_event_defs) - 1, cc_log_event_defs
};

static const struct ibsw_attr_def cc_log_defs[] = {
	[IBSW_A_CC_LOG_SWITCH_NAME] = { "switch-name", IBSW_ATTR_STRING },
	[IBSW_A_CC_LOG_EVENTS_COUNTER] = { "events-counter", IBSW_ATTR_U32 },
	[IBSW_A_CC_LOG_THRESHOLD_EVENTS] = { "threshold-events", IBSW_ATTR_UINT },
	[IBSW_A_CC_LOG_CURRENT_TIMESTAMP] = { "current-timestamp", IBSW_ATTR_U32 },
	[IBSW_A_CC_LOG_PORT_MAP] = { "port-map", IBSW_ATTR_BINARY, .fmt = CTL_FMT_PORTMASK },
	[IBSW_A_CC_LOG_EVENT] = {
		"event", IBSW_ATTR_NEST, .multi = true, .nest = &ctl_cc_log_event_attrs
	},
};

const struct ibsw_attr_set ctl_cc_log_attrs = {
	"cc-log", ARRAY_SIZE(cc_log_defs) - 1, cc_log_defs
};

static const char *const cmd_names[] = {
	[IBSW_CMD_FABRIC_GET] = "fabric-get",
	[IBSW_CMD_FABRIC_SET] = "fabric-set",
	[IBSW_CMD_ADDR_SET] = "addr-set",
	[IBSW_CMD_ADDR_GET] = "addr-get",
	[IBSW_CMD_SWITCH_NEW] = "switch-new",
	[IBSW_CMD_SWITCH_DEL] = "switch-del",
	[IBSW_CMD_SWITCH_GET] = "switch-get",
	[IBSW_CMD_LFT_SET] = "lft-set",
	[IBSW_CMD_LFT_GET] = "lft-get",
	[IBSW_CMD_PORT_GET] = "port-get",
	[IBSW_CMD_PORT_SET] = "port-set",
	[IBSW_CMD_LINK_NEW] = "link-new",
	[IBSW_CMD_LINK_DEL] = "link-del",
	[IBSW_CMD_HOST_NEW] = "host-new",
	[IBSW_CMD_HOST_DEL] = "host-del",
	[IBSW_CMD_COUNTERS_CLEAR] = "counters-clear",
	[IBSW_CMD_CC_GET] = "cc-get",
	[IBSW_CMD_CC_SET] = "cc-set",
	[IBSW_CMD_CC_LOG_GET] = "cc-log-get",
	[IBSW_CMD_CC_LOG_CLEAR] = "cc-log-clear",
	[IBSW_CMD_FABRIC_CHANGE_NTF] = "fabric-change-ntf",
	[IBSW_CMD_SWITCH_NEW_NTF] = "switch-new-ntf",
	[IBSW_CMD_SWITCH_DEL_NTF] = "switch-del-ntf",
	[IBSW_CMD_SWITCH_CHANGE_NTF] = "switch-change-ntf",
	[IBSW_CMD_PORT_CHANGE_NTF] = "port-change-ntf",
	[IBSW_CMD_CC_CHANGE_NTF] = "cc-change-ntf",
	[IBSW_CMD_MGMT_NEW] = "mgmt-new",
	[IBSW_CMD_MGMT_DEL] = "mgmt-del",
	[IBSW_CMD_REMOTE_NEW] = "remote-new",
	[IBSW_CMD_REMOTE_DEL] = "remote-del",
};

const char *ctl_cmd_name(uint8_t cmd)
{
	return cmd < ARRAY_SIZE(cmd_names) && cmd_names[cmd] ? cmd_names[cmd] : "unknown";
}

struct nlmsghdr *ctl_msg_start(struct ctl *ctl, uint8_t cmd, uint16_t flags,
			       size_t size)
{
	void *buf;

	size += MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr)) + 256;
	if (size < 65536)
		size = 65536;
	if (size > ctl->buf_size) {
		buf = realloc(ctl->buf, size);
		if (!buf)
			return NULL;
		ctl->buf = buf;
		ctl->buf_size = size;
	}
	/* the transport fills in the family */
	return ibsw_genl_msg_start(ctl->buf, 0, cmd, flags);
}

int ctl_request(struct ctl *ctl, struct nlmsghdr *req, ctl_msg_cb cb, void *data)
{
	ctl->ext_msg[0] = '\0';
	ctl->ext_miss_type = 0;
	return ctl->ops->xfer(ctl, req, cb, data);
}

void ctl_json_key(char *buf, size_t len, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] == '-' ? '_' : name[i];
	buf[i] = '\0';
}

static int parse_attrs(struct ctl *ctl, const void *data, size_t len,
		       const struct ibsw_attr_set *set, const struct nlattr **tb)
{
	unsigned int bad = ibsw_attr_parse(data, len, set->max, set, tb);

	if (bad) {
		ctl_err(ctl, "malformed attribute %s/%s in a reply", set->name,
			set->attr[bad].name);
		return -EINVAL;
	}
	return 0;
}

int ctl_parse_msg(struct ctl *ctl, const struct nlmsghdr *nlh,
		  const struct ibsw_attr_set *set, const struct nlattr **tb)
{
	size_t len;
	const void *data = ibsw_genl_attrs(nlh, &len);

	if (!data) {
		ctl_err(ctl, "truncated reply");
		return -EINVAL;
	}
	return parse_attrs(ctl, data, len, set, tb);
}

int ctl_parse_nest(struct ctl *ctl, const struct nlattr *nest,
		   const struct ibsw_attr_set *set, const struct nlattr **tb)
{
	return parse_attrs(ctl, mnl_attr_get_payload(nest),
			   mnl_attr_get_payload_len(nest), set, tb);
}

static void json_value(struct ctl *ctl, const char *key, const struct nlattr *attr,
		       const struct ibsw_attr_def *def);

/* The set bits of a u32 as an array: bit numbers, or Control_Map names */
static void json_bits(struct jw *jw, const char *key, uint32_t v, bool cc_map)
{
	const char *name;
	unsigned int b;

	jw_arr_open(jw, key);
	for (b = 0; b < 32; b++) {
		if (!(v & (1u << b)))
			continue;
		name = cc_map ? ctl_cc_map_name(b) : NULL;
		if (name)
			jw_str(jw, NULL, name);
		else
			jw_u64(jw, NULL, b);
	}
	jw_arr_close(jw);
}

static void json_attrs(struct ctl *ctl, const char *key, const void *data, size_t len,
		       const struct ibsw_attr_set *set,
		       void (*extra)(struct ctl *ctl, void *arg), void *arg)
{
	const struct nlattr *tb[64], *attr;
	const struct ibsw_attr_def *def;
	char name[64];
	unsigned int id;

	if (set->max >= ARRAY_SIZE(tb) || parse_attrs(ctl, data, len, set, tb))
		return;
	jw_obj_open(&ctl->jw, key);
	for (id = 1; id <= set->max; id++) {
		def = &set->attr[id];
		if (!tb[id] || !def->name)
			continue;
		ctl_json_key(name, sizeof(name), def->name);
		if (!def->multi) {
			json_value(ctl, name, tb[id], def);
			continue;
		}
		jw_arr_open(&ctl->jw, name);
		for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr))
			if (mnl_attr_get_type(attr) == id)
				json_value(ctl, NULL, attr, def);
		jw_arr_close(&ctl->jw);
	}
	if (extra)
		extra(ctl, arg);
	jw_obj_close(&ctl->jw);
}

static void json_value(struct ctl *ctl, const char *key, const struct nlattr *attr,
		       const struct ibsw_attr_def *def)
{
	const uint8_t *bytes = mnl_attr_get_payload(attr);
	uint16_t len = mnl_attr_get_payload_len(attr), i;
	const char *name = NULL;
	struct jw *jw = &ctl->jw;
	char buf[64];
	uint32_t v;

	switch (def->type) {
	case IBSW_ATTR_U8:
		if (def->fmt == CTL_FMT_REMOTE_STATE)
			name = ctl_remote_state_name(mnl_attr_get_u8(attr));
		else if (def->fmt == CTL_FMT_FILL_COMPARE)
			name = ctl_fill_compare_name(mnl_attr_get_u8(attr));
		if (def->fmt == CTL_FMT_BOOL)
			jw_bool(jw, key, mnl_attr_get_u8(attr));
		else if (name)
			jw_str(jw, key, name);
		else
			jw_u64(jw, key, mnl_attr_get_u8(attr));
		return;
	case IBSW_ATTR_U16:
		jw_u64(jw, key, mnl_attr_get_u16(attr));
		return;
	case IBSW_ATTR_U32:
		v = mnl_attr_get_u32(attr);
		if (def->fmt == CTL_FMT_BITS || def->fmt == CTL_FMT_CC_MAP) {
			json_bits(jw, key, v, def->fmt == CTL_FMT_CC_MAP);
			return;
		}
		if (def->fmt == CTL_FMT_KIND)
			name = ctl_kind_name(v);
		else if (def->fmt == CTL_FMT_WIDTH)
			name = ctl_width_name(v);
		else if (def->fmt == CTL_FMT_SPEED)
			name = ctl_speed_key(v);
		if (name)
			jw_str(jw, key, name);
		else
			jw_u64(jw, key, v);
		return;
	case IBSW_ATTR_S32:
		jw_s64(jw, key, (int32_t)mnl_attr_get_u32(attr));
		return;
	case IBSW_ATTR_UINT:
		jw_u64(jw, key, ibsw_attr_uint(attr));
		return;
	case IBSW_ATTR_STRING:
		jw_str(jw, key, mnl_attr_get_str(attr));
		return;
	case IBSW_ATTR_NEST:
		json_attrs(ctl, key, mnl_attr_get_payload(attr), len, def->nest, NULL, NULL);
		return;
	default:
		break;
	}
	if (def->fmt == CTL_FMT_PORTMASK && len == CTL_MASK_LEN) {
		jw_arr_open(jw, key);
		for (i = 0; i < 8 * CTL_MASK_LEN; i++)
			if (ctl_mask_test(bytes, i))
				jw_u64(jw, NULL, i);
		jw_arr_close(jw);
	} else if (def->fmt == CTL_FMT_MAC && len == 6) {
		ctl_format_mac(buf, sizeof(buf), bytes);
		jw_str(jw, key, buf);
	} else if (def->fmt == CTL_FMT_IP && len == 16) {
		ctl_format_ip(buf, sizeof(buf), bytes);
		jw_str(jw, key, buf);
	} else {
		jw_arr_open(jw, key);
		for (i = 0; i < len; i++)
			jw_u64(jw, NULL, bytes[i]);
		jw_arr_close(jw);
	}
}

void ctl_json_msg(struct ctl *ctl, const char *key, const struct nlmsghdr *nlh,
		  const struct ibsw_attr_set *set)
{
	size_t len;
	const void *data = ibsw_genl_attrs(nlh, &len);

	if (data)
		json_attrs(ctl, key, data, len, set, NULL, NULL);
}

void ctl_json_nest(struct ctl *ctl, const char *key, const struct nlattr *nest,
		   const struct ibsw_attr_set *set)
{
	json_attrs(ctl, key, mnl_attr_get_payload(nest), mnl_attr_get_payload_len(nest),
		   set, NULL, NULL);
}

/* Text renderers */

static uint32_t get_u32(const struct nlattr *attr, uint32_t dflt)
{
	return attr ? mnl_attr_get_u32(attr) : dflt;
}

/* The SM of a fabric description, as fabric show prints it (arg: its "sm") */
static void json_sm(struct ctl *ctl, void *arg)
{
	jv_write(&ctl->jw, "sm", arg);
}

static void print_sm(struct ctl *ctl, const struct jv *sm)
{
	static const char *const keys[] = {
		"routing_engine", "netns", "ibdev", "port_guid", "log", "conf",
	};
	static const char *const words[] = {
		"routing-engine", "netns", "ibdev", "guid", "log", "conf",
	};
	uint64_t pid = 0;
	unsigned int i;

	fprintf(ctl->out, "sm %s", jv_get_str(sm, "kind") ? jv_get_str(sm, "kind") : "?");
	if (jv_get_u64(sm, "pid", &pid))
		fprintf(ctl->out, " pid %" PRIu64, pid);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (jv_get_str(sm, keys[i]))
			fprintf(ctl->out, " %s %s", words[i], jv_get_str(sm, keys[i]));
	fputc('\n', ctl->out);
}

/* arg: the "sm" of the fabric description, or NULL */
void ctl_print_fabric(struct ctl *ctl, const struct nlmsghdr *nlh,
		      const struct nlattr **tb, void *arg)
{
	const struct jv *sm = arg;
	FILE *f = ctl->out;
	size_t len;
	const void *data;

	if (ctl->json) {
		data = ibsw_genl_attrs(nlh, &len);
		if (data)
			json_attrs(ctl, NULL, data, len, &ctl_fabric_attrs, sm ? json_sm : NULL,
				   (void *)sm);
		return;
	}
	if (tb[IBSW_A_FABRIC_TIME_SCALE])
		fprintf(f, "time-scale %u", mnl_attr_get_u32(tb[IBSW_A_FABRIC_TIME_SCALE]));
	if (tb[IBSW_A_FABRIC_PACING])
		fprintf(f, " pacing %s", mnl_attr_get_u8(tb[IBSW_A_FABRIC_PACING]) ? "on" : "off");
	if (tb[IBSW_A_FABRIC_CLOCK_SEED])
		fprintf(f, " clock-seed %u", mnl_attr_get_u32(tb[IBSW_A_FABRIC_CLOCK_SEED]));
	if (tb[IBSW_A_FABRIC_CLOCK_PPM])
		fprintf(f, " clock-ppm %u", mnl_attr_get_u32(tb[IBSW_A_FABRIC_CLOCK_PPM]));
	if (tb[IBSW_A_FABRIC_NR_SWITCHES])
		fprintf(f, " switches %u", mnl_attr_get_u32(tb[IBSW_A_FABRIC_NR_SWITCHES]));
	if (tb[IBSW_A_FABRIC_NR_HOSTS])
		fprintf(f, " hosts %u", mnl_attr_get_u32(tb[IBSW_A_FABRIC_NR_HOSTS]));
	if (tb[IBSW_A_FABRIC_NR_ADDRS])
		fprintf(f, " addrs %u", mnl_attr_get_u32(tb[IBSW_A_FABRIC_NR_ADDRS]));
	fputc('\n', f);
	if (sm)
		print_sm(ctl, sm);
}

void ctl_print_switch(struct ctl *ctl, const struct nlmsghdr *nlh,
		      const struct nlattr **tb, void *arg)
{
	FILE *f = ctl->out;

	(void)arg;
	if (ctl->json) {
		ctl_json_msg(ctl, NULL, nlh, &ctl_switch_attrs);
		return;
	}
	fprintf(f, "%s:", tb[IBSW_A_SWITCH_NAME] ? mnl_attr_get_str(tb[IBSW_A_SWITCH_NAME]) : "?");
	if (tb[IBSW_A_SWITCH_ID])
		fprintf(f, " id %u", mnl_attr_get_u32(tb[IBSW_A_SWITCH_ID]));
	if (tb[IBSW_A_SWITCH_NR_PORTS])
		fprintf(f, " ports %u", mnl_attr_get_u32(tb[IBSW_A_SWITCH_NR_PORTS]));
	if (tb[IBSW_A_SWITCH_LFT_TOP])
		fprintf(f, " lft-top %u", mnl_attr_get_u32(tb[IBSW_A_SWITCH_LFT_TOP]));
	fputc('\n', f);
}

void ctl_port_label(char *buf, size_t len, const struct nlattr **tb)
{
	const char *sw = tb[IBSW_A_PORT_SWITCH_NAME] ?
		mnl_attr_get_str(tb[IBSW_A_PORT_SWITCH_NAME]) : "?";

	snprintf(buf, len, "%s/%u", sw, get_u32(tb[IBSW_A_PORT_PORT], 0));
}

/* "VL:W,VL:W" of the vlarb entries of one list, "none" if empty */
static void print_vlarb(struct ctl *ctl, const struct nlmsghdr *nlh, uint16_t type,
			const char *label)
{
	const struct nlattr *attr, *tb[IBSW_A_VLARB_ENTRY_MAX + 1];
	size_t len;
	const void *data = ibsw_genl_attrs(nlh, &len);
	bool any = false;

	fprintf(ctl->out, "    %s ", label);
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr)) {
		if (mnl_attr_get_type(attr) != type ||
		    ctl_parse_nest(ctl, attr, &ctl_vlarb_attrs, tb))
			continue;
		fprintf(ctl->out, "%s%u:%u", any ? "," : "",
			get_u32(tb[IBSW_A_VLARB_ENTRY_VL], 0),
			get_u32(tb[IBSW_A_VLARB_ENTRY_WEIGHT], 0));
		any = true;
	}
	fprintf(ctl->out, "%s\n", any ? "" : "none");
}

/* A remote link's counters, four to a line, by their JSON names */
static void print_remote_counters(struct ctl *ctl, const struct nlattr *nest)
{
	const struct nlattr *ct[IBSW_A_REMOTE_COUNTERS_MAX + 1];
	unsigned int id, n = 0;
	char name[64];

	if (ctl_parse_nest(ctl, nest, &ctl_remote_counter_attrs, ct))
		return;
	for (id = 1; id <= IBSW_A_REMOTE_COUNTERS_MAX; id++) {
		if (!ct[id])
			continue;
		ctl_json_key(name, sizeof(name), ctl_remote_counter_attrs.attr[id].name);
		fprintf(ctl->out, "%s%s %llu", n % 4 ? " " : "    remote ", name,
			(unsigned long long)ibsw_attr_uint(ct[id]));
		if (++n % 4 == 0)
			fputc('\n', ctl->out);
	}
	if (n % 4)
		fputc('\n', ctl->out);
}

/* The credit loop: "loop credit-wait 100.0us rtt 312.5us min ... (N samples)" */
static void print_remote_loop(struct ctl *ctl, const struct nlattr *nest)
{
	const struct nlattr *lt[IBSW_A_REMOTE_LOOP_MAX + 1];
	static const struct {
		unsigned int id;
		const char *label;
	} f[] = {
		{ IBSW_A_REMOTE_LOOP_CREDIT_WAIT_NS, "credit-wait" },
		{ IBSW_A_REMOTE_LOOP_RTT_SRTT_NS, "rtt" },
		{ IBSW_A_REMOTE_LOOP_RTT_MIN_NS, "min" },
		{ IBSW_A_REMOTE_LOOP_RTT_MAX_NS, "max" },
		{ IBSW_A_REMOTE_LOOP_RTT_LAST_NS, "last" },
	};
	uint64_t samples;
	unsigned int i;

	if (ctl_parse_nest(ctl, nest, &ctl_remote_loop_attrs, lt))
		return;
	samples = lt[IBSW_A_REMOTE_LOOP_RTT_SAMPLES] ?
		  ibsw_attr_uint(lt[IBSW_A_REMOTE_LOOP_RTT_SAMPLES]) : 0;
	fprintf(ctl->out, "    loop");
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		if (!lt[f[i].id] || (i && !samples))
			continue;
		fprintf(ctl->out, " %s %.1fus", f[i].label,
			ibsw_attr_uint(lt[f[i].id]) / 1e3);
	}
	fprintf(ctl->out, samples ? " (%" PRIu64 " samples)\n" : " rtt none yet\n",
		samples);
}

static void print_port_details(struct ctl *ctl, const struct nlmsghdr *nlh,
			       const struct nlattr **tb)
{
	const struct nlattr *attr, *st[IBSW_A_SL2VL_MAX + 1];
	const uint8_t *map;
	size_t len;
	const void *data = ibsw_genl_attrs(nlh, &len);
	int i;

	print_vlarb(ctl, nlh, IBSW_A_PORT_VLARB_HIGH, "vlarb-high");
	print_vlarb(ctl, nlh, IBSW_A_PORT_VLARB_LOW, "vlarb-low");
	if (tb[IBSW_A_PORT_VLARB_HIGH_LIMIT])
		fprintf(ctl->out, "    vlarb-limit %u\n",
			mnl_attr_get_u32(tb[IBSW_A_PORT_VLARB_HIGH_LIMIT]));
	if (tb[IBSW_A_PORT_HOQ_LIFE])
		fprintf(ctl->out, "    hoq-life %u\n",
			mnl_attr_get_u32(tb[IBSW_A_PORT_HOQ_LIFE]));
	if (tb[IBSW_A_PORT_HCA_VLARB_HIGH_LIMIT]) {
		print_vlarb(ctl, nlh, IBSW_A_PORT_HCA_VLARB_HIGH, "hca-vlarb-high");
		print_vlarb(ctl, nlh, IBSW_A_PORT_HCA_VLARB_LOW, "hca-vlarb-low");
		fprintf(ctl->out, "    hca-vlarb-limit %u\n",
			mnl_attr_get_u32(tb[IBSW_A_PORT_HCA_VLARB_HIGH_LIMIT]));
	}
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr)) {
		if (mnl_attr_get_type(attr) != IBSW_A_PORT_SL2VL ||
		    ctl_parse_nest(ctl, attr, &ctl_sl2vl_attrs, st) ||
		    !st[IBSW_A_SL2VL_MAP] ||
		    mnl_attr_get_payload_len(st[IBSW_A_SL2VL_MAP]) != IBSW_NR_SLS)
			continue;
		map = mnl_attr_get_payload(st[IBSW_A_SL2VL_MAP]);
		fprintf(ctl->out, "    sl2vl ");
		if (st[IBSW_A_SL2VL_IN_PORT])
			fprintf(ctl->out, "in %u ", mnl_attr_get_u32(st[IBSW_A_SL2VL_IN_PORT]));
		for (i = 0; i < IBSW_NR_SLS; i++)
			fprintf(ctl->out, "%s%u", i ? "," : "", map[i]);
		fputc('\n', ctl->out);
	}
	if (tb[IBSW_A_PORT_REMOTE_COUNTERS])
		print_remote_counters(ctl, tb[IBSW_A_PORT_REMOTE_COUNTERS]);
	if (tb[IBSW_A_PORT_REMOTE_LOOP])
		print_remote_loop(ctl, tb[IBSW_A_PORT_REMOTE_LOOP]);
}

void ctl_print_port(struct ctl *ctl, const struct nlmsghdr *nlh,
		    const struct nlattr **tb, void *arg)
{
	const struct nlattr *attr, *vt[IBSW_A_VL_MAX + 1];
	uint32_t kind = get_u32(tb[IBSW_A_PORT_KIND], IBSW_PORT_KIND_NONE);
	const char *kname = ctl_kind_name(kind), *state;
	FILE *f = ctl->out;
	size_t len;
	const void *data;
	char buf[64];
	bool any = false;

	(void)arg;
	if (ctl->json) {
		ctl_json_msg(ctl, NULL, nlh, &ctl_port_attrs);
		return;
	}
	ctl_port_label(buf, sizeof(buf), tb);
	fprintf(f, "%s: %s", buf, kname ? kname : "?");
	if (tb[IBSW_A_PORT_REMOTE_ID])
		fprintf(f, " id %u", mnl_attr_get_u32(tb[IBSW_A_PORT_REMOTE_ID]));
	if (tb[IBSW_A_PORT_REMOTE_STATE]) {
		state = ctl_remote_state_name(mnl_attr_get_u8(tb[IBSW_A_PORT_REMOTE_STATE]));
		if (state)
			fprintf(f, " state %s", state);
		else
			fprintf(f, " state %u", mnl_attr_get_u8(tb[IBSW_A_PORT_REMOTE_STATE]));
	}
	/* a remote port's peer, as it announced itself: none while not heard */
	if (kind == IBSW_PORT_KIND_LINK ||
	    (kind == IBSW_PORT_KIND_REMOTE && tb[IBSW_A_PORT_PEER_SWITCH_NAME]))
		fprintf(f, " peer %s/%u",
			tb[IBSW_A_PORT_PEER_SWITCH_NAME] ?
			mnl_attr_get_str(tb[IBSW_A_PORT_PEER_SWITCH_NAME]) : "?",
			get_u32(tb[IBSW_A_PORT_PEER_PORT], 0));
	if (tb[IBSW_A_PORT_IFNAME])
		fprintf(f, " ifname %s", mnl_attr_get_str(tb[IBSW_A_PORT_IFNAME]));
	if (tb[IBSW_A_PORT_IBDEV_NAME])
		fprintf(f, " ibdev %s", mnl_attr_get_str(tb[IBSW_A_PORT_IBDEV_NAME]));
	if (tb[IBSW_A_PORT_GUID])
		fprintf(f, " guid 0x%016" PRIx64, ibsw_attr_uint(tb[IBSW_A_PORT_GUID]));
	if (tb[IBSW_A_PORT_LID] && (kind == IBSW_PORT_KIND_HOST ||
				    mnl_attr_get_u32(tb[IBSW_A_PORT_LID])))
		fprintf(f, " lid %u", mnl_attr_get_u32(tb[IBSW_A_PORT_LID]));
	if (tb[IBSW_A_PORT_WIDTH] || tb[IBSW_A_PORT_SPEED] || tb[IBSW_A_PORT_RATE]) {
		ctl_format_rate(buf, sizeof(buf), get_u32(tb[IBSW_A_PORT_WIDTH], ~0u),
				get_u32(tb[IBSW_A_PORT_SPEED], ~0u),
				tb[IBSW_A_PORT_RATE] ? ibsw_attr_uint(tb[IBSW_A_PORT_RATE]) : 0);
		fprintf(f, " rate %s", buf);
	}
	if (tb[IBSW_A_PORT_CLOCK_PPM])
		fprintf(f, " clock %+dppm", (int32_t)mnl_attr_get_u32(tb[IBSW_A_PORT_CLOCK_PPM]));
	if (tb[IBSW_A_PORT_HCA_RATE] && kind == IBSW_PORT_KIND_HOST) {
		ctl_format_rate(buf, sizeof(buf), ~0u, ~0u,
				ibsw_attr_uint(tb[IBSW_A_PORT_HCA_RATE]));
		fprintf(f, " hca-rate %s", buf);
	}
	if (tb[IBSW_A_PORT_NR_VLS])
		fprintf(f, " vls %u", mnl_attr_get_u32(tb[IBSW_A_PORT_NR_VLS]));
	if (tb[IBSW_A_PORT_MAC] && mnl_attr_get_payload_len(tb[IBSW_A_PORT_MAC]) == 6) {
		ctl_format_mac(buf, sizeof(buf), mnl_attr_get_payload(tb[IBSW_A_PORT_MAC]));
		fprintf(f, " mac %s", buf);
	}
	if (tb[IBSW_A_PORT_IFINDEX])
		fprintf(f, " ifindex %u", mnl_attr_get_u32(tb[IBSW_A_PORT_IFINDEX]));
	if (tb[IBSW_A_PORT_NETNS_ID])
		fprintf(f, " netns-id %d", (int32_t)mnl_attr_get_u32(tb[IBSW_A_PORT_NETNS_ID]));
	fputc('\n', f);

	data = ibsw_genl_attrs(nlh, &len);
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr)) {
		if (mnl_attr_get_type(attr) != IBSW_A_PORT_VL ||
		    ctl_parse_nest(ctl, attr, &ctl_vl_attrs, vt) || !vt[IBSW_A_VL_BUFFER_CREDITS])
			continue;
		if (!any)
			fprintf(f, "    buffers (free/credits)");
		fprintf(f, " vl%u %u/%u", get_u32(vt[IBSW_A_VL_VL], 0),
			get_u32(vt[IBSW_A_VL_BUFFER_FREE], 0),
			mnl_attr_get_u32(vt[IBSW_A_VL_BUFFER_CREDITS]));
		any = true;
	}
	if (any)
		fputc('\n', f);
	if (ctl->details)
		print_port_details(ctl, nlh, tb);
}

/* Counters, four to a line, with their IBA names */
static void print_counter_lines(struct ctl *ctl, const struct nlattr *nest,
				const char *indent)
{
	const struct nlattr *ct[IBSW_A_COUNTERS_MAX + 1];
	unsigned int id, n = 0;

	if (ctl_parse_nest(ctl, nest, &ctl_counter_attrs, ct))
		return;
	for (id = 1; id <= IBSW_A_COUNTERS_MAX; id++) {
		if (!ct[id])
			continue;
		fprintf(ctl->out, "%s%s %llu", n % 4 ? " " : indent,
			ctl_counter_iba_names[id], (unsigned long long)ibsw_attr_uint(ct[id]));
		if (++n % 4 == 0)
			fputc('\n', ctl->out);
	}
	if (n % 4)
		fputc('\n', ctl->out);
}

void ctl_print_counters(struct ctl *ctl, const struct nlmsghdr *nlh,
			const struct nlattr **tb, void *arg)
{
	const struct nlattr *attr, *vt[IBSW_A_VL_MAX + 1];
	size_t len;
	const void *data = ibsw_genl_attrs(nlh, &len);
	bool per_vl = arg && *(const bool *)arg;
	struct jw *jw = &ctl->jw;
	char buf[64];

	if (ctl->json) {
		jw_obj_open(jw, NULL);
		if (tb[IBSW_A_PORT_SWITCH_NAME])
			jw_str(jw, "switch_name", mnl_attr_get_str(tb[IBSW_A_PORT_SWITCH_NAME]));
		if (tb[IBSW_A_PORT_PORT])
			jw_u64(jw, "port", mnl_attr_get_u32(tb[IBSW_A_PORT_PORT]));
		if (tb[IBSW_A_PORT_COUNTERS])
			ctl_json_nest(ctl, "counters", tb[IBSW_A_PORT_COUNTERS],
				      &ctl_counter_attrs);
	} else {
		ctl_port_label(buf, sizeof(buf), tb);
		fprintf(ctl->out, "%s\n", buf);
		if (tb[IBSW_A_PORT_COUNTERS])
			print_counter_lines(ctl, tb[IBSW_A_PORT_COUNTERS], "    ");
	}
	if (per_vl && ctl->json)
		jw_arr_open(jw, "vl");
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr)) {
		if (!per_vl || mnl_attr_get_type(attr) != IBSW_A_PORT_VL ||
		    ctl_parse_nest(ctl, attr, &ctl_vl_attrs, vt) || !vt[IBSW_A_VL_COUNTERS])
			continue;
		if (ctl->json) {
			jw_obj_open(jw, NULL);
			jw_u64(jw, "vl", get_u32(vt[IBSW_A_VL_VL], 0));
			ctl_json_nest(ctl, "counters", vt[IBSW_A_VL_COUNTERS], &ctl_counter_attrs);
			jw_obj_close(jw);
		} else {
			fprintf(ctl->out, "  vl %u\n", get_u32(vt[IBSW_A_VL_VL], 0));
			print_counter_lines(ctl, vt[IBSW_A_VL_COUNTERS], "    ");
		}
	}
	if (ctl->json) {
		if (per_vl)
			jw_arr_close(jw);
		jw_obj_close(jw);
	}
}

void ctl_print_addr(struct ctl *ctl, const struct nlattr *entry)
{
	const struct nlattr *tb[IBSW_A_ADDR_MAX + 1];
	char buf[64];

	if (ctl->json) {
		ctl_json_nest(ctl, NULL, entry, &ctl_addr_attrs);
		return;
	}
	if (ctl_parse_nest(ctl, entry, &ctl_addr_attrs, tb) || !tb[IBSW_A_ADDR_IP] ||
	    mnl_attr_get_payload_len(tb[IBSW_A_ADDR_IP]) != 16)
		return;
	ctl_format_ip(buf, sizeof(buf), mnl_attr_get_payload(tb[IBSW_A_ADDR_IP]));
	fprintf(ctl->out, "%s lid %u\n", buf, get_u32(tb[IBSW_A_ADDR_LID], 0));
}

struct show_ctx {
	const struct ibsw_attr_set *set;
	ctl_print_fn print;
	void *arg;
};

static int show_cb(struct ctl *ctl, const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[64];
	struct show_ctx *sc = data;

	if (ctl_parse_msg(ctl, nlh, sc->set, tb))
		return -EINVAL;
	sc->print(ctl, nlh, tb, sc->arg);
	return 0;
}

int ctl_show(struct ctl *ctl, struct nlmsghdr *req, const struct ibsw_attr_set *set,
	     ctl_print_fn print, void *arg, bool array)
{
	struct show_ctx sc = { set, print, arg };
	int err;

	if (ctl->json && array)
		jw_arr_open(&ctl->jw, NULL);
	err = ctl_request(ctl, req, show_cb, &sc);
	if (ctl->json && array)
		jw_arr_close(&ctl->jw);
	return err;
}
