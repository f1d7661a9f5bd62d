/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ibswctl: control of an emulated InfiniBand fabric over the "ibsw" generic
 * netlink family (Documentation/netlink/specs/ibsw.yaml).
 *
 * Layers, so that everything but the socket is testable without a kernel:
 * - commands (one file per object) parse arguments, build a request and
 *   render the replies, as text or JSON;
 * - struct ctl_ops is all the I/O they do: one netlink transaction, the
 *   monitor loop, running an external program, opening a namespace. nl.c
 *   has the real ones; the unit tests plug in fakes.
 */
#ifndef IBSWCTL_H
#define IBSWCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libmnl/libmnl.h>
#include <uapi/linux/ibsw.h>

#include "genl.h"
#include "json.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define IBSWCTL_VERSION		"1.0"
#define IBSWCTL_RUN_DIR		"/run/ibsw"
#define IBSWCTL_DESC_PATH	IBSWCTL_RUN_DIR "/fabric.json"
#define IBSWCTL_NETNS_DIR	"/run/netns"
/* The rdma netns mode fabric down restores (rdma_netns.c) */
#define IBSWCTL_RDMA_NETNS_PATH	"/run/ibsw/rdma-netns"

/* Exit statuses, and what every command function returns */
enum {
	CTL_OK = 0,
	CTL_FAIL = 1,
	CTL_USAGE = 2,
};

struct ctl;

/* Called for each reply (or notification) message; returns 0 or -errno. */
typedef int (*ctl_msg_cb)(struct ctl *ctl, const struct nlmsghdr *nlh, void *data);

struct ctl_ops {
	/*
	 * Send a request built by ctl_msg_start() (the transport fills in
	 * the family, sequence number and port id) and pass every reply
	 * message to cb (may be NULL). Returns 0, or -errno with the kernel's
	 * extack message, if any, in ctl->ext_msg.
	 */
	int (*xfer)(struct ctl *ctl, struct nlmsghdr *req, ctl_msg_cb cb, void *data);
	/* Pass notifications of the monitor group to cb until interrupted. */
	int (*listen)(struct ctl *ctl, ctl_msg_cb cb, void *data);
	/* Run a program (argv[0] looked up in PATH); its exit status or -errno. */
	int (*run)(struct ctl *ctl, char *const argv[]);
	/* The same with text as its standard input. */
	int (*run_input)(struct ctl *ctl, char *const argv[], const char *text);
	/* Open a network namespace by name (/run/netns/NAME); fd or -errno. */
	int (*netns_open)(struct ctl *ctl, const char *name);
	/* Whether a path exists (namespaces, rdma devices in sysfs). */
	bool (*exists)(struct ctl *ctl, const char *path);
	/*
	 * The rdma subsystem's network namespace mode ("rdma system show"):
	 * with set < 0 read it, else set it (CTL_RDMA_SHARED or
	 * CTL_RDMA_EXCLUSIVE). Returns the mode, or -errno: -EBUSY when it
	 * cannot change because namespaces other than the initial one exist.
	 */
	int (*rdma_netns)(struct ctl *ctl, int set);
	/*
	 * Run fn in a child process inside network namespace NAME
	 * (/run/netns/NAME), where ctl->sys_root is that namespace's sysfs,
	 * which shows the rdma devices of the namespace. Returns what fn
	 * returns (0 to 125), or -errno if the namespace cannot be entered.
	 */
	int (*in_netns)(struct ctl *ctl, const char *name,
			int (*fn)(struct ctl *ctl, void *arg), void *arg);
	/*
	 * Start a program in the background, in a session of its own, with
	 * stdin /dev/null and stdout and stderr appended to the file out.
	 * Returns its pid, or -errno.
	 */
	int (*spawn)(struct ctl *ctl, char *const argv[], const char *out);
	/*
	 * Wait up to timeout_ms for text to appear in the file at path
	 * (read from its start): 0, -ETIMEDOUT, or -ECHILD once process pid
	 * (started by spawn) has ended.
	 */
	int (*wait_text)(struct ctl *ctl, int pid, const char *path, const char *text,
			 unsigned int timeout_ms);
	/*
	 * Stop process pid if it runs program comm: SIGTERM, then SIGKILL
	 * after timeout_ms. 0: it ended on SIGTERM, 1: it was killed, 2: no
	 * such process (or another program), -errno if it would not go.
	 */
	int (*stop)(struct ctl *ctl, int pid, const char *comm, unsigned int timeout_ms);
	/* Write text to a file that exists (sysfs): 0 or -errno. */
	int (*write_file)(struct ctl *ctl, const char *path, const char *text);
	/* Read a file (sysfs) into buf, NUL-terminated, at most len - 1 bytes: 0 or -errno. */
	int (*read_file)(struct ctl *ctl, const char *path, char *buf, size_t len);
	void (*close)(struct ctl *ctl);
};

struct ctl {
	const struct ctl_ops *ops;
	void *priv;			/* the transport's state */
	FILE *out;
	FILE *err;
	bool json;
	bool pretty;
	bool details;
	struct jw jw;
	const char *sys_root;		/* "/sys"; tests point it elsewhere */
	const char *netns_dir;		/* IBSWCTL_NETNS_DIR; likewise */
	const char *rdma_netns_path;	/* IBSWCTL_RDMA_NETNS_PATH; likewise */
	const char *run_dir;		/* IBSWCTL_RUN_DIR: the SM's files; likewise */
	unsigned int rdma_netns_wait_ms; /* how long fabric down waits to restore it */
	char ext_msg[512];		/* extack message of the last failed request */
	uint32_t ext_miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, 0 if none */
	bool reported;			/* the transport has said why it failed */
	uint32_t last_switch_id;	/* from the last switch-new reply */
	bool last_switch_id_valid;
	void *buf;			/* the request being built */
	size_t buf_size;
};

/* main.c */
void ctl_init(struct ctl *ctl, const struct ctl_ops *ops, FILE *out, FILE *err);
void ctl_fini(struct ctl *ctl);
/* Everything after the program name: options, then OBJECT COMMAND ARGS. */
int ctl_main(struct ctl *ctl, int argc, char **argv);
/* OBJECT COMMAND ARGS, without options (the fabric builder's steps). */
int ctl_run_argv(struct ctl *ctl, int argc, char **argv);

/* Command dispatch */
struct ctl_cmd {
	const char *name;
	int (*fn)(struct ctl *ctl, int argc, char **argv);
};

/*
 * Find argv[0] in cmds (exact, else the first entry it abbreviates, in table
 * order) and run it with the remaining arguments. Without arguments run
 * cmds[0]. "help" prints the usage. Unknown: usage on stderr, CTL_USAGE.
 */
int ctl_dispatch(struct ctl *ctl, const char *object, const struct ctl_cmd *cmds,
		 size_t n, void (*usage)(FILE *f), int argc, char **argv);

/* utils.c: messages */
void ctl_err(struct ctl *ctl, const char *fmt, ...) __printf(2, 3);
/* A failed request: "ibswctl: WHAT: extack (strerror)". Returns CTL_FAIL. */
int ctl_nl_err(struct ctl *ctl, int err, const char *fmt, ...) __printf(3, 4);

/*
 * utils.c: the installed data (topologies, scenarios) is in ../share/ibsw
 * beside the program's directory: /usr/sbin/ibswctl finds /usr/share/ibsw
 * whatever the prefix. The path in buf, 0; -ENAMETOOLONG if it does not fit,
 * -EINVAL if exe is no absolute path with a directory.
 */
int ctl_data_path(const char *exe, const char *rel, char *buf, size_t len);

/* utils.c: argument parsing. All return 0 or -EINVAL (message printed). */
bool ctl_matches(const char *arg, const char *word);
int ctl_parse_u32(struct ctl *ctl, const char *what, const char *s,
		  uint32_t min, uint32_t max, uint32_t *val);
/*
 * A rate in bit/s, 0 to 1200G (12x NDR): digits with an optional k, M or G
 * suffix (13G, 1625M, 13000000000), as a topology's inject= takes it.
 */
int ctl_parse_bps(struct ctl *ctl, const char *what, const char *s, uint64_t *bps);
int ctl_parse_swport(struct ctl *ctl, const char *s, char *sw, size_t swlen,
		     uint32_t *port, bool port_required);
int ctl_parse_name(struct ctl *ctl, const char *s, char *name, size_t len);
int ctl_parse_rate(struct ctl *ctl, const char *s, uint32_t *width, uint32_t *speed);
int ctl_parse_width(struct ctl *ctl, const char *s, uint32_t *width);
int ctl_parse_speed(struct ctl *ctl, const char *s, uint32_t *speed);

struct ctl_vlarb {
	bool given;
	unsigned int n;		/* 0 with given: "none", clear the list */
	uint8_t vl[IBSW_VLARB_MAX_ENTRIES];
	uint8_t weight[IBSW_VLARB_MAX_ENTRIES];
};

int ctl_parse_vlarb(struct ctl *ctl, const char *what, const char *s,
		    struct ctl_vlarb *list);
int ctl_parse_sl2vl(struct ctl *ctl, const char *s, uint8_t map[IBSW_NR_SLS]);
/* "CREDITS" (every VL) or "VL:CREDITS[,...]"; set: bit v given */
int ctl_parse_buffers(struct ctl *ctl, const char *s, uint16_t *set,
		      uint32_t credits[IBSW_NR_DATA_VLS]);
int ctl_parse_mac(struct ctl *ctl, const char *s, uint8_t mac[6]);
/* A netdev name as the kernel takes it: 1 to 15 characters, no '/', ':' or blanks */
int ctl_parse_ifname(struct ctl *ctl, const char *s);
/* IPv4 (stored v4-mapped) or IPv6 */
int ctl_parse_ip(struct ctl *ctl, const char *s, uint8_t ip[16]);
/*
 * "LID:PORT[,LID:PORT...]" into an LFT: lft[lid] = port, 255 elsewhere;
 * *top = highest LID listed. lft has IBSW_LID_UNICAST_MAX + 1 bytes.
 */
int ctl_parse_lft(struct ctl *ctl, const char *s, uint8_t *lft, uint32_t *top);

/* Names and formats */
const char *ctl_width_name(uint32_t width);	/* "4x", NULL if unknown */
const char *ctl_speed_name(uint32_t speed);	/* "QDR" */
const char *ctl_speed_key(uint32_t speed);	/* "qdr": the spec's enum name */
const char *ctl_kind_name(uint32_t kind);	/* "host" */
const char *ctl_remote_state_name(uint32_t state);	/* "up" */
const char *ctl_fill_compare_name(uint32_t how);	/* "per-input" */
uint64_t ctl_rate_bps(uint32_t width, uint32_t speed);
/* "4xQDR (32 Gb/s)"; rate_bps 0: from the width and speed */
void ctl_format_rate(char *buf, size_t len, uint32_t width, uint32_t speed,
		     uint64_t rate_bps);
void ctl_format_mac(char *buf, size_t len, const uint8_t mac[6]);
/* IPv4 for a v4-mapped address, else IPv6 */
void ctl_format_ip(char *buf, size_t len, const uint8_t ip[16]);

/* Addresses the fabric builder derives from a LID */
void ctl_lid_mac(uint16_t lid, uint8_t mac[6]);		/* 02:1b:00:00:X:Y */
void ctl_lid_ipv4(uint16_t lid, char *buf, size_t len);	/* 10.0.X.Y */
void ctl_lid_ipv6(uint16_t lid, char *buf, size_t len);	/* fd00:1b::X:Y */

/* msg.c: requests and replies */
struct nlmsghdr *ctl_msg_start(struct ctl *ctl, uint8_t cmd, uint16_t flags,
			       size_t size);
int ctl_request(struct ctl *ctl, struct nlmsghdr *req, ctl_msg_cb cb, void *data);

/* How the JSON output shows a value, beyond its type (ibsw_attr_def.fmt) */
enum ctl_attr_fmt {
	CTL_FMT_PLAIN,
	CTL_FMT_BOOL,		/* u8 0/1 as false/true */
	CTL_FMT_KIND,		/* enum names, as the spec spells them */
	CTL_FMT_REMOTE_STATE,	/* u8 enum remote-state: "down", "up" */
	CTL_FMT_FILL_COMPARE,	/* u8 enum cc-fill-compare: "sum", "voq", ... */
	CTL_FMT_WIDTH,
	CTL_FMT_SPEED,
	CTL_FMT_MAC,		/* "02:1b:00:00:00:03" */
	CTL_FMT_IP,		/* dotted IPv4 when v4-mapped, else IPv6 */
	CTL_FMT_BYTES,		/* an array of numbers */
	CTL_FMT_BITS,		/* u32: an array of the numbers of its set bits */
	CTL_FMT_CC_MAP,		/* u32: an array of cc-control-map names */
	CTL_FMT_PORTMASK,	/* 256-bit port mask: an array of port numbers */
};

extern const struct ibsw_attr_set ctl_fabric_attrs, ctl_addr_attrs,
	ctl_switch_attrs, ctl_vlarb_attrs, ctl_sl2vl_attrs, ctl_counter_attrs,
	ctl_vl_attrs, ctl_remote_counter_attrs, ctl_remote_loop_attrs,
	ctl_port_attrs, ctl_cc_port_attrs, ctl_cc_attrs, ctl_cc_log_event_attrs, ctl_cc_log_attrs;

/* IBA names of the counters, "PortXmitData", by IBSW_A_COUNTERS_* */
extern const char *const ctl_counter_iba_names[IBSW_A_COUNTERS_MAX + 1];

/*
 * Parse the attributes of a message (after the genl header) or of a nest
 * into tb[0..set->max] (multi-attributes: the last one; walk them with
 * ibsw_attr_ok()). Attributes of the wrong size: -EINVAL, message printed.
 */
int ctl_parse_msg(struct ctl *ctl, const struct nlmsghdr *nlh,
		  const struct ibsw_attr_set *set, const struct nlattr **tb);
int ctl_parse_nest(struct ctl *ctl, const struct nlattr *nest,
		   const struct ibsw_attr_set *set, const struct nlattr **tb);
/*
 * Write the attributes of a message or a nest as a JSON object: keys in
 * attribute order, multi-attributes as arrays, nests as objects.
 */
void ctl_json_msg(struct ctl *ctl, const char *key, const struct nlmsghdr *nlh,
		  const struct ibsw_attr_set *set);
void ctl_json_nest(struct ctl *ctl, const char *key, const struct nlattr *nest,
		   const struct ibsw_attr_set *set);
/* The unit tests' name of ibsw_attr_uint() */
#define ctl_attr_uint ibsw_attr_uint
/* The JSON key of an attribute name: "xmit-data" -> "xmit_data" */
void ctl_json_key(char *buf, size_t len, const char *name);
const char *ctl_cmd_name(uint8_t cmd);	/* "port-change-ntf" */

/*
 * Run a get request and print each reply message with print (as a JSON array
 * if array). The attributes are checked against set first (at most 63).
 */
typedef void (*ctl_print_fn)(struct ctl *ctl, const struct nlmsghdr *nlh,
			     const struct nlattr **tb, void *arg);
int ctl_show(struct ctl *ctl, struct nlmsghdr *req, const struct ibsw_attr_set *set,
	     ctl_print_fn print, void *arg, bool array);

/* Renderers, shared by show commands and the monitor */
void ctl_print_fabric(struct ctl *ctl, const struct nlmsghdr *nlh,
		      const struct nlattr **tb, void *arg);
void ctl_print_switch(struct ctl *ctl, const struct nlmsghdr *nlh,
		      const struct nlattr **tb, void *arg);
void ctl_print_port(struct ctl *ctl, const struct nlmsghdr *nlh,
		    const struct nlattr **tb, void *arg);
void ctl_print_counters(struct ctl *ctl, const struct nlmsghdr *nlh,
			const struct nlattr **tb, void *arg);
void ctl_print_addr(struct ctl *ctl, const struct nlattr *entry);
/* One notification, as monitor prints it */
int ctl_print_event(struct ctl *ctl, const struct nlmsghdr *nlh, void *data);
/* "S1/3", from a port message */
void ctl_port_label(char *buf, size_t len, const struct nlattr **tb);

/* SW/PORT (SW[/PORT] unless port_required): link del, host del, counters clear */
int ctl_port_request(struct ctl *ctl, uint8_t cmd, const char *what, int argc,
		     char **argv, bool port_required, void (*usage_fn)(FILE *f));

/*
 * cc.c: congestion control. Port masks (Victim_Mask, Credit_Mask, the log's
 * PortMap) are 256-bit big-endian integers, bit n = port n, as
 * SwitchCongestionSetting carries them: port n is bit n % 8 of byte 31 - n / 8.
 */
#define CTL_MASK_LEN	32

static inline bool ctl_mask_test(const uint8_t *mask, unsigned int port)
{
	return mask[CTL_MASK_LEN - 1 - port / 8] & (1u << (port % 8));
}

static inline void ctl_mask_set(uint8_t *mask, unsigned int port)
{
	mask[CTL_MASK_LEN - 1 - port / 8] |= 1u << (port % 8);
}

/*
 * A port mask as ibccconfig takes it, a hex number ("0x14", at most 256
 * bits), or a list "ports:1,3,5-7". what names it in messages
 * ("victim_mask"). Port 0 and bits above IBSW_MAX_PORTS are refused.
 */
int ctl_parse_mask(struct ctl *ctl, const char *what, const char *s,
		   uint8_t mask[CTL_MASK_LEN]);
/* "0x14" (the shortest hex, "0" if empty) and "2,4-6" ("" if empty) */
void ctl_format_mask_hex(char *buf, size_t len, const uint8_t mask[CTL_MASK_LEN]);
void ctl_format_mask_ports(char *buf, size_t len, const uint8_t mask[CTL_MASK_LEN]);
/* Control_Map: a number (at most 0x1f) or names "victim_mask,threshold" */
int ctl_parse_cc_map(struct ctl *ctl, const char *s, uint32_t *map);
/* The name of a Control_Map bit ("victim-mask", as the spec), NULL if none */
const char *ctl_cc_map_name(unsigned int bit);
/* CS_ReturnDelay as ibccconfig takes it: "SHIFT:MULT" (0-3, 0-16383) */
int ctl_parse_shift_mult(struct ctl *ctl, const char *what, const char *s,
			 uint16_t *val);

void ctl_print_cc(struct ctl *ctl, const struct nlmsghdr *nlh,
		  const struct nlattr **tb, void *arg);
void ctl_print_cc_log(struct ctl *ctl, const struct nlmsghdr *nlh,
		      const struct nlattr **tb, void *arg);

/* Objects */
int cmd_fabric(struct ctl *ctl, int argc, char **argv);
int cmd_switch(struct ctl *ctl, int argc, char **argv);
int cmd_port(struct ctl *ctl, int argc, char **argv);
int cmd_link(struct ctl *ctl, int argc, char **argv);
int cmd_remote(struct ctl *ctl, int argc, char **argv);
int cmd_host(struct ctl *ctl, int argc, char **argv);
int cmd_mgmt(struct ctl *ctl, int argc, char **argv);
int cmd_lft(struct ctl *ctl, int argc, char **argv);
int cmd_addr(struct ctl *ctl, int argc, char **argv);
int cmd_counters(struct ctl *ctl, int argc, char **argv);
int cmd_cc(struct ctl *ctl, int argc, char **argv);
int cmd_hca(struct ctl *ctl, int argc, char **argv);

/* fabric.c: the time scale in force, 0 if it cannot be read */
uint32_t ctl_fabric_scale(struct ctl *ctl);
/*
 * fabric.c: write path atomically (a temporary file written by fill, synced,
 * renamed), its directories made first; 0 or -errno, said as "cannot write
 * WHAT PATH: ..."
 */
int ctl_write_atomic(struct ctl *ctl, const char *what, const char *path,
		     void (*fill)(FILE *f, const void *arg), const void *arg);
/* hca.c: a new time scale for every patched rxe (ports/1/cc) */
int ctl_hca_sync_scale(struct ctl *ctl, uint32_t scale);

/*
 * rdma_netns.c: the rdma subsystem's network namespace mode during a
 * fabric's life (ibswctl(8), "RDMA NETWORK NAMESPACE MODE")
 */
enum {
	CTL_RDMA_EXCLUSIVE = 0,	/* a device is seen only in its own namespace */
	CTL_RDMA_SHARED = 1,	/* every device is seen in every namespace */
};

/* "shared", "exclusive" */
const char *ctl_rdma_netns_name(int mode);
/* CTL_RDMA_SHARED or CTL_RDMA_EXCLUSIVE, or -EINVAL */
int ctl_rdma_netns_parse(const char *s);
/* The mode to restore, from the state file: a mode, -ENOENT or -EINVAL */
int ctl_rdma_netns_saved(struct ctl *ctl);
/*
 * fabric up ... rdma-netns MODE, before anything is made: switch to MODE
 * unless it is in force, and save the mode it replaced. 1 if it switched,
 * 0 if MODE was in force, CTL_FAIL-style -1 with the reason said.
 */
int ctl_rdma_netns_enter(struct ctl *ctl, int mode);
/*
 * fabric down, after everything is gone (and fabric up's undo): restore the
 * saved mode, waiting up to ctl->rdma_netns_wait_ms for namespaces being
 * dismantled. 0 if restored, not needed, or left for later because other
 * namespaces exist (said on ctl->err); -1 if it failed (said).
 */
int ctl_rdma_netns_restore(struct ctl *ctl);
/* The mode in force, CTL_RDMA_SHARED if it cannot be read (no ib_core) */
int ctl_rdma_netns_mode(struct ctl *ctl);
/*
 * Whether ROOT/class/infiniband/DEV exists in network namespace NS, ROOT
 * being that namespace's sysfs: 1 yes, 0 no, -errno if NS cannot be entered
 * (-ENOENT: it does not exist)
 */
int ctl_netns_has_rdma_dev(struct ctl *ctl, const char *ns, const char *dev);
int cmd_monitor(struct ctl *ctl, int argc, char **argv);

/* nl.c: the real I/O */
extern const struct ctl_ops ctl_sys_ops;

#endif /* IBSWCTL_H */
