// SPDX-License-Identifier: GPL-2.0
/*
 * tcgprof: a QEMU TCG plugin that counts the guest instructions each
 * translated block executes, for a profile of a guest that perf cannot
 * sample (under TCG, perf's cpu-clock lands in the idle loop).
 *
 * Every block translated gets a record (its start address, its number of
 * instructions) and an inline counter that its execution increments.
 * A thread polls for the file DIR/tcgprof.snap (dir= argument: a
 * directory the guest can write, such as the test VM's share); when it
 * appears it writes every record with its count so far to
 * DIR/tcgprof-LABEL.txt, LABEL being the trigger file's first line, and
 * removes the trigger: the guest waits for that to know the snapshot is
 * taken. Two snapshots around a workload, subtracted, give the
 * instructions it ran, per block (scripts/tcg-profile).
 *
 * Counts are exact with single-threaded TCG (one host thread runs every
 * vCPU); with MTTCG two vCPUs running one block at once may lose
 * increments (inline adds are not atomic).
 *
 * The plugin API of QEMU 7.2 (version 1) is declared in qemu_plugin_api.h:
 * Debian ships QEMU with plugins enabled but not their header.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu_plugin_api.h"

PLUGIN_EXPORT int qemu_plugin_version = 1;

/* ---- the records ---- */

struct block {
	uint64_t vaddr;
	uint64_t count;		/* executions, incremented inline */
	uint32_t insns;
};

/*
 * Chunks never move once allocated, so the snapshot thread reads records
 * while the vCPU thread adds more; @nr_blocks is published after the
 * record it counts is filled in.
 */
#define CHUNK_SHIFT	16
#define CHUNK_SIZE	65536u	/* 1 << CHUNK_SHIFT */
#define MAX_CHUNKS	1024

static struct block *chunks[MAX_CHUNKS];
static uint64_t nr_blocks;
/* MTTCG translates on several vCPU threads at once */
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static char dir[4096];
static pthread_t poller;
static bool stopping;	/* read and written with __atomic builtins */

static struct block *block_new(void)
{
	uint64_t n = __atomic_load_n(&nr_blocks, __ATOMIC_RELAXED);
	unsigned int c = n >> CHUNK_SHIFT;

	if (c >= MAX_CHUNKS)
		return NULL;
	if (!chunks[c]) {
		chunks[c] = calloc(CHUNK_SIZE, sizeof(struct block));
		if (!chunks[c])
			return NULL;
	}
	return &chunks[c][n & (CHUNK_SIZE - 1)];
}

static void tb_trans(uint64_t id, struct qemu_plugin_tb *tb)
{
	struct block *b;

	(void)id;
	pthread_mutex_lock(&blocks_lock);
	b = block_new();
	if (b) {
		b->vaddr = qemu_plugin_tb_vaddr(tb);
		b->insns = qemu_plugin_tb_n_insns(tb);
		b->count = 0;
		__atomic_store_n(&nr_blocks, nr_blocks + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&blocks_lock);
	if (b)
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &b->count, 1);
}

/* Every record executed at least once: "vaddr insns count" */
static int snapshot(const char *label)
{
	uint64_t n = __atomic_load_n(&nr_blocks, __ATOMIC_ACQUIRE), i;
	char path[4200], tmp[4300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tcgprof-%s.txt", dir, label);
	snprintf(tmp, sizeof(tmp), "%s.part", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	for (i = 0; i < n; i++) {
		const struct block *b = &chunks[i >> CHUNK_SHIFT][i & (CHUNK_SIZE - 1)];
		uint64_t count = __atomic_load_n(&b->count, __ATOMIC_RELAXED);

		if (count)
			fprintf(f, "%llx %u %llu\n", (unsigned long long)b->vaddr,
				b->insns, (unsigned long long)count);
	}
	if (fclose(f))
		return -errno;
	return rename(tmp, path) ? -errno : 0;
}

/* A label: letters, digits, '-', '_' and '.', not empty */
static bool label_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || *s == '-' || *s == '_' ||
		      *s == '.'))
			return false;
	return true;
}

static void *poll_trigger(void *arg)
{
	char trigger[4200], label[256];

	(void)arg;
	snprintf(trigger, sizeof(trigger), "%s/tcgprof.snap", dir);
	while (!__atomic_load_n(&stopping, __ATOMIC_RELAXED)) {
		FILE *f = fopen(trigger, "r");

		if (!f) {
			usleep(20000);
			continue;
		}
		if (!fgets(label, sizeof(label), f))
			label[0] = 0;
		fclose(f);
		label[strcspn(label, "\r\n")] = 0;
		if (!label_ok(label))
			fprintf(stderr, "tcgprof: bad label in %s\n", trigger);
		else if (snapshot(label))
			fprintf(stderr, "tcgprof: cannot write %s/tcgprof-%s.txt\n",
				dir, label);
		unlink(trigger);
	}
	return NULL;
}

static void at_exit(uint64_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	__atomic_store_n(&stopping, true, __ATOMIC_RELAXED);
	pthread_join(poller, NULL);
	snapshot("exit");
}

PLUGIN_EXPORT int qemu_plugin_install(uint64_t id,
				      const struct qemu_info *info,
				      int argc, char **argv)
{
	int i;

	if (!info->system_emulation) {
		fprintf(stderr, "tcgprof: system emulation only\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "dir=", 4) &&
		    strlen(argv[i] + 4) < sizeof(dir)) {
			snprintf(dir, sizeof(dir), "%s", argv[i] + 4);
		} else {
			fprintf(stderr, "tcgprof: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!dir[0]) {
		fprintf(stderr, "tcgprof: dir=DIR is needed\n");
		return -1;
	}
	if (pthread_create(&poller, NULL, poll_trigger, NULL))
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
