// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ibsw input buffer credits (credit.c, credit.h).
 *
 * Each case is a script of takes and returns on one buffer, with the
 * expected outcome after every step; credit counts are worked out by hand
 * in 64-byte blocks (a packet of L wire bytes takes ceil(L / 64)).
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>

#include "../credit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Largest wire length at MTU 4096 and 1024: 65 and 17 credits */
#define KT_MAX_4096	4154
#define KT_MAX_1024	1082

struct kt_init_case {
	const char	*desc;
	unsigned int	size;
	unsigned int	max_len;
	int		err;
	unsigned int	stop;
};

static const struct kt_init_case kt_init_cases[] = {
	{ "mtu 4096, 2 packets", 130, KT_MAX_4096, 0, 65 },
	{ "mtu 4096, exactly 1 packet", 65, KT_MAX_4096, 0, 65 },
	{ "mtu 4096, 1 credit short", 64, KT_MAX_4096, -EINVAL },
	{ "mtu 1024, 1 packet", 17, KT_MAX_1024, 0, 17 },
	{ "64-byte packets", 1, 64, 0, 1 },
	{ "no packet size", 100, 0, -EINVAL },
	{ "empty buffer", 0, KT_MAX_1024, -EINVAL },
	{ "largest size", INT_MAX, KT_MAX_4096, 0, 65 },
	{ "size above int max", (unsigned int)INT_MAX + 1, KT_MAX_4096,
	  -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(kt_init, kt_init_cases, desc);

static void ibsw_credit_init_test(struct kunit *test)
{
	const struct kt_init_case *c = test->param_value;
	struct ibsw_credit_buf buf;

	KUNIT_ASSERT_EQ(test, ibsw_credit_init(&buf, c->size, c->max_len),
			c->err);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, ibsw_credit_free(&buf), c->size);
	KUNIT_EXPECT_EQ(test, buf.size, c->size);
	KUNIT_EXPECT_EQ(test, buf.stop, c->stop);
	KUNIT_EXPECT_FALSE(test, ibsw_credit_must_stop(&buf));
}

enum kt_op {
	KT_END,
	KT_TAKE,
	KT_RETURN,
};

/*
 * One step: for KT_TAKE, @ok is what ibsw_credit_can_take() and
 * ibsw_credit_take() return; for KT_RETURN, whether ibsw_credit_return()
 * reports the wake-up crossing. Then the free credits and the stop state.
 */
struct kt_step {
	enum kt_op	op;
	unsigned int	len;
	bool		ok;
	unsigned int	free;
	bool		stop;
};

#define KT_MAX_STEPS	8

struct kt_script_case {
	const char	*desc;
	unsigned int	size;
	unsigned int	max_len;
	struct kt_step	steps[KT_MAX_STEPS];
};

#define TAKE(l, o, f, s)	{ KT_TAKE, l, o, f, s }
#define RET(l, w, f, s)		{ KT_RETURN, l, w, f, s }

static const struct kt_script_case kt_script_cases[] = {
	{
		.desc = "stop and wake at the exact boundary",
		.size = 130, .max_len = KT_MAX_4096,
		.steps = {
			TAKE(4096, true, 66, false),
			TAKE(64, true, 65, false),	/* one max packet left */
			TAKE(1, true, 64, true),	/* one credit short */
			RET(1, true, 65, false),	/* wakes */
			RET(4096, false, 129, false),
			RET(64, false, 130, false),
		},
	}, {
		.desc = "a short buffer refuses and takes nothing",
		.size = 65, .max_len = KT_MAX_4096,
		.steps = {
			TAKE(KT_MAX_4096, true, 0, true),
			TAKE(1, false, 0, true),
			RET(4096, false, 64, true),	/* still 1 short */
			TAKE(65, true, 62, true),	/* 2 credits */
			TAKE(3969, false, 62, true),	/* 63 credits */
			RET(65, false, 64, true),
			RET(64, true, 65, false),
		},
	}, {
		.desc = "returns in pieces wake once",
		.size = 100, .max_len = KT_MAX_1024,
		.steps = {
			TAKE(6400, true, 0, true),
			RET(1024, false, 16, true),
			RET(64, true, 17, false),
			RET(64, false, 18, false),
			TAKE(128, true, 16, true),
			RET(63, true, 17, false),	/* 63 bytes: 1 credit */
		},
	}, {
		.desc = "one return jumps far past the threshold",
		.size = 200, .max_len = KT_MAX_4096,
		.steps = {
			TAKE(12800, true, 0, true),
			RET(6400, true, 100, false),
			RET(6400, false, 200, false),
		},
	}, {
		.desc = "a packet that fills the buffer exactly",
		.size = 17, .max_len = KT_MAX_1024,
		.steps = {
			TAKE(1088, true, 0, true),
			TAKE(1, false, 0, true),
			RET(1088, true, 17, false),
			TAKE(1089, false, 17, false),	/* 18 credits */
		},
	}, {
		.desc = "zero length takes nothing",
		.size = 17, .max_len = KT_MAX_1024,
		.steps = {
			TAKE(0, true, 17, false),
			RET(0, false, 17, false),
		},
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_script, kt_script_cases, desc);

static void ibsw_credit_script_test(struct kunit *test)
{
	const struct kt_script_case *c = test->param_value;
	struct ibsw_credit_buf buf;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ibsw_credit_init(&buf, c->size, c->max_len), 0);
	for (i = 0; i < KT_MAX_STEPS && c->steps[i].op != KT_END; i++) {
		const struct kt_step *s = &c->steps[i];

		if (s->op == KT_TAKE) {
			KUNIT_EXPECT_EQ_MSG(test, ibsw_credit_can_take(&buf, s->len),
					    s->ok, "step %u: can take %u", i, s->len);
			KUNIT_EXPECT_EQ_MSG(test, ibsw_credit_take(&buf, s->len),
					    s->ok, "step %u: take %u", i, s->len);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ibsw_credit_return(&buf, s->len),
					    s->ok, "step %u: return %u", i, s->len);
		}
		KUNIT_EXPECT_EQ_MSG(test, ibsw_credit_free(&buf), s->free,
				    "step %u: free", i);
		KUNIT_EXPECT_EQ_MSG(test, ibsw_credit_must_stop(&buf), s->stop,
				    "step %u: stop", i);
	}
}

static struct kunit_case ibsw_credit_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_credit_init_test, kt_init_gen_params),
	KUNIT_CASE_PARAM(ibsw_credit_script_test, kt_script_gen_params),
	{}
};

static struct kunit_suite ibsw_credit_test_suite = {
	.name = "ibsw_credit",
	.test_cases = ibsw_credit_test_cases,
};

kunit_test_suite(ibsw_credit_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw input buffer credits");
MODULE_LICENSE("GPL");
