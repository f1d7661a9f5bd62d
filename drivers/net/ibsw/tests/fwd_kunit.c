// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ibsw address table and linear forwarding tables
 * (fwd.c, fwd.h).
 */

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/in6.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../fwd.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

KUNIT_DEFINE_ACTION_WRAPPER(kt_addr_table_free, ibsw_addr_table_free,
			    struct ibsw_addr_table *);
KUNIT_DEFINE_ACTION_WRAPPER(kt_lft_free, ibsw_lft_free, struct ibsw_lft *);

/* IPv4 mapped into ::ffff:0:0/96, as RoCEv2 GIDs carry it */
#define V4(a, b, c, d)	{ .in6_u.u6_addr8 = { [10] = 0xff, [11] = 0xff, \
			  [12] = (a), [13] = (b), [14] = (c), [15] = (d) } }
#define V6(...)		{ .in6_u.u6_addr8 = { __VA_ARGS__ } }
/* 2001:db8::n, n < 256 */
#define DOC6(n)		V6(0x20, 0x01, 0x0d, 0xb8, [15] = (n))

/* ---- address table ---- */

/* A small fabric, in no particular order */
static const struct ibsw_addr kt_fabric[] = {
	{ V4(192, 0, 2, 1), 1 },
	{ DOC6(1), 1 },
	{ V4(198, 51, 100, 7), 0x0bad },
	{ V4(192, 0, 2, 2), 2 },
	{ V6(0xfe, 0x80, [15] = 1), 3 },
	{ DOC6(2), 2 },
	{ V4(10, 0, 0, 1), 4 },
	{ V4(255, 255, 255, 254), IBSW_LID_UNICAST_MAX },
	{ V6(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	     0xff, 0xff, 0xff, 0xff, 0xfe), 5 },
	{ V4(0, 0, 0, 1), 6 },
};

struct kt_lookup_case {
	const char	*desc;
	struct in6_addr	addr;
	u16		lid;
};

static const struct kt_lookup_case kt_lookup_cases[] = {
	{ "ipv4 first host", V4(192, 0, 2, 1), 1 },
	{ "ipv4 second host", V4(192, 0, 2, 2), 2 },
	{ "ipv4 other subnet", V4(198, 51, 100, 7), 0x0bad },
	{ "ipv4 10/8", V4(10, 0, 0, 1), 4 },
	{ "ipv4 highest, highest lid", V4(255, 255, 255, 254),
	  IBSW_LID_UNICAST_MAX },
	{ "ipv4 0.0.0.1", V4(0, 0, 0, 1), 6 },
	{ "ipv6 first host", DOC6(1), 1 },
	{ "ipv6 second host", DOC6(2), 2 },
	{ "ipv6 link-local", V6(0xfe, 0x80, [15] = 1), 3 },
	{ "ipv6 near the top", V6(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				  0xff, 0xfe), 5 },
	{ "ipv4 miss between hosts", V4(192, 0, 2, 3), 0 },
	{ "ipv4 miss below all", V4(0, 0, 0, 0), 0 },
	{ "ipv4 miss above all", V4(255, 255, 255, 255), 0 },
	{ "ipv4-compatible is not v4-mapped", V6([12] = 192, [13] = 0,
						  [14] = 2, [15] = 1), 0 },
	{ "ipv6 miss between hosts", DOC6(3), 0 },
	{ "ipv6 miss, link-local other host", V6(0xfe, 0x80, [15] = 2), 0 },
	{ "ipv6 unspecified", V6(0), 0 },
	{ "ipv6 all ones", V6(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	  0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_lookup, kt_lookup_cases, desc);

static struct ibsw_addr_table *kt_addr_table(struct kunit *test,
					     const struct ibsw_addr *addrs,
					     unsigned int nr)
{
	struct ibsw_addr_table *table = ibsw_addr_table_build(addrs, nr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, table);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kt_addr_table_free,
							table), 0);
	return table;
}

static void ibsw_fwd_addr_lookup_test(struct kunit *test)
{
	const struct kt_lookup_case *c = test->param_value;
	struct ibsw_addr_table *table;

	table = kt_addr_table(test, kt_fabric, ARRAY_SIZE(kt_fabric));
	KUNIT_EXPECT_EQ(test, table->nr, ARRAY_SIZE(kt_fabric));
	KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(table, &c->addr), c->lid);
}

/* Reverse: an address of each family that leads to a LID */
struct kt_of_lid_case {
	const char	*desc;
	u16		lid;
	bool		v4;
	bool		found;
	struct in6_addr	addr;
};

static const struct kt_of_lid_case kt_of_lid_cases[] = {
	{ "lid 1, ipv4", 1, true, true, V4(192, 0, 2, 1) },
	{ "lid 1, ipv6", 1, false, true, DOC6(1) },
	{ "lid 3 has ipv6 only: no ipv4", 3, true, false },
	{ "lid 3, ipv6 link-local", 3, false, true, V6(0xfe, 0x80, [15] = 1) },
	{ "lid 4 has ipv4 only: no ipv6", 4, false, false },
	{ "lid 6, ipv4 0.0.0.1", 6, true, true, V4(0, 0, 0, 1) },
	{ "lid 7 has no address", 7, true, false },
	{ "lid 0", 0, false, false },
};

KUNIT_ARRAY_PARAM_DESC(kt_of_lid, kt_of_lid_cases, desc);

static void ibsw_fwd_addr_of_lid_test(struct kunit *test)
{
	const struct kt_of_lid_case *c = test->param_value;
	const struct in6_addr *a;
	struct ibsw_addr_table *table;

	table = kt_addr_table(test, kt_fabric, ARRAY_SIZE(kt_fabric));
	a = ibsw_addr_of_lid(table, c->lid, c->v4);
	if (!c->found) {
		KUNIT_EXPECT_NULL(test, a);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_MEMEQ(test, a, &c->addr, sizeof(*a));
	KUNIT_EXPECT_NULL(test, ibsw_addr_of_lid(NULL, c->lid, c->v4));
}

struct kt_build_case {
	const char		*desc;
	struct ibsw_addr	addrs[3];
	unsigned int		nr;
	int			err;
};

static const struct kt_build_case kt_build_cases[] = {
	{ "empty", {}, 0, 0 },
	{ "one", { { V4(192, 0, 2, 1), 1 } }, 1, 0 },
	{ "lid 0 refused", { { V4(192, 0, 2, 1), 1 }, { DOC6(1), 0 } }, 2,
	  -EINVAL },
	{ "multicast lid refused", { { DOC6(1), 0xc000 } }, 1, -EINVAL },
	{ "permissive lid refused", { { DOC6(1), 0xffff } }, 1, -EINVAL },
	{ "duplicate address refused",
	  { { DOC6(1), 1 }, { V4(192, 0, 2, 1), 2 }, { DOC6(1), 3 } }, 3,
	  -EEXIST },
	{ "duplicate with the same lid refused",
	  { { V4(192, 0, 2, 1), 2 }, { V4(192, 0, 2, 1), 2 } }, 2, -EEXIST },
	{ "the same lid for several addresses",
	  { { V4(192, 0, 2, 1), 2 }, { DOC6(1), 2 }, { DOC6(2), 2 } }, 3, 0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_build, kt_build_cases, desc);

static void ibsw_fwd_addr_build_test(struct kunit *test)
{
	const struct kt_build_case *c = test->param_value;
	struct ibsw_addr_table *table;
	unsigned int i;

	table = ibsw_addr_table_build(c->addrs, c->nr);
	if (c->err) {
		KUNIT_EXPECT_TRUE(test, IS_ERR(table));
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(table), c->err);
		return;
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, table);
	KUNIT_EXPECT_EQ(test, table->nr, c->nr);
	for (i = 0; i < c->nr; i++)
		KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(table, &c->addrs[i].addr),
				c->addrs[i].lid);
	KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(table, &(struct in6_addr)DOC6(9)),
			0);
	ibsw_addr_table_free(table);
}

/*
 * A fabric of a few thousand hosts with IPv4 and IPv6 addresses, given in
 * a scrambled order: every address hits, its neighbours miss.
 */
#define KT_BIG_HOSTS	3000

/* 2001:db8::n, any n < 65536 */
static struct in6_addr kt_doc6(unsigned int n)
{
	struct in6_addr a = DOC6(0);

	a.s6_addr[14] = n >> 8;
	a.s6_addr[15] = n & 0xff;
	return a;
}

/* 10.1.x.y from n < 65536 */
static struct in6_addr kt_net10(unsigned int n)
{
	struct in6_addr a = V4(10, 1, 0, 0);

	a.s6_addr[14] = n >> 8;
	a.s6_addr[15] = n & 0xff;
	return a;
}

static void ibsw_fwd_addr_big_test(struct kunit *test)
{
	unsigned int nr = 2 * KT_BIG_HOSTS, i, h, p;
	struct ibsw_addr_table *table;
	struct ibsw_addr *addrs;
	struct in6_addr a;

	addrs = kunit_kcalloc(test, nr, sizeof(*addrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, addrs);
	for (i = 0; i < nr; i++) {
		/* 7919 is prime and does not divide nr: a permutation */
		p = (i * 7919) % nr;
		h = p / 2;
		if (p % 2)
			addrs[i].addr = kt_doc6(2 * h + 2);
		else
			addrs[i].addr = kt_net10(h);
		addrs[i].lid = h + 1;
	}

	table = kt_addr_table(test, addrs, nr);
	KUNIT_ASSERT_EQ(test, table->nr, nr);
	for (h = 0; h < KT_BIG_HOSTS; h++) {
		a = kt_net10(h);
		KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(table, &a), h + 1);
		a = kt_doc6(2 * h + 2);
		KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(table, &a), h + 1);
		a = kt_doc6(2 * h + 1);
		KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(table, &a), 0);
	}
	a = kt_net10(KT_BIG_HOSTS);
	KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(table, &a), 0);
}

static void ibsw_fwd_addr_replace_test(struct kunit *test)
{
	static const struct ibsw_addr a1[] = { { V4(192, 0, 2, 1), 1 } };
	static const struct ibsw_addr a2[] = { { V4(192, 0, 2, 1), 2 } };
	struct ibsw_addr_table __rcu *slot = NULL;
	struct ibsw_addr_table *t1, *t2;

	KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(NULL, &a1[0].addr), 0);

	t1 = ibsw_addr_table_build(a1, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t1);
	ibsw_addr_table_replace(&slot, t1, true);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(slot), t1);

	t2 = ibsw_addr_table_build(a2, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t2);
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(rcu_dereference(slot),
					       &a1[0].addr), 1);
	/* A reader inside its read section keeps the old table */
	ibsw_addr_table_replace(&slot, t2, true);
	KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(t1, &a1[0].addr), 1);
	rcu_read_unlock();

	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, ibsw_addr_lookup(rcu_dereference(slot),
					       &a1[0].addr), 2);
	rcu_read_unlock();

	ibsw_addr_table_replace(&slot, NULL, true);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(slot));
}

/* ---- linear forwarding table ---- */

#define KT_LFT_TOP	16

/* LID -> port as set; unlisted LIDs stay unset */
static const struct {
	u16	lid;
	u16	port;
} kt_routes[] = {
	{ 1, 1 },
	{ 2, 2 },
	{ 3, 254 },
	{ 4, IBSW_LFT_NO_ROUTE },
	{ 5, 0 },
	{ 15, 3 },
	{ KT_LFT_TOP, 7 },
};

static struct ibsw_lft *kt_lft(struct kunit *test, unsigned int top,
			       const struct ibsw_lft *from)
{
	struct ibsw_lft *lft = ibsw_lft_alloc(top, from);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, lft);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_lft_free,
							lft), 0);
	return lft;
}

static struct ibsw_lft *kt_lft_routes(struct kunit *test)
{
	struct ibsw_lft *lft = kt_lft(test, KT_LFT_TOP, NULL);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_routes); i++)
		KUNIT_ASSERT_EQ(test, ibsw_lft_set(lft, kt_routes[i].lid,
						   kt_routes[i].port), 0);
	return lft;
}

struct kt_lft_case {
	const char	*desc;
	u16		dlid;
	unsigned int	port;
};

static const struct kt_lft_case kt_lft_cases[] = {
	{ "lid 0 reserved", 0, IBSW_PORT_NONE },
	{ "lid 1 to port 1", 1, 1 },
	{ "lid 2 to port 2", 2, 2 },
	{ "lid 3 to port 254", 3, 254 },
	{ "entry 255: no route", 4, IBSW_PORT_NONE },
	{ "entry 0: no route", 5, IBSW_PORT_NONE },
	{ "entry never set: no route", 6, IBSW_PORT_NONE },
	{ "lid 15", 15, 3 },
	{ "lid at the top", KT_LFT_TOP, 7 },
	{ "lid above the top", KT_LFT_TOP + 1, IBSW_PORT_NONE },
	{ "highest unicast lid", 0xbfff, IBSW_PORT_NONE },
	{ "first multicast lid", 0xc000, IBSW_PORT_NONE },
	{ "permissive lid", 0xffff, IBSW_PORT_NONE },
};

KUNIT_ARRAY_PARAM_DESC(kt_lft, kt_lft_cases, desc);

static void ibsw_fwd_lft_lookup_test(struct kunit *test)
{
	const struct kt_lft_case *c = test->param_value;
	struct ibsw_lft *lft = kt_lft_routes(test);

	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(lft, c->dlid), c->port);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(NULL, c->dlid), IBSW_PORT_NONE);
}

struct kt_lft_set_case {
	const char	*desc;
	unsigned int	top;
	unsigned int	lid;
	unsigned int	port;
	int		err;
};

static const struct kt_lft_set_case kt_lft_set_cases[] = {
	{ "lid 1", 16, 1, 1, 0 },
	{ "lid at the top", 16, 16, 200, 0 },
	{ "clear with 255", 16, 9, IBSW_LFT_NO_ROUTE, 0 },
	{ "clear with 0", 16, 9, 0, 0 },
	{ "lid 0 refused", 16, 0, 1, -EINVAL },
	{ "lid above the top refused", 16, 17, 1, -EINVAL },
	{ "port 256 refused", 16, 1, 256, -EINVAL },
	{ "full table, highest lid", IBSW_LID_UNICAST_MAX,
	  IBSW_LID_UNICAST_MAX, 3, 0 },
	{ "full table, multicast refused", IBSW_LID_UNICAST_MAX, 0xc000, 3,
	  -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(kt_lft_set, kt_lft_set_cases, desc);

static void ibsw_fwd_lft_set_test(struct kunit *test)
{
	const struct kt_lft_set_case *c = test->param_value;
	struct ibsw_lft *lft = kt_lft(test, c->top, NULL);
	unsigned int want;

	KUNIT_EXPECT_EQ(test, lft->top, c->top);
	KUNIT_ASSERT_EQ(test, ibsw_lft_set(lft, c->lid, c->port), c->err);
	want = c->port == IBSW_LFT_NO_ROUTE ? IBSW_PORT_NONE : c->port;
	if (!c->err)
		KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(lft, c->lid), want);
	/* Neighbours untouched */
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(lft, c->lid - 1), IBSW_PORT_NONE);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(lft, c->lid + 1), IBSW_PORT_NONE);
}

static void ibsw_fwd_lft_alloc_test(struct kunit *test)
{
	struct ibsw_lft *lft, *small, *big;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ibsw_lft_alloc(0xc000, NULL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ibsw_lft_alloc(0xffff, NULL)), -EINVAL);

	/* Top 0: a table that routes nothing */
	lft = kt_lft(test, 0, NULL);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(lft, 0), IBSW_PORT_NONE);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(lft, 1), IBSW_PORT_NONE);
	KUNIT_EXPECT_EQ(test, ibsw_lft_set(lft, 1, 1), -EINVAL);

	/* Copies shrink and grow the table, keeping what fits */
	lft = kt_lft_routes(test);
	small = kt_lft(test, 3, lft);
	big = kt_lft(test, 32, lft);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(small, 1), 1);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(small, 3), 254);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(small, 15), IBSW_PORT_NONE);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(big, 3), 254);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(big, 4), IBSW_PORT_NONE);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(big, KT_LFT_TOP), 7);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(big, KT_LFT_TOP + 1),
			IBSW_PORT_NONE);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(big, 32), IBSW_PORT_NONE);
	/* The copy is a copy */
	KUNIT_EXPECT_EQ(test, ibsw_lft_set(big, 1, 9), 0);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(lft, 1), 1);

	/* The largest table: every unicast LID */
	big = kt_lft(test, IBSW_LID_UNICAST_MAX, lft);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(big, 2), 2);
	KUNIT_EXPECT_EQ(test, ibsw_lft_set(big, IBSW_LID_UNICAST_MAX, 11), 0);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(big, IBSW_LID_UNICAST_MAX), 11);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(big, 0xc000), IBSW_PORT_NONE);
}

static void ibsw_fwd_lft_replace_test(struct kunit *test)
{
	struct ibsw_lft __rcu *slot = NULL;
	struct ibsw_lft *l1, *l2;

	l1 = ibsw_lft_alloc(4, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l1);
	KUNIT_EXPECT_EQ(test, ibsw_lft_set(l1, 2, 5), 0);
	ibsw_lft_replace(&slot, l1, true);

	l2 = ibsw_lft_alloc(4, l1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l2);
	KUNIT_EXPECT_EQ(test, ibsw_lft_set(l2, 2, 6), 0);

	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(rcu_dereference(slot), 2), 5);
	ibsw_lft_replace(&slot, l2, true);
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(l1, 2), 5);
	rcu_read_unlock();

	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, ibsw_lft_lookup(rcu_dereference(slot), 2), 6);
	rcu_read_unlock();

	ibsw_lft_replace(&slot, NULL, true);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(slot));
}

static struct kunit_case ibsw_fwd_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_fwd_addr_lookup_test, kt_lookup_gen_params),
	KUNIT_CASE_PARAM(ibsw_fwd_addr_of_lid_test, kt_of_lid_gen_params),
	KUNIT_CASE_PARAM(ibsw_fwd_addr_build_test, kt_build_gen_params),
	KUNIT_CASE(ibsw_fwd_addr_big_test),
	KUNIT_CASE(ibsw_fwd_addr_replace_test),
	KUNIT_CASE_PARAM(ibsw_fwd_lft_lookup_test, kt_lft_gen_params),
	KUNIT_CASE_PARAM(ibsw_fwd_lft_set_test, kt_lft_set_gen_params),
	KUNIT_CASE(ibsw_fwd_lft_alloc_test),
	KUNIT_CASE(ibsw_fwd_lft_replace_test),
	{}
};

static struct kunit_suite ibsw_fwd_test_suite = {
	.name = "ibsw_fwd",
	.test_cases = ibsw_fwd_test_cases,
};

kunit_test_suite(ibsw_fwd_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw address and forwarding tables");
MODULE_LICENSE("GPL");
