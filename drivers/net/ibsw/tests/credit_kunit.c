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
};

static const struct kt_init_case kt_init_cases[] = {
	{ "mtu 4096, 2 packets", 130, KT_MAX_4096, 0 },
	{ "mtu 4096, exactly 1 packet", 65, KT_MAX_4096, 0 },
	{ "mtu 4096, 1 credit short", 64, KT_MAX_4096, -EINVAL },
	{ "mtu 1024, 1 packet", 17, KT_MAX_1024, 0 },
	{ "64-byte packets", 1, 64, 0 },
	{ "no packet size", 100, 0, -EINVAL },
	{ "empty buffer", 0, KT_MAX_1024, -EINVAL },
	{ "largest size", INT_MAX, KT_MAX_4096, 0 },
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
}

enum kt_op {
	KT_END,
	KT_TAKE,
	KT_RETURN,
};

/*
 * One step: for KT_TAKE, @ok is what ibsw_credit_can_take() and
 * ibsw_credit_take() return. Then the free credits.
 */
struct kt_step {
	enum kt_op	op;
	unsigned int	len;
	bool		ok;
	unsigned int	free;
};

#define KT_MAX_STEPS	8

struct kt_script_case {
	const char	*desc;
	unsigned int	size;
	unsigned int	max_len;
	struct kt_step	steps[KT_MAX_STEPS];
};

#define TAKE(l, o, f)	{ KT_TAKE, l, o, f }
#define RET(l, f)	{ KT_RETURN, l, false, f }

static const struct kt_script_case kt_script_cases[] = {
	{
		.desc = "take to the last credit and back",
		.size = 130, .max_len = KT_MAX_4096,
		.steps = {
			TAKE(4096, true, 66),
			TAKE(64, true, 65),	/* one max packet left */
			TAKE(1, true, 64),	/* one credit short */
			RET(1, 65),
			RET(4096, 129),
			RET(64, 130),
		},
	}, {
		.desc = "a short buffer refuses and takes nothing",
		.size = 65, .max_len = KT_MAX_4096,
		.steps = {
			TAKE(KT_MAX_4096, true, 0),
			TAKE(1, false, 0),
			RET(4096, 64),
			TAKE(65, true, 62),	/* 2 credits */
			TAKE(3969, false, 62),	/* 63 credits */
			RET(65, 64),
			RET(64, 65),
		},
	}, {
		.desc = "returns in pieces",
		.size = 100, .max_len = KT_MAX_1024,
		.steps = {
			TAKE(6400, true, 0),
			RET(1024, 16),
			RET(64, 17),
			RET(64, 18),
			TAKE(128, true, 16),
			RET(63, 17),		/* 63 bytes: 1 credit */
		},
	}, {
		.desc = "one return of many credits",
		.size = 200, .max_len = KT_MAX_4096,
		.steps = {
			TAKE(12800, true, 0),
			RET(6400, 100),
			RET(6400, 200),
		},
	}, {
		.desc = "a packet that fills the buffer exactly",
		.size = 17, .max_len = KT_MAX_1024,
		.steps = {
			TAKE(1088, true, 0),
			TAKE(1, false, 0),
			RET(1088, 17),
			TAKE(1089, false, 17),	/* 18 credits */
		},
	}, {
		.desc = "zero length takes nothing",
		.size = 17, .max_len = KT_MAX_1024,
		.steps = {
			TAKE(0, true, 17),
			RET(0, 17),
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
			ibsw_credit_return(&buf, s->len);
		}
		KUNIT_EXPECT_EQ_MSG(test, ibsw_credit_free(&buf), s->free,
				    "step %u: free", i);
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
