// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for directed-route SMP processing at one node and the SMA
 * header checks (smp_route.c, smp_route.h), and the M_Key check, a table
 * of every protection level, method and right or wrong key written from
 * the IBA's table of protection levels.
 *
 * Expected hop pointers, path entries, ports and verdicts are worked out
 * by hand from the rule table of IBA vol 1 14.2.2 (C14-6, C14-9, C14-13).
 * Every check compares the whole SMP with the one expected, so a write
 * the IBA does not prescribe (a path entry, P on a drop) fails the case.
 */

#include <kunit/test.h>
#include <linux/string.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_verbs.h>

#include "../smp_route.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Path entries a table case sets: InitialPath[0..7], ReturnPath[0..7] */
#define KT_PATH		8
/* What path entries beyond those hold: no case may touch them */
#define KT_FILL_IP	0xe1
#define KT_FILL_RP	0xe2
/* A unicast LID for DrSLID/DrDLID; 0 in a case means permissive */
#define KT_LID		0x0012
/* *out_port before a call: the function must overwrite it */
#define KT_OUT_POISON	0xdead

/*
 * An SMP with every field that routing must leave alone set to something
 * recognisable.
 */
static void kt_smp_init(struct ib_smp *smp)
{
	unsigned int i;

	memset(smp, 0, sizeof(*smp));
	smp->base_version = 1;
	smp->mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	smp->class_version = 1;
	smp->method = IB_MGMT_METHOD_GET;
	smp->tid = cpu_to_be64(0x0123456789abcdefULL);
	smp->attr_id = IB_SMP_ATTR_NODE_INFO;
	smp->attr_mod = cpu_to_be32(0x00000003);
	smp->mkey = cpu_to_be64(0x1122334455667788ULL);
	smp->dr_slid = IB_LID_PERMISSIVE;
	smp->dr_dlid = IB_LID_PERMISSIVE;
	for (i = 0; i < IB_SMP_DATA_SIZE; i++)
		smp->data[i] = 0x40 + i;
	for (i = KT_PATH; i < IB_SMP_MAX_PATH_HOPS; i++) {
		smp->initial_path[i] = KT_FILL_IP;
		smp->return_path[i] = KT_FILL_RP;
	}
}

/* ---- ibsw_smp_dr_recv(): one node, one SMP ---- */

struct kt_recv_case {
	const char		*desc;
	bool			sw;		/* is_switch */
	bool			ret;		/* D bit: returning */
	u8			p, n;		/* hop pointer, hop count */
	u16			slid, dlid;	/* 0: permissive */
	unsigned int		in, nr;		/* in_port, nr_ports */
	u8			ip[KT_PATH];	/* InitialPath */
	u8			rp[KT_PATH];	/* ReturnPath as it arrives */
	/* expected */
	enum ibsw_smp_verdict	v;
	unsigned int		out;
	u8			p_after;
	u8			rp_after[KT_PATH];
};

/* The worked example's path: HCA port 1 -> S1 port 3, S1 port 5 -> S2 port 2 */
#define KT_IP_EX	{ 0, 1, 5 }
/* A longer path for the intermediate hops */
#define KT_IP_LONG	{ 0, 1, 2, 4, 6, 8, 7 }

static const struct kt_recv_case kt_recv_cases[] = {
	/* Outgoing, intermediate switch hops (C14-9:2) */
	{ "out: first switch P=1 N=2 (S1 of the example)", .sw = true,
	  .p = 1, .n = 2, .in = 3, .nr = 8, .ip = KT_IP_EX,
	  .v = IBSW_SMP_FORWARD, .out = 5, .p_after = 2,
	  .rp_after = { 0, 3 } },
	{ "out: middle switch P=3 N=5", .sw = true,
	  .p = 3, .n = 5, .in = 2, .nr = 8, .ip = KT_IP_LONG,
	  .rp = { 0, 3, 7 },
	  .v = IBSW_SMP_FORWARD, .out = 6, .p_after = 4,
	  .rp_after = { 0, 3, 7, 2 } },
	{ "out: last intermediate P=N-1=5 N=6", .sw = true,
	  .p = 5, .n = 6, .in = 1, .nr = 8, .ip = KT_IP_LONG,
	  .rp = { 0, 3, 7, 2, 4 },
	  .v = IBSW_SMP_FORWARD, .out = 7, .p_after = 6,
	  .rp_after = { 0, 3, 7, 2, 4, 1 } },
	{ "out: next port is the last port", .sw = true,
	  .p = 1, .n = 3, .in = 1, .nr = 8, .ip = { 0, 1, 8, 1 },
	  .v = IBSW_SMP_FORWARD, .out = 8, .p_after = 2,
	  .rp_after = { 0, 1 } },
	{ "out: next port is the ingress port", .sw = true,
	  .p = 1, .n = 2, .in = 3, .nr = 8, .ip = { 0, 1, 3 },
	  .v = IBSW_SMP_FORWARD, .out = 3, .p_after = 2,
	  .rp_after = { 0, 3 } },
	{ "out: 254-port switch, ports 254 in and out", .sw = true,
	  .p = 1, .n = 2, .in = 254, .nr = 254, .ip = { 0, 1, 254 },
	  .v = IBSW_SMP_FORWARD, .out = 254, .p_after = 2,
	  .rp_after = { 0, 254 } },
	{ "out: intermediate ignores a non-permissive DrDLID", .sw = true,
	  .p = 1, .n = 2, .dlid = KT_LID, .in = 3, .nr = 8, .ip = KT_IP_EX,
	  .v = IBSW_SMP_FORWARD, .out = 5, .p_after = 2,
	  .rp_after = { 0, 3 } },

	/* Outgoing, end of the directed part at a switch (C14-9:3) */
	{ "out: switch P=N=1 goes to its SMA at P=2", .sw = true,
	  .p = 1, .n = 1, .in = 4, .nr = 8, .ip = { 0, 1 },
	  .v = IBSW_SMP_LOCAL, .p_after = 2, .rp_after = { 0, 4 } },
	{ "out: switch P=N=2 (S2 of the example)", .sw = true,
	  .p = 2, .n = 2, .in = 2, .nr = 8, .ip = KT_IP_EX,
	  .rp = { 0, 3 },
	  .v = IBSW_SMP_LOCAL, .p_after = 3, .rp_after = { 0, 3, 2 } },
	{ "out: switch P=N=1, DrDLID 0x12: LID-routed on", .sw = true,
	  .p = 1, .n = 1, .dlid = KT_LID, .in = 4, .nr = 8, .ip = { 0, 1 },
	  .v = IBSW_SMP_LID_ROUTE, .p_after = 2, .rp_after = { 0, 4 } },
	{ "out: switch P=N=0, permissive: no ReturnPath entry",
	  .sw = true, .p = 0, .n = 0, .in = 4, .nr = 8,
	  .v = IBSW_SMP_LOCAL, .p_after = 1 },
	{ "out: switch P=N=0, DrDLID 0x12", .sw = true,
	  .p = 0, .n = 0, .dlid = KT_LID, .in = 4, .nr = 8,
	  .v = IBSW_SMP_LID_ROUTE, .p_after = 1 },
	{ "out: switch P=N=1 with a non-permissive DrSLID", .sw = true,
	  .p = 1, .n = 1, .slid = KT_LID, .in = 4, .nr = 8, .ip = { 0, 1 },
	  .v = IBSW_SMP_LOCAL, .p_after = 2, .rp_after = { 0, 4 } },

	/* Outgoing, after the directed part (C14-9:4) */
	{ "out: switch P=N+1=3 goes to its SMA unchanged", .sw = true,
	  .p = 3, .n = 2, .in = 6, .nr = 8, .ip = KT_IP_EX,
	  .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_LOCAL, .p_after = 3, .rp_after = { 0, 3, 2 } },

	/* Outgoing, end of the directed part at a CA (C14-9:3, 14-9:4) */
	{ "out: CA P=N=2, permissive", .p = 2, .n = 2, .in = 1, .nr = 1,
	  .ip = KT_IP_EX, .rp = { 0, 3 },
	  .v = IBSW_SMP_LOCAL, .p_after = 3, .rp_after = { 0, 3, 1 } },
	{ "out: CA port 2 of 2, P=N=1", .p = 1, .n = 1, .in = 2, .nr = 2,
	  .ip = { 0, 1 },
	  .v = IBSW_SMP_LOCAL, .p_after = 2, .rp_after = { 0, 2 } },
	{ "out: CA P=N=1, DrDLID 0x12: dropped unchanged", .p = 1, .n = 1,
	  .dlid = KT_LID, .in = 1, .nr = 1, .ip = { 0, 1 },
	  .v = IBSW_SMP_DROP_DLID, .p_after = 1 },
	{ "out: CA P=N=0, permissive", .p = 0, .n = 0, .in = 1, .nr = 1,
	  .v = IBSW_SMP_LOCAL, .p_after = 1 },
	{ "out: CA P=N=0, DrDLID 0x12", .p = 0, .n = 0, .dlid = KT_LID,
	  .in = 1, .nr = 1,
	  .v = IBSW_SMP_DROP_DLID, .p_after = 0 },
	{ "out: CA P=N+1=2 unchanged", .p = 2, .n = 1, .in = 1, .nr = 1,
	  .ip = { 0, 1 }, .rp = { 0, 3 },
	  .v = IBSW_SMP_LOCAL, .p_after = 2, .rp_after = { 0, 3 } },

	/* Outgoing errors */
	{ "out: N=64 dropped", .sw = true, .p = 1, .n = 64, .in = 3,
	  .nr = 8, .ip = KT_IP_EX,
	  .v = IBSW_SMP_DROP_HOP_COUNT, .p_after = 1 },
	{ "out: N=255 dropped", .sw = true, .p = 1, .n = 255, .in = 3,
	  .nr = 8, .ip = KT_IP_EX,
	  .v = IBSW_SMP_DROP_HOP_COUNT, .p_after = 1 },
	{ "out: N=64 at P=N dropped", .sw = true, .p = 64, .n = 64,
	  .in = 3, .nr = 8,
	  .v = IBSW_SMP_DROP_HOP_COUNT, .p_after = 64 },
	{ "out: CA N=64 dropped", .p = 64, .n = 64, .in = 1, .nr = 1,
	  .v = IBSW_SMP_DROP_HOP_COUNT, .p_after = 64 },
	{ "out: switch receives P=0 N=1", .sw = true, .p = 0, .n = 1,
	  .in = 3, .nr = 8, .ip = { 0, 1 },
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 0 },
	{ "out: CA receives P=0 N=2", .p = 0, .n = 2, .in = 1, .nr = 1,
	  .ip = KT_IP_EX,
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 0 },
	{ "out: P=N+2", .sw = true, .p = 3, .n = 1, .in = 3, .nr = 8,
	  .ip = { 0, 1 }, .rp = { 0, 3 },
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 3, .rp_after = { 0, 3 } },
	{ "out: P=2 N=0", .sw = true, .p = 2, .n = 0, .in = 3, .nr = 8,
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 2 },
	{ "out: CA P=N+2", .p = 4, .n = 2, .in = 1, .nr = 1, .ip = KT_IP_EX,
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 4 },
	{ "out: P=255 N=63", .sw = true, .p = 255, .n = 63, .in = 3,
	  .nr = 8,
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 255 },
	{ "out: next port 0", .sw = true, .p = 1, .n = 2, .in = 3, .nr = 8,
	  .ip = { 0, 1, 0 },
	  .v = IBSW_SMP_DROP_BAD_PORT, .p_after = 1 },
	{ "out: next port nr_ports+1", .sw = true, .p = 2, .n = 3, .in = 3,
	  .nr = 8, .ip = { 0, 1, 5, 9 }, .rp = { 0, 2 },
	  .v = IBSW_SMP_DROP_BAD_PORT, .p_after = 2, .rp_after = { 0, 2 } },
	{ "out: next port 255", .sw = true, .p = 1, .n = 2, .in = 3,
	  .nr = 8, .ip = { 0, 1, 255 },
	  .v = IBSW_SMP_DROP_BAD_PORT, .p_after = 1 },
	{ "out: next port 2 on a 1-port switch", .sw = true, .p = 1, .n = 2,
	  .in = 1, .nr = 1, .ip = { 0, 1, 2 },
	  .v = IBSW_SMP_DROP_BAD_PORT, .p_after = 1 },
	{ "out: CA as intermediate hop", .p = 1, .n = 2, .in = 1, .nr = 1,
	  .ip = { 0, 1, 1 },
	  .v = IBSW_SMP_DROP_CA_RELAY, .p_after = 1 },
	{ "out: CA as intermediate hop, bad next port too", .p = 2, .n = 5,
	  .in = 1, .nr = 1, .ip = { 0, 1, 4, 0 }, .rp = { 0, 3 },
	  .v = IBSW_SMP_DROP_CA_RELAY, .p_after = 2, .rp_after = { 0, 3 } },

	/* Returning, intermediate switch hops (C14-13:2) */
	{ "ret: S1 of the example, P=2 N=2", .sw = true, .ret = true,
	  .p = 2, .n = 2, .in = 5, .nr = 8, .ip = KT_IP_EX,
	  .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_FORWARD, .out = 3, .p_after = 1,
	  .rp_after = { 0, 3, 2 } },
	{ "ret: middle switch P=4 N=5", .sw = true, .ret = true,
	  .p = 4, .n = 5, .in = 6, .nr = 8, .ip = KT_IP_LONG,
	  .rp = { 0, 3, 7, 2, 6, 1 },
	  .v = IBSW_SMP_FORWARD, .out = 2, .p_after = 3,
	  .rp_after = { 0, 3, 7, 2, 6, 1 } },
	{ "ret: switch next to the responder P=N=5", .sw = true,
	  .ret = true, .p = 5, .n = 5, .in = 8, .nr = 8, .ip = KT_IP_LONG,
	  .rp = { 0, 3, 7, 2, 6, 1 },
	  .v = IBSW_SMP_FORWARD, .out = 6, .p_after = 4,
	  .rp_after = { 0, 3, 7, 2, 6, 1 } },
	{ "ret: intermediate ignores non-permissive LIDs", .sw = true,
	  .ret = true, .p = 2, .n = 2, .slid = KT_LID, .dlid = KT_LID,
	  .in = 5, .nr = 8, .ip = KT_IP_EX, .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_FORWARD, .out = 3, .p_after = 1,
	  .rp_after = { 0, 3, 2 } },
	{ "ret: next port 0", .sw = true, .ret = true, .p = 2, .n = 2,
	  .in = 5, .nr = 8, .ip = KT_IP_EX, .rp = { 0, 0, 2 },
	  .v = IBSW_SMP_DROP_BAD_PORT, .p_after = 2,
	  .rp_after = { 0, 0, 2 } },
	{ "ret: next port nr_ports+1", .sw = true, .ret = true, .p = 3,
	  .n = 4, .in = 5, .nr = 8, .rp = { 0, 3, 9, 2, 1 },
	  .v = IBSW_SMP_DROP_BAD_PORT, .p_after = 3,
	  .rp_after = { 0, 3, 9, 2, 1 } },
	{ "ret: CA as intermediate hop", .ret = true, .p = 2, .n = 2,
	  .in = 1, .nr = 1, .ip = KT_IP_EX, .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_DROP_CA_RELAY, .p_after = 2,
	  .rp_after = { 0, 3, 2 } },

	/* Returning, end of the directed part (C14-13:3) */
	{ "ret: HCA of the example, P=1, permissive", .ret = true, .p = 1,
	  .n = 2, .in = 1, .nr = 1, .ip = KT_IP_EX, .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_LOCAL, .p_after = 0, .rp_after = { 0, 3, 2 } },
	{ "ret: CA P=1, DrSLID 0x12: dropped unchanged", .ret = true,
	  .p = 1, .n = 2, .slid = KT_LID, .in = 1, .nr = 1, .ip = KT_IP_EX,
	  .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_DROP_SLID, .p_after = 1, .rp_after = { 0, 3, 2 } },
	{ "ret: CA P=1 N=0, permissive", .ret = true, .p = 1, .n = 0,
	  .in = 1, .nr = 1,
	  .v = IBSW_SMP_LOCAL, .p_after = 0 },
	{ "ret: switch P=1, permissive: to its SM", .sw = true, .ret = true,
	  .p = 1, .n = 1, .in = 2, .nr = 8, .ip = { 0, 4 }, .rp = { 0, 5 },
	  .v = IBSW_SMP_LOCAL, .p_after = 0, .rp_after = { 0, 5 } },
	{ "ret: switch P=1, DrSLID 0x12: LID-routed on", .sw = true,
	  .ret = true, .p = 1, .n = 1, .slid = KT_LID, .in = 2, .nr = 8,
	  .ip = { 0, 4 }, .rp = { 0, 5 },
	  .v = IBSW_SMP_LID_ROUTE, .p_after = 0, .rp_after = { 0, 5 } },
	{ "ret: CA P=1 with a non-permissive DrDLID", .ret = true, .p = 1,
	  .n = 1, .dlid = KT_LID, .in = 1, .nr = 1, .rp = { 0, 1 },
	  .v = IBSW_SMP_LOCAL, .p_after = 0, .rp_after = { 0, 1 } },

	/* Returning, after the directed part (C14-13:4) */
	{ "ret: CA P=0 unchanged", .ret = true, .p = 0, .n = 2, .in = 1,
	  .nr = 1, .ip = KT_IP_EX, .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_LOCAL, .p_after = 0, .rp_after = { 0, 3, 2 } },
	{ "ret: switch P=0 unchanged", .sw = true, .ret = true, .p = 0,
	  .n = 3, .in = 7, .nr = 8,
	  .v = IBSW_SMP_LOCAL, .p_after = 0 },

	/* Returning errors */
	{ "ret: N=64 dropped", .sw = true, .ret = true, .p = 2, .n = 64,
	  .in = 5, .nr = 8, .rp = { 0, 3 },
	  .v = IBSW_SMP_DROP_HOP_COUNT, .p_after = 2, .rp_after = { 0, 3 } },
	{ "ret: N=255 P=0 dropped", .ret = true, .p = 0, .n = 255, .in = 1,
	  .nr = 1,
	  .v = IBSW_SMP_DROP_HOP_COUNT, .p_after = 0 },
	{ "ret: switch receives P=N+1", .sw = true, .ret = true, .p = 3,
	  .n = 2, .in = 2, .nr = 8, .ip = KT_IP_EX, .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 3,
	  .rp_after = { 0, 3, 2 } },
	{ "ret: CA receives P=N+1", .ret = true, .p = 2, .n = 1, .in = 1,
	  .nr = 1, .rp = { 0, 1 },
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 2, .rp_after = { 0, 1 } },
	{ "ret: P=N+2", .sw = true, .ret = true, .p = 4, .n = 2, .in = 2,
	  .nr = 8, .rp = { 0, 3, 2 },
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 4,
	  .rp_after = { 0, 3, 2 } },
	{ "ret: P=2 N=0", .sw = true, .ret = true, .p = 2, .n = 0, .in = 2,
	  .nr = 8,
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 2 },
	{ "ret: P=255 N=63", .ret = true, .p = 255, .n = 63, .in = 1,
	  .nr = 1,
	  .v = IBSW_SMP_DROP_HOP_PTR, .p_after = 255 },
};

KUNIT_ARRAY_PARAM_DESC(kt_recv, kt_recv_cases, desc);

static void ibsw_smp_route_recv_test(struct kunit *test)
{
	const struct kt_recv_case *c = test->param_value;
	unsigned int out = KT_OUT_POISON;
	struct ib_smp smp, want;

	kt_smp_init(&smp);
	smp.hop_ptr = c->p;
	smp.hop_cnt = c->n;
	if (c->ret)
		smp.status = cpu_to_be16(0x8000);
	if (c->slid)
		smp.dr_slid = cpu_to_be16(c->slid);
	if (c->dlid)
		smp.dr_dlid = cpu_to_be16(c->dlid);
	memcpy(smp.initial_path, c->ip, KT_PATH);
	memcpy(smp.return_path, c->rp, KT_PATH);

	want = smp;
	want.hop_ptr = c->p_after;
	memcpy(want.return_path, c->rp_after, KT_PATH);

	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_recv(&smp, c->sw, c->in, c->nr,
					       &out), c->v);
	KUNIT_EXPECT_EQ(test, out, c->out);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, c->p_after);
	KUNIT_EXPECT_MEMEQ(test, smp.return_path, want.return_path,
			   sizeof(want.return_path));
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));
}

/* ---- the worked example of the reference, out and back ---- */

/*
 * The SM's HCA port 1 is cabled to switch S1 port 3, S1 port 5 to switch
 * S2 port 2. The SM asks S2: N = 2, InitialPath [-, 1, 5]. The HCA's MAD
 * layer has done the sender step, so the SMP leaves it at P = 1.
 */
static void ibsw_smp_route_example_test(struct kunit *test)
{
	struct ib_smp smp, want;
	unsigned int out;

	kt_smp_init(&smp);
	smp.hop_cnt = 2;
	smp.hop_ptr = 1;
	smp.initial_path[1] = 1;
	smp.initial_path[2] = 5;
	want = smp;

	/* S1 receives on port 3 with P = 1: ReturnPath[1] = 3, out port 5 */
	out = KT_OUT_POISON;
	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_recv(&smp, true, 3, 8, &out),
			IBSW_SMP_FORWARD);
	KUNIT_EXPECT_EQ(test, out, 5);
	want.return_path[1] = 3;
	want.hop_ptr = 2;
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));

	/* S2 receives on port 2 with P = N: ReturnPath[2] = 2, P = 3, SMA */
	out = KT_OUT_POISON;
	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_recv(&smp, true, 2, 8, &out),
			IBSW_SMP_LOCAL);
	KUNIT_EXPECT_EQ(test, out, 0);
	want.return_path[2] = 2;
	want.hop_ptr = 3;
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));

	/* S2's SMA answers: GetResp, D, P 3 -> 2, out ReturnPath[2] = 2 */
	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_make_reply(&smp), 2);
	want.method = 0x81;
	want.status = cpu_to_be16(0x8000);
	want.hop_ptr = 2;
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));

	/* S1 receives it on port 5 with P = 2: P = 1, out ReturnPath[1] = 3 */
	out = KT_OUT_POISON;
	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_recv(&smp, true, 5, 8, &out),
			IBSW_SMP_FORWARD);
	KUNIT_EXPECT_EQ(test, out, 3);
	want.hop_ptr = 1;
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));

	/* The HCA receives it on port 1 with P = 1: P = 0, to the SM */
	out = KT_OUT_POISON;
	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_recv(&smp, false, 1, 1, &out),
			IBSW_SMP_LOCAL);
	KUNIT_EXPECT_EQ(test, out, 0);
	want.hop_ptr = 0;
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));

	/* What the SM reads back: its path, and where the SMP came in */
	KUNIT_EXPECT_EQ(test, smp.initial_path[1], 1);
	KUNIT_EXPECT_EQ(test, smp.initial_path[2], 5);
	KUNIT_EXPECT_EQ(test, smp.return_path[1], 3);
	KUNIT_EXPECT_EQ(test, smp.return_path[2], 2);
}

/* ---- the longest path, 63 hops, out and back ---- */

/*
 * Hops 1 to 62 are switches of KT_WALK_PORTS ports, hop 63 the
 * destination (a switch or a CA). The SMP arrives at hop i on port
 * kt_walk_in(i) and leaves it by InitialPath[i + 1] = kt_walk_ip(i + 1).
 */
#define KT_WALK_N	63
#define KT_WALK_PORTS	36

static unsigned int kt_walk_in(unsigned int i)
{
	return (i * 7) % KT_WALK_PORTS + 1;
}

static unsigned int kt_walk_ip(unsigned int i)
{
	return (i * 11) % KT_WALK_PORTS + 1;
}

struct kt_walk_case {
	const char	*desc;
	bool		dest_sw;
};

static const struct kt_walk_case kt_walk_cases[] = {
	{ "to a switch", true },
	{ "to a CA", false },
};

KUNIT_ARRAY_PARAM_DESC(kt_walk, kt_walk_cases, desc);

static void ibsw_smp_route_walk_test(struct kunit *test)
{
	const struct kt_walk_case *c = test->param_value;
	unsigned int i, out, dest_ports = c->dest_sw ? KT_WALK_PORTS : 1;
	unsigned int dest_in = c->dest_sw ? kt_walk_in(KT_WALK_N) : 1;
	struct ib_smp smp, want;

	memset(&smp, 0, sizeof(smp));
	smp.base_version = 1;
	smp.mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	smp.class_version = 1;
	smp.method = IB_MGMT_METHOD_GET;
	smp.tid = cpu_to_be64(0xfedcba9876543210ULL);
	smp.attr_id = IB_SMP_ATTR_PORT_INFO;
	smp.dr_slid = IB_LID_PERMISSIVE;
	smp.dr_dlid = IB_LID_PERMISSIVE;
	smp.hop_cnt = KT_WALK_N;
	smp.hop_ptr = 1;
	for (i = 1; i <= KT_WALK_N; i++)
		smp.initial_path[i] = kt_walk_ip(i);
	want = smp;

	for (i = 1; i < KT_WALK_N; i++) {
		out = KT_OUT_POISON;
		KUNIT_ASSERT_EQ_MSG(test, ibsw_smp_dr_recv(&smp, true,
							   kt_walk_in(i),
							   KT_WALK_PORTS,
							   &out),
				    IBSW_SMP_FORWARD, "out, hop %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out, kt_walk_ip(i + 1), "hop %u", i);
		KUNIT_EXPECT_EQ_MSG(test, smp.hop_ptr, i + 1, "hop %u", i);
	}
	out = KT_OUT_POISON;
	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_recv(&smp, c->dest_sw, dest_in,
					       dest_ports, &out),
			IBSW_SMP_LOCAL);
	KUNIT_EXPECT_EQ(test, out, 0);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 64);
	for (i = 1; i < KT_WALK_N; i++)
		want.return_path[i] = kt_walk_in(i);
	want.return_path[KT_WALK_N] = dest_in;
	want.hop_ptr = 64;
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));

	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_make_reply(&smp), dest_in);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 63);

	/* Back: the switch at hop i receives P = i + 1, sends out its in port */
	for (i = KT_WALK_N - 1; i >= 1; i--) {
		out = KT_OUT_POISON;
		KUNIT_ASSERT_EQ_MSG(test, ibsw_smp_dr_recv(&smp, true,
							   kt_walk_ip(i + 1),
							   KT_WALK_PORTS,
							   &out),
				    IBSW_SMP_FORWARD, "back, hop %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out, kt_walk_in(i), "hop %u", i);
		KUNIT_EXPECT_EQ_MSG(test, smp.hop_ptr, i, "hop %u", i);
	}
	out = KT_OUT_POISON;
	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_recv(&smp, false, 1, 1, &out),
			IBSW_SMP_LOCAL);
	KUNIT_EXPECT_EQ(test, out, 0);

	want.method = 0x81;
	want.status = cpu_to_be16(0x8000);
	want.hop_ptr = 0;
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));
}

/* ---- ibsw_smp_dr_make_reply(): the bytes of the header ---- */

struct kt_reply_case {
	const char	*desc;
	u8		in[64];		/* MAD header and SMP fields */
	u8		rp_n;		/* ReturnPath[HopCount] */
	u8		out[64];	/* the same bytes after */
	unsigned int	port;
};

/*
 * Bytes 0 to 63 of the SMP as they arrive at the SMA and as the reply
 * leaves: byte 3 Method, 4-5 Status (bit 15 D), 6 HopPointer, 7 HopCount,
 * 8-15 TID, 16-17 AttributeID, 20-23 AttributeModifier, 24-31 M_Key,
 * 32-33 DrSLID, 34-35 DrDLID.
 */
static const struct kt_reply_case kt_reply_cases[] = {
	{ "Get NodeInfo, N=2 P=3",
	  { 0x01, 0x81, 0x01, 0x01, 0x00, 0x00, 0x03, 0x02,
	    0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
	    0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  2,
	  { 0x01, 0x81, 0x01, 0x81, 0x80, 0x00, 0x02, 0x02,
	    0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
	    0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  2 },
	{ "Set PortInfo port 5, N=1 P=2, M_Key kept",
	  { 0x01, 0x81, 0x01, 0x02, 0x00, 0x00, 0x02, 0x01,
	    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x0a, 0xbc,
	    0x00, 0x15, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
	    0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04,
	    0xff, 0xff, 0xff, 0xff },
	  7,
	  { 0x01, 0x81, 0x01, 0x81, 0x80, 0x00, 0x01, 0x01,
	    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x0a, 0xbc,
	    0x00, 0x15, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
	    0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04,
	    0xff, 0xff, 0xff, 0xff },
	  7 },
	{ "status 0x000c set by the SMA is kept",
	  { 0x01, 0x81, 0x01, 0x01, 0x00, 0x0c, 0x04, 0x03,
	    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	    0xff, 0x90, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  1,
	  { 0x01, 0x81, 0x01, 0x81, 0x80, 0x0c, 0x03, 0x03,
	    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	    0xff, 0x90, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  1 },
	{ "class version 2 answered with 0x0004",
	  { 0x01, 0x81, 0x02, 0x01, 0x00, 0x04, 0x02, 0x01,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09,
	    0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  3,
	  { 0x01, 0x81, 0x02, 0x81, 0x80, 0x04, 0x01, 0x01,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09,
	    0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  3 },
	{ "N=0 P=1: P=0, no egress port",
	  { 0x01, 0x81, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a,
	    0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  0,
	  { 0x01, 0x81, 0x01, 0x81, 0x80, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a,
	    0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  0 },
	{ "N=63 P=64",
	  { 0x01, 0x81, 0x01, 0x01, 0x00, 0x00, 0x40, 0x3f,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0x00, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  17,
	  { 0x01, 0x81, 0x01, 0x81, 0x80, 0x00, 0x3f, 0x3f,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0x00, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0xff, 0xff, 0xff, 0xff },
	  17 },
	{ "non-permissive DrSLID and DrDLID kept",
	  { 0x01, 0x81, 0x01, 0x01, 0x00, 0x00, 0x02, 0x01,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
	    0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0x00, 0x01, 0x00, 0x12 },
	  4,
	  { 0x01, 0x81, 0x01, 0x81, 0x80, 0x00, 0x01, 0x01,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
	    0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    [32] = 0x00, 0x01, 0x00, 0x12 },
	  4 },
};

KUNIT_ARRAY_PARAM_DESC(kt_reply, kt_reply_cases, desc);

static void ibsw_smp_route_reply_test(struct kunit *test)
{
	const struct kt_reply_case *c = test->param_value;
	u8 buf[sizeof(struct ib_smp)], want[sizeof(struct ib_smp)];
	struct ib_smp *smp = (struct ib_smp *)buf;
	unsigned int i;

	BUILD_BUG_ON(sizeof(struct ib_smp) != 256);
	/* Data, InitialPath and ReturnPath: bytes 64 to 255 */
	for (i = 64; i < sizeof(buf); i++)
		buf[i] = i;
	memcpy(buf, c->in, 64);
	/* ReturnPath[N] is byte 192 + N */
	buf[192 + c->in[7]] = c->rp_n;
	memcpy(want, buf, sizeof(want));
	memcpy(want, c->out, 64);

	KUNIT_EXPECT_EQ(test, ibsw_smp_dr_make_reply(smp), c->port);
	KUNIT_EXPECT_MEMEQ(test, buf, want, 64);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

/* ---- ibsw_smp_reply_hdr(): Method and Status ---- */

struct kt_reply_hdr_case {
	const char	*desc;
	u8		class;
	u8		method;
	u8		status[2];	/* the request's bytes 4-5 */
	u16		sma_status;
	u8		want[3];	/* the reply's bytes 3-5 */
};

static const struct kt_reply_hdr_case kt_reply_hdr_cases[] = {
	{ "DR Get, status 0", 0x81, 0x01, { 0x00, 0x00 }, 0x0000,
	  { 0x81, 0x80, 0x00 } },
	{ "DR Set applied, the requester's status bits dropped", 0x81, 0x02,
	  { 0x2b, 0x83 }, 0x0000, { 0x81, 0x80, 0x00 } },
	{ "DR Get, the SMA's 0x001c, not the requester's 0x0003", 0x81, 0x01,
	  { 0x00, 0x03 }, 0x001c, { 0x81, 0x80, 0x1c } },
	{ "LID-routed Set, status 0xffff in the request", 0x01, 0x02,
	  { 0xff, 0xff }, 0x0000, { 0x81, 0x00, 0x00 } },
	{ "LID-routed Get, the SMA's 0x000c, no D bit", 0x01, 0x01,
	  { 0x00, 0x00 }, 0x000c, { 0x81, 0x00, 0x0c } },
};

KUNIT_ARRAY_PARAM_DESC(kt_reply_hdr, kt_reply_hdr_cases, desc);

static void ibsw_smp_route_reply_hdr_test(struct kunit *test)
{
	const struct kt_reply_hdr_case *c = test->param_value;
	u8 buf[sizeof(struct ib_smp)], want[sizeof(struct ib_smp)];
	struct ib_smp *smp = (struct ib_smp *)buf;
	unsigned int i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i;
	buf[1] = c->class;
	buf[3] = c->method;
	buf[4] = c->status[0];
	buf[5] = c->status[1];
	memcpy(want, buf, sizeof(want));
	memcpy(want + 3, c->want, 3);

	ibsw_smp_reply_hdr(smp, c->sma_status);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

/* ---- ibsw_smp_sma_check() ---- */

struct kt_sma_case {
	const char		*desc;
	u8			base, class, class_version, method;
	u16			status;
	enum ibsw_sma_verdict	v;
};

#define KT_LR	IB_MGMT_CLASS_SUBN_LID_ROUTED
#define KT_DR	IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE

static const struct kt_sma_case kt_sma_cases[] = {
	{ "LID-routed Get", 1, KT_LR, 1, 0x01, 0, IBSW_SMA_ANSWER },
	{ "LID-routed Set", 1, KT_LR, 1, 0x02, 0, IBSW_SMA_ANSWER },
	{ "DR Get", 1, KT_DR, 1, 0x01, 0, IBSW_SMA_ANSWER },
	{ "DR Set", 1, KT_DR, 1, 0x02, 0, IBSW_SMA_ANSWER },
	{ "LID-routed Get, status bit 15 is not D", 1, KT_LR, 1, 0x01,
	  0x8000, IBSW_SMA_ANSWER },
	{ "class version 0", 1, KT_DR, 0, 0x01, 0, IBSW_SMA_BAD_VERSION },
	{ "class version 2", 1, KT_LR, 2, 0x02, 0, IBSW_SMA_BAD_VERSION },
	{ "class version 0x80 (OPA)", 1, KT_DR, 0x80, 0x01, 0,
	  IBSW_SMA_BAD_VERSION },
	{ "class version 2 and Send: version first", 1, KT_LR, 2, 0x03, 0,
	  IBSW_SMA_BAD_VERSION },
	{ "Send", 1, KT_LR, 1, 0x03, 0, IBSW_SMA_BAD_METHOD },
	{ "method 0", 1, KT_DR, 1, 0x00, 0, IBSW_SMA_BAD_METHOD },
	{ "method 0x04", 1, KT_DR, 1, 0x04, 0, IBSW_SMA_BAD_METHOD },
	{ "method 0x08", 1, KT_LR, 1, 0x08, 0, IBSW_SMA_BAD_METHOD },
	{ "method 0x7f", 1, KT_LR, 1, 0x7f, 0, IBSW_SMA_BAD_METHOD },
	{ "GetResp", 1, KT_LR, 1, 0x81, 0, IBSW_SMA_IGNORE },
	{ "DR GetResp", 1, KT_DR, 1, 0x81, 0x8000, IBSW_SMA_IGNORE },
	{ "Trap", 1, KT_LR, 1, 0x05, 0, IBSW_SMA_IGNORE },
	{ "Report", 1, KT_LR, 1, 0x06, 0, IBSW_SMA_IGNORE },
	{ "TrapRepress", 1, KT_DR, 1, 0x07, 0, IBSW_SMA_IGNORE },
	{ "ReportResp", 1, KT_LR, 1, 0x86, 0, IBSW_SMA_IGNORE },
	{ "response method 0x80", 1, KT_LR, 1, 0x80, 0, IBSW_SMA_IGNORE },
	{ "response method 0x82", 1, KT_DR, 1, 0x82, 0, IBSW_SMA_IGNORE },
	{ "GetResp with class version 2 is not answered", 1, KT_DR, 2, 0x81,
	  0x8000, IBSW_SMA_IGNORE },
	{ "Trap with class version 2 is not answered", 1, KT_LR, 2, 0x05, 0,
	  IBSW_SMA_IGNORE },
	{ "DR Get with D set is the SM's", 1, KT_DR, 1, 0x01, 0x8000,
	  IBSW_SMA_IGNORE },
	{ "DR Set with D set and class version 2", 1, KT_DR, 2, 0x02,
	  0x8000, IBSW_SMA_IGNORE },
	{ "base version 0", 0, KT_DR, 1, 0x01, 0, IBSW_SMA_IGNORE },
	{ "base version 2", 2, KT_LR, 1, 0x01, 0, IBSW_SMA_IGNORE },
	{ "base version 0x80 (OPA)", 0x80, KT_DR, 0x80, 0x01, 0,
	  IBSW_SMA_IGNORE },
	{ "SA class", 1, IB_MGMT_CLASS_SUBN_ADM, 2, 0x01, 0,
	  IBSW_SMA_IGNORE },
	{ "PMA class", 1, IB_MGMT_CLASS_PERF_MGMT, 1, 0x01, 0,
	  IBSW_SMA_IGNORE },
	{ "class 0x00", 1, 0x00, 1, 0x01, 0, IBSW_SMA_IGNORE },
};

KUNIT_ARRAY_PARAM_DESC(kt_sma, kt_sma_cases, desc);

static void ibsw_smp_route_sma_check_test(struct kunit *test)
{
	const struct kt_sma_case *c = test->param_value;
	struct ib_smp smp, want;

	kt_smp_init(&smp);
	smp.base_version = c->base;
	smp.mgmt_class = c->class;
	smp.class_version = c->class_version;
	smp.method = c->method;
	smp.status = cpu_to_be16(c->status);
	smp.hop_cnt = 1;
	smp.hop_ptr = 2;
	want = smp;

	KUNIT_EXPECT_EQ(test, ibsw_smp_sma_check(&smp), c->v);
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(want));
}

/* ---- M_Key (IBA vol 1, 14.2.4) ---- */

#define KT_KEY		0x1122334455667788ULL

struct kt_mkey_case {
	const char		*desc;
	u64			port_key;
	u8			protect;
	u8			method;
	u64			smp_key;
	enum ibsw_mkey_verdict	verdict;
};

/* The port's M_Key is KT_KEY unless the case says otherwise */
#define KT_MKEY(d, prot, m, key, v)					\
	{ d, KT_KEY, prot, IB_MGMT_METHOD_##m, key, IBSW_MKEY_##v }

static const struct kt_mkey_case kt_mkey_cases[] = {
	KT_MKEY("level 0, Get, right key", 0, GET, KT_KEY, VALID),
	KT_MKEY("level 0, Get, wrong key", 0, GET, KT_KEY + 1, READ),
	KT_MKEY("level 0, Set, right key", 0, SET, KT_KEY, VALID),
	KT_MKEY("level 0, Set, wrong key", 0, SET, KT_KEY + 1, VIOLATION),
	KT_MKEY("level 0, TrapRepress, right key", 0, TRAP_REPRESS, KT_KEY, VALID),
	KT_MKEY("level 0, TrapRepress, wrong key", 0, TRAP_REPRESS,
		KT_KEY + 1, VIOLATION),
	KT_MKEY("level 1, Get, right key", 1, GET, KT_KEY, VALID),
	KT_MKEY("level 1, Get, wrong key", 1, GET, KT_KEY + 1, READ_HIDDEN),
	KT_MKEY("level 1, Set, right key", 1, SET, KT_KEY, VALID),
	KT_MKEY("level 1, Set, wrong key", 1, SET, KT_KEY + 1, VIOLATION),
	KT_MKEY("level 1, TrapRepress, right key", 1, TRAP_REPRESS, KT_KEY, VALID),
	KT_MKEY("level 1, TrapRepress, wrong key", 1, TRAP_REPRESS,
		KT_KEY + 1, VIOLATION),
	KT_MKEY("level 2, Get, right key", 2, GET, KT_KEY, VALID),
	KT_MKEY("level 2, Get, wrong key", 2, GET, KT_KEY + 1, VIOLATION),
	KT_MKEY("level 2, Set, right key", 2, SET, KT_KEY, VALID),
	KT_MKEY("level 2, Set, wrong key", 2, SET, KT_KEY + 1, VIOLATION),
	KT_MKEY("level 2, TrapRepress, right key", 2, TRAP_REPRESS, KT_KEY, VALID),
	KT_MKEY("level 2, TrapRepress, wrong key", 2, TRAP_REPRESS,
		KT_KEY + 1, VIOLATION),
	KT_MKEY("level 3, Get, right key", 3, GET, KT_KEY, VALID),
	KT_MKEY("level 3, Get, wrong key", 3, GET, KT_KEY + 1, VIOLATION),
	KT_MKEY("level 3, Set, right key", 3, SET, KT_KEY, VALID),
	KT_MKEY("level 3, Set, wrong key", 3, SET, KT_KEY + 1, VIOLATION),
	KT_MKEY("level 3, TrapRepress, right key", 3, TRAP_REPRESS, KT_KEY, VALID),
	KT_MKEY("level 3, TrapRepress, wrong key", 3, TRAP_REPRESS,
		KT_KEY + 1, VIOLATION),
	KT_MKEY("level 3, Get, key 0", 3, GET, 0, VIOLATION),
	KT_MKEY("level 1, Set, key with one bit off", 1, SET,
		KT_KEY ^ BIT_ULL(63), VIOLATION),
	{ "port M_Key 0, level 3: Get with any key", 0, 3, IB_MGMT_METHOD_GET,
	  KT_KEY, IBSW_MKEY_VALID },
	{ "port M_Key 0, level 3: Set with any key", 0, 3, IB_MGMT_METHOD_SET,
	  KT_KEY, IBSW_MKEY_VALID },
	{ "port M_Key 0, level 2: TrapRepress", 0, 2,
	  IB_MGMT_METHOD_TRAP_REPRESS, 1, IBSW_MKEY_VALID },
	KT_MKEY("level 3, GetResp: not checked", 3, GET_RESP, KT_KEY + 1,
		VALID),
	KT_MKEY("level 3, Trap: not checked", 3, TRAP, KT_KEY + 1, VALID),
};

KUNIT_ARRAY_PARAM_DESC(kt_mkey, kt_mkey_cases, desc);

static void ibsw_smp_route_mkey_test(struct kunit *test)
{
	const struct kt_mkey_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_smp_mkey_check(c->method, c->smp_key,
						  c->port_key, c->protect),
			c->verdict);
}

static struct kunit_case ibsw_smp_route_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_smp_route_recv_test, kt_recv_gen_params),
	KUNIT_CASE(ibsw_smp_route_example_test),
	KUNIT_CASE_PARAM(ibsw_smp_route_walk_test, kt_walk_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_route_reply_test, kt_reply_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_route_reply_hdr_test, kt_reply_hdr_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_route_sma_check_test, kt_sma_gen_params),
	KUNIT_CASE_PARAM(ibsw_smp_route_mkey_test, kt_mkey_gen_params),
	{}
};

static struct kunit_suite ibsw_smp_route_test_suite = {
	.name = "ibsw_smp_route",
	.test_cases = ibsw_smp_route_test_cases,
};

kunit_test_suite(ibsw_smp_route_test_suite);

MODULE_DESCRIPTION("KUnit tests for ibsw directed-route SMP processing");
MODULE_LICENSE("GPL");
