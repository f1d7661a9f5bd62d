/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LID assignment and min-hop unicast routing over a parsed topology: the part
 * of a subnet manager's job that the fabric builder does. Rules (README.md):
 *
 * LIDs, from 1: every switch in file order (one LID per switch, its port 0),
 * then every connected HCA port: HCAs in file order, ports in ascending order.
 *
 * LFTs: for every switch and every LID, the output port on a path of minimum
 * switch hops to the LID's switch. Among several such ports (parallel links,
 * equal-cost paths) the switch takes the one that carries the fewest HCA LIDs
 * so far, the lowest port number on a tie, HCA LIDs in ascending order first,
 * then switch LIDs (which do not count as load).
 */
#ifndef IBSW_ROUTE_H
#define IBSW_ROUTE_H

#include <stdint.h>
#include <stdio.h>

#include "topo.h"

#define ROUTE_NO_PORT	255	/* LFT entry: no route, drop */
#define ROUTE_LID_MAX	0xbfff	/* highest unicast LID */

/* Flags of route_compute() */
enum {
	/*
	 * Unconnected HCAs and switches that cannot reach each other are
	 * errors by default. With this flag an unconnected HCA gets no LID and
	 * an unreachable LID gets ROUTE_NO_PORT.
	 */
	ROUTE_ALLOW_UNREACHABLE = 1 << 0,
};

/* A connected HCA port and where it attaches. */
struct route_hca {
	const struct topo_node *hca;
	unsigned int port;
	uint16_t lid;
	const struct topo_node *sw;
	unsigned int sw_port;
};

struct route_switch {
	const struct topo_node *sw;
	uint16_t lid;
	uint8_t *lft;		/* lft[1..top_lid]: output port; 0: the switch itself */
};

struct routes {
	uint16_t top_lid;		/* highest LID assigned */
	unsigned int nswitches;
	struct route_switch *sw;	/* file order; sw[i].lid == i + 1 */
	unsigned int nhcas;
	struct route_hca *hca;		/* LID order */
};

/*
 * Assign LIDs and compute every switch's LFT. The result points into topo,
 * which must outlive it. Returns 0 and sets *routes, or
 * -EINVAL with the reasons in *diag ("FILE:LINE: reason", the line of the node
 * concerned), or -ENOMEM.
 */
int route_compute(const struct topo *topo, unsigned int flags,
		  struct routes **routes, struct topo_diag *diag);
void routes_free(struct routes *routes);

const struct route_switch *route_switch_of(const struct routes *routes,
					   const struct topo_node *sw);
/* LID of a switch (port ignored) or of an HCA port; 0 if it has none. */
uint16_t route_lid(const struct routes *routes, const struct topo_node *node,
		   unsigned int port);

/* Text dump: LIDs, then each switch's LFT; used by the tests. */
void routes_print(FILE *f, const struct routes *routes);

#endif /* IBSW_ROUTE_H */
