// SPDX-License-Identifier: GPL-2.0
/*
 * Port counters, a switch port's or a management HCA's: per-cpu
 * u64_stats (the datapath counts with ibsw.h's inline ibsw_stats_*() and
 * ibsw_stat_*()), summed when read.
 *
 * Clearing does not touch the per-cpu values: it records the current sums
 * as a baseline (for a switch port, under RTNL) that readers subtract.
 * Writers stay lock-free and a reader racing with a clear sees either the
 * old or the new baseline, never a torn per-cpu value. PortXmitWait,
 * PortXmitTimeCong and the FECN-marked packets are not here: the output
 * engine keeps them under its lock, where it decides them (engine.c).
 */

#include <kunit/visibility.h>
#include <linux/percpu.h>
#include <linux/rtnetlink.h>

#include "engine.h"

const char * const ibsw_counter_names[IBSW_NR_COUNTERS] = {
	[IBSW_CNT_XMIT_DATA]			= "port_xmit_data",
	[IBSW_CNT_RCV_DATA]			= "port_rcv_data",
	[IBSW_CNT_XMIT_PKTS]			= "port_xmit_packets",
	[IBSW_CNT_RCV_PKTS]			= "port_rcv_packets",
	[IBSW_CNT_XMIT_WAIT]			= "port_xmit_wait",
	[IBSW_CNT_XMIT_DISCARDS]		= "port_xmit_discards",
	[IBSW_CNT_RCV_ERRORS]			= "port_rcv_errors",
	[IBSW_CNT_RCV_SWITCH_RELAY_ERRORS]	= "port_rcv_switch_relay_errors",
	[IBSW_CNT_RCV_FOREIGN]			= "rcv_foreign",
	[IBSW_CNT_RCV_VL_DISCARDS]		= "rcv_vl_discards",
	[IBSW_CNT_RCV_OVERSIZE]			= "rcv_oversize",
	[IBSW_CNT_NEIGH_REPLIES]		= "neigh_replies",
	[IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS] =
		"excessive_buffer_overrun_errors",
	[IBSW_CNT_XMIT_TIME_CONG]		= "port_xmit_time_cong",
	[IBSW_CNT_XMIT_FECN]			= "port_xmit_fecn",
	[IBSW_CNT_RCV_FECN]			= "port_rcv_fecn",
	[IBSW_CNT_RCV_BECN]			= "port_rcv_becn",
	[IBSW_CNT_XMIT_LATE]			= "xmit_late",
	[IBSW_CNT_HCA_DISCARDS]			= "hca_discards",
	[IBSW_CNT_RCV_CONSTRAINT_ERRORS]	= "port_rcv_constraint_errors",
	[IBSW_CNT_VL15_DROPPED]			= "vl15_dropped",
	[IBSW_CNT_MKEY_VIOLATIONS]		= "mkey_violations",
	[IBSW_CNT_INACTIVE_DISCARDS]		= "port_inactive_discards",
	[IBSW_CNT_HOQ_DISCARDS]			=
		"port_sw_hoq_lifetime_limit_discards",
};

/**
 * ibsw_stats_alloc() - allocate a set of counters, all 0
 * @st: the counters
 *
 * Return: 0 or -ENOMEM.
 */
int ibsw_stats_alloc(struct ibsw_stats *st)
{
	int cpu;

	st->pcpu = alloc_percpu(struct ibsw_pcpu_stats);
	if (!st->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(st->pcpu, cpu)->syncp);
	return 0;
}

void ibsw_stats_free(struct ibsw_stats *st)
{
	free_percpu(st->pcpu);
	st->pcpu = NULL;
}

/* Raw sums over all CPUs: data in bytes */
static void ibsw_stats_sum(const struct ibsw_stats *st,
			   u64 *sum, u64 (*vl_sum)[IBSW_NR_PCPU_VL_COUNTERS])
{
	int cpu, i, v;

	memset(sum, 0, sizeof(u64) * IBSW_NR_COUNTERS);
	memset(vl_sum, 0, sizeof(u64) * IBSW_NR_DATA_VLS * IBSW_NR_PCPU_VL_COUNTERS);
	for_each_possible_cpu(cpu) {
		const struct ibsw_pcpu_stats *s = per_cpu_ptr(st->pcpu, cpu);
		u64 p[IBSW_NR_COUNTERS];
		u64 q[IBSW_NR_DATA_VLS][IBSW_NR_PCPU_VL_COUNTERS];
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < IBSW_NR_COUNTERS; i++)
				p[i] = u64_stats_read(&s->port[i]);
			for (v = 0; v < IBSW_NR_DATA_VLS; v++)
				for (i = 0; i < IBSW_NR_PCPU_VL_COUNTERS; i++)
					q[v][i] = u64_stats_read(&s->vl[v][i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));

		for (i = 0; i < IBSW_NR_COUNTERS; i++)
			sum[i] += p[i];
		for (v = 0; v < IBSW_NR_DATA_VLS; v++)
			for (i = 0; i < IBSW_NR_PCPU_VL_COUNTERS; i++)
				vl_sum[v][i] += q[v][i];
	}
}

static u64 ibsw_stat_report(unsigned int i, u64 raw, u64 base)
{
	u64 val = raw > base ? raw - base : 0;

	if (i == IBSW_CNT_XMIT_DATA || i == IBSW_CNT_RCV_DATA)
		val /= 4;	/* 32-bit words, as the IBA counts */
	return val;
}

/**
 * ibsw_stats_report() - counters since their last clear, as reported
 * @st: the counters
 * @cnt: port counters; data in 32-bit words; those the engines keep 0
 * @vl_cnt: per-VL counters, %IBSW_NR_DATA_VLS entries, or NULL
 *
 * Context: process context.
 * Return: 0, or -ENOMEM (all reported 0).
 */
int ibsw_stats_report(const struct ibsw_stats *st, struct ibsw_counters *cnt,
		      struct ibsw_counters *vl_cnt)
{
	u64 (*vl_sum)[IBSW_NR_PCPU_VL_COUNTERS];
	u64 sum[IBSW_NR_COUNTERS];
	unsigned int i, v;

	memset(cnt, 0, sizeof(*cnt));
	if (vl_cnt)
		memset(vl_cnt, 0, sizeof(*vl_cnt) * IBSW_NR_DATA_VLS);
	vl_sum = kmalloc_array(IBSW_NR_DATA_VLS, sizeof(*vl_sum), GFP_KERNEL);
	if (!vl_sum)
		return -ENOMEM;
	ibsw_stats_sum(st, sum, vl_sum);
	for (i = 0; i < IBSW_NR_COUNTERS; i++)
		cnt->val[i] = ibsw_stat_report(i, sum[i],
					       READ_ONCE(st->base[i]));
	for (v = 0; vl_cnt && v < IBSW_NR_DATA_VLS; v++)
		for (i = 0; i < IBSW_NR_PCPU_VL_COUNTERS; i++)
			vl_cnt[v].val[i] =
				ibsw_stat_report(i, vl_sum[v][i],
						 READ_ONCE(st->vl_base[v][i]));
	kfree(vl_sum);
	return 0;
}

/**
 * ibsw_stats_reset() - clear some counters
 * @st: the counters
 * @cnt: port-wide counters, BIT(enum ibsw_counter)
 * @vl_cnt: per-VL counters (of the per-cpu ones), likewise
 * @vls: the VLs of @vl_cnt
 *
 * Context: process context; the caller keeps two resets of @st apart
 * (for a switch port, RTNL).
 * Return: 0 or -ENOMEM (nothing cleared).
 */
int ibsw_stats_reset(struct ibsw_stats *st, u32 cnt, u32 vl_cnt, u16 vls)
{
	u64 (*vl_sum)[IBSW_NR_PCPU_VL_COUNTERS];
	u64 sum[IBSW_NR_COUNTERS];
	unsigned int i, v;

	vl_sum = kmalloc_array(IBSW_NR_DATA_VLS, sizeof(*vl_sum), GFP_KERNEL);
	if (!vl_sum)
		return -ENOMEM;
	ibsw_stats_sum(st, sum, vl_sum);
	for (i = 0; i < IBSW_NR_COUNTERS; i++)
		if (cnt & BIT(i))
			WRITE_ONCE(st->base[i], sum[i]);
	for (v = 0; v < IBSW_NR_DATA_VLS; v++)
		for (i = 0; i < IBSW_NR_PCPU_VL_COUNTERS; i++)
			if (vls & BIT(v) && vl_cnt & BIT(i))
				WRITE_ONCE(st->vl_base[v][i], vl_sum[v][i]);
	kfree(vl_sum);
	return 0;
}

/**
 * ibsw_stats_read() - the counters of a port, as reported
 * @port: the port
 * @cnt: port counters; data in 32-bit words, PortXmitWait and
 *	PortXmitTimeCong in ticks
 * @vl_cnt: per-VL counters, %IBSW_NR_DATA_VLS entries, or NULL
 *
 * Context: process context (takes the engine lock with BH disabled).
 */
void ibsw_stats_read(struct ibsw_port *port, struct ibsw_counters *cnt,
		     struct ibsw_counters *vl_cnt)
{
	struct ibsw_engine_cnt *ec;
	unsigned int v;

	ec = kmalloc(sizeof(*ec), GFP_KERNEL);
	if (!ec || ibsw_stats_report(&port->stats, cnt, vl_cnt)) {
		memset(cnt, 0, sizeof(*cnt));
		if (vl_cnt)
			memset(vl_cnt, 0, sizeof(*vl_cnt) * IBSW_NR_DATA_VLS);
		goto out;
	}
	ibsw_engine_read_cnt(port->out, ec);
	cnt->val[IBSW_CNT_XMIT_WAIT] = ec->wait[IBSW_WAIT_PORT];
	cnt->val[IBSW_CNT_XMIT_TIME_CONG] = ec->time_cong[IBSW_CC_PORT];
	cnt->val[IBSW_CNT_XMIT_FECN] = ec->fecn[IBSW_CC_PORT];
	cnt->val[IBSW_CNT_XMIT_LATE] = ec->late;
	for (v = 0; vl_cnt && v < IBSW_NR_DATA_VLS; v++) {
		vl_cnt[v].val[IBSW_CNT_XMIT_WAIT] = ec->wait[v];
		vl_cnt[v].val[IBSW_CNT_XMIT_TIME_CONG] = ec->time_cong[v];
		vl_cnt[v].val[IBSW_CNT_XMIT_FECN] = ec->fecn[v];
	}
	/* A host port's link is late in either direction */
	ibsw_engine_read_cnt(port->hca, ec);
	cnt->val[IBSW_CNT_XMIT_LATE] += ec->late;
out:
	kfree(ec);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_stats_read);

/**
 * ibsw_stats_clear_sel() - reset some counters of a port
 * @port: the port
 * @cnt: port-wide counters, BIT(enum ibsw_counter)
 * @vl_cnt: per-VL counters (of %IBSW_VL_COUNTERS), likewise
 * @vls: the VLs of @vl_cnt
 *
 * What a PMA Set with a CounterSelect resets; the others run on.
 *
 * Context: RTNL.
 * Return: 0 or -ENOMEM.
 */
int ibsw_stats_clear_sel(struct ibsw_port *port, u32 cnt, u32 vl_cnt,
			 u16 vls)
{
	int err;

	ASSERT_RTNL();
	err = ibsw_stats_reset(&port->stats, cnt, vl_cnt, vls);
	if (!err)
		ibsw_engine_clear_sel(port->out, cnt, vl_cnt, vls);
	return err;
}

/**
 * ibsw_stats_clear() - reset the counters of a port
 * @port: the port
 *
 * Context: RTNL.
 * Return: 0 or -ENOMEM.
 */
int ibsw_stats_clear(struct ibsw_port *port)
{
	int err = ibsw_stats_clear_sel(port, U32_MAX, U32_MAX, U16_MAX);

	if (!err)
		ibsw_engine_clear_cnt(port->hca);
	return err;
}
