// SPDX-License-Identifier: GPL-2.0
/*
 * The MAD backend's tables, built from a libibnetdisc discovery: each
 * switch's name (its NodeDescription), LID and ports with N(s, p), and each
 * CA port's name and LID. Pure: it reads the ibnd structures only, so the
 * tests hand it made-up ones.
 */
#define _GNU_SOURCE
#include "backend_mad.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	const ibnd_node_t *node;
	char desc[IB_SMP_DATA_SIZE + 1];	/* trimmed NodeDescription */
	char name[BE_NAME_LEN];
};

/* NodeDescription is 64 bytes, NUL- or space-padded, not always terminated */
static void trim_desc(const ibnd_node_t *node, char *out)
{
	size_t len = strnlen(node->nodedesc, IB_SMP_DATA_SIZE);

	memcpy(out, node->nodedesc, len);
	while (len && (out[len - 1] == ' ' || out[len - 1] == '\0'))
		len--;
	out[len] = '\0';
}

static int by_name(const void *a, const void *b)
{
	return strverscmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void guid_name(const ibnd_node_t *node, char *name)
{
	snprintf(name, BE_NAME_LEN, "0x%016llx", (unsigned long long)node->guid);
}

/* The names: the description, or the GUID where that is not a usable name */
static void name_entries(struct entry *e, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		bool dup = false;

		for (j = 0; j < n && !dup; j++)
			dup = j != i && !strcmp(e[i].desc, e[j].desc);
		if (!e[i].desc[0] || strlen(e[i].desc) > DCMS_NAME_MAX || dup)
			guid_name(e[i].node, e[i].name);
		else
			snprintf(e[i].name, BE_NAME_LEN, "%s", e[i].desc);
	}
}

static const struct entry *entry_of(const struct entry *e, size_t n, const ibnd_node_t *node)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].node == node)
			return &e[i];
	return NULL;
}

static void fill_ports(struct mad_switch *sw, const ibnd_node_t *node,
		       const struct entry *e, size_t n)
{
	unsigned int p;

	for (p = 1; p <= sw->nports; p++) {
		const ibnd_port_t *port = node->ports ? node->ports[p] : NULL;
		const ibnd_port_t *rp = port ? port->remoteport : NULL;
		struct mad_port *mp = &sw->port[p];
		const struct entry *peer;

		if (!rp || !rp->node)
			continue;	/* DCMS_PEER_NONE: calloc'd */
		if (rp->node->type != IB_NODE_SWITCH) {
			/* an HCA, or a router: an end of the switched fabric */
			mp->peer = DCMS_PEER_CA;
			continue;
		}
		peer = entry_of(e, n, rp->node);
		if (!peer)
			continue;
		mp->peer = DCMS_PEER_SWITCH;
		snprintf(mp->peer_switch, sizeof(mp->peer_switch), "%s", peer->name);
		mp->peer_port = rp->portnum;
	}
}

/* What the backend needs of a switch: a LID to send to, ports it can hold */
static int check_node(const struct entry *e, char *msg, size_t len)
{
	const ibnd_node_t *node = e->node;

	if (!node->smalid) {
		snprintf(msg, len, "switch \"%s\" (GUID 0x%016llx) has LID 0: %s", e->desc,
			 (unsigned long long)node->guid,
			 "no subnet manager has assigned LIDs (start one: opensm)");
		return -ENXIO;
	}
	if (node->numports < 0 || node->numports > DCMS_PORTS_MAX) {
		snprintf(msg, len, "switch \"%s\" (LID %u) has %d ports, at most %d handled",
			 e->desc, node->smalid, node->numports, DCMS_PORTS_MAX);
		return -ERANGE;
	}
	return 0;
}

void mad_fabric_free(struct mad_fabric *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->sw[i].port);
	free(t->sw);
	free(t->ca);
	memset(t, 0, sizeof(*t));
}

/* A CA port the backend can set: any but the one it sends from */
static const ibnd_port_t *ca_port(const ibnd_fabric_t *f, const ibnd_node_t *node, int p)
{
	if (node->type != IB_NODE_CA || !node->ports ||
	    (node == f->from_node && p == f->from_portnum))
		return NULL;
	return node->ports[p];
}

/* The host of rdma-ndd's "HOST DEV"; the GUID where there is none */
static void ca_name(const ibnd_node_t *node, char *name)
{
	char desc[IB_SMP_DATA_SIZE + 1];
	size_t len;

	trim_desc(node, desc);
	len = strcspn(desc, " \t");
	if (!len || len > DCMS_NAME_MAX)
		guid_name(node, name);
	else
		snprintf(name, BE_NAME_LEN, "%.*s", (int)len, desc);
}

static int by_ca(const void *a, const void *b)
{
	const struct mad_ca *x = a, *y = b;
	int c = strverscmp(x->ca.name, y->ca.name);

	if (c)
		return c;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (int)x->port - (int)y->port;
}

static int build_cas(const ibnd_fabric_t *f, struct mad_fabric *t)
{
	const ibnd_node_t *node;
	size_t n = 0;
	int p;

	for (node = f->nodes; node; node = node->next)
		for (p = 1; p <= node->numports; p++)
			n += !!ca_port(f, node, p);
	if (!n)
		return 0;
	t->ca = calloc(n, sizeof(*t->ca));
	if (!t->ca)
		return -ENOMEM;
	for (node = f->nodes; node; node = node->next) {
		for (p = 1; p <= node->numports; p++) {
			const ibnd_port_t *port = ca_port(f, node, p);
			struct mad_ca *c = &t->ca[t->nca];

			if (!port)
				continue;
			ca_name(node, c->ca.name);
			c->ca.lid = port->base_lid;
			c->guid = node->guid;
			c->port = p;
			t->nca++;
		}
	}
	qsort(t->ca, t->nca, sizeof(*t->ca), by_ca);
	return 0;
}

/* The switches */
static int build_switches(const ibnd_fabric_t *f, struct mad_fabric *t, char *msg, size_t len)
{
	const ibnd_node_t *node;
	struct entry *e = NULL;
	size_t n = 0, i;
	int err = 0;

	for (node = f->nodes; node; node = node->next)
		n += node->type == IB_NODE_SWITCH;
	if (!n)
		return 0;
	e = calloc(n, sizeof(*e));
	t->sw = calloc(n, sizeof(*t->sw));
	if (!e || !t->sw) {
		err = -ENOMEM;
		snprintf(msg, len, "out of memory");
		goto out;
	}
	for (i = 0, node = f->nodes; node; node = node->next) {
		if (node->type != IB_NODE_SWITCH)
			continue;
		e[i].node = node;
		trim_desc(node, e[i].desc);
		i++;
	}
	/* checked before anything else: the table is all or nothing */
	for (i = 0; i < n && !err; i++)
		err = check_node(&e[i], msg, len);
	if (err)
		goto out;
	name_entries(e, n);
	qsort(e, n, sizeof(*e), by_name);
	for (i = 0; i < n; i++) {
		struct mad_switch *sw = &t->sw[i];

		snprintf(sw->name, sizeof(sw->name), "%s", e[i].name);
		sw->guid = e[i].node->guid;
		sw->lid = e[i].node->smalid;
		sw->nports = e[i].node->numports;
		sw->port = calloc(sw->nports + 1, sizeof(*sw->port));
		if (!sw->port) {
			err = -ENOMEM;
			snprintf(msg, len, "out of memory");
			goto out;
		}
		fill_ports(sw, e[i].node, e, n);
	}
	t->n = n;
out:
	/* calloc'd: the port arrays not allocated yet are NULL */
	if (err)
		t->n = t->sw ? n : 0;
	free(e);
	return err;
}

int mad_fabric_build(const ibnd_fabric_t *f, struct mad_fabric *t, char *msg, size_t len)
{
	int err;

	memset(t, 0, sizeof(*t));
	err = build_switches(f, t, msg, len);
	if (!err) {
		err = build_cas(f, t);
		if (err)
			snprintf(msg, len, "out of memory");
	}
	/* the tables are all or nothing */
	if (err)
		mad_fabric_free(t);
	return err;
}

const struct mad_switch *mad_fabric_find(const struct mad_fabric *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->sw[i].name, name))
			return &t->sw[i];
	return NULL;
}
