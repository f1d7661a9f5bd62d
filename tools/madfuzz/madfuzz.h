/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ibsw-mad-fuzz: requests for the management agents of an ibsw fabric
 * (the switches' SMA, PMA and congestion control agent, the emulated CAs'
 * SMA, rxe's PMA and CC agent), each a valid request of a class with one
 * or a few of its fields changed, and the checks of what comes back.
 *
 * This part is pure: a seeded generator, the wire encodings and the
 * comparison of what a target holds before and after a request; main.c
 * sends them through libibumad.
 */
#ifndef MADFUZZ_H
#define MADFUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MF_MAD_SIZE		256
#define MF_DATA			64	/* the data area: SMP, PMA and CC */
#define MF_SMP_DATA_SIZE	64
#define MF_GMP_DATA_SIZE	192
#define MF_CC_KEY		24	/* CC_Key in a CC MAD's header */

/* Management classes and their class versions */
#define MF_CLASS_SMI_DR		0x81
#define MF_CLASS_PMA		0x04
#define MF_CLASS_CC		0x21

/* Methods */
#define MF_GET			0x01
#define MF_SET			0x02
#define MF_SEND			0x03
#define MF_TRAP			0x05
#define MF_REPORT		0x06
#define MF_TRAP_REPRESS		0x07
#define MF_GET_RESP		0x81

/* SMP attributes */
#define MF_SMP_NODE_DESC	0x0010
#define MF_SMP_NODE_INFO	0x0011
#define MF_SMP_SWITCH_INFO	0x0012
#define MF_SMP_GUID_INFO	0x0014
#define MF_SMP_PORT_INFO	0x0015
#define MF_SMP_PKEY_TABLE	0x0016
#define MF_SMP_SL2VL		0x0017
#define MF_SMP_VLARB		0x0018
#define MF_SMP_LFT		0x0019
#define MF_SMP_MFT		0x001b

/* CC attributes (annex A10) */
#define MF_CC_CLASS_PORT_INFO	0x0001
#define MF_CC_INFO		0x0011
#define MF_CC_KEY_INFO		0x0012
#define MF_CC_LOG		0x0013
#define MF_CC_SW_SETTING	0x0014
#define MF_CC_SW_PORT_SETTING	0x0015
#define MF_CC_CA_SETTING	0x0016
#define MF_CC_CCT		0x0017
#define MF_CC_TIMESTAMP		0x0018

/* PMA attributes */
#define MF_PMA_CLASS_PORT_INFO	0x0001
#define MF_PMA_SAMPLES_CONTROL	0x0010
#define MF_PMA_PORT_COUNTERS	0x0012
#define MF_PMA_RCV_ERROR_DETAILS 0x0015
#define MF_PMA_XMIT_DISCARD_DETAILS 0x0016
#define MF_PMA_VL_XMIT_WAIT	0x001c
#define MF_PMA_PORT_COUNTERS_EXT 0x001d

/* A seeded generator (splitmix64): the same seed, the same requests */
struct mf_rng {
	uint64_t s;
};

uint64_t mf_rand(struct mf_rng *r);
/* A number below n (n > 0) */
uint32_t mf_below(struct mf_rng *r, uint32_t n);

/**
 * struct mf_target - what is fuzzed, as far as the fuzzer knows it
 * @mgmt_class: MF_CLASS_SMI_DR, _PMA or _CC
 * @path: SMI_DR: the initial path (path[0] is 0), @hops entries after it
 * @hops: SMI_DR: the hop count, 1 to 63
 * @is_switch: a switch (ports 0 to @nr_ports) or a CA (port 1)
 * @nr_ports: NodeInfo's NumPorts
 * @entry_port: SMI_DR: the port the requests come in on; a Set of its
 *	PortInfo never changes what could cut the fuzzer off
 * @key: the M_Key or CC_Key the target holds, as far as known
 */
struct mf_target {
	uint8_t		mgmt_class;
	uint8_t		path[64];
	unsigned int	hops;
	bool		is_switch;
	unsigned int	nr_ports;
	unsigned int	entry_port;
	uint64_t	key;
};

/* An attribute and modifier to read, and what it held */
struct mf_read {
	uint16_t	attr;
	uint32_t	mod;
};

/* The answers to Gets a generated Set starts from, by attribute and mod */
#define MF_CACHE_SIZE	64
struct mf_cache {
	struct {
		bool		used;
		uint16_t	attr;
		uint32_t	mod;
		uint8_t		data[MF_GMP_DATA_SIZE];
	} e[MF_CACHE_SIZE];
};

void mf_cache_put(struct mf_cache *c, uint16_t attr, uint32_t mod,
		  const uint8_t *data, size_t len);
const uint8_t *mf_cache_get(const struct mf_cache *c, uint16_t attr,
			    uint32_t mod);

/* What was changed from a valid request */
enum mf_change {
	MF_CHANGE_NONE		= 0,
	MF_CHANGE_DATA		= 1 << 0,	/* data bytes or bits */
	MF_CHANGE_MOD		= 1 << 1,	/* an unusual modifier */
	MF_CHANGE_ATTR		= 1 << 2,	/* an unknown attribute */
	MF_CHANGE_METHOD	= 1 << 3,	/* not Get or Set */
	MF_CHANGE_HEADER	= 1 << 4,	/* versions, status, reserved */
	MF_CHANGE_ROUTE		= 1 << 5,	/* DR path, hop pointer/count */
	MF_CHANGE_KEY		= 1 << 6,	/* a wrong M_Key/CC_Key */
};

/**
 * struct mf_request - one generated request
 * @mad: the MAD, as sent
 * @method, @attr, @mod: its method, attribute and modifier
 * @changes: enum mf_change bits
 */
struct mf_request {
	uint8_t		mad[MF_MAD_SIZE];
	uint8_t		method;
	uint16_t	attr;
	uint32_t	mod;
	unsigned int	changes;
};

/* The header of a valid request of the target's class, data zero */
void mf_mad_init(uint8_t mad[MF_MAD_SIZE], const struct mf_target *t,
		 uint8_t method, uint16_t attr, uint32_t mod, uint64_t tid);

/* A valid Get of attr/mod */
void mf_get(struct mf_request *q, const struct mf_target *t, uint16_t attr,
	    uint32_t mod, uint64_t tid);

/*
 * A generated request: a Get or Set of an attribute the class has (a Set
 * starts from the cached answer to a Get of it), with changes.
 */
void mf_generate(struct mf_rng *r, const struct mf_target *t,
		 const struct mf_cache *c, uint64_t tid, struct mf_request *q);

/*
 * What to read before and after a request to see whether it changed the
 * target: a fixed few, and the attribute and modifier of the request when
 * the class can Get them. Returns how many (at most max).
 */
unsigned int mf_reads(const struct mf_target *t, const struct mf_request *q,
		      struct mf_read *reads, unsigned int max);

/*
 * Whether two answers to a Get of attr are the same but for what may
 * change on its own (the violation counters, a log, a time stamp). Sets
 * *at to the first byte that differs.
 */
bool mf_same(uint8_t mgmt_class, uint16_t attr, const uint8_t *a,
	     const uint8_t *b, size_t *at);

/*
 * Whether a request may change the target (an answered Set or a route
 * that may reach another node)
 */
bool mf_may_change(const struct mf_request *q);

/*
 * Whether an answer fits its request: a response method, the same TID,
 * class and attribute; for a directed-route SMP the direction bit set.
 * Returns NULL, or why not.
 */
const char *mf_answer_check(const struct mf_request *q, const uint8_t *ans);

/* An answer's status (for a directed-route SMP without the D bit) */
uint16_t mf_status(const uint8_t *mad);

/*
 * The data of a Set that gives the target @key back, unprotected: from
 * the answer to a Get of PortInfo (SMI) or CongestionKeyInfo (CC), and
 * changing nothing else.
 */
void mf_unprotect(uint8_t mgmt_class, uint8_t *data, uint64_t key);

/*
 * After an answered Set with status 0: the key the target now holds (a
 * PortInfo Set of a CA or of a switch's port 0, a CongestionKeyInfo Set).
 */
void mf_learn(struct mf_target *t, const struct mf_request *q);

uint16_t mf_get16(const uint8_t *p);
uint32_t mf_get32(const uint8_t *p);
uint64_t mf_get64(const uint8_t *p);
void mf_put16(uint8_t *p, uint16_t v);
void mf_put32(uint8_t *p, uint32_t v);
void mf_put64(uint8_t *p, uint64_t v);

#endif /* MADFUZZ_H */
