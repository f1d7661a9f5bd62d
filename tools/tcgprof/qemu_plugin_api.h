/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin API (version 1, QEMU 7.2) that tcgprof
 * uses, declared from its documented ABI: Debian builds QEMU with plugins
 * but ships no header for them. The plugin ID and the info block are
 * spelled as plain types rather than QEMU's typedefs; their layout is the
 * same.
 */
#ifndef TCGPROF_QEMU_PLUGIN_API_H
#define TCGPROF_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLUGIN_EXPORT __attribute__((visibility("default")))

struct qemu_plugin_tb;

/* qemu_info_t */
struct qemu_info {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
};

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(uint64_t id,
					   void (*cb)(uint64_t id,
						      struct qemu_plugin_tb *tb));
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(uint64_t id,
				    void (*cb)(uint64_t id, void *userdata),
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

/* What the plugin exports: its entry point and the API it was built for */
PLUGIN_EXPORT int qemu_plugin_install(uint64_t id,
				      const struct qemu_info *info,
				      int argc, char **argv);
extern PLUGIN_EXPORT int qemu_plugin_version;

#endif /* TCGPROF_QEMU_PLUGIN_API_H */
