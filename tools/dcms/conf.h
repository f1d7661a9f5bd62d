/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Configuration of dcms: the daemon's keys (thresholds, sweep interval,
 * logs) and the static congestion control manager's, which are OpenSM's
 * cc_* option names. One file format for both: "KEY VALUE" or
 * "KEY = VALUE" per line, '#' starts a comment. Documentation/dcms.md lists
 * every key with its unit.
 */
#ifndef DCMS_CONF_H
#define DCMS_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcms_algo.h"

#ifndef __printf
#define __printf(a, b) __attribute__(\
	(format(printf, a, b)))
#endif

#define CONF_MAX_ERRORS		20
#define CONF_MAX_CSV_PORTS	64
#define CC_MASK_LEN		32	/* a 256-bit port mask */
#define CC_NR_SLS		16
#define CC_CCT_MAX		128	/* CCT entries, as OpenSM supports */

/* Error messages, "WHERE:LINE: reason" */
struct conf_diag {
	unsigned int count;
	bool truncated;
	char *msg[CONF_MAX_ERRORS];
};

void conf_diag_init(struct conf_diag *diag);
void conf_diag_free(struct conf_diag *diag);
void conf_diag_print(FILE *f, const struct conf_diag *diag);
void conf_diag_add(struct conf_diag *diag, const char *fmt, ...) __printf(2, 3);

enum conf_neighbours {
	CONF_NEIGH_NETLINK,	/* N(s, p) from the backend: port-get, or the discovery */
	CONF_NEIGH_TOPOLOGY,	/* from the topology file */
};

/* How dcms reaches the switches (backend.h) */
enum conf_backend {
	CONF_BACKEND_NETLINK,	/* the ibsw generic netlink family */
	CONF_BACKEND_MAD,	/* PerfMgt and CC MADs through umad */
};

#define CONF_CA_NAME_MAX	63

struct conf_port {
	char sw[DCMS_NAME_MAX + 1];
	unsigned int port;
};

/* SwitchCongestionSetting: the cc_sw_cong_setting_* keys given */
#define CC_SW_CONTROL_MAP	0x01
#define CC_SW_VICTIM_MASK	0x02
#define CC_SW_CREDIT_MASK	0x04
#define CC_SW_THRESHOLD		0x08
#define CC_SW_PACKET_SIZE	0x10
#define CC_SW_CS_THRESHOLD	0x20
#define CC_SW_CS_RETURN_DELAY	0x40
#define CC_SW_MARKING_RATE	0x80

struct cc_sw_setting {
	unsigned int set;		/* CC_SW_* */
	uint32_t control_map;
	uint8_t victim_mask[CC_MASK_LEN];	/* big-endian, bit n = port n */
	uint8_t credit_mask[CC_MASK_LEN];
	uint8_t threshold;
	uint8_t packet_size;
	uint8_t cs_threshold;
	uint16_t cs_return_delay;	/* shift << 14 | multiplier */
	uint16_t marking_rate;
};

/* CACongestionSetting and the CongestionControlTable */
#define CC_CA_PORT_CONTROL	0x01
#define CC_CA_CONTROL_MAP	0x02
#define CC_CA_CCT		0x04

#define CC_CA_SL_TIMER		0x01
#define CC_CA_SL_INCREASE	0x02
#define CC_CA_SL_TRIGGER	0x04
#define CC_CA_SL_MIN		0x08

struct cc_ca_entry {
	unsigned int set;		/* CC_CA_SL_* */
	uint16_t ccti_timer;		/* 1.024 us units */
	uint8_t ccti_increase;
	uint8_t trigger_threshold;
	uint8_t ccti_min;
};

struct cc_cct_entry {
	uint8_t shift;			/* 0-3 */
	uint16_t multiplier;		/* 0-16383 */
};

struct cc_ca_setting {
	unsigned int set;		/* CC_CA_* */
	uint16_t port_control;
	uint16_t control_map;
	struct cc_ca_entry sl[CC_NR_SLS];
	unsigned int cct_len;
	struct cc_cct_entry cct[CC_CCT_MAX];
};

struct conf {
	/* the algorithm */
	struct dcms_params par;
	uint64_t tau_ns;		/* sweep interval, emulated ns */
	uint32_t time_scale;		/* 0: read it from the fabric */
	enum conf_neighbours neighbours;
	char *topology;
	/* the backend */
	enum conf_backend backend;
	char mad_ca[CONF_CA_NAME_MAX + 1];	/* "": libibumad's first CA */
	unsigned int mad_port;
	uint64_t cc_key;		/* on every CC MAD */
	unsigned int mad_timeout_ms;
	unsigned int mad_rediscover;	/* sweeps between discoveries; 0: on errors only */
	/* output */
	char *log;			/* NULL or "-": stdout */
	char *csv;
	struct conf_port csv_ports[CONF_MAX_CSV_PORTS];
	unsigned int ncsv_ports;
	bool dry_run;
	char *pidfile;
	/* the static manager (OpenSM's vocabulary) */
	bool cc_enable;			/* congestion_control */
	bool cc_enable_given;
	struct cc_sw_setting sw;
	struct cc_ca_setting ca;
};

/* The defaults (Documentation/dcms.md) */
void conf_init(struct conf *conf);
void conf_free(struct conf *conf);

/*
 * Read a file; every error is added to diag as "PATH:LINE: reason". Paths
 * in it (topology, log, csv, pidfile) are relative to its directory.
 * Returns 0 or -EINVAL (errors), -errno (the file cannot be read).
 */
int conf_load(struct conf *conf, const char *path, struct conf_diag *diag);
int conf_load_string(struct conf *conf, const char *text, const char *name,
		     struct conf_diag *diag);
/* One KEY VALUE; where names it in messages ("command line"). 0 or -EINVAL. */
int conf_set(struct conf *conf, const char *key, const char *value,
	     const char *where, struct conf_diag *diag);
bool conf_is_key(const char *key);
/* Whole-configuration checks (T_I >= 2, csv needs ports...) */
int conf_check(const struct conf *conf, struct conf_diag *diag);
bool conf_has_ca(const struct conf *conf);

/* Value parsers, exported for the tests. 0 or -EINVAL. */
int conf_parse_count(const char *s, uint64_t *val);	/* "27.4M" */
int conf_parse_time(const char *s, uint64_t *ns);	/* "1s", "10ms" */
int conf_parse_ports(const char *s, struct conf_port *ports, unsigned int max,
		     unsigned int *n);			/* "S1/15,S2/23" */
int conf_parse_mask(const char *s, uint8_t mask[CC_MASK_LEN]);	/* "0x..." */
int conf_parse_cct(const char *s, struct cc_cct_entry *cct, unsigned int *len);

#endif /* DCMS_CONF_H */
