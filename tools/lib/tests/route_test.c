// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of LID assignment and routing (route.c): exact LFTs of the
 * testbeds (NAME.routes next to each fixture), spreading over parallel links
 * and equal-cost paths, loops, determinism, unreachable destinations.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const fixtures[] = {
	"seed002.net", "seed002.ibnd", "dcms.topo", "fattree.topo", "ring4.topo",
	"extras.ibnd",
};

/* Compare the routes of a fixture with its golden NAME.routes file. */
static void check_golden(const char *topo_file, const char *routes_file)
{
	struct topo *t = parse_file_ok(topo_file);
	struct routes *r = route_ok(t, 0);
	char *got = routes_text(r), *want = read_text(routes_file);

	assert_string_equal(got, want);
	free(got);
	free(want);
	routes_free(r);
	topo_free(t);
}

static void lft_seed002(void **state)
{
	(void)state;
	check_golden("seed002.net", "seed002.routes");
}

static void lft_dcms(void **state)
{
	(void)state;
	check_golden("dcms.topo", "dcms.routes");
}

static void lft_fattree(void **state)
{
	(void)state;
	check_golden("fattree.topo", "fattree.routes");
}

static void lft_ring(void **state)
{
	(void)state;
	check_golden("ring4.topo", "ring4.routes");
}

/* LIDs: switches from 1 in file order, then connected HCA ports. */
static void lid_order(void **state)
{
	struct topo *t = parse_file_ok("extras.ibnd");
	struct routes *r = route_ok(t, 0);
	const struct topo_node *spine = t->node[0], *leaf = t->node[1];
	const struct topo_node *a = t->node[2], *b = t->node[3];

	(void)state;
	assert_int_equal(r->top_lid, 5);
	assert_int_equal(r->nswitches, 2);
	assert_int_equal(route_lid(r, spine, 0), 1);
	assert_int_equal(route_lid(r, leaf, 7), 2);
	assert_int_equal(route_lid(r, a, 1), 3);	/* dual-homed: two LIDs */
	assert_int_equal(route_lid(r, a, 2), 4);
	assert_int_equal(route_lid(r, b, 1), 5);
	assert_int_equal(route_lid(r, b, 2), 0);	/* not cabled: no LID */
	assert_int_equal(r->nhcas, 3);
	assert_ptr_equal(r->hca[2].hca, b);
	assert_ptr_equal(r->hca[2].sw, leaf);
	assert_int_equal(r->hca[2].sw_port, 3);
	assert_ptr_equal(route_switch_of(r, leaf), &r->sw[1]);
	assert_null(route_switch_of(r, a));
	/*
	 * The spine reaches the leaf over ports 1 (12x) and 2 (8x): HCA LIDs
	 * alternate, lowest port first (rates do not weigh); the leaf's own
	 * LID, routed last, takes the less loaded port 2.
	 */
	assert_int_equal(r->sw[0].lft[1], 0);
	assert_int_equal(r->sw[0].lft[2], 2);
	assert_int_equal(r->sw[0].lft[3], 1);
	assert_int_equal(r->sw[0].lft[4], 2);
	assert_int_equal(r->sw[0].lft[5], 1);
	routes_free(r);
	topo_free(t);
}

/* Where every HCA attaches, for the fabric builder. */
static void hca_attachment(void **state)
{
	static const struct {
		const char *hca, *sw;
		unsigned int port, lid;
	} want[] = {
		{ "X", "S1", 11, 3 }, { "A", "S1", 12, 4 }, { "B", "S2", 21, 5 },
		{ "C", "S2", 22, 6 }, { "D", "S2", 23, 7 }, { "Y", "S2", 24, 8 },
	};
	struct topo *t = parse_file_ok("dcms.topo");
	struct routes *r = route_ok(t, 0);
	size_t i;

	(void)state;
	assert_int_equal(r->nhcas, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		assert_string_equal(r->hca[i].hca->name, want[i].hca);
		assert_int_equal(r->hca[i].port, 1);
		assert_string_equal(r->hca[i].sw->name, want[i].sw);
		assert_int_equal(r->hca[i].sw_port, want[i].port);
		assert_int_equal(r->hca[i].lid, want[i].lid);
	}
	routes_free(r);
	topo_free(t);
}

/* Three cables between two switches, seven hosts behind the second. */
static void spread_parallel_links(void **state)
{
	static const uint8_t want_s1[] = {
		/* lid 1..2: switches, 3: H0, 4..10: H1..H7 */
		[1] = 0, [2] = 2, [3] = 4,
		[4] = 1, [5] = 2, [6] = 3, [7] = 1, [8] = 2, [9] = 3, [10] = 1,
	};
	char text[1024];
	struct topo *t;
	struct routes *r;
	unsigned int i, lid, used[4] = { 0 };
	int n;

	(void)state;
	n = snprintf(text, sizeof(text),
		     "Switch 4 \"S1\"\n[1] \"S2\"[1]\n[2] \"S2\"[2]\n[3] \"S2\"[3]\n"
		     "[4] \"H0\"[1]\n\nSwitch 10 \"S2\"\n");
	for (i = 1; i <= 7; i++)
		n += snprintf(text + n, sizeof(text) - n, "[%u] \"H%u\"[1]\n", i + 3, i);
	n += snprintf(text + n, sizeof(text) - n, "\nHca 1 \"H0\"\n");
	for (i = 1; i <= 7; i++)
		n += snprintf(text + n, sizeof(text) - n, "Hca 1 \"H%u\"\n", i);
	t = parse_text_ok(text);
	r = route_ok(t, 0);
	assert_int_equal(r->top_lid, 10);
	assert_memory_equal(r->sw[0].lft + 1, want_s1 + 1, 10);
	for (lid = 4; lid <= 10; lid++)
		used[r->sw[0].lft[lid]]++;
	assert_int_equal(used[1], 3);		/* 7 LIDs over 3 links: 3 2 2 */
	assert_int_equal(used[2], 2);
	assert_int_equal(used[3], 2);
	/* switch LIDs go over the least loaded cable, but do not count */
	assert_int_equal(r->sw[1].lft[3], 1);		/* S2 to H0 */
	assert_int_equal(r->sw[1].lft[1], 2);		/* S2 to S1 */
	routes_free(r);
	topo_free(t);
}

/* The fat tree: each leaf sends the other leaf's four hosts up four cables. */
static void spread_fattree(void **state)
{
	struct topo *t = parse_file_ok("fattree.topo");
	struct routes *r = route_ok(t, 0);
	const struct route_switch *l1 = route_switch_of(r, topo_find(t, "L1"));
	const struct route_switch *sp1 = route_switch_of(r, topo_find(t, "SP1"));
	unsigned int h5 = route_lid(r, topo_find(t, "H5"), 1);
	unsigned int h1 = route_lid(r, topo_find(t, "H1"), 1);
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(l1->lft[h5 + i], 5 + i);	/* L1 ports 5 6 7 8 */
	for (i = 0; i < 4; i++) {
		assert_int_equal(sp1->lft[h1 + i], 1 + i % 2);	/* SP1 1 2 1 2 */
		assert_int_equal(sp1->lft[h5 + i], 3 + i % 2);	/* SP1 3 4 3 4 */
	}
	routes_free(r);
	topo_free(t);
}

/*
 * Follow the LFTs from every switch to every LID: the walk must end at the
 * LID's port in exactly the minimum number of switch hops (so: no loops).
 */
static unsigned int walk(const struct topo *t, const struct routes *r,
			 unsigned int s, unsigned int lid)
{
	const struct topo_node *node = r->sw[s].sw, *peer;
	unsigned int hops = 0, port;

	for (;;) {
		port = route_switch_of(r, node)->lft[lid];
		assert_int_not_equal(port, ROUTE_NO_PORT);
		if (port == 0) {
			assert_int_equal(route_lid(r, node, 0), lid);
			return hops;
		}
		peer = topo_peer(node, port, NULL);
		assert_non_null(peer);
		if (peer->type == TOPO_HCA) {
			unsigned int q;

			topo_peer(node, port, &q);
			assert_int_equal(route_lid(r, peer, q), lid);
			return hops;
		}
		node = peer;
		assert_true(++hops <= t->nswitches);
	}
}

/* Hop counts by brute force: Bellman-Ford over switch links. */
static void min_hops(const struct topo *t, const struct routes *r,
		     unsigned int d, unsigned int *dist)
{
	unsigned int i, s, p, changed = 1;

	for (s = 0; s < r->nswitches; s++)
		dist[s] = s == d ? 0 : 1000;
	while (changed--) {
		for (s = 0; s < r->nswitches; s++) {
			const struct topo_node *sw = r->sw[s].sw;

			for (p = 1; p <= sw->nports; p++) {
				const struct topo_node *n = topo_peer(sw, p, NULL);

				if (!n || n->type != TOPO_SWITCH)
					continue;
				i = route_switch_of(r, n) - r->sw;
				if (dist[i] + 1 < dist[s]) {
					dist[s] = dist[i] + 1;
					changed = 1;
				}
			}
		}
	}
	(void)t;
}

static unsigned int switch_of_lid(const struct routes *r, unsigned int lid)
{
	if (lid <= r->nswitches)
		return lid - 1;
	return route_switch_of(r, r->hca[lid - r->nswitches - 1].sw) - r->sw;
}

static void routes_are_minimal(void **state)
{
	unsigned int dist[16], s, lid;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(fixtures); i++) {
		struct topo *t = parse_file_ok(fixtures[i]);
		struct routes *r = route_ok(t, 0);

		assert_true(r->nswitches <= ARRAY_SIZE(dist));
		for (lid = 1; lid <= r->top_lid; lid++) {
			min_hops(t, r, switch_of_lid(r, lid), dist);
			for (s = 0; s < r->nswitches; s++)
				assert_int_equal(walk(t, r, s, lid), dist[s]);
		}
		routes_free(r);
		topo_free(t);
	}
}

/* Parse and route twice: the same bytes. Both seed002 formats: same LFTs. */
static void deterministic(void **state)
{
	struct routes *ra, *rb;
	struct topo *a, *b;
	char *x, *y;
	unsigned int s;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(fixtures); i++) {
		a = parse_file_ok(fixtures[i]);
		ra = route_ok(a, 0);
		b = parse_file_ok(fixtures[i]);
		rb = route_ok(b, 0);
		x = routes_text(ra);
		y = routes_text(rb);
		assert_string_equal(x, y);
		free(x);
		free(y);
		routes_free(ra);
		routes_free(rb);
		topo_free(a);
		topo_free(b);
	}
	a = parse_file_ok("seed002.net");
	ra = route_ok(a, 0);
	b = parse_file_ok("seed002.ibnd");
	rb = route_ok(b, 0);
	assert_int_equal(ra->top_lid, rb->top_lid);
	for (s = 0; s < ra->nswitches; s++)
		assert_memory_equal(ra->sw[s].lft, rb->sw[s].lft, ra->top_lid + 1);
	routes_free(ra);
	routes_free(rb);
	topo_free(a);
	topo_free(b);
}

static char *route_errors(const char *text, unsigned int flags)
{
	struct topo *t = parse_text_ok(text);
	struct topo_diag diag;
	struct routes *r;
	char *msgs;

	topo_diag_init(&diag);
	assert_int_equal(route_compute(t, flags, &r, &diag), -EINVAL);
	assert_null(r);
	msgs = diag_text(&diag);
	topo_diag_free(&diag);
	topo_free(t);
	return msgs;
}

static const char partitioned[] =
	"Switch 2 \"S1\"\n[1] \"H1\"[1]\n\n"
	"Switch 2 \"S2\"\n[1] \"H2\"[1]\n[2] \"S3\"[1]\n\n"
	"Switch 2 \"S3\"\n\n"
	"Hca 1 \"H1\"\nHca 1 \"H2\"\nHca 2 \"H3\"\n";

static void unreachable_is_error(void **state)
{
	static const char want[] =
		"t:4: switch \"S2\" cannot reach switch \"S1\" (line 1): the fabric is partitioned\n"
		"t:8: switch \"S3\" cannot reach switch \"S1\" (line 1): the fabric is partitioned\n"
		"t:12: HCA \"H3\" is not connected to a switch\n";
	char *msgs = route_errors(partitioned, 0);

	(void)state;
	assert_string_equal(msgs, want);
	free(msgs);
	msgs = route_errors("Hca 1 \"H1\"\n", 0);
	assert_string_equal(msgs, "t: no switches\n");
	free(msgs);
}

static void unreachable_allowed(void **state)
{
	struct topo *t = parse_text_ok(partitioned);
	struct routes *r = route_ok(t, ROUTE_ALLOW_UNREACHABLE);
	static const uint8_t s1[] = { 0, 255, 255, 1, 255 };
	static const uint8_t s2[] = { 255, 0, 2, 255, 1 };
	static const uint8_t s3[] = { 255, 1, 0, 255, 1 };

	(void)state;
	assert_int_equal(r->top_lid, 5);		/* H3 has no LID */
	assert_int_equal(r->nhcas, 2);
	assert_memory_equal(r->sw[0].lft + 1, s1, 5);
	assert_memory_equal(r->sw[1].lft + 1, s2, 5);
	assert_memory_equal(r->sw[2].lft + 1, s3, 5);
	assert_int_equal(route_lid(r, topo_find(t, "H3"), 1), 0);
	routes_free(r);
	topo_free(t);
}

/*
 * Every link goes to an HCA and one more HCA is unconnected: the table of
 * HCA ports, one slot per link, is exactly full (ASan caught a write past
 * its end here).
 */
static void unconnected_hca_full_table(void **state)
{
	static const char text[] =
		"Switch 4 \"S1\"\n[1] \"H1\"[1]\n\nHca 1 \"H1\"\n\nHca 1 \"H9\"\n";
	struct topo *t = parse_text_ok(text);
	struct routes *r = route_ok(t, ROUTE_ALLOW_UNREACHABLE);
	char *msgs;

	(void)state;
	assert_int_equal(r->nhcas, 1);
	assert_int_equal(route_lid(r, topo_find(t, "H9"), 1), 0);
	routes_free(r);
	topo_free(t);
	msgs = route_errors(text, 0);
	assert_string_equal(msgs, "t:6: HCA \"H9\" is not connected to a switch\n");
	free(msgs);
}

/* More than 0xbfff LIDs: a chain of 197 switches with 250 hosts each. */
static void too_many_lids(void **state)
{
	unsigned int nsw = 197, nh = 250, s, h;
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	char *msgs;

	(void)state;
	assert_non_null(f);
	for (s = 0; s < nsw; s++) {
		fprintf(f, "Switch 254 \"S%u\"\n", s);
		for (h = 1; h <= nh; h++)
			fprintf(f, "[%u] \"H%u-%u\"[1]\n", h, s, h);
		if (s + 1 < nsw)
			fprintf(f, "[251] \"S%u\"[252]\n", s + 1);
		fprintf(f, "\n");
	}
	for (s = 0; s < nsw; s++)
		for (h = 1; h <= nh; h++)
			fprintf(f, "Hca 1 \"H%u-%u\"\n", s, h);
	fclose(f);
	msgs = route_errors(text, 0);
	assert_string_equal(msgs, "t: too many LIDs (49447, limit 49151)\n");
	free(msgs);
	free(text);
}

int main(int argc, char **argv)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(lft_seed002),
		cmocka_unit_test(lft_dcms),
		cmocka_unit_test(lft_fattree),
		cmocka_unit_test(lft_ring),
		cmocka_unit_test(lid_order),
		cmocka_unit_test(hca_attachment),
		cmocka_unit_test(spread_parallel_links),
		cmocka_unit_test(spread_fattree),
		cmocka_unit_test(routes_are_minimal),
		cmocka_unit_test(deterministic),
		cmocka_unit_test(unreachable_is_error),
		cmocka_unit_test(unreachable_allowed),
		cmocka_unit_test(unconnected_hca_full_table),
		cmocka_unit_test(too_many_lids),
	};

	enter_fixtures(argc, argv);
	return run_group("route", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
