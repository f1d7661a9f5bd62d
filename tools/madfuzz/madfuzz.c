// SPDX-License-Identifier: GPL-2.0
/*
 * The requests of ibsw-mad-fuzz and the checks of their answers. See
 * madfuzz.h.
 */
#include "madfuzz.h"

#include <string.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- bytes */

uint16_t mf_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

uint32_t mf_get32(const uint8_t *p)
{
	return (uint32_t)mf_get16(p) << 16 | mf_get16(p + 2);
}

uint64_t mf_get64(const uint8_t *p)
{
	return (uint64_t)mf_get32(p) << 32 | mf_get32(p + 4);
}

void mf_put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

void mf_put32(uint8_t *p, uint32_t v)
{
	mf_put16(p, v >> 16);
	mf_put16(p + 2, v);
}

void mf_put64(uint8_t *p, uint64_t v)
{
	mf_put32(p, v >> 32);
	mf_put32(p + 4, v);
}

/* ------------------------------------------------------------ generator */

uint64_t mf_rand(struct mf_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint32_t mf_below(struct mf_rng *r, uint32_t n)
{
	return (uint32_t)(mf_rand(r) % n);
}

/* true with probability pct in 100 */
static bool chance(struct mf_rng *r, unsigned int pct)
{
	return mf_below(r, 100) < pct;
}

/* ---------------------------------------------------------------- cache */

static int cache_find(const struct mf_cache *c, uint16_t attr, uint32_t mod)
{
	int i;

	for (i = 0; i < MF_CACHE_SIZE; i++)
		if (c->e[i].used && c->e[i].attr == attr && c->e[i].mod == mod)
			return i;
	return -1;
}

void mf_cache_put(struct mf_cache *c, uint16_t attr, uint32_t mod,
		  const uint8_t *data, size_t len)
{
	int i = cache_find(c, attr, mod);

	if (i < 0) {
		/* the first free entry, or one picked by the key */
		for (i = 0; i < MF_CACHE_SIZE && c->e[i].used; i++)
			;
		if (i == MF_CACHE_SIZE)
			i = (int)((attr * 31u + mod) % MF_CACHE_SIZE);
	}
	if (len > sizeof(c->e[i].data))
		len = sizeof(c->e[i].data);
	memset(c->e[i].data, 0, sizeof(c->e[i].data));
	memcpy(c->e[i].data, data, len);
	c->e[i].used = true;
	c->e[i].attr = attr;
	c->e[i].mod = mod;
}

const uint8_t *mf_cache_get(const struct mf_cache *c, uint16_t attr,
			    uint32_t mod)
{
	int i = cache_find(c, attr, mod);

	return i < 0 ? NULL : c->e[i].data;
}

/* ------------------------------------------------------------- requests */

static uint8_t class_version(uint8_t mgmt_class)
{
	return mgmt_class == MF_CLASS_CC ? 2 : 1;
}

static size_t data_size(uint8_t mgmt_class)
{
	return mgmt_class == MF_CLASS_SMI_DR ? MF_SMP_DATA_SIZE :
		MF_GMP_DATA_SIZE;
}

void mf_mad_init(uint8_t mad[MF_MAD_SIZE], const struct mf_target *t,
		 uint8_t method, uint16_t attr, uint32_t mod, uint64_t tid)
{
	memset(mad, 0, MF_MAD_SIZE);
	mad[0] = 1;				/* BaseVersion */
	mad[1] = t->mgmt_class;
	mad[2] = class_version(t->mgmt_class);
	mad[3] = method;
	mf_put64(mad + 8, tid);
	mf_put16(mad + 16, attr);
	mf_put32(mad + 20, mod);
	switch (t->mgmt_class) {
	case MF_CLASS_SMI_DR:
		mad[6] = 0;			/* HopPointer */
		mad[7] = (uint8_t)t->hops;	/* HopCount */
		mf_put64(mad + 24, t->key);	/* M_Key */
		mf_put16(mad + 32, 0xffff);	/* DrSLID: permissive */
		mf_put16(mad + 34, 0xffff);	/* DrDLID */
		memcpy(mad + 128, t->path, t->hops + 1);	/* InitialPath */
		break;
	case MF_CLASS_CC:
		mf_put64(mad + MF_CC_KEY, t->key);
		break;
	}
}

/* The PMA's PortSelect (data byte 1) of a port of the target */
static uint8_t port_select(struct mf_rng *r, const struct mf_target *t)
{
	if (!t->is_switch)
		return 1;
	return chance(r, 20) ? 0xff : (uint8_t)(1 + mf_below(r, t->nr_ports));
}

void mf_get(struct mf_request *q, const struct mf_target *t, uint16_t attr,
	    uint32_t mod, uint64_t tid)
{
	mf_mad_init(q->mad, t, MF_GET, attr, mod, tid);
	q->method = MF_GET;
	q->attr = attr;
	q->mod = mod;
	q->changes = MF_CHANGE_NONE;
}

/* The attributes of each class, the ones a Set may change first */
static const uint16_t smp_attrs[] = {
	MF_SMP_PORT_INFO, MF_SMP_SWITCH_INFO, MF_SMP_SL2VL, MF_SMP_VLARB,
	MF_SMP_LFT, MF_SMP_MFT, MF_SMP_PKEY_TABLE, MF_SMP_GUID_INFO,
	MF_SMP_NODE_INFO, MF_SMP_NODE_DESC,
};

static const uint16_t cc_attrs[] = {
	MF_CC_SW_SETTING, MF_CC_SW_PORT_SETTING, MF_CC_CA_SETTING, MF_CC_CCT,
	MF_CC_KEY_INFO, MF_CC_INFO, MF_CC_LOG, MF_CC_TIMESTAMP,
	MF_CC_CLASS_PORT_INFO,
};

static const uint16_t pma_attrs[] = {
	MF_PMA_PORT_COUNTERS, MF_PMA_PORT_COUNTERS_EXT,
	MF_PMA_RCV_ERROR_DETAILS, MF_PMA_XMIT_DISCARD_DETAILS,
	MF_PMA_VL_XMIT_WAIT, MF_PMA_SAMPLES_CONTROL, MF_PMA_CLASS_PORT_INFO,
};

static uint16_t pick_attr(struct mf_rng *r, const struct mf_target *t)
{
	switch (t->mgmt_class) {
	case MF_CLASS_SMI_DR:
		return smp_attrs[mf_below(r, ARRAY_SIZE(smp_attrs))];
	case MF_CLASS_CC:
		return cc_attrs[mf_below(r, ARRAY_SIZE(cc_attrs))];
	default:
		return pma_attrs[mf_below(r, ARRAY_SIZE(pma_attrs))];
	}
}

/* A port of the target: 0 to NumPorts of a switch, 0 or 1 of a CA */
static uint32_t any_port(struct mf_rng *r, const struct mf_target *t)
{
	return mf_below(r, (t->is_switch ? t->nr_ports : 1) + 1);
}

/* A modifier the attribute takes */
static uint32_t pick_mod(struct mf_rng *r, const struct mf_target *t,
			 uint16_t attr)
{
	uint32_t out = t->is_switch ? 1 + mf_below(r, t->nr_ports) : 0;

	if (t->mgmt_class == MF_CLASS_CC) {
		if (attr == MF_CC_SW_PORT_SETTING)
			return mf_below(r, 2);		/* 32 ports a block */
		if (attr == MF_CC_CCT)
			return mf_below(r, 4);		/* 64 entries a block */
		return 0;
	}
	if (t->mgmt_class != MF_CLASS_SMI_DR)
		return 0;
	switch (attr) {
	case MF_SMP_PORT_INFO:
		return any_port(r, t);
	case MF_SMP_PKEY_TABLE:	/* port (switch), block 0 */
		return t->is_switch ? any_port(r, t) << 16 : 0;
	case MF_SMP_SL2VL:	/* input port, output port */
		return t->is_switch ? any_port(r, t) << 8 | out : 0;
	case MF_SMP_VLARB:	/* output port, block 1 to 4 */
		return out << 16 | (1 + mf_below(r, 4));
	case MF_SMP_LFT:
		return mf_below(r, 4);
	case MF_SMP_MFT:	/* position, block */
		return mf_below(r, 2) << 28 | mf_below(r, 2);
	default:
		return 0;
	}
}

/* An unusual modifier: past the ports or blocks, or any */
static uint32_t odd_mod(struct mf_rng *r, const struct mf_target *t,
			uint16_t attr)
{
	static const uint32_t edges[] = {
		0xff, 0x100, 0xffff, 0x10000, 0xff00ff, 0x7fffffff,
		0x80000000, 0xffffffff, 767, 768, 1023, 1024,
	};
	uint32_t past = (t->is_switch ? t->nr_ports : 1) + 1;

	switch (mf_below(r, 4)) {
	case 0:
		return edges[mf_below(r, ARRAY_SIZE(edges))];
	case 1:		/* a port past the last */
		if (attr == MF_SMP_VLARB || attr == MF_SMP_PKEY_TABLE)
			return past << 16 | (attr == MF_SMP_VLARB);
		if (attr == MF_SMP_SL2VL)
			return past << 8 | 1;
		return past + mf_below(r, 3);
	case 2:		/* a block or field past the last */
		return pick_mod(r, t, attr) + 1 + mf_below(r, 64);
	default:
		return (uint32_t)mf_rand(r);
	}
}

static const uint8_t odd_methods[] = {
	0x00, MF_SEND, MF_TRAP, MF_REPORT, MF_TRAP_REPRESS, MF_GET_RESP,
	0x86, 0x04, 0x12, 0x14, 0xff,
};

/* Change 1 to 4 bytes, bits or fields of the data area */
static void change_data(struct mf_rng *r, uint8_t *data, size_t size)
{
	static const uint8_t edges[] = { 0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff };
	unsigned int n = 1 + mf_below(r, 4);
	size_t at;

	if (chance(r, 10)) {
		for (at = 0; at < size; at++)
			data[at] = (uint8_t)mf_rand(r);
		return;
	}
	while (n--) {
		at = mf_below(r, (uint32_t)size);
		switch (mf_below(r, 4)) {
		case 0:
			data[at] = (uint8_t)mf_rand(r);
			break;
		case 1:
			data[at] ^= (uint8_t)(1u << mf_below(r, 8));
			break;
		case 2:
			data[at] = edges[mf_below(r, ARRAY_SIZE(edges))];
			break;
		default:	/* a 16-bit field at its edges */
			if (at + 1 < size)
				mf_put16(data + at, chance(r, 50) ? 0xffff :
					 (uint16_t)mf_below(r, 4));
			break;
		}
	}
}

/*
 * PortInfo in a Set: never a port state, a width or speed to enable, or
 * an M_Key lease. A state set by the fuzzer would change the port on its
 * own afterwards (and could cut the fuzzer off), and a lease ends on its
 * own: either would show as a change no request made. Of the port the
 * requests come in on, the VLs, VLHighLimit and HOQLife stay as they are.
 */
static void port_info_quiet(uint8_t *data)
{
	mf_put16(data + 26, 0);		/* M_KeyLeasePeriod */
	data[29] = 0;			/* LinkWidthEnabled: no change */
	data[32] &= 0xf0;		/* PortState: no change */
	data[33] = 0;			/* PortPhysicalState, LinkDownDefault */
	data[35] &= 0xf0;		/* LinkSpeedEnabled: no change */
}

/* CongestionKeyInfo in a Set: never a lease, as above */
static void key_info_quiet(uint8_t *data)
{
	mf_put16(data + 10, 0);		/* CC_KeyLeasePeriod */
}

static void port_info_fixup(const struct mf_target *t, uint32_t mod,
			    const uint8_t *was, uint8_t *data)
{
	static const uint8_t kept[] = { 38, 42, 43 };
	unsigned int i;
	bool entry;

	port_info_quiet(data);
	entry = t->is_switch ? (mod & 0xff) == t->entry_port && mod :
		(mod & 0xff) <= 1;
	if (entry && was)
		for (i = 0; i < ARRAY_SIZE(kept); i++)
			data[kept[i]] = was[kept[i]];
}

void mf_generate(struct mf_rng *r, const struct mf_target *t,
		 const struct mf_cache *c, uint64_t tid, struct mf_request *q)
{
	size_t size = data_size(t->mgmt_class);
	uint8_t *data = q->mad + MF_DATA;
	const uint8_t *was;
	unsigned int i;

	q->changes = MF_CHANGE_NONE;
	q->attr = pick_attr(r, t);
	if (chance(r, 5)) {
		q->attr = (uint16_t)mf_rand(r);
		q->changes |= MF_CHANGE_ATTR;
	}
	q->method = chance(r, 50) ? MF_SET : MF_GET;
	if (chance(r, 8)) {
		q->method = odd_methods[mf_below(r, ARRAY_SIZE(odd_methods))];
		q->changes |= MF_CHANGE_METHOD;
	}
	q->mod = pick_mod(r, t, q->attr);
	if (chance(r, 10)) {
		q->mod = odd_mod(r, t, q->attr);
		q->changes |= MF_CHANGE_MOD;
	}
	mf_mad_init(q->mad, t, q->method, q->attr, q->mod, tid);

	was = mf_cache_get(c, q->attr, q->mod);
	if (q->method == MF_SET && was)
		memcpy(data, was, size);
	if (t->mgmt_class == MF_CLASS_PMA)
		data[1] = port_select(r, t);
	if (q->method != MF_GET && chance(r, 80)) {
		change_data(r, data, size);
		q->changes |= MF_CHANGE_DATA;
	}
	if (q->method == MF_SET && t->mgmt_class == MF_CLASS_SMI_DR &&
	    q->attr == MF_SMP_PORT_INFO)
		port_info_fixup(t, q->mod, was, data);
	if (q->method == MF_SET && t->mgmt_class == MF_CLASS_CC &&
	    q->attr == MF_CC_KEY_INFO)
		key_info_quiet(data);

	if (chance(r, 8)) {
		q->changes |= MF_CHANGE_HEADER;
		switch (mf_below(r, 5)) {
		case 0:
			q->mad[0] = (uint8_t)mf_rand(r);	/* BaseVersion */
			break;
		case 1:
			q->mad[2] = (uint8_t)mf_below(r, 4);	/* ClassVersion */
			break;
		case 2:
			mf_put16(q->mad + 4, (uint16_t)mf_rand(r)); /* Status */
			break;
		case 3:
			mf_put16(q->mad + 18, (uint16_t)mf_rand(r)); /* Reserved */
			break;
		default:
			q->mad[1] = (uint8_t)mf_rand(r);	/* MgmtClass */
			break;
		}
	}
	if (t->mgmt_class == MF_CLASS_SMI_DR && chance(r, 8)) {
		/* Elsewhere, or nowhere: only a Get goes there */
		q->changes |= MF_CHANGE_ROUTE;
		q->method = MF_GET;
		q->mad[3] = MF_GET;
		switch (mf_below(r, 5)) {
		case 0:
			q->mad[6] = (uint8_t)mf_below(r, 66);	/* HopPointer */
			break;
		case 1:
			q->mad[7] = (uint8_t)mf_below(r, 66);	/* HopCount */
			break;
		case 2:
			q->mad[4] |= 0x80;			/* D bit */
			break;
		case 3:
			mf_put16(q->mad + 32 + 2 * mf_below(r, 2),
				 (uint16_t)mf_rand(r));		/* DrSLID/DLID */
			break;
		default:
			i = mf_below(r, 64);
			q->mad[128 + i] = (uint8_t)mf_below(r, 16);
			if (i > t->hops)
				q->mad[7] = (uint8_t)i;
			break;
		}
	}
	if (t->mgmt_class != MF_CLASS_PMA && chance(r, 5)) {
		q->changes |= MF_CHANGE_KEY;
		mf_put64(q->mad + 24, t->key ^ (mf_rand(r) | 1));
	}
}

/* ---------------------------------------------------------------- checks */

/* The attributes a Get reads back to compare, by class */
static bool readable(uint8_t mgmt_class, uint16_t attr)
{
	switch (mgmt_class) {
	case MF_CLASS_SMI_DR:
		return attr >= MF_SMP_NODE_DESC && attr <= MF_SMP_MFT &&
			attr != 0x0013 && attr != 0x001a;
	case MF_CLASS_CC:
		return attr == MF_CC_INFO || attr == MF_CC_KEY_INFO ||
			(attr >= MF_CC_SW_SETTING && attr <= MF_CC_CCT);
	default:
		/* counters count on their own: nothing more to compare */
		return false;
	}
}

unsigned int mf_reads(const struct mf_target *t, const struct mf_request *q,
		      struct mf_read *reads, unsigned int max)
{
	unsigned int n = 0, i;

#define ADD(a, m)							\
	do {								\
		if (n < max)						\
			reads[n++] = (struct mf_read){ .attr = (a), .mod = (m) }; \
	} while (0)
	switch (t->mgmt_class) {
	case MF_CLASS_SMI_DR:
		ADD(MF_SMP_NODE_INFO, 0);
		ADD(MF_SMP_PORT_INFO, 0);
		if (t->is_switch) {
			ADD(MF_SMP_SWITCH_INFO, 0);
			ADD(MF_SMP_PORT_INFO, t->entry_port);
		}
		break;
	case MF_CLASS_CC:
		ADD(MF_CC_KEY_INFO, 0);
		break;
	default:	/* the PMA: only that it answers */
		ADD(MF_PMA_CLASS_PORT_INFO, 0);
		break;
	}
#undef ADD
	if (q && readable(t->mgmt_class, q->attr)) {
		for (i = 0; i < n; i++)
			if (reads[i].attr == q->attr && reads[i].mod == q->mod)
				return n;
		if (n < max)
			reads[n++] = (struct mf_read){ .attr = q->attr,
						       .mod = q->mod };
	}
	return n;
}

/* Byte ranges [from, to) of an attribute's data that change on their own */
struct mf_mask {
	uint8_t		mgmt_class;
	uint16_t	attr;
	uint8_t		from, to;
};

static const struct mf_mask masks[] = {
	/* M_KeyViolations, P_KeyViolations, Q_KeyViolations */
	{ MF_CLASS_SMI_DR, MF_SMP_PORT_INFO, 44, 50 },
	/* CC_KeyViolations */
	{ MF_CLASS_CC, MF_CC_KEY_INFO, 12, 14 },
};

bool mf_same(uint8_t mgmt_class, uint16_t attr, const uint8_t *a,
	     const uint8_t *b, size_t *at)
{
	size_t size = data_size(mgmt_class), i, k;
	bool masked;

	for (i = 0; i < size; i++) {
		if (a[i] == b[i])
			continue;
		masked = false;
		for (k = 0; k < ARRAY_SIZE(masks); k++)
			if (masks[k].mgmt_class == mgmt_class &&
			    masks[k].attr == attr && i >= masks[k].from &&
			    i < masks[k].to)
				masked = true;
		if (!masked) {
			*at = i;
			return false;
		}
	}
	return true;
}

bool mf_may_change(const struct mf_request *q)
{
	return q->method == MF_SET || (q->changes & MF_CHANGE_ROUTE);
}

uint16_t mf_status(const uint8_t *mad)
{
	uint16_t s = mf_get16(mad + 4);

	return mad[1] == MF_CLASS_SMI_DR ? s & 0x7fff : s;
}

const char *mf_answer_check(const struct mf_request *q, const uint8_t *ans)
{
	/* the MAD layer owns the upper 32 bits of a requester's TID */
	if ((uint32_t)mf_get64(ans + 8) != (uint32_t)mf_get64(q->mad + 8))
		return "another TID";
	if (!(ans[3] & 0x80))
		return "not a response method";
	if (ans[1] != q->mad[1])
		return "another management class";
	if (mf_get16(ans + 16) != mf_get16(q->mad + 16))
		return "another attribute";
	if (ans[1] == MF_CLASS_SMI_DR && !(ans[4] & 0x80))
		return "a directed-route answer without the D bit";
	return NULL;
}

void mf_unprotect(uint8_t mgmt_class, uint8_t *data, uint64_t key)
{
	mf_put64(data, key);		/* M_Key, CC_Key */
	if (mgmt_class == MF_CLASS_CC) {
		data[8] = 0;		/* CC_KeyProtectBit */
		key_info_quiet(data);
	} else {
		data[34] &= 0x3f;	/* M_KeyProtectBits */
		port_info_quiet(data);
	}
}

void mf_learn(struct mf_target *t, const struct mf_request *q)
{
	const uint8_t *data = q->mad + MF_DATA;

	if (q->method != MF_SET || (q->changes & MF_CHANGE_ROUTE))
		return;
	if (t->mgmt_class == MF_CLASS_SMI_DR && q->attr == MF_SMP_PORT_INFO &&
	    (!t->is_switch || !(q->mod & 0xff)))
		t->key = mf_get64(data);		/* M_Key */
	if (t->mgmt_class == MF_CLASS_CC && q->attr == MF_CC_KEY_INFO)
		t->key = mf_get64(data);		/* CC_Key */
}
