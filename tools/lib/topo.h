/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fabric topology model and parser.
 *
 * Reads the text format that ibnetdiscover prints and that ibsim's net files
 * use: Switch/Hca/Ca records, "[port] "peer"[port]" lines, optional link
 * width and speed. See README.md in this directory for the accepted syntax,
 * every error message and the limits.
 */
#ifndef IBSW_TOPO_H
#define IBSW_TOPO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Split so that checkpatch does not ask for __printf in its own definition. */
#ifndef __printf
#define __printf(a, b) __attribute__(\
	(format(printf, a, b)))
#endif

#define TOPO_NAME_MAX	64	/* bytes in a node name, as an IBA NodeDescription */
#define TOPO_PORTS_MAX	254	/* ports of a node; 255 means "no port" in an LFT */
#define TOPO_MAX_ERRORS	20	/* diagnostics kept; the parser gives up after that */
#define TOPO_IDENT_MAX	10	/* bytes in a derived identifier, see topo_ident_valid() */
#define TOPO_BPS_MAX	1200000000000ULL	/* 12x NDR, the fastest link: topo_parse_bps() */
#define TOPO_MACHINE_MAX	64	/* bytes in a machine name, see topo_machine_valid() */

enum topo_node_type {
	TOPO_SWITCH,
	TOPO_HCA,
};

/* Link speeds. TOPO_SPEED_UNSET: the file did not say. */
enum topo_speed {
	TOPO_SPEED_UNSET,
	TOPO_SPEED_SDR,
	TOPO_SPEED_DDR,
	TOPO_SPEED_QDR,
	TOPO_SPEED_FDR10,
	TOPO_SPEED_FDR,
	TOPO_SPEED_EDR,
	TOPO_SPEED_HDR,
	TOPO_SPEED_NDR,
};

struct topo_node;

/*
 * A cable between two ports. end 0 is the port whose line was read first.
 * width is the number of lanes (1, 4, 8 or 12), 0 when the file did not say.
 */
struct topo_link {
	struct topo_node *node[2];
	unsigned int port[2];
	unsigned int width;
	enum topo_speed speed;
	unsigned int line[2];	/* line listing it from end i; 0: not listed there */
};

struct topo_port {
	struct topo_link *link;	/* NULL: not connected */
	uint64_t guid;		/* from "[p](guid)", 0 when not given */
	uint64_t inject_bps;	/* an HCA port's inject=, bit/s; 0 when not given */
};

struct topo_node {
	enum topo_node_type type;
	char *name;
	char *desc;		/* first quoted string of the header's comment, or NULL */
	char ident[TOPO_IDENT_MAX + 1];	/* see topo_ident_valid() */
	unsigned int nports;
	unsigned int line;	/* of the Switch/Hca/Ca line */
	unsigned int index;	/* position in the file, from 0 */
	uint64_t guid;		/* switchguid= or caguid= before the record, or 0 */
	uint64_t sysimgguid;
	uint32_t vendid;
	uint32_t devid;
	/*
	 * The machine the node is on: ibsw's setting machine= before its
	 * record, or for an HCA without one its switches'. NULL in a file
	 * that names no machine. Points into topo->machine[].
	 */
	const char *machine;
	unsigned int machine_line;	/* of its machine= line; 0: none (inherited) */
	struct topo_port *port;	/* port[1..nports]; port[0] is unused */
};

struct topo {
	char *file;
	unsigned int nnodes;
	unsigned int nswitches;
	unsigned int nhcas;
	unsigned int nlinks;
	struct topo_node **node;	/* in file order */
	struct topo_link **link;	/* in the order of the line first listing them */
	struct topo_node **by_name;	/* sorted by name, for topo_find() */
	unsigned int nmachines;
	char **machine;		/* the machines named, in the order of their first machine= */
};

/* Error messages, "FILE:LINE: reason" (or "FILE: reason"), sorted by line. */
struct topo_diag {
	unsigned int count;
	bool truncated;		/* more errors than TOPO_MAX_ERRORS */
	struct topo_msg {
		unsigned int line;	/* 0: not about one line */
		char *text;
	} msg[TOPO_MAX_ERRORS + 1];	/* + "too many errors" */
};

/*
 * Parse a topology. On success return 0 and set *topo. On failure return
 * -EINVAL (errors in the text), -ENOMEM or another negative errno (I/O), with
 * the reasons in *diag, which the caller releases with topo_diag_free().
 * name is used in messages.
 */
int topo_parse_file(const char *path, struct topo **topo, struct topo_diag *diag);
int topo_parse_stream(FILE *f, const char *name, struct topo **topo,
		      struct topo_diag *diag);
int topo_parse_string(const char *text, const char *name, struct topo **topo,
		      struct topo_diag *diag);
void topo_free(struct topo *topo);

void topo_diag_init(struct topo_diag *diag);
void topo_diag_free(struct topo_diag *diag);
void topo_diag_print(FILE *f, const struct topo_diag *diag);
/*
 * For route.c and later passes: append a message (false once full), and
 * finish the list (sort it by line; close it with "too many errors" if some
 * were dropped).
 */
bool topo_diag_add(struct topo_diag *diag, const char *file, unsigned int line,
		   const char *fmt, ...) __printf(4, 5);
void topo_diag_finish(struct topo_diag *diag, const char *file);

struct topo_node *topo_find(const struct topo *topo, const char *name);

/* The node and port at the other end of node's port, or NULL. */
struct topo_node *topo_peer(const struct topo_node *node, unsigned int port,
			    unsigned int *peer_port);

const char *topo_type_name(enum topo_node_type type);	/* "switch", "HCA" */
const char *topo_speed_name(enum topo_speed speed);	/* "QDR", "" if unset */

/*
 * Parse a link rate as ibnetdiscover prints it, e.g. "4xQDR". Widths 1x, 4x,
 * 8x, 12x; speeds SDR DDR QDR FDR10 FDR EDR HDR NDR. Returns 0 or -EINVAL.
 */
int topo_parse_rate(const char *s, unsigned int *width, enum topo_speed *speed);

/*
 * Parse a rate in bit/s as ibsw's port option inject= gives it, and ibswctl
 * takes it: the len bytes at s are decimal digits with an optional suffix k,
 * M or G (10^3, 10^6, 10^9), e.g. "13G", "1625M", "13000000000". Returns 0
 * (*bps may be 0), -EINVAL if s is not of that form, or -ERANGE above
 * TOPO_BPS_MAX.
 */
int topo_parse_bps(const char *s, size_t len, uint64_t *bps);

/*
 * A safe identifier for names the fabric builder derives (network namespace,
 * netdev prefix): 1 to TOPO_IDENT_MAX characters from [A-Za-z0-9_-], the first
 * one a letter or digit. Such a name is its own identifier; any other name
 * gets "s<N>" (switches) or "h<N>" (HCAs), N counting that type from 1 in file
 * order. The parser fills topo_node.ident and rejects collisions.
 */
bool topo_ident_valid(const char *s);

/*
 * A machine name, as ibsw's setting machine= and "ibswctl fabric up ...
 * machine NAME" take it: 1 to TOPO_MACHINE_MAX characters from
 * [A-Za-z0-9_.-], the first one a letter or digit (a host name fits).
 */
bool topo_machine_valid(const char *s);

/* The topology's machine of that name (its topo->machine[] entry), or NULL */
const char *topo_find_machine(const struct topo *topo, const char *name);

#endif /* IBSW_TOPO_H */
