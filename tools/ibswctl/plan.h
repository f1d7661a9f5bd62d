/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric builder's plan: the commands "fabric up" runs, computed purely
 * from a parsed topology and its routes, and those "fabric down" runs,
 * computed from the fabric description. fabric.c executes them; the tests
 * compare them with golden files.
 */
#ifndef IBSWCTL_PLAN_H
#define IBSWCTL_PLAN_H

#include <limits.h>

#include "ibswctl.h"
#include "json.h"
#include "route.h"
#include "topo.h"

#define PLAN_DEFAULT_MTU	4200	/* rxe then uses IB MTU 4096 */
#define PLAN_DEFAULT_VLS	4	/* the kernel's default OperVLs: TX queues */
#define PLAN_QDISC_LIMIT	"100000"	/* packets per TX queue, never reached */

/*
 * A host's injection rate where the topology gives none (no inject=), in
 * ppm of its link's data rate: the kernel's default for hca-rate 0, after
 * seed 000's hosts: 7.9 of 8 Gb/s on 4x SDR.
 */
#define PLAN_HCA_RATE_DEFAULT_PPM	987500

/*
 * The management network: plain Ethernet beside the fabric, as clusters
 * have, for what is not RDMA (the TCP handshakes of perftest and the
 * verbs examples, ssh, MPI start-up). A bridge in the initial namespace
 * with a veth to every host.
 */
#define PLAN_MGMT_BRIDGE	"ibsw-mgmt"
#define PLAN_MGMT_ADDR		"10.1.255.254"	/* the bridge's: init_net reaches hosts */
#define PLAN_MGMT_IFNAME	"eth0"

/*
 * machine NAME mgmt-carrier IFNAME: the bridges of the machines join
 * through IFNAME into one network, each with an address of its own after
 * the machine's place among the file's machines (topo->machine[]): the
 * first PLAN_MGMT_ADDR, the next 10.1.255.253, down to 10.1.255.1. Hosts
 * have 10.1.X.Y after their LIDs, at most 0xbfff: none is up there.
 */
#define PLAN_MGMT_ADDR_NET	"10.1.255."
#define PLAN_MGMT_ADDR_TOP	254	/* PLAN_MGMT_ADDR's last byte */
#define PLAN_MGMT_MACHINES_MAX	PLAN_MGMT_ADDR_TOP	/* .254 down to .1 */

/*
 * A management node: a Ca (or Hca) record with devid=0x1b5e, the DeviceID
 * ibsw's management HCA reports, so that ibnetdiscover's output of a
 * fabric names its management HCAs again. Its port gets a management HCA
 * (ibsw_mgmtN, N counting management nodes from 0 in file order) instead
 * of an rxe host; the node gets a namespace, as a host, where the SM runs.
 */
#define PLAN_MGMT_DEVID		0x1b5e
/* ib_umad's ABI version: the module is loaded, OpenSM can open its port */
#define PLAN_UMAD_ABI		"/sys/class/infiniband_mad/abi_version"
#define PLAN_MGMT_IBDEV		"ibsw_mgmt"

/* OpenSM of "fabric up ... sm opensm": its files, under the run directory */
#define PLAN_SM_SUBDIR		"opensm"
#define PLAN_SM_TIMEOUT		120	/* seconds to wait for SUBNET UP */
#define PLAN_SM_STOP_MS		5000	/* SIGTERM, then SIGKILL after this */
#define PLAN_SM_GUID_ARG	"@"	/* "@DEV" in the SM's argv: DEV's port GUID */

enum plan_kind {
	PLAN_CTL,		/* an ibswctl command, run in-process */
	PLAN_EXEC,		/* a program: ip, rdma */
	PLAN_SM,		/* start the SM (argv), wait for SUBNET UP; stop it */
};

/* What undoes a step when a later one fails */
enum plan_undo {
	UNDO_NONE,
	UNDO_SWITCH,		/* switch del ARG (its links and host ports go too) */
	UNDO_NETNS,		/* ip netns del ARG */
	UNDO_RXE,		/* rdma link delete ARG */
	UNDO_ADDR,		/* addr set (empty table) */
	UNDO_LINK,		/* ip link del ARG */
	UNDO_MGMT,		/* mgmt del ARG */
	UNDO_NOMASTER,		/* ip link set ARG nomaster */
	UNDO_SM,		/* stop the SM this step started */
};

/* A step of "fabric down" runs only if its object still exists */
enum plan_need {
	NEED_NONE,
	NEED_PATH,		/* need_arg exists (a namespace, an rdma device) */
	NEED_SWITCH,		/* switch need_arg exists (switch-get) */
	NEED_FAMILY,		/* the ibsw family exists (the module is loaded) */
	NEED_SM,		/* process need_pid runs, and is opensm */
};

struct plan_step {
	enum plan_kind kind;
	int argc;
	char **argv;		/* NULL-terminated, without "ibswctl" for PLAN_CTL */
	enum plan_undo undo;
	const char *undo_arg;	/* points into argv */
	enum plan_need need;
	char *need_arg;
	int sw;			/* switch add: index into plan->sw, else -1 */
	int need_pid;		/* NEED_SM */
};

struct plan_opts {
	const char *topo_path;
	uint32_t scale;		/* 0: leave the time scale alone */
	const char *prefix;	/* of namespace names, "" by default */
	uint32_t vls;		/* 0: the ports' default */
	bool buffer_given;
	uint32_t buffer;	/* credits of every VL of every connected port */
	uint32_t mtu;
	bool rxe;
	bool mgmt;		/* a management network (default) */
	bool sm;		/* sm opensm: OpenSM on the first management node */
	const char *sm_conf;	/* the user's opensm.conf, NULL: one is written */
	const char *sm_engine;	/* routing_engine, NULL: OpenSM's (minhop) */
	int sm_qos;		/* -1: not given, else qos FALSE/TRUE */
	uint32_t sm_timeout;	/* seconds to wait for SUBNET UP */
	const char *run_dir;	/* the SM's files go to run_dir/opensm */
	/*
	 * machine NAME: build only the switches and hosts of the topology's
	 * machine NAME (NULL: every node, whatever machine it names), and
	 * the cables to switches of other machines as remote links over
	 * the netdev carrier
	 */
	const char *machine;
	const char *carrier;
	/*
	 * mgmt-carrier IFNAME (with machine and a management network, not
	 * the carrier): a port of the management bridge joining it to the
	 * other machines', and the bridge's address the machine's own
	 */
	const char *mgmt_carrier;
};

struct plan_switch {
	const struct topo_node *node;
	uint16_t lid;
	bool id_valid;
	uint32_t id;		/* from switch-new, for the description */
};

struct plan_link {
	const struct topo_link *link;
	uint32_t width;		/* IBSW_LINK_WIDTH_* */
	uint32_t speed;		/* IBSW_LINK_SPEED_* */
};

/*
 * A cut link: a cable from a switch of this machine to a switch of
 * another, a remote link over the carrier. Its id is the cable's number
 * among the topology's switch-to-switch cables, from 1 in the order of
 * topo->link[], which both machines compute alike from the file.
 */
struct plan_remote {
	const struct topo_link *link;
	unsigned int end;	/* this machine's end of link */
	uint32_t id;
	uint32_t width;
	uint32_t speed;
};

struct plan_host {
	const struct topo_node *hca;
	unsigned int hca_port;
	char netns[64];
	char ifname[16];
	char mac[18];
	uint16_t lid;
	char ipv4[16];
	char ipv6[48];
	char rdma[32];		/* "" with no-rxe */
	char mgmt_ipv4[16];	/* "" without a management network */
	const struct topo_node *sw;
	unsigned int sw_port;
	uint32_t width;
	uint32_t speed;
	bool hca_given;		/* the topology's inject= */
	uint64_t hca_bps;	/* its injection rate in force, bit/s */
};

struct plan_mgmt {
	const struct topo_node *node;
	char netns[64];
	char ibdev[32];
	char desc[80];		/* its NodeDescription: "IDENT IBDEV" */
	char mgmt_ipv4[16];	/* "" without a management network */
	const struct topo_node *sw;
	unsigned int sw_port;
	uint16_t lid;		/* the builder's; the HCA takes one from the SM */
	char ipv4[16];		/* its fabric addresses, after the LID, as a host's: */
	char ipv6[48];		/* hosts' replies to its GMPs go there */
	uint64_t guid;		/* the topology's caguid= or port GUID, 0: none */
};

/* The SM fabric up starts: its files, and its pid once started */
struct plan_sm {
	char dir[256];
	char conf[PATH_MAX];	/* the user's, or dir/opensm.conf (written) */
	bool conf_written;
	char log[300];
	char out[300];		/* its stdout and stderr */
	char guid[24];		/* 0x..., once read */
	int pid;		/* 0: not running */
};

struct plan {
	struct plan_opts opts;
	char *topo_path;	/* absolute, for the description */
	uint32_t time_scale;	/* for the description; 0: unknown */
	const struct topo *topo;
	const struct routes *routes;
	unsigned int nsw;
	struct plan_switch *sw;	/* topology order */
	unsigned int nlinks;
	struct plan_link *link;	/* switch-to-switch links */
	unsigned int nhosts;
	struct plan_host *host;	/* LID order; this machine's with machine */
	unsigned int nremotes;
	struct plan_remote *remote;	/* cut links, topology order */
	unsigned int npeers;
	/*
	 * the hosts of other machines, LID order: LID, addresses and MAC,
	 * switch; no namespace, ifname or rdma device
	 */
	struct plan_host *peer;
	char mgmt_addr[16];	/* the bridge's address; "" without mgmt */
	unsigned int nmgmt;
	struct plan_mgmt *mgmt;	/* file order */
	struct plan_sm sm;	/* with opts.sm */
	unsigned int nsteps;
	unsigned int cap;
	struct plan_step *step;
};

/* Whether a node is a management node (PLAN_MGMT_DEVID) */
bool plan_is_mgmt(const struct topo_node *node);

/* Whether a node is on the plan's machine: always without machine */
bool plan_is_local(const struct plan *plan, const struct topo_node *node);

/*
 * The id of the remote link a switch-to-switch cable becomes when cut:
 * its number among the topology's switch-to-switch cables, from 1 in file
 * order (topo->link[]); 0 if link is not one
 */
uint32_t plan_remote_id(const struct topo *topo, const struct topo_link *link);

/* Rate of a topology link: the file's, or 4x QDR where it says nothing */
void plan_link_rate(const struct topo_link *link, uint32_t *width, uint32_t *speed);

/*
 * Batches (batch.c): how many steps from first run as one "ip|tc -n NS
 * -batch -" (1: the step alone), and the lines of its standard input
 * (malloc'd, NULL without memory).
 */
unsigned int plan_batch_len(const struct plan *plan, unsigned int first);
char *plan_batch_text(const struct plan *plan, unsigned int first, unsigned int n);

/*
 * The plan of "fabric up". -ENOMEM, -EINVAL for a bad prefix, or a
 * mgmt_carrier without machine or management network or that is the
 * carrier, -ENODEV for sm without a management node; with a machine:
 * -ENOENT if no node is on it, -EOPNOTSUPP with sm, -EDESTADDRREQ for a
 * cut link without a carrier, -E2BIG for a mgmt_carrier and more than
 * PLAN_MGMT_MACHINES_MAX machines in the file.
 */
int plan_build(const struct topo *topo, const struct routes *routes,
	       const struct plan_opts *opts, struct plan **plan);
/*
 * The plan of "fabric down" from a description: rdma devices, namespaces,
 * the management carrier out of the bridge, the bridge, switches, the
 * address table. -EINVAL with a reason in err if the
 * description is not one ibswctl wrote.
 */
int plan_build_down(const struct jv *desc, struct plan **plan, char *err, size_t errlen);
void plan_free(struct plan *plan);

/* One shell-quoted command per line, "ibswctl ..." for PLAN_CTL steps */
void plan_print(FILE *f, const struct plan *plan);
void plan_print_step(FILE *f, const struct plan_step *step);

/* The fabric description (README.md documents it) */
void plan_write_desc(struct jw *jw, const struct plan *plan);

#endif /* IBSWCTL_PLAN_H */
