// SPDX-License-Identifier: GPL-2.0
/*
 * Batches of a plan: consecutive "ip -n NS ..." (or "tc -n NS ...") steps
 * of one namespace run as one "ip -n NS -batch -", their arguments on its
 * standard input. A host's setup is a dozen such commands, and each exec
 * of ip or tc costs 60 to 90 ms under QEMU's TCG against 3 ms a line of a
 * batch: most of the time "fabric up" took per host.
 *
 * Only steps that need no undo of their own go in a batch (what they did
 * goes with their namespace), so a batch that fails is undone as its first
 * step would be. A word iproute2's batch parser would split or unquote
 * (white space, quotes, a backslash, a '#') keeps its step out of batches.
 */
#define _GNU_SOURCE
#include "plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "ip -n NS WORD..." or "tc -n NS WORD...", with nothing to undo */
static bool batchable(const struct plan_step *s)
{
	int i;

	if (s->kind != PLAN_EXEC || s->undo != UNDO_NONE || s->argc < 4 ||
	    (strcmp(s->argv[0], "ip") && strcmp(s->argv[0], "tc")) ||
	    strcmp(s->argv[1], "-n") || s->argv[3][0] == '-')
		return false;
	for (i = 3; i < s->argc; i++)
		if (!*s->argv[i] || strpbrk(s->argv[i], " \t\n\"'\\#"))
			return false;
	return true;
}

unsigned int plan_batch_len(const struct plan *plan, unsigned int first)
{
	const struct plan_step *a = &plan->step[first];
	unsigned int n = 1;

	if (!batchable(a))
		return 1;
	while (first + n < plan->nsteps) {
		const struct plan_step *b = &plan->step[first + n];

		if (!batchable(b) || strcmp(a->argv[0], b->argv[0]) ||
		    strcmp(a->argv[2], b->argv[2]))
			break;
		n++;
	}
	return n;
}

char *plan_batch_text(const struct plan *plan, unsigned int first, unsigned int n)
{
	size_t len = 1, off = 0;
	unsigned int j;
	char *text;
	int i;

	for (j = first; j < first + n; j++)
		for (i = 3; i < plan->step[j].argc; i++)
			len += strlen(plan->step[j].argv[i]) + 1;
	text = malloc(len);
	if (!text)
		return NULL;
	for (j = first; j < first + n; j++)
		for (i = 3; i < plan->step[j].argc; i++)
			off += sprintf(text + off, "%s%c", plan->step[j].argv[i],
				       i + 1 < plan->step[j].argc ? ' ' : '\n');
	text[off] = '\0';
	return text;
}
