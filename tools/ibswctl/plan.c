// SPDX-License-Identifier: GPL-2.0
/* The fabric builder's plans and the fabric description; see plan.h. */
#define _GNU_SOURCE
#include "plan.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t speed_of_topo[] = {
	[TOPO_SPEED_SDR] = IBSW_LINK_SPEED_SDR,
	[TOPO_SPEED_DDR] = IBSW_LINK_SPEED_DDR,
	[TOPO_SPEED_QDR] = IBSW_LINK_SPEED_QDR,
	[TOPO_SPEED_FDR10] = IBSW_LINK_SPEED_FDR10,
	[TOPO_SPEED_FDR] = IBSW_LINK_SPEED_FDR,
	[TOPO_SPEED_EDR] = IBSW_LINK_SPEED_EDR,
	[TOPO_SPEED_HDR] = IBSW_LINK_SPEED_HDR,
	[TOPO_SPEED_NDR] = IBSW_LINK_SPEED_NDR,
};

void plan_link_rate(const struct topo_link *link, uint32_t *width, uint32_t *speed)
{
	switch (link->width) {
	case 1:
		*width = IBSW_LINK_WIDTH_1X;
		break;
	case 8:
		*width = IBSW_LINK_WIDTH_8X;
		break;
	case 12:
		*width = IBSW_LINK_WIDTH_12X;
		break;
	default:
		*width = IBSW_LINK_WIDTH_4X;
	}
	if (link->speed == TOPO_SPEED_UNSET || link->speed >= ARRAY_SIZE(speed_of_topo))
		*speed = IBSW_LINK_SPEED_QDR;
	else
		*speed = speed_of_topo[link->speed];
}

bool plan_is_mgmt(const struct topo_node *node)
{
	return node->type == TOPO_HCA && node->devid == PLAN_MGMT_DEVID;
}

bool plan_is_local(const struct plan *plan, const struct topo_node *node)
{
	return !plan->opts.machine ||
	       (node->machine && !strcmp(node->machine, plan->opts.machine));
}

static bool switch_link(const struct topo_link *link)
{
	return link->node[0]->type == TOPO_SWITCH && link->node[1]->type == TOPO_SWITCH;
}

uint32_t plan_remote_id(const struct topo *topo, const struct topo_link *link)
{
	unsigned int i;
	uint32_t n = 0;

	for (i = 0; i < topo->nlinks; i++) {
		if (!switch_link(topo->link[i]))
			continue;
		n++;
		if (topo->link[i] == link)
			return n;
	}
	return 0;
}

static void rate_word(char *buf, size_t len, uint32_t width, uint32_t speed)
{
	snprintf(buf, len, "%s%s", ctl_width_name(width), ctl_speed_name(speed));
}

/* Append a step; argument list ends with NULL. */
static struct plan_step *add_step(struct plan *plan, enum plan_kind kind, ...)
{
	struct plan_step *step;
	const char *arg;
	va_list ap;
	int n = 0;

	if (plan->nsteps == plan->cap) {
		unsigned int cap = plan->cap ? plan->cap * 2 : 64;

		step = realloc(plan->step, cap * sizeof(*step));
		if (!step)
			return NULL;
		plan->step = step;
		plan->cap = cap;
	}
	step = &plan->step[plan->nsteps];
	memset(step, 0, sizeof(*step));
	step->kind = kind;
	step->sw = -1;
	va_start(ap, kind);
	while (va_arg(ap, const char *))
		n++;
	va_end(ap);
	step->argv = calloc(n + 1, sizeof(char *));
	if (!step->argv)
		return NULL;
	va_start(ap, kind);
	for (n = 0; (arg = va_arg(ap, const char *)); n++) {
		step->argv[n] = strdup(arg);
		if (!step->argv[n])
			break;
	}
	va_end(ap);
	step->argc = n;
	plan->nsteps++;		/* freed with the plan even if incomplete */
	if (arg)
		return NULL;
	return step;
}

/* A step whose arguments were built in a growing array (lft set, addr set) */
static struct plan_step *add_step_argv(struct plan *plan, enum plan_kind kind,
				       char **argv, int argc)
{
	struct plan_step *step = add_step(plan, kind, NULL);

	if (!step)
		return NULL;
	free(step->argv);
	step->argv = argv;
	step->argc = argc;
	return step;
}

/* Characters of a namespace prefix, and those a shell leaves alone */
static bool prefix_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

static bool shell_char(char c)
{
	return prefix_char(c) || strchr("/:=,@%+", c);
}

static bool prefix_ok(const char *p)
{
	size_t n = strlen(p), i;

	for (i = 0; i < n; i++)
		if (!prefix_char(p[i]))
			return false;
	return n <= 32;
}

static int plan_switches(struct plan *plan)
{
	const struct topo *topo = plan->topo;
	char num[32], sp[64];
	struct plan_step *step;
	unsigned int i, p, n = 0;
	const struct topo_node *node;

	for (i = 0; i < topo->nnodes; i++) {
		node = topo->node[i];
		if (node->type != TOPO_SWITCH || !plan_is_local(plan, node))
			continue;
		plan->sw[n].node = node;
		plan->sw[n].lid = route_lid(plan->routes, node, 0);
		snprintf(num, sizeof(num), "%u", node->nports);
		step = add_step(plan, PLAN_CTL, "switch", "add", node->ident, "ports", num, NULL);
		if (!step)
			return -ENOMEM;
		step->undo = UNDO_SWITCH;
		step->undo_arg = step->argv[2];
		step->sw = n++;
	}
	plan->nsw = n;
	if (!plan->opts.vls && !plan->opts.buffer_given)
		return 0;
	/* before links and hosts: buffer sizes change only on unconnected ports */
	for (i = 0; i < plan->nsw; i++) {
		node = plan->sw[i].node;
		for (p = 1; p <= node->nports; p++) {
			char vls[16], buf[16];
			const char *argv[9] = { "port", "set", sp };
			int argc = 3;

			if (!node->port[p].link)
				continue;
			snprintf(sp, sizeof(sp), "%s/%u", node->ident, p);
			snprintf(vls, sizeof(vls), "%u", plan->opts.vls);
			snprintf(buf, sizeof(buf), "%u", plan->opts.buffer);
			if (plan->opts.vls) {
				argv[argc++] = "vls";
				argv[argc++] = vls;
			}
			if (plan->opts.buffer_given) {
				argv[argc++] = "buffer";
				argv[argc++] = buf;
			}
			step = add_step(plan, PLAN_CTL, argv[0], argv[1], argv[2], argv[3],
					argv[4], argv[5], argv[6], NULL);
			if (!step)
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * A cable from a switch of this machine to one of another: a remote link
 * over the carrier, with the id both machines give it
 */
static int plan_remote(struct plan *plan, const struct topo_link *link, unsigned int end,
		       uint32_t id)
{
	struct plan_remote *pr = &plan->remote[plan->nremotes++];
	char sp[64], num[16], rate[16];

	pr->link = link;
	pr->end = end;
	pr->id = id;
	plan_link_rate(link, &pr->width, &pr->speed);
	snprintf(sp, sizeof(sp), "%s/%u", link->node[end]->ident, link->port[end]);
	snprintf(num, sizeof(num), "%u", id);
	rate_word(rate, sizeof(rate), pr->width, pr->speed);
	if (!add_step(plan, PLAN_CTL, "remote", "add", sp, "dev", plan->opts.carrier, "id", num,
		      "rate", rate, NULL))
		return -ENOMEM;
	return 0;
}

static int plan_links(struct plan *plan)
{
	const struct topo *topo = plan->topo;
	const struct topo_link *link;
	char a[64], b[64], rate[16];
	struct plan_link *pl;
	unsigned int i;
	uint32_t id = 0;
	bool here0, here1;
	int err;

	for (i = 0; i < topo->nlinks; i++) {
		link = topo->link[i];
		if (!switch_link(link))
			continue;
		id++;
		here0 = plan_is_local(plan, link->node[0]);
		here1 = plan_is_local(plan, link->node[1]);
		if (!here0 && !here1)
			continue;
		if (here0 != here1) {
			if (!plan->opts.carrier)
				return -EDESTADDRREQ;
			err = plan_remote(plan, link, here0 ? 0 : 1, id);
			if (err)
				return err;
			continue;
		}
		pl = &plan->link[plan->nlinks++];
		pl->link = link;
		plan_link_rate(link, &pl->width, &pl->speed);
		snprintf(a, sizeof(a), "%s/%u", link->node[0]->ident, link->port[0]);
		snprintf(b, sizeof(b), "%s/%u", link->node[1]->ident, link->port[1]);
		rate_word(rate, sizeof(rate), pl->width, pl->speed);
		if (!add_step(plan, PLAN_CTL, "link", "add", a, b, "rate", rate, NULL))
			return -ENOMEM;
	}
	return 0;
}

/*
 * A node's namespace and, from the bridge into it, its management
 * interface: a veth, 10.1.X.Y/16 after the LID of its first port, which
 * goes away with the namespace. Configured inside by plan_netns_inside().
 */
static int plan_netns(struct plan *plan, const struct topo_node *node, const char *netns,
		      uint16_t lid, char mgmt_ipv4[16])
{
	struct plan_step *step;
	char veth[16];

	step = add_step(plan, PLAN_EXEC, "ip", "netns", "add", netns, NULL);
	if (!step)
		return -ENOMEM;
	step->undo = UNDO_NETNS;
	step->undo_arg = step->argv[3];
	if (!plan->opts.mgmt)
		return 0;
	snprintf(mgmt_ipv4, 16, "10.1.%u.%u", lid >> 8, lid & 0xff);
	snprintf(veth, sizeof(veth), "m-%s", node->ident);
	if (!add_step(plan, PLAN_EXEC, "ip", "link", "add", veth, "type", "veth", "peer", "name",
		      PLAN_MGMT_IFNAME, "netns", netns, NULL) ||
	    !add_step(plan, PLAN_EXEC, "ip", "link", "set", veth, "master", PLAN_MGMT_BRIDGE, "up",
		      NULL))
		return -ENOMEM;
	return 0;
}

/*
 * Inside a node's namespace: its loopback up, its management interface's
 * address. For a host, after host add, so that these and its fabric
 * port's commands make one batch of ip (batch.c).
 */
static int plan_netns_inside(struct plan *plan, const char *netns, const char *mgmt_ipv4)
{
	char a4[32];

	if (!add_step(plan, PLAN_EXEC, "ip", "-n", netns, "link", "set", "lo", "up", NULL))
		return -ENOMEM;
	if (!plan->opts.mgmt)
		return 0;
	snprintf(a4, sizeof(a4), "%s/16", mgmt_ipv4);
	if (!add_step(plan, PLAN_EXEC, "ip", "-n", netns, "addr", "add", a4, "dev",
		      PLAN_MGMT_IFNAME, NULL) ||
	    !add_step(plan, PLAN_EXEC, "ip", "-n", netns, "link", "set", PLAN_MGMT_IFNAME, "up",
		      NULL))
		return -ENOMEM;
	return 0;
}

/* A host port's steps; first: the first of its node, which sets up the namespace */
static int plan_host_steps(struct plan *plan, const struct plan_host *h, bool first)
{
	const char *ns = h->netns, *dev = h->ifname;
	char sp[64], lid[16], rate[16], mtu[16], a4[32], a6[64], parent[16], scale[16];
	unsigned int q, nr_txq = plan->opts.vls ? plan->opts.vls : PLAN_DEFAULT_VLS;
	uint64_t inject = h->hca->port[h->hca_port].inject_bps;
	struct plan_step *step;
	char hca[24], desc[64];

	snprintf(sp, sizeof(sp), "%s/%u", h->sw->ident, h->sw_port);
	snprintf(lid, sizeof(lid), "%u", h->lid);
	snprintf(mtu, sizeof(mtu), "%u", plan->opts.mtu);
	snprintf(a4, sizeof(a4), "%s/16", h->ipv4);
	snprintf(a6, sizeof(a6), "%s/64", h->ipv6);
	snprintf(hca, sizeof(hca), "%" PRIu64, inject);
	rate_word(rate, sizeof(rate), h->width, h->speed);
	/* the topology's inject= as given: the kernel caps it at the link's rate */
	step = inject ?
		add_step(plan, PLAN_CTL, "host", "add", sp, "name", dev, "netns", ns, "lid", lid,
			 "rate", rate, "hca-rate", hca, "mac", h->mac, NULL) :
		add_step(plan, PLAN_CTL, "host", "add", sp, "name", dev, "netns", ns, "lid", lid,
			 "rate", rate, "mac", h->mac, NULL);
	if (!step || (first && plan_netns_inside(plan, ns, h->mgmt_ipv4)) ||
	    !add_step(plan, PLAN_EXEC, "ip", "-n", ns, "link", "set", dev, "mtu", mtu, NULL) ||
	    !add_step(plan, PLAN_EXEC, "ip", "-n", ns, "addr", "add", a4, "dev", dev, NULL) ||
	    !add_step(plan, PLAN_EXEC, "ip", "-n", ns, "addr", "add", a6, "dev", dev, "nodad",
		      NULL) ||
	    !add_step(plan, PLAN_EXEC, "ip", "-n", ns, "link", "set", dev, "up", NULL))
		return -ENOMEM;
	/*
	 * The hosts of other machines: their switch ports are in another
	 * kernel, and this one answers ARP and neighbour solicitations only
	 * for a LID of its own ports. Their MACs follow from their LIDs, as
	 * every host's: permanent entries, gone with the namespace.
	 */
	for (q = 0; q < plan->npeers; q++) {
		const struct plan_host *p = &plan->peer[q];

		if (!add_step(plan, PLAN_EXEC, "ip", "-n", ns, "neigh", "replace", p->ipv4,
			      "lladdr", p->mac, "dev", dev, "nud", "permanent", NULL) ||
		    !add_step(plan, PLAN_EXEC, "ip", "-n", ns, "neigh", "replace", p->ipv6,
			      "lladdr", p->mac, "dev", dev, "nud", "permanent", NULL))
			return -ENOMEM;
	}
	/*
	 * Lossless needs a queue discipline that never drops: packets wait
	 * in it while the switch has no credit for their VL, and the
	 * default fq_codel drops what waits longer than its 5 ms target.
	 * One FIFO per TX queue (one per VL), so a VL without credit holds
	 * up no other; rxe bounds what each QP queues.
	 */
	if (!add_step(plan, PLAN_EXEC, "tc", "-n", ns, "qdisc", "replace", "dev", dev, "root",
		      "handle", "1:", "mq", NULL))
		return -ENOMEM;
	for (q = 1; q <= nr_txq; q++) {
		snprintf(parent, sizeof(parent), "1:%x", q);
		if (!add_step(plan, PLAN_EXEC, "tc", "-n", ns, "qdisc", "replace", "dev", dev,
			      "parent", parent, "pfifo", "limit", PLAN_QDISC_LIMIT, NULL))
			return -ENOMEM;
	}
	if (!h->rdma[0])
		return 0;
	step = add_step(plan, PLAN_EXEC, "ip", "netns", "exec", ns, "rdma", "link", "add",
			h->rdma, "type", "rxe", "netdev", dev, NULL);
	if (!step)
		return -ENOMEM;
	step->undo = UNDO_RXE;
	step->undo_arg = step->argv[7];
	/* the patched rxe's congestion control on the fabric's clock */
	snprintf(scale, sizeof(scale), "%u", plan->opts.scale);
	step = plan->opts.scale ?
		add_step(plan, PLAN_CTL, "hca", "clock", h->rdma, "scale", scale, "rate", rate,
			 "netns", ns, NULL) :
		add_step(plan, PLAN_CTL, "hca", "clock", h->rdma, "rate", rate, "netns", ns, NULL);
	if (!step)
		return -ENOMEM;
	/* "hostname devname", as rdma-ndd sets it: ibnetdiscover names the host */
	snprintf(desc, sizeof(desc), "%s %s", h->hca->ident, h->rdma);
	if (!add_step(plan, PLAN_CTL, "hca", "desc", h->rdma, desc, "netns", ns, NULL))
		return -ENOMEM;
	return 0;
}

/*
 * The bridge's address: PLAN_MGMT_ADDR, or with a management carrier the
 * machine's own, after its place among the file's machines (the order of
 * their first machine= lines, the same on every machine)
 */
static int mgmt_addr(struct plan *plan)
{
	const struct topo *topo = plan->topo;
	const char *m;
	unsigned int i;

	if (!plan->opts.mgmt)
		return 0;
	if (!plan->opts.mgmt_carrier) {
		snprintf(plan->mgmt_addr, sizeof(plan->mgmt_addr), "%s", PLAN_MGMT_ADDR);
		return 0;
	}
	if (topo->nmachines > PLAN_MGMT_MACHINES_MAX)
		return -E2BIG;
	m = topo_find_machine(topo, plan->opts.machine);
	for (i = 0; i < topo->nmachines && topo->machine[i] != m; i++)
		;
	if (i == topo->nmachines)
		return -ENOENT;
	snprintf(plan->mgmt_addr, sizeof(plan->mgmt_addr), PLAN_MGMT_ADDR_NET "%u",
		 PLAN_MGMT_ADDR_TOP - i);
	return 0;
}

/*
 * The management bridge, before any host; with a management carrier, the
 * carrier in it, which joins it to the other machines' bridges
 */
static int plan_mgmt(struct plan *plan)
{
	const char *carrier = plan->opts.mgmt_carrier;
	struct plan_step *step;
	char addr[24];

	if (!plan->opts.mgmt)
		return 0;
	step = add_step(plan, PLAN_EXEC, "ip", "link", "add", PLAN_MGMT_BRIDGE, "type", "bridge",
			NULL);
	if (!step)
		return -ENOMEM;
	step->undo = UNDO_LINK;
	step->undo_arg = step->argv[3];
	snprintf(addr, sizeof(addr), "%s/16", plan->mgmt_addr);
	if (!add_step(plan, PLAN_EXEC, "ip", "addr", "add", addr, "dev", PLAN_MGMT_BRIDGE, NULL) ||
	    !add_step(plan, PLAN_EXEC, "ip", "link", "set", PLAN_MGMT_BRIDGE, "up", NULL))
		return -ENOMEM;
	if (!carrier)
		return 0;
	step = add_step(plan, PLAN_EXEC, "ip", "link", "set", carrier, "master", PLAN_MGMT_BRIDGE,
			"up", NULL);
	if (!step)
		return -ENOMEM;
	step->undo = UNDO_NOMASTER;
	step->undo_arg = step->argv[3];
	return 0;
}

/* The injection rate of a host port, as the kernel works it out */
static void hca_rate(struct plan_host *h)
{
	uint64_t link = ctl_rate_bps(h->width, h->speed);

	h->hca_bps = h->hca->port[h->hca_port].inject_bps;
	h->hca_given = h->hca_bps != 0;
	if (!h->hca_given)
		h->hca_bps = link * PLAN_HCA_RATE_DEFAULT_PPM / 1000000;
	if (h->hca_bps > link)
		h->hca_bps = link;
}

/* What a host port is wherever it is: LID, switch port, rates, addresses */
static void host_fill(struct plan_host *h, const struct route_hca *rh)
{
	uint8_t mac[6];

	h->hca = rh->hca;
	h->hca_port = rh->port;
	h->lid = rh->lid;
	h->sw = rh->sw;
	h->sw_port = rh->sw_port;
	plan_link_rate(h->hca->port[h->hca_port].link, &h->width, &h->speed);
	hca_rate(h);
	ctl_lid_mac(h->lid, mac);
	ctl_format_mac(h->mac, sizeof(h->mac), mac);
	ctl_lid_ipv4(h->lid, h->ipv4, sizeof(h->ipv4));
	ctl_lid_ipv6(h->lid, h->ipv6, sizeof(h->ipv6));
}

/* The hosts of other machines, before this machine's need them */
static void plan_peers(struct plan *plan)
{
	const struct routes *r = plan->routes;
	unsigned int i;

	for (i = 0; i < r->nhcas; i++)
		if (!plan_is_mgmt(r->hca[i].hca) && !plan_is_local(plan, r->hca[i].hca))
			host_fill(&plan->peer[plan->npeers++], &r->hca[i]);
}

static int plan_hosts(struct plan *plan)
{
	const struct routes *r = plan->routes;
	const struct topo_node *prev = NULL;
	struct plan_host *h;
	unsigned int i, k = 0;
	int err;

	for (i = 0; i < r->nhcas; i++) {
		if (plan_is_mgmt(r->hca[i].hca) || !plan_is_local(plan, r->hca[i].hca))
			continue;
		h = &plan->host[plan->nhosts++];
		host_fill(h, &r->hca[i]);
		k = h->hca == prev ? k + 1 : 0;
		snprintf(h->netns, sizeof(h->netns), "%s%s", plan->opts.prefix, h->hca->ident);
		snprintf(h->ifname, sizeof(h->ifname), "ib%u", k);
		if (k)
			memcpy(h->mgmt_ipv4, h[-1].mgmt_ipv4, sizeof(h->mgmt_ipv4));
		if (plan->opts.rxe && k)
			snprintf(h->rdma, sizeof(h->rdma), "rxe_%s_%u", h->hca->ident, k);
		else if (plan->opts.rxe)
			snprintf(h->rdma, sizeof(h->rdma), "rxe_%s", h->hca->ident);
		if (h->hca != prev) {
			err = plan_netns(plan, h->hca, h->netns, h->lid, h->mgmt_ipv4);
			if (err)
				return err;
		}
		err = plan_host_steps(plan, h, h->hca != prev);
		prev = h->hca;
		if (err)
			return err;
	}
	return 0;
}

/*
 * The management nodes, before the hosts: a namespace each, and a
 * management HCA on the port, named after the node ("M1 ibsw_mgmt0").
 * First, so that its ports get the first umad devices: libibumad looks
 * for a device's port among umad0 to umad63 only (UMAD_MAX_PORTS), and
 * with 64 hosts' rxe ports before it OpenSM could not open it.
 */
static int plan_mgmt_nodes(struct plan *plan)
{
	const struct routes *r = plan->routes;
	char sp[64], guid[24], lid[16];
	struct plan_step *step;
	struct plan_mgmt *m;
	unsigned int i;
	int err;

	for (i = 0; i < r->nhcas; i++) {
		if (!plan_is_mgmt(r->hca[i].hca) || !plan_is_local(plan, r->hca[i].hca))
			continue;
		m = &plan->mgmt[plan->nmgmt];
		m->node = r->hca[i].hca;
		m->sw = r->hca[i].sw;
		m->sw_port = r->hca[i].sw_port;
		m->lid = r->hca[i].lid;
		m->guid = m->node->port[r->hca[i].port].guid;
		if (!m->guid)
			m->guid = m->node->guid;
		snprintf(m->netns, sizeof(m->netns), "%s%s", plan->opts.prefix, m->node->ident);
		snprintf(m->ibdev, sizeof(m->ibdev), PLAN_MGMT_IBDEV "%u", plan->nmgmt);
		snprintf(m->desc, sizeof(m->desc), "%s %s", m->node->ident, m->ibdev);
		ctl_lid_ipv4(m->lid, m->ipv4, sizeof(m->ipv4));
		ctl_lid_ipv6(m->lid, m->ipv6, sizeof(m->ipv6));
		plan->nmgmt++;
		err = plan_netns(plan, m->node, m->netns, m->lid, m->mgmt_ipv4) ?:
		      plan_netns_inside(plan, m->netns, m->mgmt_ipv4);
		if (err)
			return err;
		snprintf(sp, sizeof(sp), "%s/%u", m->sw->ident, m->sw_port);
		snprintf(guid, sizeof(guid), "0x%016" PRIx64, m->guid);
		snprintf(lid, sizeof(lid), "%u", m->lid);
		/*
		 * A LID and addresses as a host's, until the SM gives another;
		 * the node's namespace, where rdma's exclusive netns mode shows
		 * the device (and its SM runs)
		 */
		step = m->guid ?
			add_step(plan, PLAN_CTL, "mgmt", "add", sp, "name", m->ibdev, "lid", lid,
				 "netns", m->netns, "guid", guid, NULL) :
			add_step(plan, PLAN_CTL, "mgmt", "add", sp, "name", m->ibdev, "lid", lid,
				 "netns", m->netns, NULL);
		if (!step)
			return -ENOMEM;
		step->undo = UNDO_MGMT;
		step->undo_arg = step->argv[2];
		if (!add_step(plan, PLAN_CTL, "hca", "desc", m->ibdev, m->desc, "netns", m->netns,
			      NULL))
			return -ENOMEM;
	}
	return 0;
}

/*
 * OpenSM on the first management node, last: the builder's LIDs, tables
 * and addresses are in place, and the SM's sweep replaces them. It runs
 * in the node's namespace; "@DEV" stands for DEV's port GUID, read once
 * the HCA exists. Its cache (guid2lid) and dumps go to its directory,
 * emptied by fabric up: the same fabric gets the same LIDs.
 */
static int plan_sm(struct plan *plan)
{
	struct plan_sm *sm = &plan->sm;
	const struct plan_mgmt *m = plan->mgmt;
	char cache[300], tmp[300], guid[40];
	const char *argv[24];
	struct plan_step *step;
	int n = 0;

	if (!plan->opts.sm)
		return 0;
	if (!plan->nmgmt)
		return -ENODEV;
	snprintf(sm->dir, sizeof(sm->dir), "%s/" PLAN_SM_SUBDIR,
		 plan->opts.run_dir ? plan->opts.run_dir : "/run/ibsw");
	snprintf(sm->log, sizeof(sm->log), "%s/opensm.log", sm->dir);
	snprintf(sm->out, sizeof(sm->out), "%s/opensm.out", sm->dir);
	sm->conf_written = !plan->opts.sm_conf;
	if (plan->opts.sm_conf)
		snprintf(sm->conf, sizeof(sm->conf), "%s", plan->opts.sm_conf);
	else
		snprintf(sm->conf, sizeof(sm->conf), "%s/opensm.conf", sm->dir);
	snprintf(cache, sizeof(cache), "OSM_CACHE_DIR=%s", sm->dir);
	snprintf(tmp, sizeof(tmp), "OSM_TMP_DIR=%s", sm->dir);
	snprintf(guid, sizeof(guid), PLAN_SM_GUID_ARG "%s", m->ibdev);
	argv[n++] = "ip";
	argv[n++] = "netns";
	argv[n++] = "exec";
	argv[n++] = m->netns;
	argv[n++] = "env";
	argv[n++] = cache;
	argv[n++] = tmp;
	argv[n++] = "opensm";
	argv[n++] = "-F";
	argv[n++] = sm->conf;
	argv[n++] = "-g";
	argv[n++] = guid;
	argv[n++] = "-f";
	argv[n++] = sm->log;
	if (plan->opts.sm_engine) {
		argv[n++] = "-R";
		argv[n++] = plan->opts.sm_engine;
	}
	if (plan->opts.sm_qos > 0)
		argv[n++] = "-Q";
	while (n < 18)
		argv[n++] = NULL;
	step = add_step(plan, PLAN_SM, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5],
			argv[6], argv[7], argv[8], argv[9], argv[10], argv[11], argv[12],
			argv[13], argv[14], argv[15], argv[16], argv[17], NULL);
	if (!step)
		return -ENOMEM;
	step->undo = UNDO_SM;
	return 0;
}

/* A growing argv: "addr set" and "lft set" */
struct argv_buf {
	char **argv;
	int argc;
	int cap;
};

static int argv_add(struct argv_buf *ab, const char *fmt, ...) __printf(2, 3);

static int argv_add(struct argv_buf *ab, const char *fmt, ...)
{
	va_list ap;
	char **argv;
	int ret;

	if (ab->argc + 2 > ab->cap) {
		int cap = ab->cap ? ab->cap * 2 : 16;

		argv = realloc(ab->argv, cap * sizeof(*argv));
		if (!argv)
			return -ENOMEM;
		ab->argv = argv;
		ab->cap = cap;
	}
	va_start(ap, fmt);
	ret = vasprintf(&ab->argv[ab->argc], fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	ab->argv[++ab->argc] = NULL;
	return 0;
}

static void argv_free(char **argv)
{
	char **a;

	for (a = argv; a && *a; a++)
		free(*a);
	free(argv);
}

/*
 * "addr set": the addresses of every host port of the topology, whatever
 * machine it is on, in LID order, then the management nodes': a host sends
 * to another machine's through its switch, which needs the DLID
 */
static int plan_addrs(struct plan *plan, struct argv_buf *ab)
{
	const struct routes *r = plan->routes;
	char ipv4[16], ipv6[48];
	unsigned int i;
	int mgmt;

	for (mgmt = 0; mgmt <= 1; mgmt++) {
		for (i = 0; i < r->nhcas; i++) {
			if (plan_is_mgmt(r->hca[i].hca) != mgmt)
				continue;
			ctl_lid_ipv4(r->hca[i].lid, ipv4, sizeof(ipv4));
			ctl_lid_ipv6(r->hca[i].lid, ipv6, sizeof(ipv6));
			if (argv_add(ab, "%s=%u", ipv4, r->hca[i].lid) ||
			    argv_add(ab, "%s=%u", ipv6, r->hca[i].lid))
				return -ENOMEM;
		}
	}
	return 0;
}

static int plan_tables(struct plan *plan)
{
	const struct routes *r = plan->routes;
	struct argv_buf ab = { 0 };
	const struct route_switch *rs;
	struct plan_step *step;
	unsigned int i, lid;
	char *list = NULL;
	size_t size = 0;
	FILE *f;

	if (argv_add(&ab, "addr") || argv_add(&ab, "set") || plan_addrs(plan, &ab))
		goto nomem;
	step = add_step_argv(plan, PLAN_CTL, ab.argv, ab.argc);
	if (!step)
		goto nomem;
	step->undo = UNDO_ADDR;
	for (i = 0; i < plan->nsw; i++) {
		rs = route_switch_of(r, plan->sw[i].node);
		f = open_memstream(&list, &size);
		if (!f)
			return -ENOMEM;
		for (lid = 1; rs && lid <= r->top_lid; lid++)
			if (rs->lft[lid] && rs->lft[lid] != ROUTE_NO_PORT)
				fprintf(f, "%s%u:%u", ftell(f) ? "," : "", lid, rs->lft[lid]);
		if (fclose(f)) {
			free(list);
			return -ENOMEM;
		}
		if (*list && !add_step(plan, PLAN_CTL, "lft", "set", plan->sw[i].node->ident,
				       list, NULL)) {
			free(list);
			return -ENOMEM;
		}
		free(list);
		list = NULL;
	}
	return 0;
nomem:
	argv_free(ab.argv);
	return -ENOMEM;
}

static struct plan *plan_alloc(void)
{
	return calloc(1, sizeof(struct plan));
}

int plan_build(const struct topo *topo, const struct routes *routes,
	       const struct plan_opts *opts, struct plan **out)
{
	struct plan *plan = plan_alloc();
	char num[16];
	int err = -ENOMEM;

	*out = NULL;
	if (!plan)
		return -ENOMEM;
	plan->opts = *opts;
	if (!plan->opts.prefix)
		plan->opts.prefix = "";
	if (!plan->opts.mtu)
		plan->opts.mtu = PLAN_DEFAULT_MTU;
	if (!prefix_ok(plan->opts.prefix)) {
		plan_free(plan);
		return -EINVAL;
	}
	/* an SM's SMPs do not cross a remote link: it would see its machine only */
	if (opts->machine && opts->sm) {
		plan_free(plan);
		return -EOPNOTSUPP;
	}
	if (opts->machine && !topo_find_machine(topo, opts->machine)) {
		plan_free(plan);
		return -ENOENT;
	}
	/* the management carrier joins one machine's bridge to the others' */
	if (opts->mgmt_carrier && (!opts->machine || !opts->mgmt ||
				   (opts->carrier && !strcmp(opts->mgmt_carrier, opts->carrier)))) {
		plan_free(plan);
		return -EINVAL;
	}
	plan->topo = topo;
	plan->routes = routes;
	plan->time_scale = opts->scale;
	err = mgmt_addr(plan);
	if (err) {
		plan_free(plan);
		return err;
	}
	err = -ENOMEM;
	plan->topo_path = realpath(opts->topo_path, NULL);
	if (!plan->topo_path)
		plan->topo_path = strdup(opts->topo_path);
	plan->sw = calloc(topo->nswitches + 1, sizeof(*plan->sw));
	plan->link = calloc(topo->nlinks + 1, sizeof(*plan->link));
	plan->remote = calloc(topo->nlinks + 1, sizeof(*plan->remote));
	plan->host = calloc(routes->nhcas + 1, sizeof(*plan->host));
	plan->peer = calloc(routes->nhcas + 1, sizeof(*plan->peer));
	plan->mgmt = calloc(routes->nhcas + 1, sizeof(*plan->mgmt));
	if (!plan->topo_path || !plan->sw || !plan->link || !plan->remote || !plan->host ||
	    !plan->peer || !plan->mgmt)
		goto fail;
	plan_peers(plan);
	if (opts->scale) {
		snprintf(num, sizeof(num), "%u", opts->scale);
		if (!add_step(plan, PLAN_CTL, "fabric", "set", "scale", num, NULL))
			goto fail;
	}
	err = plan_switches(plan);
	if (!err)
		err = plan_links(plan);
	if (!err)
		err = plan_mgmt(plan);
	if (!err)
		err = plan_mgmt_nodes(plan);
	if (!err)
		err = plan_hosts(plan);
	if (!err)
		err = plan_tables(plan);
	if (!err)
		err = plan_sm(plan);
	if (err)
		goto fail;
	*out = plan;
	return 0;
fail:
	plan_free(plan);
	return err;
}

void plan_free(struct plan *plan)
{
	unsigned int i;

	if (!plan)
		return;
	for (i = 0; i < plan->nsteps; i++) {
		argv_free(plan->step[i].argv);
		free(plan->step[i].need_arg);
	}
	free(plan->step);
	free(plan->sw);
	free(plan->link);
	free(plan->remote);
	free(plan->host);
	free(plan->peer);
	free(plan->mgmt);
	free(plan->topo_path);
	free(plan);
}

static void print_arg(FILE *f, const char *arg)
{
	const char *p;

	for (p = arg; *p && shell_char(*p); p++)
		;
	if (*arg && !*p) {
		fputs(arg, f);
		return;
	}
	fputc('\'', f);
	for (p = arg; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

void plan_print_step(FILE *f, const struct plan_step *step)
{
	int i;

	if (step->kind == PLAN_CTL)
		fputs("ibswctl ", f);
	for (i = 0; i < step->argc; i++) {
		if (i)
			fputc(' ', f);
		print_arg(f, step->argv[i]);
	}
	fputc('\n', f);
}

void plan_print(FILE *f, const struct plan *plan)
{
	unsigned int i;

	for (i = 0; i < plan->nsteps; i++)
		plan_print_step(f, &plan->step[i]);
}

static void desc_rate(struct jw *jw, uint32_t width, uint32_t speed)
{
	char rate[16];

	rate_word(rate, sizeof(rate), width, speed);
	jw_str(jw, "rate", rate);
	jw_u64(jw, "rate_bps", ctl_rate_bps(width, speed));
}

static void desc_switch(struct jw *jw, const struct plan *plan, const struct plan_switch *ps)
{
	const struct topo_node *node = ps->node, *peer;
	uint32_t width, speed;
	unsigned int p, pp;

	jw_obj_open(jw, NULL);
	jw_str(jw, "name", node->ident);
	jw_str(jw, "node", node->name);
	if (node->desc)
		jw_str(jw, "desc", node->desc);
	if (ps->id_valid)
		jw_u64(jw, "id", ps->id);
	else
		jw_null(jw, "id");
	jw_u64(jw, "lid", ps->lid);
	jw_u64(jw, "nports", node->nports);
	jw_arr_open(jw, "ports");
	for (p = 1; p <= node->nports; p++) {
		peer = topo_peer(node, p, &pp);
		if (!peer)
			continue;
		jw_obj_open(jw, NULL);
		jw_u64(jw, "port", p);
		if (peer->type == TOPO_SWITCH && !plan_is_local(plan, peer)) {
			jw_str(jw, "kind", "remote");
			jw_str(jw, "peer", peer->ident);
			jw_u64(jw, "peer_port", pp);
			jw_str(jw, "peer_machine", peer->machine);
			jw_u64(jw, "remote_id", plan_remote_id(plan->topo, node->port[p].link));
			jw_str(jw, "dev", plan->opts.carrier);
		} else if (peer->type == TOPO_SWITCH) {
			jw_str(jw, "kind", "link");
			jw_str(jw, "peer", peer->ident);
			jw_u64(jw, "peer_port", pp);
		} else {
			jw_str(jw, "kind", "host");
			jw_str(jw, "host", peer->name);
			jw_u64(jw, "host_port", pp);
			jw_u64(jw, "lid", route_lid(plan->routes, peer, pp));
		}
		plan_link_rate(node->port[p].link, &width, &speed);
		desc_rate(jw, width, speed);
		jw_obj_close(jw);
	}
	jw_arr_close(jw);
	jw_obj_close(jw);
}

/* The management nodes and the SM */
static void desc_mgmt(struct jw *jw, const struct plan *plan)
{
	const struct plan_sm *sm = &plan->sm;
	const struct plan_mgmt *m;
	char guid[24];
	unsigned int i;

	jw_arr_open(jw, "mgmt_nodes");
	for (i = 0; i < plan->nmgmt; i++) {
		m = &plan->mgmt[i];
		jw_obj_open(jw, NULL);
		jw_str(jw, "name", m->node->name);
		if (m->node->desc)
			jw_str(jw, "desc", m->node->desc);
		jw_str(jw, "ident", m->node->ident);
		jw_str(jw, "netns", m->netns);
		jw_str(jw, "ibdev", m->ibdev);
		jw_str(jw, "node_desc", m->desc);
		jw_str(jw, "switch", m->sw->ident);
		jw_u64(jw, "switch_port", m->sw_port);
		jw_u64(jw, "lid", m->lid);
		jw_str(jw, "ipv4", m->ipv4);
		jw_str(jw, "ipv6", m->ipv6);
		if (m->mgmt_ipv4[0])
			jw_str(jw, "mgmt_ipv4", m->mgmt_ipv4);
		else
			jw_null(jw, "mgmt_ipv4");
		snprintf(guid, sizeof(guid), "0x%016" PRIx64, m->guid);
		if (m->guid)
			jw_str(jw, "guid", guid);
		else
			jw_null(jw, "guid");
		jw_obj_close(jw);
	}
	jw_arr_close(jw);
	if (!plan->opts.sm) {
		jw_null(jw, "sm");
		return;
	}
	jw_obj_open(jw, "sm");
	jw_str(jw, "kind", "opensm");
	jw_u64(jw, "pid", sm->pid);
	jw_str(jw, "netns", plan->mgmt[0].netns);
	jw_str(jw, "ibdev", plan->mgmt[0].ibdev);
	jw_str(jw, "port_guid", sm->guid);
	jw_str(jw, "routing_engine", plan->opts.sm_engine ? plan->opts.sm_engine : "minhop");
	jw_bool(jw, "qos", plan->opts.sm_qos > 0);
	jw_str(jw, "dir", sm->dir);
	jw_str(jw, "conf", sm->conf);
	jw_bool(jw, "conf_written", sm->conf_written);
	jw_str(jw, "log", sm->log);
	jw_str(jw, "out", sm->out);
	jw_obj_close(jw);
}

/* The machine, the cut links and the hosts of the other machines */
static void desc_machine(struct jw *jw, const struct plan *plan)
{
	const struct plan_remote *rl;
	const struct topo_link *l;
	const struct plan_host *h;
	unsigned int i, e;

	if (plan->opts.machine)
		jw_str(jw, "machine", plan->opts.machine);
	else
		jw_null(jw, "machine");
	if (plan->opts.carrier)
		jw_str(jw, "carrier", plan->opts.carrier);
	else
		jw_null(jw, "carrier");
	jw_arr_open(jw, "remote_links");
	for (i = 0; i < plan->nremotes; i++) {
		rl = &plan->remote[i];
		l = rl->link;
		e = rl->end;
		jw_obj_open(jw, NULL);
		jw_str(jw, "switch", l->node[e]->ident);
		jw_u64(jw, "port", l->port[e]);
		jw_str(jw, "peer", l->node[!e]->ident);
		jw_u64(jw, "peer_port", l->port[!e]);
		jw_str(jw, "peer_machine", l->node[!e]->machine);
		jw_u64(jw, "id", rl->id);
		jw_str(jw, "dev", plan->opts.carrier);
		desc_rate(jw, rl->width, rl->speed);
		jw_obj_close(jw);
	}
	jw_arr_close(jw);
	jw_arr_open(jw, "remote_hosts");
	for (i = 0; i < plan->npeers; i++) {
		h = &plan->peer[i];
		jw_obj_open(jw, NULL);
		jw_str(jw, "name", h->hca->name);
		jw_str(jw, "ident", h->hca->ident);
		jw_u64(jw, "hca_port", h->hca_port);
		jw_str(jw, "machine", h->hca->machine);
		jw_str(jw, "mac", h->mac);
		jw_u64(jw, "lid", h->lid);
		jw_str(jw, "ipv4", h->ipv4);
		jw_str(jw, "ipv6", h->ipv6);
		jw_str(jw, "switch", h->sw->ident);
		jw_u64(jw, "switch_port", h->sw_port);
		jw_obj_close(jw);
	}
	jw_arr_close(jw);
}

void plan_write_desc(struct jw *jw, const struct plan *plan)
{
	const struct plan_host *h;
	const struct plan_link *l;
	unsigned int i;

	jw_obj_open(jw, NULL);
	jw_u64(jw, "version", 1);
	jw_str(jw, "topology", plan->topo_path);
	if (plan->time_scale)
		jw_u64(jw, "time_scale", plan->time_scale);
	else
		jw_null(jw, "time_scale");
	jw_u64(jw, "mtu", plan->opts.mtu);
	jw_str(jw, "prefix", plan->opts.prefix);
	jw_bool(jw, "rxe", plan->opts.rxe);
	if (plan->opts.mgmt) {
		jw_obj_open(jw, "mgmt");
		jw_str(jw, "bridge", PLAN_MGMT_BRIDGE);
		jw_str(jw, "ipv4", plan->mgmt_addr);
		jw_str(jw, "ifname", PLAN_MGMT_IFNAME);
		if (plan->opts.mgmt_carrier)
			jw_str(jw, "carrier", plan->opts.mgmt_carrier);
		else
			jw_null(jw, "carrier");
		jw_obj_close(jw);
	} else {
		jw_null(jw, "mgmt");
	}
	jw_arr_open(jw, "switches");
	for (i = 0; i < plan->nsw; i++)
		desc_switch(jw, plan, &plan->sw[i]);
	jw_arr_close(jw);
	jw_arr_open(jw, "links");
	for (i = 0; i < plan->nlinks; i++) {
		l = &plan->link[i];
		jw_obj_open(jw, NULL);
		jw_str(jw, "switch", l->link->node[0]->ident);
		jw_u64(jw, "port", l->link->port[0]);
		jw_str(jw, "peer", l->link->node[1]->ident);
		jw_u64(jw, "peer_port", l->link->port[1]);
		desc_rate(jw, l->width, l->speed);
		jw_obj_close(jw);
	}
	jw_arr_close(jw);
	jw_arr_open(jw, "hosts");
	for (i = 0; i < plan->nhosts; i++) {
		h = &plan->host[i];
		jw_obj_open(jw, NULL);
		jw_str(jw, "name", h->hca->name);
		if (h->hca->desc)
			jw_str(jw, "desc", h->hca->desc);
		jw_str(jw, "ident", h->hca->ident);
		jw_u64(jw, "hca_port", h->hca_port);
		jw_str(jw, "netns", h->netns);
		jw_str(jw, "ifname", h->ifname);
		jw_str(jw, "mac", h->mac);
		jw_u64(jw, "lid", h->lid);
		jw_str(jw, "ipv4", h->ipv4);
		jw_str(jw, "ipv6", h->ipv6);
		if (h->rdma[0])
			jw_str(jw, "rdma_dev", h->rdma);
		else
			jw_null(jw, "rdma_dev");
		if (h->mgmt_ipv4[0])
			jw_str(jw, "mgmt_ipv4", h->mgmt_ipv4);
		else
			jw_null(jw, "mgmt_ipv4");
		jw_str(jw, "switch", h->sw->ident);
		jw_u64(jw, "switch_port", h->sw_port);
		desc_rate(jw, h->width, h->speed);
		jw_u64(jw, "hca_rate_bps", h->hca_bps);
		jw_bool(jw, "hca_rate_given", h->hca_given);
		jw_obj_close(jw);
	}
	jw_arr_close(jw);
	desc_mgmt(jw, plan);
	desc_machine(jw, plan);
	jw_obj_close(jw);
}

/* "fabric down" */

/* The object a step of fabric down needs: prefix and arg, e.g. a path */
static struct plan_step *add_need(struct plan_step *step, enum plan_need need,
				  const char *prefix, const char *arg)
{
	if (!step)
		return NULL;
	step->need = need;
	if (asprintf(&step->need_arg, "%s%s", prefix, arg) < 0) {
		step->need_arg = NULL;
		return NULL;
	}
	return step;
}

static bool listed_before(const struct jv *hosts, const struct jv *h, const char *key)
{
	const struct jv *o;
	const char *v = jv_get_str(h, key), *w;

	for (o = hosts->child; o && o != h; o = o->next) {
		w = jv_get_str(o, key);
		if (w && !strcmp(v, w))
			return true;
	}
	return false;
}

/*
 * The namespaces of the hosts or management nodes in list: their
 * management veths first (with a management network): a namespace is
 * dismantled after "ip netns del" returns, and with it the veth pair, so a
 * fabric up right after would find the old m-IDENT still there.
 */
static int down_netns(struct plan *plan, const struct jv *list, const struct jv *mgmt)
{
	struct plan_step *step;
	const struct jv *h;
	const char *v;

	for (h = list->child; h && mgmt && mgmt->type == JV_OBJ; h = h->next) {
		char veth[16];

		v = jv_get_str(h, "ident");
		if (!v || listed_before(list, h, "netns"))
			continue;
		snprintf(veth, sizeof(veth), "m-%s", v);
		step = add_step(plan, PLAN_EXEC, "ip", "link", "del", veth, NULL);
		if (!add_need(step, NEED_PATH, "/sys/class/net/", veth))
			return -ENOMEM;
	}
	for (h = list->child; h; h = h->next) {
		v = jv_get_str(h, "netns");
		if (listed_before(list, h, "netns"))
			continue;
		step = add_step(plan, PLAN_EXEC, "ip", "netns", "del", v, NULL);
		if (!add_need(step, NEED_PATH, IBSWCTL_NETNS_DIR "/", v))
			return -ENOMEM;
	}
	return 0;
}

static uint64_t port_of(const struct jv *o)
{
	uint64_t port;

	return jv_get_u64(o, "switch_port", &port) ? port : 0;
}

int plan_build_down(const struct jv *desc, struct plan **out, char *err, size_t errlen)
{
	const struct jv *hosts = jv_get(desc, "hosts"), *switches = jv_get(desc, "switches");
	const struct jv *mgmts = jv_get(desc, "mgmt_nodes"), *sm;
	struct plan *plan = plan_alloc();
	const struct jv *h, *s;
	struct plan_step *step;
	uint64_t version, pid;
	const char *v, *carrier;

	*out = NULL;
	if (!plan) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (!jv_get_u64(desc, "version", &version) || version != 1 ||
	    !hosts || hosts->type != JV_ARR || !switches || switches->type != JV_ARR) {
		snprintf(err, errlen, "not a fabric description of this version of ibswctl");
		goto bad;
	}
	for (h = hosts->child; h; h = h->next) {
		if (!jv_get_str(h, "netns") || !jv_get_str(h, "ifname")) {
			snprintf(err, errlen, "a host without netns or ifname");
			goto bad;
		}
	}
	for (s = switches->child; s; s = s->next) {
		if (!jv_get_str(s, "name")) {
			snprintf(err, errlen, "a switch without a name");
			goto bad;
		}
	}
	if (mgmts && mgmts->type != JV_ARR) {
		snprintf(err, errlen, "mgmt_nodes is not an array");
		goto bad;
	}
	for (h = mgmts ? mgmts->child : NULL; h; h = h->next) {
		if (!jv_get_str(h, "netns") || !jv_get_str(h, "ibdev") ||
		    !jv_get_str(h, "switch") || !port_of(h)) {
			snprintf(err, errlen, "a management node without netns, ibdev or port");
			goto bad;
		}
	}
	/* the SM first: it would not leave once its HCA is gone */
	sm = jv_get(desc, "sm");
	if (sm && sm->type == JV_OBJ) {
		if (!jv_get_u64(sm, "pid", &pid) || !pid || pid > INT_MAX) {
			snprintf(err, errlen, "an sm without a pid");
			goto bad;
		}
		step = add_step(plan, PLAN_SM, "opensm", NULL);
		if (!step)
			goto nomem;
		step->need = NEED_SM;
		step->need_pid = (int)pid;
	}
	for (h = hosts->child; h; h = h->next) {
		v = jv_get_str(h, "rdma_dev");
		if (!v)
			continue;
		step = add_step(plan, PLAN_EXEC, "rdma", "link", "delete", v, NULL);
		if (!add_need(step, NEED_PATH, "/sys/class/infiniband/", v))
			goto nomem;
	}
	for (h = mgmts ? mgmts->child : NULL; h; h = h->next) {
		char sp[80];

		snprintf(sp, sizeof(sp), "%s/%" PRIu64, jv_get_str(h, "switch"), port_of(h));
		step = add_step(plan, PLAN_CTL, "mgmt", "del", sp, NULL);
		if (!add_need(step, NEED_PATH, "/sys/class/infiniband/", jv_get_str(h, "ibdev")))
			goto nomem;
	}
	if (down_netns(plan, hosts, jv_get(desc, "mgmt")) ||
	    (mgmts && down_netns(plan, mgmts, jv_get(desc, "mgmt"))))
		goto nomem;
	v = jv_get_str(jv_get(desc, "mgmt"), "bridge");
	carrier = jv_get_str(jv_get(desc, "mgmt"), "carrier");
	/* the management carrier out first, if still in this bridge: it stays up */
	if (v && carrier) {
		char brif[128];

		snprintf(brif, sizeof(brif), "%s/brif/%s", v, carrier);
		step = add_step(plan, PLAN_EXEC, "ip", "link", "set", carrier, "nomaster", NULL);
		if (!add_need(step, NEED_PATH, "/sys/class/net/", brif))
			goto nomem;
	}
	if (v) {
		step = add_step(plan, PLAN_EXEC, "ip", "link", "del", v, NULL);
		if (!add_need(step, NEED_PATH, "/sys/class/net/", v))
			goto nomem;
	}
	for (s = switches->child; s; s = s->next) {
		v = jv_get_str(s, "name");
		step = add_step(plan, PLAN_CTL, "switch", "del", v, NULL);
		if (!add_need(step, NEED_SWITCH, "", v))
			goto nomem;
	}
	/* with ibsw unloaded, the table went with it */
	step = add_step(plan, PLAN_CTL, "addr", "set", NULL);
	if (!step)
		goto nomem;
	step->need = NEED_FAMILY;
	*out = plan;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	plan_free(plan);
	return -ENOMEM;
bad:
	plan_free(plan);
	return -EINVAL;
}
