/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ibsw-ccmad: Congestion Control (class 0x21) MADs of a channel adapter,
 * their wire form and their text and JSON forms. Pure: no I/O but the
 * FILE the printers write to; main.c sends and receives them over umad.
 * Layouts: Documentation/hca-cc-mads.md (IBA annex A10, as libibmad and
 * OpenSM lay them out).
 */
#ifndef CCMAD_H
#define CCMAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CCMAD_SIZE		256
#define CCMAD_CLASS		0x21
#define CCMAD_CLASS_VERSION	2
#define CCMAD_QKEY		0x80010000u
#define CCMAD_KEY_OFFS		24	/* CC_Key */
#define CCMAD_LOG_OFFS		32	/* CongestionLog */
#define CCMAD_DATA_OFFS		64	/* every other attribute */

#define CCMAD_GET		0x01
#define CCMAD_SET		0x02
#define CCMAD_GET_RESP		0x81

#define CC_NUM_SL		16
#define CC_CCT_BLOCK		64
#define CC_LOG_EVENTS		13
#define CC_SHIFT_MAX		3
#define CC_MULT_MAX		0x3fff

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

enum ccmad_attr_id {
	CC_ATTR_CLASS_PORT_INFO = 0x0001,
	CC_ATTR_CONG_INFO = 0x0011,
	CC_ATTR_KEY_INFO = 0x0012,
	CC_ATTR_LOG = 0x0013,
	CC_ATTR_CA_SETTING = 0x0016,
	CC_ATTR_CCT = 0x0017,
	CC_ATTR_TIMESTAMP = 0x0018,
};

struct ccmad_attr {
	const char *name;	/* on the command line */
	const char *title;	/* the IBA name */
	uint16_t id;
	bool settable;
};

/* The attribute named s (a name above, or a number for raw access) */
const struct ccmad_attr *ccmad_attr_find(const char *s);
const struct ccmad_attr *ccmad_attr_by_id(uint16_t id);

struct ccmad_hdr {
	uint8_t class_version;
	uint8_t method;
	uint16_t status;
	uint64_t tid;
	uint16_t attr;
	uint32_t mod;
	uint64_t cc_key;
};

void ccmad_encode_hdr(uint8_t *mad, const struct ccmad_hdr *h);
void ccmad_decode_hdr(const uint8_t *mad, struct ccmad_hdr *h);
const char *ccmad_status_text(uint16_t status);

struct cc_class_port_info {
	uint8_t base_version;
	uint8_t class_version;
	uint16_t capability_mask;
	uint32_t capability_mask2;	/* 27 bits */
	uint8_t resp_time_value;	/* 5 bits */
};

struct cc_info {
	uint16_t congestion_info;
	uint8_t control_table_cap;	/* 64-entry blocks */
};

struct cc_key_info {
	uint64_t key;
	bool protect;
	uint16_t lease_period;
	uint16_t violations;
};

struct cc_sl_setting {
	uint16_t ccti_timer;
	uint8_t ccti_increase;
	uint8_t trigger_threshold;
	uint8_t ccti_min;
};

struct cc_ca_setting {
	uint16_t port_control;
	uint16_t control_map;
	struct cc_sl_setting sl[CC_NUM_SL];
};

struct cc_cct_block {
	uint16_t ccti_limit;
	uint16_t entry[CC_CCT_BLOCK];
};

struct cc_log_event {
	uint32_t local_qpn;
	uint32_t remote_qpn;
	uint8_t sl;
	uint8_t service_type;
	uint16_t remote_lid;
	uint32_t timestamp;
};

struct cc_log {
	uint8_t log_type;	/* 2: CA */
	uint8_t flags;
	uint16_t event_counter;
	uint16_t sl_map;
	uint32_t timestamp;
	unsigned int n;		/* events listed */
	struct cc_log_event event[CC_LOG_EVENTS];
};

void cc_encode_key_info(uint8_t *mad, const struct cc_key_info *k);
void cc_decode_key_info(const uint8_t *mad, struct cc_key_info *k);
void cc_encode_ca_setting(uint8_t *mad, const struct cc_ca_setting *s);
void cc_decode_ca_setting(const uint8_t *mad, struct cc_ca_setting *s);
void cc_encode_cct_block(uint8_t *mad, const struct cc_cct_block *b);
void cc_decode_cct_block(const uint8_t *mad, struct cc_cct_block *b);
void cc_decode_class_port_info(const uint8_t *mad,
			       struct cc_class_port_info *c);
void cc_decode_info(const uint8_t *mad, struct cc_info *i);
void cc_decode_log(const uint8_t *mad, struct cc_log *log);
uint32_t cc_decode_timestamp(const uint8_t *mad);

/* Text forms of the command line */
int cc_parse_entry(const char *s, uint16_t *entry);	/* shift:multiplier */
int cc_parse_u64(const char *s, uint64_t max, uint64_t *v);
int cc_parse_sl_list(const char *s, uint16_t *map);	/* all, N, N,M-K */
int cc_parse_gid(const char *s, uint8_t gid[16]);	/* IPv4 or IPv6/GID */
bool cc_gid_is_v4(const uint8_t gid[16]);

/*
 * Apply "KEY=VALUE" words to a CACongestionSetting read from the port: sl=
 * selects the SLs (Control_Map), the entry fields change those SLs.
 * Returns 0, or -1 with a message in err.
 */
int cc_ca_setting_args(struct cc_ca_setting *s, int argc,
		       const char *const argv[], char *err, size_t errlen);

/*
 * Apply "KEY=VALUE" words to a CongestionKeyInfo read from the port: key=,
 * protect=, lease=, violations=0 (without it the port's count stays). A
 * non-zero key= sets the protect bit and a lease of 0 (never runs out)
 * unless protect= or lease= say otherwise. Returns 0, or -1 with a message
 * in err.
 */
int cc_key_info_args(struct cc_key_info *k, int argc, const char *const argv[],
		     char *err, size_t errlen);

/* Printers: text lines (the sysfs forms where there is one) or JSON */
void cc_print_class_port_info(FILE *f, const struct cc_class_port_info *c,
			      bool json);
void cc_print_info(FILE *f, const struct cc_info *i, bool json);
void cc_print_key_info(FILE *f, const struct cc_key_info *k, bool json);
void cc_print_ca_setting(FILE *f, const struct cc_ca_setting *s, bool json);
void cc_print_cct(FILE *f, const uint16_t *cct, unsigned int n,
		  uint16_t ccti_limit, bool json);
void cc_print_log(FILE *f, const struct cc_log *log, bool json);
void cc_print_timestamp(FILE *f, uint32_t ts, bool json);
void cc_print_raw(FILE *f, const uint8_t *mad, bool json);
void cc_print_status(FILE *f, const struct ccmad_hdr *h, bool json);

#endif
