// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the topology parser, and the routing of every topology
 * it accepts (tools/lib/README.md, "Fuzzing").
 *
 * Besides what ASan and UBSan catch, it checks what ibswctl relies on:
 *  - a refused file comes with at least one message, each "NAME:LINE: ..."
 *    with a line of the input, or "NAME: ..." about no line;
 *  - an accepted topology is consistent: every link is known at both of
 *    its ports, every node is found by its name; with machines (machine=),
 *    every switch is on one of them and every host on its switches';
 *  - routes stay within their ranges, and when every LID is reachable,
 *    following the LFTs from any switch to any HCA port's LID ends at that
 *    port in fewer hops than there are switches.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../route.h"
#include "../topo.h"
#include "fuzz.h"

#define NAME	"fuzz.topo"

static void need(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "topo_fuzz: broken invariant: %s\n", what);
		abort();
	}
}

static unsigned int count_lines(const uint8_t *data, size_t size)
{
	unsigned int n = 1;
	size_t i;

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

static void check_refused(const struct topo_diag *diag, unsigned int lines)
{
	unsigned int i;

	need(diag->count > 0, "a refused topology has a message");
	for (i = 0; i < diag->count; i++) {
		need(!!diag->msg[i].text, "message text");
		need(!strncmp(diag->msg[i].text, NAME ":", strlen(NAME ":")),
		     "a message starts with the file's name");
		need(diag->msg[i].line <= lines, "a message's line is in the file");
	}
}

/* machine=: the names are valid and kept once; switches and their hosts agree */
static void check_machines(const struct topo *t)
{
	unsigned int i, p;

	for (i = 0; i < t->nmachines; i++) {
		need(topo_machine_valid(t->machine[i]), "a machine's name is valid");
		need(topo_find_machine(t, t->machine[i]) == t->machine[i],
		     "a machine is kept once");
	}
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = t->node[i], *peer;

		need(!n->machine || topo_find_machine(t, n->machine) == n->machine,
		     "a node's machine is one of the topology's");
		need(!t->nmachines == !n->machine || n->type == TOPO_HCA,
		     "with machines, every switch is on one");
		if (n->type != TOPO_HCA)
			continue;
		for (p = 1; p <= n->nports; p++) {
			peer = topo_peer(n, p, NULL);
			need(!peer || peer->type != TOPO_SWITCH || peer->machine == n->machine,
			     "a host is on its switches' machine");
		}
	}
}

static void check_topo(const struct topo *t)
{
	unsigned int i, p, e;

	need(t->nnodes == t->nswitches + t->nhcas, "node counts");
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = t->node[i];

		need(n->name && topo_find(t, n->name) == n, "found by name");
		need(n->nports >= 1 && n->nports <= TOPO_PORTS_MAX, "port count");
		for (p = 1; p <= n->nports; p++) {
			const struct topo_link *l = n->port[p].link;

			if (!l)
				continue;
			need((l->node[0] == n && l->port[0] == p) ||
			     (l->node[1] == n && l->port[1] == p),
			     "a port's link has the port at one end");
		}
	}
	for (i = 0; i < t->nlinks; i++) {
		const struct topo_link *l = t->link[i];

		for (e = 0; e < 2; e++) {
			need(l->port[e] >= 1 && l->port[e] <= l->node[e]->nports,
			     "a link's port is on its node");
			need(l->node[e]->port[l->port[e]].link == l,
			     "a link is known at both ports");
		}
	}
	check_machines(t);
}

/* Follow the LFTs from switch i to the LID of HCA port h */
static void check_path(const struct topo *t, const struct routes *r,
		       unsigned int i, const struct route_hca *h)
{
	const struct topo_node *node = r->sw[i].sw;
	unsigned int hops, port, peer_port;

	for (hops = 0; hops <= t->nswitches; hops++) {
		const struct route_switch *rs = route_switch_of(r, node);

		need(!!rs, "a switch on the path has routes");
		port = rs->lft[h->lid];
		need(port != ROUTE_NO_PORT && port != 0,
		     "every switch has a port towards a reachable HCA");
		node = topo_peer(node, port, &peer_port);
		need(!!node, "the LFT's port is cabled");
		if (node->type == TOPO_HCA) {
			need(node == h->hca && peer_port == h->port,
			     "the path ends at the LID's HCA port");
			return;
		}
	}
	need(0, "the path is shorter than the number of switches");
}

static void check_routes(const struct topo *t, const struct routes *r,
			 unsigned int flags)
{
	unsigned int i, l, h;

	need(r->top_lid <= ROUTE_LID_MAX, "LIDs are unicast");
	need(r->nswitches == t->nswitches, "every switch is routed");
	for (i = 0; i < r->nswitches; i++) {
		need(r->sw[i].lid == i + 1, "switch LIDs first, in file order");
		for (l = 1; l <= r->top_lid; l++)
			need(r->sw[i].lft[l] == ROUTE_NO_PORT ||
			     r->sw[i].lft[l] <= r->sw[i].sw->nports,
			     "an LFT entry is a port of its switch");
	}
	for (h = 0; h < r->nhcas; h++) {
		need(r->hca[h].lid > r->nswitches && r->hca[h].lid <= r->top_lid,
		     "HCA LIDs after the switches'");
		if (flags & ROUTE_ALLOW_UNREACHABLE)
			continue;
		for (i = 0; i < r->nswitches; i++)
			check_path(t, r, i, &r->hca[h]);
	}
}

static void route_one(const struct topo *t, unsigned int flags)
{
	struct topo_diag diag;
	struct routes *r = NULL;
	int ret;

	topo_diag_init(&diag);
	ret = route_compute(t, flags, &r, &diag);
	if (ret) {
		need(ret == -EINVAL || ret == -ENOMEM, "route_compute's errors");
		if (ret == -EINVAL)
			need(diag.count > 0, "refused routes have a message");
	} else {
		check_routes(t, r, flags);
		routes_free(r);
	}
	topo_diag_free(&diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct topo_diag diag;
	struct topo *t = NULL;
	FILE *f;
	int ret;

	/* a stream, so that NUL bytes reach the parser too */
	f = size ? fmemopen((void *)data, size, "r") : NULL;
	topo_diag_init(&diag);
	ret = f ? topo_parse_stream(f, NAME, &t, &diag) :
		  topo_parse_string("", NAME, &t, &diag);
	if (f)
		fclose(f);
	if (ret) {
		need(!t, "no topology on error");
		if (ret == -EINVAL)
			check_refused(&diag, count_lines(data, size));
	} else {
		check_topo(t);
		route_one(t, 0);
		route_one(t, ROUTE_ALLOW_UNREACHABLE);
		topo_free(t);
	}
	topo_diag_free(&diag);
	return 0;
}
