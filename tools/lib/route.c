// SPDX-License-Identifier: GPL-2.0
/*
 * LID assignment and min-hop routing, see route.h for the rules.
 *
 * Hop counts come from one breadth-first search per destination switch over
 * the switch-to-switch links, so rings and meshes are fine. Note that min-hop
 * routes on a topology with cycles can deadlock a real IB fabric under credit
 * flow control (cyclic buffer dependencies); no deadlock-free algorithm (up/down,
 * DFSSSP, LASH) is attempted here.
 */
#define _GNU_SOURCE
#include "route.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNREACHABLE UINT_MAX

struct router {
	const struct topo *t;
	unsigned int flags;
	struct topo_diag *diag;
	unsigned int errors;
	unsigned int nsw;
	const struct topo_node **sw;	/* switch number -> node */
	unsigned int *sw_num;		/* node index -> switch number */
	unsigned int *dist;		/* dist[d * nsw + s]: hops from s to d */
	unsigned int *load_base;	/* load of switch s, port p: load[load_base[s] + p] */
	unsigned int *load;
	struct routes *r;
};

static __printf(3, 4) bool rerror(struct router *rt, unsigned int line,
				  const char *fmt, ...)
{
	char *reason;
	va_list ap;
	int n;

	rt->errors++;
	va_start(ap, fmt);
	n = vasprintf(&reason, fmt, ap);
	va_end(ap);
	if (n >= 0) {
		topo_diag_add(rt->diag, rt->t->file, line, "%s", reason);
		free(reason);
	}
	return false;
}

static unsigned int *dist_of(const struct router *rt, unsigned int d)
{
	return rt->dist + (size_t)d * rt->nsw;
}

/* Switch number of the node at the other end of sw's port p, or UINT_MAX. */
static unsigned int peer_switch(const struct router *rt, const struct topo_node *sw,
				unsigned int p)
{
	const struct topo_node *peer = topo_peer(sw, p, NULL);

	if (!peer || peer->type != TOPO_SWITCH)
		return UINT_MAX;
	return rt->sw_num[peer->index];
}

static bool number_switches(struct router *rt)
{
	const struct topo *t = rt->t;
	unsigned int i;

	rt->sw = calloc(t->nswitches, sizeof(*rt->sw));
	rt->sw_num = calloc(t->nnodes, sizeof(*rt->sw_num));
	if (!rt->sw || !rt->sw_num)
		return false;
	for (i = 0; i < t->nnodes; i++) {
		rt->sw_num[i] = UINT_MAX;
		if (t->node[i]->type == TOPO_SWITCH) {
			rt->sw_num[i] = rt->nsw;
			rt->sw[rt->nsw++] = t->node[i];
		}
	}
	return true;
}

/* Hop counts from every switch to switch d. */
static void bfs(struct router *rt, unsigned int d, unsigned int *queue)
{
	unsigned int *dist = dist_of(rt, d), head = 0, tail = 0, s, p, n;

	for (s = 0; s < rt->nsw; s++)
		dist[s] = UNREACHABLE;
	dist[d] = 0;
	queue[tail++] = d;
	while (head < tail) {
		s = queue[head++];
		for (p = 1; p <= rt->sw[s]->nports; p++) {
			n = peer_switch(rt, rt->sw[s], p);
			if (n != UINT_MAX && dist[n] == UNREACHABLE) {
				dist[n] = dist[s] + 1;
				queue[tail++] = n;
			}
		}
	}
}

static bool compute_hops(struct router *rt)
{
	unsigned int d, *queue;

	rt->dist = malloc((size_t)rt->nsw * rt->nsw * sizeof(*rt->dist));
	queue = malloc(rt->nsw * sizeof(*queue));
	if (!rt->dist || !queue) {
		free(queue);
		return false;
	}
	for (d = 0; d < rt->nsw; d++)
		bfs(rt, d, queue);
	free(queue);
	return true;
}

static void check_partitions(struct router *rt)
{
	const unsigned int *dist = dist_of(rt, 0);
	unsigned int s;

	if (rt->flags & ROUTE_ALLOW_UNREACHABLE)
		return;
	for (s = 1; s < rt->nsw; s++)
		if (dist[s] == UNREACHABLE)
			rerror(rt, rt->sw[s]->line,
			       "switch \"%s\" cannot reach switch \"%s\" (line %u): the fabric is partitioned",
			       rt->sw[s]->name, rt->sw[0]->name, rt->sw[0]->line);
}

/* LIDs of the connected HCA ports, in file and port order. */
static bool collect_hcas(struct router *rt)
{
	const struct topo *t = rt->t;
	struct routes *r = rt->r;
	unsigned int i, p, before;

	r->hca = calloc(t->nlinks ? t->nlinks : 1, sizeof(*r->hca));
	if (!r->hca)
		return false;
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = t->node[i];

		if (n->type != TOPO_HCA)
			continue;
		before = r->nhcas;
		for (p = 1; p <= n->nports; p++) {
			unsigned int sw_port;
			struct topo_node *sw = topo_peer(n, p, &sw_port);
			struct route_hca *h;

			/* hca[] has a slot per link: fill one only for a link */
			if (!sw)
				continue;
			h = &r->hca[r->nhcas++];
			h->sw = sw;
			h->sw_port = sw_port;
			h->hca = n;
			h->port = p;
		}
		if (r->nhcas == before && !(rt->flags & ROUTE_ALLOW_UNREACHABLE))
			rerror(rt, n->line, "HCA \"%s\" is not connected to a switch", n->name);
	}
	return true;
}

static bool assign_lids(struct router *rt)
{
	struct routes *r = rt->r;
	unsigned long nlids = (unsigned long)rt->nsw + r->nhcas;
	unsigned int i;

	if (nlids > ROUTE_LID_MAX)
		return rerror(rt, 0, "too many LIDs (%lu, limit %u)", nlids, ROUTE_LID_MAX);
	r->top_lid = nlids;
	for (i = 0; i < rt->nsw; i++) {
		r->sw[i].sw = rt->sw[i];
		r->sw[i].lid = i + 1;
	}
	for (i = 0; i < r->nhcas; i++)
		r->hca[i].lid = rt->nsw + 1 + i;
	return true;
}

static bool alloc_tables(struct router *rt)
{
	struct routes *r = rt->r;
	unsigned int s, total = 0;

	rt->load_base = calloc(rt->nsw, sizeof(*rt->load_base));
	if (!rt->load_base)
		return false;
	for (s = 0; s < rt->nsw; s++) {
		rt->load_base[s] = total;
		total += rt->sw[s]->nports + 1;
		r->sw[s].lft = malloc(r->top_lid + 1);
		if (!r->sw[s].lft)
			return false;
		memset(r->sw[s].lft, ROUTE_NO_PORT, r->top_lid + 1);
	}
	rt->load = calloc(total, sizeof(*rt->load));
	return rt->load;
}

/*
 * The output port of switch s towards switch d: a port one hop closer to d,
 * the least loaded of them, the lowest numbered on a tie.
 */
static unsigned int next_hop(struct router *rt, unsigned int s, unsigned int d)
{
	const unsigned int *dist = dist_of(rt, d);
	const unsigned int *load = rt->load + rt->load_base[s];
	unsigned int p, n, best = ROUTE_NO_PORT;

	if (dist[s] == UNREACHABLE)
		return ROUTE_NO_PORT;
	for (p = 1; p <= rt->sw[s]->nports; p++) {
		n = peer_switch(rt, rt->sw[s], p);
		if (n == UINT_MAX || dist[n] + 1 != dist[s])
			continue;
		if (best == ROUTE_NO_PORT || load[p] < load[best])
			best = p;
	}
	return best;
}

/* Route lid, which sits behind port local_port of switch d, on every switch. */
static void route_lid_everywhere(struct router *rt, uint16_t lid, unsigned int d,
				 unsigned int local_port, bool count)
{
	unsigned int s, port;

	for (s = 0; s < rt->nsw; s++) {
		port = s == d ? local_port : next_hop(rt, s, d);
		rt->r->sw[s].lft[lid] = port;
		if (count && s != d && port != ROUTE_NO_PORT)
			rt->load[rt->load_base[s] + port]++;
	}
}

static void fill_lfts(struct router *rt)
{
	struct routes *r = rt->r;
	unsigned int i;

	for (i = 0; i < r->nhcas; i++)
		route_lid_everywhere(rt, r->hca[i].lid, rt->sw_num[r->hca[i].sw->index],
				     r->hca[i].sw_port, true);
	for (i = 0; i < rt->nsw; i++)
		route_lid_everywhere(rt, r->sw[i].lid, i, 0, false);
}

void routes_free(struct routes *routes)
{
	unsigned int i;

	if (!routes)
		return;
	if (routes->sw)
		for (i = 0; i < routes->nswitches; i++)
			free(routes->sw[i].lft);
	free(routes->sw);
	free(routes->hca);
	free(routes);
}

static bool route_all(struct router *rt)
{
	const struct topo *t = rt->t;
	struct routes *r = rt->r;

	if (!t->nswitches)
		return rerror(rt, 0, "no switches");
	if (!number_switches(rt))
		return false;
	r->nswitches = rt->nsw;
	r->sw = calloc(rt->nsw, sizeof(*r->sw));
	if (!r->sw || !compute_hops(rt))
		return false;
	check_partitions(rt);
	if (!collect_hcas(rt))
		return false;
	if (rt->errors || !assign_lids(rt))
		return false;
	if (!alloc_tables(rt))
		return false;
	fill_lfts(rt);
	return true;
}

int route_compute(const struct topo *topo, unsigned int flags,
		  struct routes **routes, struct topo_diag *diag)
{
	struct router rt = { .t = topo, .flags = flags, .diag = diag };
	int ret = 0;

	*routes = NULL;
	rt.r = calloc(1, sizeof(*rt.r));
	if (!rt.r)
		return -ENOMEM;
	if (!route_all(&rt))
		ret = rt.errors ? -EINVAL : -ENOMEM;
	topo_diag_finish(diag, topo->file);
	free(rt.sw);
	free(rt.sw_num);
	free(rt.dist);
	free(rt.load_base);
	free(rt.load);
	if (ret) {
		routes_free(rt.r);
		return ret;
	}
	*routes = rt.r;
	return 0;
}

const struct route_switch *route_switch_of(const struct routes *routes,
					   const struct topo_node *sw)
{
	unsigned int i;

	for (i = 0; i < routes->nswitches; i++)
		if (routes->sw[i].sw == sw)
			return &routes->sw[i];
	return NULL;
}

uint16_t route_lid(const struct routes *routes, const struct topo_node *node,
		   unsigned int port)
{
	const struct route_switch *rs;
	unsigned int i;

	if (node->type == TOPO_SWITCH) {
		rs = route_switch_of(routes, node);
		return rs ? rs->lid : 0;
	}
	for (i = 0; i < routes->nhcas; i++)
		if (routes->hca[i].hca == node && routes->hca[i].port == port)
			return routes->hca[i].lid;
	return 0;
}

/* What sits at a LID, for the dump. */
static void print_lid_owner(FILE *f, const struct routes *r, unsigned int lid)
{
	const struct route_hca *h;

	if (lid <= r->nswitches) {
		fprintf(f, "switch \"%s\"", r->sw[lid - 1].sw->name);
		return;
	}
	h = &r->hca[lid - r->nswitches - 1];
	fprintf(f, "HCA \"%s\"[%u]", h->hca->name, h->port);
}

void routes_print(FILE *f, const struct routes *r)
{
	unsigned int i, lid;

	for (i = 0; i < r->nswitches; i++)
		fprintf(f, "lid %u: switch \"%s\"\n", r->sw[i].lid, r->sw[i].sw->name);
	for (i = 0; i < r->nhcas; i++)
		fprintf(f, "lid %u: HCA \"%s\"[%u] on \"%s\"[%u]\n", r->hca[i].lid,
			r->hca[i].hca->name, r->hca[i].port, r->hca[i].sw->name,
			r->hca[i].sw_port);
	for (i = 0; i < r->nswitches; i++) {
		fprintf(f, "lft \"%s\":\n", r->sw[i].sw->name);
		for (lid = 1; lid <= r->top_lid; lid++) {
			if (r->sw[i].lft[lid] == ROUTE_NO_PORT)
				fprintf(f, "  lid %u none (", lid);
			else
				fprintf(f, "  lid %u port %u (", lid, r->sw[i].lft[lid]);
			print_lid_owner(f, r, lid);
			fprintf(f, ")\n");
		}
	}
}
