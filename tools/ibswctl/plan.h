/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric builder's plan: the commands "fabric up" runs, computed purely
 * from a parsed topology and its routes, and those "fabric down" runs,
 * computed from the fabric description. fabric.c executes them; the tests
 * compare them with golden files.
 */
#ifndef IBSWCTL_PLAN_H
#define IBSWCTL_PLAN_H

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

enum plan_kind {
	PLAN_CTL,		/* an ibswctl command, run in-process */
	PLAN_EXEC,		/* a program: ip, rdma */
};

/* What undoes a step when a later one fails */
enum plan_undo {
	UNDO_NONE,
	UNDO_SWITCH,		/* switch del ARG (its links and host ports go too) */
	UNDO_NETNS,		/* ip netns del ARG */
	UNDO_RXE,		/* rdma link delete ARG */
	UNDO_ADDR,		/* addr set (empty table) */
	UNDO_LINK,		/* ip link del ARG */
};

/* A step of "fabric down" runs only if its object still exists */
enum plan_need {
	NEED_NONE,
	NEED_PATH,		/* need_arg exists (a namespace, an rdma device) */
	NEED_SWITCH,		/* switch need_arg exists (switch-get) */
	NEED_FAMILY,		/* the ibsw family exists (the module is loaded) */
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
	struct plan_host *host;	/* LID order */
	unsigned int nsteps;
	unsigned int cap;
	struct plan_step *step;
};

/* Rate of a topology link: the file's, or 4x QDR where it says nothing */
void plan_link_rate(const struct topo_link *link, uint32_t *width, uint32_t *speed);

/* The plan of "fabric up". -ENOMEM, or -EINVAL for a bad prefix. */
int plan_build(const struct topo *topo, const struct routes *routes,
	       const struct plan_opts *opts, struct plan **plan);
/*
 * The plan of "fabric down" from a description: rdma devices, namespaces,
 * switches, the address table. -EINVAL with a reason in err if the
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
