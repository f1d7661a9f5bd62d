// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of ibsw-mad-fuzz's generator and checks (madfuzz.c): the
 * headers it writes (bytes as IBA 13.4.3 and 14.2.1.2 lay them out,
 * written here by hand), what it never puts in a Set, what it reads back
 * and what it forgives, how it reads answers and learns keys.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "madfuzz.h"

static const struct mf_target sw_dr = {
	.mgmt_class = MF_CLASS_SMI_DR, .path = { 0, 1, 3 }, .hops = 2,
	.is_switch = true, .nr_ports = 8, .entry_port = 4,
	.key = 0x1122334455667788ULL,
};

static void smp_dr_header(void **state)
{
	static const uint8_t want[36] = {
		1, 0x81, 1, 2,			/* versions, class, Set */
		0, 0, 0, 2,			/* Status (D 0), HopPointer, HopCount */
		0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef,	/* TID */
		0, 0x15, 0, 0,			/* PortInfo, reserved */
		0, 0, 0, 5,			/* AttributeModifier */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* M_Key */
		0xff, 0xff, 0xff, 0xff,		/* DrSLID, DrDLID */
	};
	uint8_t mad[MF_MAD_SIZE];
	int i;

	(void)state;
	memset(mad, 0xee, sizeof(mad));
	mf_mad_init(mad, &sw_dr, MF_SET, MF_SMP_PORT_INFO, 5, 0xdeadbeef);
	assert_memory_equal(mad, want, sizeof(want));
	for (i = 36; i < 128; i++)
		assert_int_equal(mad[i], 0);
	/* InitialPath: 0, 1, 3 */
	assert_int_equal(mad[128], 0);
	assert_int_equal(mad[129], 1);
	assert_int_equal(mad[130], 3);
	for (i = 131; i < MF_MAD_SIZE; i++)
		assert_int_equal(mad[i], 0);
}

static void cc_header(void **state)
{
	static const uint8_t want[32] = {
		1, 0x21, 2, 1, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 9,
		0, 0x17, 0, 0, 0, 0, 0, 3,
		0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
	};
	struct mf_target t = {
		.mgmt_class = MF_CLASS_CC, .key = 0xa1a2a3a4a5a6a7a8ULL,
	};
	uint8_t mad[MF_MAD_SIZE];
	int i;

	(void)state;
	mf_mad_init(mad, &t, MF_GET, MF_CC_CCT, 3, 9);
	assert_memory_equal(mad, want, sizeof(want));
	for (i = 32; i < MF_MAD_SIZE; i++)
		assert_int_equal(mad[i], 0);
}

static void pma_header(void **state)
{
	static const uint8_t want[24] = {
		1, 0x04, 1, 2, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0x01, 0x02,
		0, 0x12, 0, 0, 0, 0, 0, 0,
	};
	struct mf_target t = { .mgmt_class = MF_CLASS_PMA, .key = ~0ULL };
	uint8_t mad[MF_MAD_SIZE];
	int i;

	(void)state;
	mf_mad_init(mad, &t, MF_SET, MF_PMA_PORT_COUNTERS, 0, 0x102);
	assert_memory_equal(mad, want, sizeof(want));
	/* no key in a PMA MAD */
	for (i = 24; i < MF_MAD_SIZE; i++)
		assert_int_equal(mad[i], 0);
}

static void masks(void **state)
{
	uint8_t a[MF_GMP_DATA_SIZE] = { 0 }, b[MF_GMP_DATA_SIZE] = { 0 };
	size_t at = 0;

	(void)state;
	assert_true(mf_same(MF_CLASS_SMI_DR, MF_SMP_PORT_INFO, a, b, &at));
	/* M_KeyViolations (44-45) and Q_KeyViolations (48-49) count */
	b[44] = 1;
	b[49] = 7;
	assert_true(mf_same(MF_CLASS_SMI_DR, MF_SMP_PORT_INFO, a, b, &at));
	/* GUIDCap (50) does not */
	b[50] = 1;
	assert_false(mf_same(MF_CLASS_SMI_DR, MF_SMP_PORT_INFO, a, b, &at));
	assert_int_equal(at, 50);
	/* the same bytes of another attribute are compared */
	memset(b, 0, sizeof(b));
	b[45] = 1;
	assert_false(mf_same(MF_CLASS_SMI_DR, MF_SMP_SWITCH_INFO, a, b, &at));
	assert_int_equal(at, 45);
	/*
	 * CongestionKeyInfo (A10.4.3.3): CC_Key 0-7, CC_KeyProtectBit 8,
	 * CC_KeyLeasePeriod 10-11, CC_KeyViolations 12-13. Only the
	 * violations count on their own.
	 */
	memset(b, 0, sizeof(b));
	b[12] = 0xff;
	b[13] = 0xff;
	assert_true(mf_same(MF_CLASS_CC, MF_CC_KEY_INFO, a, b, &at));
	b[11] = 1;
	assert_false(mf_same(MF_CLASS_CC, MF_CC_KEY_INFO, a, b, &at));
	assert_int_equal(at, 11);
	b[11] = 0;
	b[8] = 0x80;
	assert_false(mf_same(MF_CLASS_CC, MF_CC_KEY_INFO, a, b, &at));
	assert_int_equal(at, 8);
	/* an SMP compares its 64 bytes only */
	memset(b, 0, sizeof(b));
	b[64] = 1;
	assert_true(mf_same(MF_CLASS_SMI_DR, MF_SMP_LFT, a, b, &at));
	assert_false(mf_same(MF_CLASS_CC, MF_CC_CCT, a, b, &at));
	assert_int_equal(at, 64);
}

static void reads(void **state)
{
	struct mf_target ca = sw_dr, cc = { .mgmt_class = MF_CLASS_CC };
	struct mf_target pma = { .mgmt_class = MF_CLASS_PMA };
	struct mf_request q = { .method = MF_SET, .attr = MF_SMP_SL2VL,
				.mod = 0x0102 };
	struct mf_read r[8];
	unsigned int n;

	(void)state;
	n = mf_reads(&sw_dr, &q, r, 8);
	assert_int_equal(n, 5);
	assert_int_equal(r[0].attr, MF_SMP_NODE_INFO);
	assert_int_equal(r[1].attr, MF_SMP_PORT_INFO);
	assert_int_equal(r[1].mod, 0);
	assert_int_equal(r[2].attr, MF_SMP_SWITCH_INFO);
	assert_int_equal(r[3].attr, MF_SMP_PORT_INFO);
	assert_int_equal(r[3].mod, 4);
	assert_int_equal(r[4].attr, MF_SMP_SL2VL);
	assert_int_equal(r[4].mod, 0x0102);
	/* no request, and a request of what is read anyway */
	assert_int_equal(mf_reads(&sw_dr, NULL, r, 8), 4);
	q.attr = MF_SMP_PORT_INFO;
	q.mod = 4;
	assert_int_equal(mf_reads(&sw_dr, &q, r, 8), 4);
	/* a CA: no SwitchInfo */
	ca.is_switch = false;
	q.attr = MF_SMP_VLARB;
	q.mod = 1;
	n = mf_reads(&ca, &q, r, 8);
	assert_int_equal(n, 3);
	assert_int_equal(r[2].attr, MF_SMP_VLARB);
	/* an unknown attribute is not read */
	q.attr = 0x1234;
	assert_int_equal(mf_reads(&ca, &q, r, 8), 2);
	/* CC: the key, and the settings; not the log or the time stamp */
	q.attr = MF_CC_CCT;
	q.mod = 2;
	n = mf_reads(&cc, &q, r, 8);
	assert_int_equal(n, 2);
	assert_int_equal(r[0].attr, MF_CC_KEY_INFO);
	assert_int_equal(r[1].attr, MF_CC_CCT);
	assert_int_equal(r[1].mod, 2);
	q.attr = MF_CC_LOG;
	assert_int_equal(mf_reads(&cc, &q, r, 8), 1);
	q.attr = MF_CC_TIMESTAMP;
	assert_int_equal(mf_reads(&cc, &q, r, 8), 1);
	/* the PMA: ClassPortInfo only */
	q.attr = MF_PMA_PORT_COUNTERS;
	n = mf_reads(&pma, &q, r, 8);
	assert_int_equal(n, 1);
	assert_int_equal(r[0].attr, MF_PMA_CLASS_PORT_INFO);
	/* never past max */
	q.attr = MF_SMP_SL2VL;
	assert_int_equal(mf_reads(&sw_dr, &q, r, 3), 3);
}

static void deterministic(void **state)
{
	static struct mf_cache cache;
	struct mf_request a, b;
	struct mf_rng r1 = { 42 }, r2 = { 42 }, r3 = { 43 };
	int i, differ = 0;

	(void)state;
	for (i = 0; i < 1000; i++) {
		mf_generate(&r1, &sw_dr, &cache, i, &a);
		mf_generate(&r2, &sw_dr, &cache, i, &b);
		assert_memory_equal(a.mad, b.mad, MF_MAD_SIZE);
		mf_generate(&r3, &sw_dr, &cache, i, &b);
		differ += memcmp(a.mad, b.mad, MF_MAD_SIZE) != 0;
	}
	assert_true(differ > 900);
}

/*
 * What a generated request never holds, over many: PortInfo Sets without
 * a state, width or speed to enable or an M_Key lease, the entry port's
 * VLs and HOQLife as they were; a new route only for a Get; the header as
 * mf_mad_init writes it unless a change says otherwise.
 */
static void generated(void **state)
{
	static struct mf_cache cache;
	struct mf_rng r = { 7 };
	struct mf_request q;
	uint8_t was[MF_GMP_DATA_SIZE], init[MF_MAD_SIZE];
	const uint8_t *d = q.mad + MF_DATA;
	unsigned int port, sets = 0, entry_sets = 0, routes = 0, seen = 0;
	int i;

	(void)state;
	memset(was, 0x5a, sizeof(was));
	for (port = 0; port <= sw_dr.nr_ports; port++)
		mf_cache_put(&cache, MF_SMP_PORT_INFO, port, was, sizeof(was));
	for (i = 0; i < 20000; i++) {
		mf_generate(&r, &sw_dr, &cache, i, &q);
		seen |= q.changes;
		if (q.changes & MF_CHANGE_ROUTE) {
			routes++;
			assert_int_equal(q.method, MF_GET);
			assert_int_equal(q.mad[3], MF_GET);
		}
		if (!q.changes) {
			/* a valid request, but for its data */
			mf_mad_init(init, &sw_dr, q.method, q.attr, q.mod, i);
			assert_memory_equal(q.mad, init, MF_DATA);
			assert_memory_equal(q.mad + 128, init + 128, 128);
			assert_true(q.method == MF_GET || q.method == MF_SET);
		}
		if (q.method != MF_SET || q.attr != MF_SMP_PORT_INFO ||
		    (q.changes & MF_CHANGE_ROUTE))
			continue;
		sets++;
		assert_int_equal(mf_get16(d + 26), 0);
		assert_int_equal(d[29], 0);
		assert_int_equal(d[32] & 0x0f, 0);
		assert_int_equal(d[33], 0);
		assert_int_equal(d[35] & 0x0f, 0);
		if ((q.mod & 0xff) == sw_dr.entry_port) {
			entry_sets++;
			assert_int_equal(d[38], 0x5a);
			assert_int_equal(d[42], 0x5a);
			assert_int_equal(d[43], 0x5a);
		}
	}
	assert_true(sets > 100);
	assert_true(entry_sets > 10);
	assert_true(routes > 100);
	/* every kind of change was made */
	assert_int_equal(seen, MF_CHANGE_DATA | MF_CHANGE_MOD | MF_CHANGE_ATTR |
			 MF_CHANGE_METHOD | MF_CHANGE_HEADER | MF_CHANGE_ROUTE |
			 MF_CHANGE_KEY);
}

/* A CC KeyInfo Set never has a lease; a PMA request selects a port */
static void generated_gmp(void **state)
{
	static struct mf_cache cache;
	struct mf_target cc = { .mgmt_class = MF_CLASS_CC, .key = 5 };
	struct mf_target pma = { .mgmt_class = MF_CLASS_PMA,
				 .is_switch = true, .nr_ports = 4 };
	struct mf_rng r = { 11 };
	struct mf_request q;
	unsigned int key_sets = 0;
	int i;

	(void)state;
	for (i = 0; i < 5000; i++) {
		mf_generate(&r, &cc, &cache, i, &q);
		assert_int_equal(q.changes & MF_CHANGE_ROUTE, 0);
		if (!(q.changes & MF_CHANGE_KEY))
			assert_int_equal(mf_get64(q.mad + MF_CC_KEY), 5);
		if (q.method == MF_SET && q.attr == MF_CC_KEY_INFO) {
			key_sets++;
			assert_int_equal(mf_get16(q.mad + MF_DATA + 10), 0);
		}
	}
	assert_true(key_sets > 50);
	for (i = 0; i < 5000; i++) {
		mf_generate(&r, &pma, &cache, i, &q);
		assert_int_equal(q.changes & (MF_CHANGE_ROUTE | MF_CHANGE_KEY), 0);
		if (q.method == MF_GET)
			assert_true(q.mad[MF_DATA + 1] == 0xff ||
				    (q.mad[MF_DATA + 1] >= 1 &&
				     q.mad[MF_DATA + 1] <= 4));
	}
}

static void answers(void **state)
{
	struct mf_request q;
	uint8_t ans[MF_MAD_SIZE];

	(void)state;
	mf_get(&q, &sw_dr, MF_SMP_NODE_INFO, 0, 77);
	memcpy(ans, q.mad, MF_MAD_SIZE);
	ans[3] = MF_GET_RESP;
	assert_string_equal(mf_answer_check(&q, ans),
			    "a directed-route answer without the D bit");
	ans[4] = 0x80;
	ans[5] = 0x0c;
	assert_null(mf_answer_check(&q, ans));
	/* the D bit is not part of the status */
	assert_int_equal(mf_status(ans), 0x0c);
	ans[3] = MF_GET;
	assert_string_equal(mf_answer_check(&q, ans), "not a response method");
	ans[3] = MF_GET_RESP;
	ans[15] = 78;
	assert_string_equal(mf_answer_check(&q, ans), "another TID");
	ans[15] = 77;
	/* the upper 32 bits are the MAD layer's */
	ans[8] = 0x12;
	assert_null(mf_answer_check(&q, ans));
	ans[17] = 0x15;
	assert_string_equal(mf_answer_check(&q, ans), "another attribute");
	ans[17] = 0x11;
	ans[1] = 0x01;
	assert_string_equal(mf_answer_check(&q, ans), "another management class");
	/* a GMP's status is all 16 bits */
	memset(ans, 0, sizeof(ans));
	ans[1] = MF_CLASS_CC;
	ans[4] = 0x80;
	ans[5] = 0x1c;
	assert_int_equal(mf_status(ans), 0x801c);
}

static void learn(void **state)
{
	struct mf_target t = sw_dr, ca = sw_dr, cc = { .mgmt_class = MF_CLASS_CC };
	struct mf_request q;

	(void)state;
	/* a switch's M_Key is its port 0's */
	mf_mad_init(q.mad, &t, MF_SET, MF_SMP_PORT_INFO, 3, 1);
	q.method = MF_SET;
	q.attr = MF_SMP_PORT_INFO;
	q.mod = 3;
	q.changes = 0;
	mf_put64(q.mad + MF_DATA, 0xabc);
	mf_learn(&t, &q);
	assert_true(t.key == sw_dr.key);
	q.mod = 0;
	mf_learn(&t, &q);
	assert_true(t.key == 0xabc);
	/* a CA's, whichever port the modifier names */
	ca.is_switch = false;
	q.mod = 1;
	mf_learn(&ca, &q);
	assert_true(ca.key == 0xabc);
	/* not from a Get, nor from a request sent elsewhere */
	t = sw_dr;
	q.mod = 0;
	q.method = MF_GET;
	mf_learn(&t, &q);
	assert_true(t.key == sw_dr.key);
	q.method = MF_SET;
	q.changes = MF_CHANGE_ROUTE;
	mf_learn(&t, &q);
	assert_true(t.key == sw_dr.key);
	/* CongestionKeyInfo */
	q.changes = 0;
	q.attr = MF_CC_KEY_INFO;
	q.mod = 0;
	mf_put64(q.mad + MF_DATA, 0x5151);
	mf_learn(&cc, &q);
	assert_true(cc.key == 0x5151);
	q.attr = MF_CC_CCT;
	mf_put64(q.mad + MF_DATA, 0x6161);
	mf_learn(&cc, &q);
	assert_true(cc.key == 0x5151);
}

/* Giving a key back: the key, no protection, no lease, nothing else */
static void unprotect(void **state)
{
	uint8_t d[MF_GMP_DATA_SIZE], want[MF_GMP_DATA_SIZE];
	static const uint8_t key[8] = { 0, 0, 0, 0, 0, 0, 0x12, 0xab };

	(void)state;
	/* PortInfo: M_Key 0-7, M_KeyLeasePeriod 26-27, LinkWidthEnabled 29,
	 * PortState (low nibble of 32), PhysState and LinkDownDefault 33,
	 * M_KeyProtectBits (top of 34, LMC below), LinkSpeedEnabled (low 35)
	 */
	memset(d, 0xff, sizeof(d));
	memcpy(want, d, sizeof(want));
	memcpy(want, key, 8);
	want[26] = 0;
	want[27] = 0;
	want[29] = 0;
	want[32] = 0xf0;
	want[33] = 0;
	want[34] = 0x3f;
	want[35] = 0xf0;
	mf_unprotect(MF_CLASS_SMI_DR, d, 0x12ab);
	assert_memory_equal(d, want, MF_SMP_DATA_SIZE);
	/* CongestionKeyInfo: CC_Key 0-7, ProtectBit 8, LeasePeriod 10-11 */
	memset(d, 0xff, sizeof(d));
	memcpy(want, d, sizeof(want));
	memcpy(want, key, 8);
	want[8] = 0;
	want[10] = 0;
	want[11] = 0;
	mf_unprotect(MF_CLASS_CC, d, 0x12ab);
	assert_memory_equal(d, want, MF_GMP_DATA_SIZE);
}

static void cache(void **state)
{
	static struct mf_cache c;
	uint8_t d[MF_GMP_DATA_SIZE];
	int i;

	(void)state;
	assert_null(mf_cache_get(&c, 1, 2));
	memset(d, 3, sizeof(d));
	mf_cache_put(&c, 1, 2, d, 64);
	assert_int_equal(mf_cache_get(&c, 1, 2)[63], 3);
	assert_int_equal(mf_cache_get(&c, 1, 2)[64], 0);	/* the rest cleared */
	assert_null(mf_cache_get(&c, 1, 3));
	/* full: an entry is replaced, the table stays usable */
	for (i = 0; i < 3 * MF_CACHE_SIZE; i++) {
		d[0] = (uint8_t)i;
		mf_cache_put(&c, 9, (uint32_t)i, d, sizeof(d));
		assert_int_equal(mf_cache_get(&c, 9, (uint32_t)i)[0], (uint8_t)i);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(smp_dr_header),
		cmocka_unit_test(cc_header),
		cmocka_unit_test(pma_header),
		cmocka_unit_test(masks),
		cmocka_unit_test(reads),
		cmocka_unit_test(deterministic),
		cmocka_unit_test(generated),
		cmocka_unit_test(generated_gmp),
		cmocka_unit_test(answers),
		cmocka_unit_test(learn),
		cmocka_unit_test(unprotect),
		cmocka_unit_test(cache),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("madfuzz", tests, NULL, NULL);
}
