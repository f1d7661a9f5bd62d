// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the topology parser (topo.c): both formats on the testbeds,
 * every malformed fixture (bad-*.topo, messages in bad-*.expect), the rate,
 * option (ibsw's inject= too) and identifier rules, and ibsw's machine=.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One expected cable: a[pa] - b[pb], rate, listed from both ends or not. */
struct want_link {
	const char *a;
	unsigned int pa;
	const char *b;
	unsigned int pb;
	unsigned int width;
	enum topo_speed speed;
	bool both_ends;
};

static void check_links(const struct topo *t, const struct want_link *want, size_t n)
{
	size_t i;

	assert_int_equal(t->nlinks, n);
	for (i = 0; i < n; i++) {
		const struct topo_link *l = t->link[i];

		assert_string_equal(l->node[0]->name, want[i].a);
		assert_int_equal(l->port[0], want[i].pa);
		assert_string_equal(l->node[1]->name, want[i].b);
		assert_int_equal(l->port[1], want[i].pb);
		assert_int_equal(l->width, want[i].width);
		assert_int_equal(l->speed, want[i].speed);
		assert_int_equal(l->line[1] != 0, want[i].both_ends);
		assert_ptr_equal(l->node[0]->port[l->port[0]].link, l);
		assert_ptr_equal(l->node[1]->port[l->port[1]].link, l);
	}
}

#define DDR TOPO_SPEED_DDR
#define QDR TOPO_SPEED_QDR
#define SDR TOPO_SPEED_SDR

static void parse_seed002_ibsim(void **state)
{
	static const struct want_link want[] = {
		{ "S1", 1, "H1", 1, 4, DDR, true },
		{ "S1", 2, "H2", 1, 4, DDR, true },
		{ "S1", 3, "H3", 1, 4, DDR, true },
		{ "S1", 4, "S2", 5, 4, QDR, true },
		{ "S2", 1, "H4", 1, 4, DDR, true },
		{ "S2", 2, "H5", 1, 4, DDR, true },
		{ "S2", 3, "H6", 1, 4, DDR, true },
		{ "S2", 4, "H7", 1, 4, DDR, true },
	};
	static const char *const names[] = {
		"S1", "S2", "H1", "H2", "H3", "H4", "H5", "H6", "H7",
	};
	struct topo *t = parse_file_ok("seed002.net");
	unsigned int i;

	(void)state;
	assert_string_equal(t->file, "seed002.net");
	assert_int_equal(t->nnodes, 9);
	assert_int_equal(t->nswitches, 2);
	assert_int_equal(t->nhcas, 7);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		assert_string_equal(t->node[i]->name, names[i]);
		assert_string_equal(t->node[i]->ident, names[i]);
		assert_int_equal(t->node[i]->index, i);
		assert_int_equal(t->node[i]->type, i < 2 ? TOPO_SWITCH : TOPO_HCA);
		assert_int_equal(t->node[i]->nports, i < 2 ? 36 : 1);
		assert_null(t->node[i]->desc);
		/* the hosts' inject=13G; switch ports have none */
		assert_true(t->node[i]->port[1].inject_bps == (i < 2 ? 0 : 13000000000ULL));
	}
	assert_int_equal(t->node[0]->line, 13);
	assert_int_equal(t->node[1]->line, 19);
	check_links(t, want, ARRAY_SIZE(want));
	topo_free(t);
}

static void parse_seed002_ibnetdiscover(void **state)
{
	static const struct want_link want[] = {
		{ "S-0002c90000000010", 1, "H-0002c90300000101", 1, 4, DDR, true },
		{ "S-0002c90000000010", 2, "H-0002c90300000201", 1, 4, DDR, true },
		{ "S-0002c90000000010", 3, "H-0002c90300000301", 1, 4, DDR, true },
		{ "S-0002c90000000010", 4, "S-0002c90000000020", 5, 4, QDR, true },
		{ "S-0002c90000000020", 1, "H-0002c90300000401", 1, 4, DDR, true },
		{ "S-0002c90000000020", 2, "H-0002c90300000501", 1, 4, DDR, true },
		{ "S-0002c90000000020", 3, "H-0002c90300000601", 1, 4, DDR, true },
		{ "S-0002c90000000020", 4, "H-0002c90300000701", 1, 4, DDR, true },
	};
	struct topo *t = parse_file_ok("seed002.ibnd");
	const struct topo_node *s1, *h1;

	(void)state;
	assert_int_equal(t->nswitches, 2);
	assert_int_equal(t->nhcas, 7);
	check_links(t, want, ARRAY_SIZE(want));
	s1 = t->node[0];
	assert_string_equal(s1->desc, "S1");
	/* the NodeDescription names the node: a switch's all, a CA's first word */
	assert_string_equal(s1->ident, "S1");
	assert_true(s1->guid == 0x2c90000000010ULL);
	assert_true(s1->sysimgguid == 0x2c90000000010ULL);
	assert_int_equal(s1->vendid, 0x2c9);
	assert_int_equal(s1->devid, 0xbd36);
	h1 = t->node[2];
	assert_string_equal(h1->name, "H-0002c90300000101");
	assert_string_equal(h1->desc, "H1 mlx4_0");
	assert_string_equal(h1->ident, "H1");
	assert_string_equal(t->node[8]->ident, "H7");
	assert_true(h1->guid == 0x2c90300000101ULL);
	assert_true(h1->sysimgguid == 0x2c90300000103ULL);
	assert_int_equal(h1->devid, 0x673c);
	assert_true(h1->port[1].guid == 0x2c90300000102ULL);
	assert_true(s1->port[1].guid == 0);
	topo_free(t);
}

/* The same testbed in both formats: the same nodes, ports and cables. */
static void parse_formats_agree(void **state)
{
	struct topo *a = parse_file_ok("seed002.net");
	struct topo *b = parse_file_ok("seed002.ibnd");
	unsigned int i, p, qa, qb;

	(void)state;
	assert_int_equal(a->nnodes, b->nnodes);
	assert_int_equal(a->nlinks, b->nlinks);
	for (i = 0; i < a->nnodes; i++) {
		const struct topo_node *na = a->node[i], *nb = b->node[i];

		assert_int_equal(na->type, nb->type);
		assert_int_equal(na->nports, nb->nports);
		for (p = 1; p <= na->nports; p++) {
			const struct topo_node *pa = topo_peer(na, p, &qa);
			const struct topo_node *pb = topo_peer(nb, p, &qb);

			assert_int_equal(!pa, !pb);
			if (!pa)
				continue;
			assert_int_equal(pa->index, pb->index);
			assert_int_equal(qa, qb);
			assert_int_equal(na->port[p].link->width, nb->port[p].link->width);
			assert_int_equal(na->port[p].link->speed, nb->port[p].link->speed);
			assert_true(na->port[p].inject_bps == nb->port[p].inject_bps);
		}
	}
	topo_free(a);
	topo_free(b);
}

static void parse_dcms(void **state)
{
	static const struct want_link want[] = {
		{ "S1", 11, "X", 1, 4, SDR, false },
		{ "S1", 12, "A", 1, 4, SDR, false },
		{ "S1", 15, "S2", 20, 4, QDR, true },
		{ "S2", 21, "B", 1, 4, SDR, false },
		{ "S2", 22, "C", 1, 4, SDR, false },
		{ "S2", 23, "D", 1, 4, SDR, false },
		{ "S2", 24, "Y", 1, 4, SDR, false },
	};
	struct topo *t = parse_file_ok("dcms.topo");
	const struct topo_node *x = topo_find(t, "X");
	unsigned int q;

	(void)state;
	assert_int_equal(t->nswitches, 2);
	assert_int_equal(t->nhcas, 6);
	check_links(t, want, ARRAY_SIZE(want));
	assert_non_null(x);
	assert_int_equal(x->nports, 2);
	assert_string_equal(topo_peer(x, 1, &q)->name, "S1");
	assert_int_equal(q, 11);
	assert_null(topo_peer(x, 2, NULL));
	assert_null(topo_peer(x, 3, NULL));
	assert_null(topo_find(t, "Z"));
	topo_free(t);
}

static void parse_fattree(void **state)
{
	struct topo *t = parse_file_ok("fattree.topo");
	const struct topo_node *l1 = topo_find(t, "L1"), *sp1 = topo_find(t, "SP1");
	unsigned int p, q, to_sp1 = 0;

	(void)state;
	assert_int_equal(t->nswitches, 4);
	assert_int_equal(t->nhcas, 8);
	assert_int_equal(t->nlinks, 16);
	for (p = 1; p <= l1->nports; p++)
		if (topo_peer(l1, p, &q) == sp1) {
			to_sp1++;
			assert_int_equal(q, p - 4);	/* L1[5]-SP1[1], L1[6]-SP1[2] */
			assert_int_equal(l1->port[p].link->speed, TOPO_SPEED_EDR);
		}
	assert_int_equal(to_sp1, 2);
	topo_free(t);
}

static void parse_ring(void **state)
{
	static const struct want_link want[] = {
		{ "R1", 1, "H1", 1, 0, TOPO_SPEED_UNSET, false },
		{ "R1", 2, "R2", 3, 0, TOPO_SPEED_UNSET, false },
		{ "R2", 1, "H2", 1, 0, TOPO_SPEED_UNSET, false },
		{ "R2", 2, "R3", 3, 0, TOPO_SPEED_UNSET, false },
		{ "R3", 1, "H3", 1, 0, TOPO_SPEED_UNSET, false },
		{ "R3", 2, "R4", 3, 0, TOPO_SPEED_UNSET, false },
		{ "R4", 1, "H4", 1, 0, TOPO_SPEED_UNSET, false },
		{ "R4", 2, "R1", 3, 0, TOPO_SPEED_UNSET, false },
	};
	struct topo *t = parse_file_ok("ring4.topo");

	(void)state;
	check_links(t, want, ARRAY_SIZE(want));
	topo_free(t);
}

/* ibnetdiscover -g -f decorations and the faster rates. */
static void parse_ibnetdiscover_extras(void **state)
{
	static const struct want_link want[] = {
		{ "S-0002c90000000101", 1, "S-0002c90000000201", 35, 12, TOPO_SPEED_FDR, true },
		{ "S-0002c90000000101", 2, "S-0002c90000000201", 36, 8, TOPO_SPEED_FDR10, true },
		{ "S-0002c90000000201", 1, "H-0002c90300000a01", 1, 4, TOPO_SPEED_HDR, true },
		{ "S-0002c90000000201", 2, "H-0002c90300000a01", 2, 4, TOPO_SPEED_NDR, true },
		{ "S-0002c90000000201", 3, "H-0002c90300000b01", 1, 1, TOPO_SPEED_EDR, true },
	};
	struct topo *t = parse_file_ok("extras.ibnd");

	(void)state;
	check_links(t, want, ARRAY_SIZE(want));
	assert_string_equal(t->node[0]->desc, "spine");
	assert_true(t->node[0]->sysimgguid == 0x2c90000000100ULL);
	assert_true(t->node[2]->port[2].guid == 0x2c90300000a03ULL);
	assert_null(topo_peer(t->node[3], 2, NULL));
	topo_free(t);
}

/*
 * An ibsw fabric as ibnetdiscover prints it: names from the NodeDescriptions
 * (a switch's whole, a CA's first word), the management HCA's devid kept.
 */
static void parse_ibsw_discovered(void **state)
{
	static const struct want_link want[] = {
		{ "S-02b5de0000010000", 1, "H-001b00fffe000003", 1, 4, DDR, true },
		{ "S-02b5de0000010000", 3, "H-02b5de0000010103", 1, 4, QDR, true },
		{ "S-02b5de0000010000", 4, "S-02b5de0000020000", 4, 4, QDR, true },
		{ "S-02b5de0000020000", 1, "H-001b00fffe000004", 1, 1, SDR, true },
	};
	static const char *const idents[] = { "S1", "S2", "H2", "H1", "M1" };
	struct topo *t = parse_file_ok("ibsw-sm.ibnd");
	unsigned int i;

	(void)state;
	check_links(t, want, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(idents); i++)
		assert_string_equal(t->node[i]->ident, idents[i]);
	assert_string_equal(t->node[4]->desc, "M1 ibsw_mgmt0");
	assert_int_equal(t->node[4]->devid, 0x1b5e);
	assert_int_equal(t->node[3]->devid, 0x1b5f);
	assert_true(t->node[4]->guid == 0x2b5de0000010103ULL);
	assert_true(t->node[4]->port[1].guid == 0x2b5de0000010103ULL);
	topo_free(t);
}

/*
 * A description that is no identifier, or one an earlier node took (two
 * CAs of one host), leaves the node its derived identifier.
 */
static void parse_desc_idents(void **state)
{
	static const char text[] =
		"Switch 3 \"S-0000000000000001\" # \"leaf one\" base port 0 lid 1 lmc 0\n"
		"[1] \"H-0000000000000002\"[1]\n"
		"[2] \"H-0000000000000003\"[1]\n"
		"[3] \"H-0000000000000004\"[1]\n"
		"\n"
		"Ca 1 \"H-0000000000000002\" # \"node7 mlx5_0\"\n"
		"Ca 1 \"H-0000000000000003\" # \"node7 mlx5_1\"\n"
		"Ca 1 \"H-0000000000000004\" # \"a-very-long-hostname mlx5_0\"\n";
	struct topo *t = parse_text_ok(text);

	(void)state;
	assert_string_equal(t->node[0]->ident, "s1");
	assert_string_equal(t->node[1]->ident, "node7");
	assert_string_equal(t->node[2]->ident, "h2");
	assert_string_equal(t->node[3]->ident, "h3");
	topo_free(t);
}

/* Comments anywhere, blank lines of blanks, CRLF, no final newline. */
static void parse_layout(void **state)
{
	static const char text[] =
		"# leading comment\r\n"
		"   \t\r\n"
		"Switch 4 \"S 1\"   # \"a switch\"\r\n"
		"# a comment inside the record\r\n"
		"   [1]   \"H#1\"[1]  # 4xQDR, \"quoted 1xSDR is skipped\"\r\n"
		"\t[2]\"H2\"\r\n"
		"\r\n"
		"Hca 1 \"H#1\"\n"
		"Ca 1 \"H2\"";
	struct topo *t = parse_text_ok(text);
	const struct topo_node *s = t->node[0];
	unsigned int q;

	(void)state;
	assert_string_equal(s->name, "S 1");
	assert_string_equal(s->desc, "a switch");
	assert_string_equal(s->ident, "s1");		/* "S 1" is no identifier */
	assert_string_equal(t->node[1]->ident, "h1");
	assert_string_equal(t->node[2]->ident, "H2");
	assert_string_equal(topo_peer(s, 1, &q)->name, "H#1");
	assert_int_equal(q, 1);
	assert_int_equal(s->port[1].link->width, 4);
	assert_int_equal(s->port[1].link->speed, TOPO_SPEED_QDR);
	/* ibsim: a missing peer port means port 1 */
	assert_string_equal(topo_peer(s, 2, &q)->name, "H2");
	assert_int_equal(q, 1);
	assert_int_equal(s->port[2].link->width, 0);
	topo_free(t);
}

static void parse_empty(void **state)
{
	struct topo *t = parse_text_ok("");

	(void)state;
	assert_int_equal(t->nnodes, 0);
	assert_null(topo_find(t, "S1"));
	topo_free(t);
	t = parse_text_ok("# only a comment\n\n");
	assert_int_equal(t->nnodes, 0);
	topo_free(t);
}

/* No line length limit: a 200 KB comment on a port line. */
static void parse_long_line(void **state)
{
	static const char head[] = "Switch 2 \"S1\"\n[1] \"H1\"[1] # ";
	static const char tail[] = " 4xEDR\nHca 1 \"H1\"\n";
	size_t n = 200 * 1024;
	char *text = malloc(sizeof(head) - 1 + n + sizeof(tail));
	struct topo *t;

	(void)state;
	assert_non_null(text);
	memcpy(text, head, sizeof(head) - 1);
	memset(text + sizeof(head) - 1, 'y', n);
	memcpy(text + sizeof(head) - 1 + n, tail, sizeof(tail));
	t = parse_text_ok(text);
	assert_int_equal(t->link[0]->speed, TOPO_SPEED_EDR);
	topo_free(t);
	free(text);
}

/* A name of exactly TOPO_NAME_MAX bytes is fine. */
static void parse_name_limit(void **state)
{
	char text[256], name[TOPO_NAME_MAX + 2];
	struct topo *t;
	char *msgs;

	(void)state;
	memset(name, 'n', TOPO_NAME_MAX);
	name[TOPO_NAME_MAX] = '\0';
	snprintf(text, sizeof(text), "Switch 1 \"%s\"\n", name);
	t = parse_text_ok(text);
	assert_string_equal(t->node[0]->name, name);
	assert_string_equal(t->node[0]->ident, "s1");
	topo_free(t);
	strcat(name, "n");
	snprintf(text, sizeof(text), "Switch 1 \"%s\"\n", name);
	msgs = parse_text_errors(text);
	assert_string_equal(msgs, "t:1: node name too long (65 bytes, limit 64)\n");
	free(msgs);
}

static void parse_nul_byte(void **state)
{
	static const char text[] = "Switch 1 \"S1\"\n[1] \"H\0\"[1]\n";
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct topo_diag diag;
	struct topo *t;
	char *msgs;

	(void)state;
	assert_non_null(f);
	topo_diag_init(&diag);
	assert_int_equal(topo_parse_stream(f, "nul", &t, &diag), -EINVAL);
	fclose(f);
	msgs = diag_text(&diag);
	assert_string_equal(msgs, "nul:2: NUL byte in line\n");
	free(msgs);
	topo_diag_free(&diag);
}

static void parse_missing_file(void **state)
{
	struct topo_diag diag;
	struct topo *t;
	char *msgs;

	(void)state;
	topo_diag_init(&diag);
	assert_int_equal(topo_parse_file("no-such.topo", &t, &diag), -ENOENT);
	assert_null(t);
	msgs = diag_text(&diag);
	assert_string_equal(msgs, "no-such.topo: cannot open: No such file or directory\n");
	free(msgs);
	topo_diag_free(&diag);
}

/* ibsim options are IBA "enabled" masks: the highest lane count/speed wins. */
static void parse_option_masks(void **state)
{
	static const struct {
		const char *opts;
		unsigned int width;
		enum topo_speed speed;
	} cases[] = {
		{ "w=1", 1, TOPO_SPEED_UNSET },
		{ "w=2 s=1", 4, TOPO_SPEED_SDR },
		{ "w=3 s=3", 4, TOPO_SPEED_DDR },		/* 1x|4x, SDR|DDR */
		{ "w=0x8 s=0x7", 12, TOPO_SPEED_QDR },
		{ "w=18 s=4", 4, TOPO_SPEED_QDR },		/* 2x|4x: 4x */
		{ "w=4 e=1", 8, TOPO_SPEED_FDR },
		{ "s=7 e=3", 0, TOPO_SPEED_EDR },		/* extended speeds win */
		{ "e=15", 0, TOPO_SPEED_NDR },
		{ "e=4 w=2", 4, TOPO_SPEED_HDR },
		{ "e=0 s=2", 0, TOPO_SPEED_DDR },
		{ "w=2 s=4 # 4xQDR", 4, TOPO_SPEED_QDR },	/* agreeing comment */
		{ "w=2 # \"x\" lid 3 4xSDR", 4, TOPO_SPEED_SDR },
	};
	char text[128];
	struct topo *t;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(text, sizeof(text), "Switch 2 \"S1\"\n[1] \"H1\"[1] %s\nHca 1 \"H1\"\n",
			 cases[i].opts);
		t = parse_text_ok(text);
		assert_int_equal(t->link[0]->width, cases[i].width);
		assert_int_equal(t->link[0]->speed, cases[i].speed);
		topo_free(t);
	}
}

/*
 * ibsw's inject= on an HCA's port line: the port's injection rate, bit/s
 * with an optional k, M or G, among the ibsim options, in either format.
 */
static void parse_inject(void **state)
{
	static const char text[] =
		"Switch 8 \"S1\"\n[1] \"H1\"[1] w=2 s=2\n[2] \"H1\"[2]\n[3] \"H2\"[1]\n\n"
		"Hca 2 \"H1\"\n[1] \"S1\"[1] inject=13G w=2\n[2] \"S1\"[2]\tinject=1625M # 1xSDR\n\n"
		"Ca 1 \"H2\"\n[1](2c90300000102) \"S1\"[3]\tinject=13000000000\t# lid 3 4xDDR\n\n"
		"Hca 1 \"H3\"\n[1] \"S1\"[4] inject=1k inject=2k\n";
	struct topo *t = parse_text_ok(text);
	const struct topo_node *s1 = topo_find(t, "S1"), *h1 = topo_find(t, "H1");
	unsigned int p;

	(void)state;
	assert_true(h1->port[1].inject_bps == 13000000000ULL);
	assert_true(h1->port[2].inject_bps == 1625000000ULL);
	assert_int_equal(h1->port[1].link->width, 4);
	assert_int_equal(h1->port[2].link->width, 1);
	assert_true(topo_find(t, "H2")->port[1].inject_bps == 13000000000ULL);
	assert_true(topo_find(t, "H2")->port[1].guid == 0x2c90300000102ULL);
	assert_int_equal(topo_find(t, "H2")->port[1].link->speed, TOPO_SPEED_DDR);
	/* given twice: the last one */
	assert_true(topo_find(t, "H3")->port[1].inject_bps == 2000);
	for (p = 1; p <= s1->nports; p++)
		assert_true(s1->port[p].inject_bps == 0);
	topo_free(t);
}

/* Only an HCA's port line takes inject=; the message names the option. */
static void parse_inject_on_switch(void **state)
{
	char *msgs;

	(void)state;
	msgs = parse_text_errors("Switch 2 \"S1\"\n[1] \"H1\"[1] w=2 inject=13G # 4xDDR\n\n"
				 "Hca 1 \"H1\"\n[1] \"S1\"[1]\n");
	assert_string_equal(msgs,
			    "t:2: port option 'inject=13G' is for HCA ports, and \"S1\" is a switch\n");
	free(msgs);
	msgs = parse_text_errors("Switch 2 \"S1\"\n[1] \"H1\"[1]\n\n"
				 "Hca 1 \"H1\"\n[1] \"S1\"[1] inject=0\n");
	assert_string_equal(msgs,
			    "t:5: bad injection rate 'inject=0' (leave the option out for the default)\n");
	free(msgs);
}

/* The rate as one end gives it completes the other end's. */
static void parse_rate_from_either_end(void **state)
{
	static const char text[] =
		"Switch 2 \"S1\"\n[1] \"S2\"[1] w=2\n[2] \"S2\"[2]\n\n"
		"Switch 2 \"S2\"\n[1] \"S1\"[1] s=4\n[2] \"S1\"[2] # 12xHDR\n";
	struct topo *t = parse_text_ok(text);

	(void)state;
	assert_int_equal(t->link[0]->width, 4);
	assert_int_equal(t->link[0]->speed, TOPO_SPEED_QDR);
	assert_int_equal(t->link[1]->width, 12);
	assert_int_equal(t->link[1]->speed, TOPO_SPEED_HDR);
	assert_int_equal(t->link[1]->line[0], 3);
	assert_int_equal(t->link[1]->line[1], 7);
	topo_free(t);
}

/* A switch cabled to itself on two ports is allowed (never routed over). */
static void parse_loopback_cable(void **state)
{
	struct topo *t = parse_text_ok("Switch 4 \"S1\"\n[1] \"S1\"[2]\n[2] \"S1\"[1]\n");
	unsigned int q;

	(void)state;
	assert_int_equal(t->nlinks, 1);
	assert_ptr_equal(topo_peer(t->node[0], 1, &q), t->node[0]);
	assert_int_equal(q, 2);
	assert_ptr_equal(topo_peer(t->node[0], 2, &q), t->node[0]);
	assert_int_equal(q, 1);
	topo_free(t);
}

static void rate_strings(void **state)
{
	static const struct {
		const char *s;
		unsigned int width;
		enum topo_speed speed;
	} good[] = {
		{ "1xSDR", 1, TOPO_SPEED_SDR }, { "4xDDR", 4, TOPO_SPEED_DDR },
		{ "4xQDR", 4, TOPO_SPEED_QDR }, { "8xFDR10", 8, TOPO_SPEED_FDR10 },
		{ "12xFDR", 12, TOPO_SPEED_FDR }, { "4xEDR", 4, TOPO_SPEED_EDR },
		{ "4xHDR", 4, TOPO_SPEED_HDR }, { "4xNDR", 4, TOPO_SPEED_NDR },
	};
	static const char *const bad[] = {
		"", "4x", "xQDR", "4QDR", "2xQDR", "3xQDR", "16xQDR", "4xqdr",
		"4xQDR ", "4xFDR1", "4x???", "1000000000000xSDR",
	};
	enum topo_speed speed;
	unsigned int width;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		assert_int_equal(topo_parse_rate(good[i].s, &width, &speed), 0);
		assert_int_equal(width, good[i].width);
		assert_int_equal(speed, good[i].speed);
		assert_string_equal(topo_speed_name(speed), good[i].s + (width > 9 ? 3 : 2));
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(topo_parse_rate(bad[i], &width, &speed), -EINVAL);
	assert_string_equal(topo_speed_name(TOPO_SPEED_UNSET), "");
	assert_string_equal(topo_type_name(TOPO_SWITCH), "switch");
	assert_string_equal(topo_type_name(TOPO_HCA), "HCA");
}

static void bps_strings(void **state)
{
	static const struct {
		const char *s;
		uint64_t bps;
	} good[] = {
		{ "0", 0 }, { "1", 1 }, { "13G", 13000000000ULL }, { "1625M", 1625000000ULL },
		{ "13000000000", 13000000000ULL }, { "7900M", 7900000000ULL }, { "64k", 64000 },
		{ "0G", 0 }, { "0013G", 13000000000ULL }, { "1200G", TOPO_BPS_MAX },
		{ "1200000M", TOPO_BPS_MAX }, { "1200000000000", TOPO_BPS_MAX },
	};
	static const char *const bad[] = {
		"", "G", "13 G", " 13G", "13G ", "13g", "13K", "13m", "1.5G", "13GG", "-1", "+1",
		"0x10", "13Gb", "13T",
	};
	static const char *const big[] = {
		"1201G", "1200000001k", "1200000000001", "18446744073709551616",
		"99999999999999999999999999999G",
	};
	uint64_t bps;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		bps = 77;
		assert_int_equal(topo_parse_bps(good[i].s, strlen(good[i].s), &bps), 0);
		assert_true(bps == good[i].bps);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(topo_parse_bps(bad[i], strlen(bad[i]), &bps), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(big); i++)
		assert_int_equal(topo_parse_bps(big[i], strlen(big[i]), &bps), -ERANGE);
	/* only the len bytes given */
	assert_int_equal(topo_parse_bps("13Gx", 3, &bps), 0);
	assert_true(bps == 13000000000ULL);
	assert_int_equal(topo_parse_bps("13G", 0, &bps), -EINVAL);
}

static void ident_rules(void **state)
{
	static const char *const good[] = {
		"S1", "h", "H-1", "leaf_01", "0abc", "abcdefghij",
	};
	static const char *const bad[] = {
		"", "-S1", "_x", "S 1", "S/1", "S.1", "abcdefghijk", "S-0002c90000000010",
		"h\xc3\xa9",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++)
		assert_true(topo_ident_valid(good[i]));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_false(topo_ident_valid(bad[i]));
}

/* Messages come sorted by line, the link pass's after the line pass's. */
static void diag_sorted(void **state)
{
	static const char dup[] =
		"Switch 2 \"S1\"\n[1] \"H1\"[1]\n\nHca 1 \"H1\"\n\nSwitch 2 \"S1\"\n";
	char *msgs = parse_text_errors(dup);

	(void)state;
	assert_string_equal(msgs, "t:6: duplicate node name \"S1\" (first at line 1)\n");
	free(msgs);
	msgs = parse_text_errors("Switch 2 \"S1\"\n[1] \"H9\"[1]\n[2] \"H8\"[1]\n");
	assert_string_equal(msgs, "t:2: unknown peer node \"H9\"\nt:3: unknown peer node \"H8\"\n");
	free(msgs);
}

/*
 * ibsw's machine=: seed002.net split over machines A and B. The switches
 * name theirs, the hosts take their switch's; cables, LIDs and routes are
 * seed002.net's.
 */
static void parse_machines(void **state)
{
	static const char *const want[] = { "A", "B", "A", "A", "A", "B", "B", "B", "B" };
	struct topo *t = parse_file_ok("seed002-2m.net");
	struct topo *one = parse_file_ok("seed002.net");
	struct routes *r1, *r2;
	char *a, *b;
	unsigned int i;

	(void)state;
	assert_int_equal(t->nmachines, 2);
	assert_string_equal(t->machine[0], "A");
	assert_string_equal(t->machine[1], "B");
	assert_ptr_equal(topo_find_machine(t, "A"), t->machine[0]);
	assert_ptr_equal(topo_find_machine(t, "B"), t->machine[1]);
	assert_null(topo_find_machine(t, "C"));
	assert_null(topo_find_machine(t, "a"));
	assert_int_equal(t->nnodes, 9);
	for (i = 0; i < t->nnodes; i++) {
		/* one string per machine */
		assert_ptr_equal(t->node[i]->machine, topo_find_machine(t, want[i]));
		/* the switches' machine= lines; the hosts inherit */
		assert_int_equal(t->node[i]->machine_line, i == 0 ? 35 : i == 1 ? 42 : 0);
		assert_string_equal(t->node[i]->name, one->node[i]->name);
		/* a file without machines has none */
		assert_null(one->node[i]->machine);
		assert_int_equal(one->node[i]->machine_line, 0);
	}
	assert_int_equal(one->nmachines, 0);
	assert_null(one->machine);
	assert_int_equal(t->node[0]->line, 36);
	assert_int_equal(t->nlinks, one->nlinks);
	for (i = 0; i < t->nlinks; i++) {
		assert_string_equal(t->link[i]->node[0]->name, one->link[i]->node[0]->name);
		assert_string_equal(t->link[i]->node[1]->name, one->link[i]->node[1]->name);
		assert_int_equal(t->link[i]->port[0], one->link[i]->port[0]);
		assert_int_equal(t->link[i]->width, one->link[i]->width);
		assert_int_equal(t->link[i]->speed, one->link[i]->speed);
	}
	r1 = route_ok(one, 0);
	r2 = route_ok(t, 0);
	a = routes_text(r1);
	b = routes_text(r2);
	assert_string_equal(a, b);
	free(a);
	free(b);
	routes_free(r1);
	routes_free(r2);
	topo_free(one);
	topo_free(t);
}

/*
 * machine= as the other settings: for the record after it, past blank and
 * comment lines, among ibnetdiscover's settings; a host may name its
 * switch's machine; a setting with no record after it is an error.
 */
static void parse_machine_settings(void **state)
{
	static const char text[] =
		"machine=m1.example-2\t# rack 1\n"
		"vendid=0x2c9\nswitchguid=0x10(10)\n"
		"Switch\t2 \"S-10\"\t\t# \"S1\" enhanced port 0 lid 1 lmc 0\n"
		"[1]\t\"H-1\"[1](2)\t\t# \"H1 mlx4_0\" lid 2 4xDDR\n"
		"[2]\t\"S-20\"[1]\t\t# \"S2\" lid 3 4xQDR\n\n"
		"machine=m1.example-2\n\n# the host says it too\n"
		"caguid=0x1\nCa\t1 \"H-1\"\t\t# \"H1 mlx4_0\"\n"
		"[1](2)\t\"S-10\"[1]\t\t# lid 2 lmc 0 \"S1\" lid 1 4xDDR\n\n"
		"machine=B\nmachine=m_3\nSwitch 2 \"S-20\"\n[1] \"S-10\"[2]\n";
	static const char *const good[] = {
		"A", "b", "0", "m1.example.org", "vm_2-b", "A.", "a-",
		"m234567890123456789012345678901234567890123456789012345678901234",
	};
	static const char *const bad[] = {
		"", "-A", ".a", "_a", "a b", "a/b", "a:b", "\"A\"", "a#b", "h\xc3\xa9",
		"m2345678901234567890123456789012345678901234567890123456789012345",
	};
	struct topo *t = parse_text_ok(text);
	char *msgs;
	size_t i;

	(void)state;
	assert_int_equal(t->nmachines, 3);
	assert_string_equal(t->node[0]->machine, "m1.example-2");
	assert_int_equal(t->node[0]->machine_line, 1);
	assert_true(t->node[0]->guid == 0x10);
	assert_ptr_equal(t->node[1]->machine, t->node[0]->machine);
	assert_int_equal(t->node[1]->machine_line, 8);
	/* the last of two before one record, as for the other settings */
	assert_string_equal(t->node[2]->machine, "m_3");
	assert_string_equal(t->machine[1], "B");
	topo_free(t);
	for (i = 0; i < ARRAY_SIZE(good); i++)
		assert_true(topo_machine_valid(good[i]));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_false(topo_machine_valid(bad[i]));

	msgs = parse_text_errors("machine=A\nSwitch 2 \"S1\"\n\nmachine=A\n# none after\n");
	assert_string_equal(msgs,
			    "t:4: machine=A is followed by no record (it names the machine of the Switch, Hca or Ca record after it)\n");
	free(msgs);
	/* it applies to one record only */
	msgs = parse_text_errors("machine=A\nSwitch 2 \"S1\"\n[1] \"S2\"[1]\n\n"
				 "Switch 2 \"S2\"\n[2] \"H1\"[1]\n\nHca 1 \"H1\"\n");
	assert_string_equal(msgs,
			    "t:5: switch \"S2\" is on no machine: in a file that names machines, a machine= line comes before each switch's record\n");
	free(msgs);
	msgs = parse_text_errors("machine=A\nSwitch 2 \"S1\"\n[1] \"H1\"[1]\n\n"
				 "machine=B\nHca 1 \"H1\"\n");
	assert_string_equal(msgs,
			    "t:5: HCA \"H1\" is on machine B, but its port 1 is cabled to switch \"S1\" (line 2) on machine A: a host must be on its switch's machine\n");
	free(msgs);
}

/* ---- malformed fixtures: bad-NAME.topo must fail with bad-NAME.expect ---- */

static void malformed(void **state)
{
	const char *topo_file = *state;
	char expect_file[512];
	struct topo_diag diag;
	struct topo *t;
	char *want, *got;

	snprintf(expect_file, sizeof(expect_file), "%.*s.expect",
		 (int)(strlen(topo_file) - strlen(".topo")), topo_file);
	want = read_text(expect_file);
	topo_diag_init(&diag);
	assert_int_equal(topo_parse_file(topo_file, &t, &diag), -EINVAL);
	assert_null(t);
	got = diag_text(&diag);
	assert_string_equal(got, want);
	free(got);
	free(want);
	topo_diag_free(&diag);
}

static int is_bad_fixture(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return !strncmp(d->d_name, "bad-", 4) && len > 5 &&
	       !strcmp(d->d_name + len - 5, ".topo");
}

static int run_malformed(void)
{
	struct dirent **list;
	struct cm_test *tests;
	int i, n, ret;

	n = scandir(".", &list, is_bad_fixture, alphasort);
	if (n <= 0) {
		fprintf(stderr, "no bad-*.topo fixtures\n");
		return 1;
	}
	tests = calloc(n, sizeof(*tests));
	if (!tests)
		return 1;
	for (i = 0; i < n; i++) {
		char *name;

		if (asprintf(&name, "malformed/%.*s", (int)strlen(list[i]->d_name) - 5,
			     list[i]->d_name) < 0)
			return 1;
		tests[i].name = name;
		tests[i].test_func = malformed;
		tests[i].initial_state = list[i]->d_name;
	}
	ret = run_group("malformed", tests, n);
	for (i = 0; i < n; i++) {
		free((char *)tests[i].name);
		free(list[i]);
	}
	free(tests);
	free(list);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(parse_seed002_ibsim),
		cmocka_unit_test(parse_seed002_ibnetdiscover),
		cmocka_unit_test(parse_formats_agree),
		cmocka_unit_test(parse_dcms),
		cmocka_unit_test(parse_fattree),
		cmocka_unit_test(parse_ring),
		cmocka_unit_test(parse_ibnetdiscover_extras),
		cmocka_unit_test(parse_ibsw_discovered),
		cmocka_unit_test(parse_desc_idents),
		cmocka_unit_test(parse_layout),
		cmocka_unit_test(parse_empty),
		cmocka_unit_test(parse_long_line),
		cmocka_unit_test(parse_name_limit),
		cmocka_unit_test(parse_nul_byte),
		cmocka_unit_test(parse_missing_file),
		cmocka_unit_test(parse_option_masks),
		cmocka_unit_test(parse_inject),
		cmocka_unit_test(parse_inject_on_switch),
		cmocka_unit_test(parse_rate_from_either_end),
		cmocka_unit_test(parse_loopback_cable),
		cmocka_unit_test(rate_strings),
		cmocka_unit_test(bps_strings),
		cmocka_unit_test(ident_rules),
		cmocka_unit_test(diag_sorted),
		cmocka_unit_test(parse_machines),
		cmocka_unit_test(parse_machine_settings),
	};
	int failed;

	enter_fixtures(argc, argv);
	failed = run_group("topo", tests, ARRAY_SIZE(tests));
	failed += run_malformed();
	return failed ? 1 : 0;
}
