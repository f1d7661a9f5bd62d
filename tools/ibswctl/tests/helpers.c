// SPDX-License-Identifier: GPL-2.0
/* Helpers of ibswctl's unit tests: the fake I/O. */
#define _GNU_SOURCE
#include "helpers.h"
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/genetlink.h>

#define T_FAMILY	0x42

static struct t *t_of(struct ctl *ctl)
{
	return (struct t *)ctl;
}

static struct nlmsghdr *copy_msg(const struct nlmsghdr *nlh)
{
	struct nlmsghdr *c = malloc(nlh->nlmsg_len);

	assert_non_null(c);
	memcpy(c, nlh, nlh->nlmsg_len);
	return c;
}

static int fake_xfer(struct ctl *ctl, struct nlmsghdr *req, ctl_msg_cb cb, void *data)
{
	struct t *t = t_of(ctl);
	unsigned int i;
	int err = 0;

	req->nlmsg_type = T_FAMILY;
	assert_true(t->nreq < T_MAX_REQ);
	t->req[t->nreq++] = copy_msg(req);
	if (t->respond)
		err = t->respond(t, req);
	for (i = 0; i < t->nreply; i++) {
		if (cb && !err)
			err = cb(ctl, t->reply[i], data);
		else if (err)
			cb = NULL;
		free(t->reply[i]);
	}
	t->nreply = 0;
	if (t->fail_err && (!t->fail_req || t->fail_req == t->nreq)) {
		if (t->fail_msg)
			snprintf(ctl->ext_msg, sizeof(ctl->ext_msg), "%s", t->fail_msg);
		return t->fail_err;
	}
	return err;
}

static int fake_listen(struct ctl *ctl, ctl_msg_cb cb, void *data)
{
	struct t *t = t_of(ctl);
	unsigned int i;
	int err = 0;

	for (i = 0; i < t->nntf; i++) {
		if (!err)
			err = cb(ctl, t->ntf[i], data);
		free(t->ntf[i]);
	}
	t->nntf = 0;
	return err;
}

static int fake_run(struct ctl *ctl, char *const argv[])
{
	struct t *t = t_of(ctl);
	int i;

	for (i = 0; argv[i]; i++)
		fprintf(t->runsf, "%s%s", i ? " " : "", argv[i]);
	fputc('\n', t->runsf);
	fflush(t->runsf);
	return ++t->nruns == t->run_fail ? 1 : 0;
}

/* "ARGV <<" and the input's lines, each indented by a tab */
static int fake_run_input(struct ctl *ctl, char *const argv[], const char *text)
{
	struct t *t = t_of(ctl);
	const char *p;
	int i;

	for (i = 0; argv[i]; i++)
		fprintf(t->runsf, "%s%s", i ? " " : "", argv[i]);
	fputs(" <<\n", t->runsf);
	for (p = text; *p; p++)
		fprintf(t->runsf, "%s%c", p == text || p[-1] == '\n' ? "\t" : "", *p);
	fflush(t->runsf);
	return ++t->nruns == t->run_fail ? 1 : 0;
}

static int fake_netns_open(struct ctl *ctl, const char *name)
{
	int fd;

	(void)ctl;
	if (!strcmp(name, "missing"))
		return -ENOENT;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static bool fake_exists(struct ctl *ctl, const char *path)
{
	struct t *t = t_of(ctl);
	unsigned int i;

	for (i = 0; i < t->npaths; i++)
		if (!strcmp(t->paths[i], path))
			return true;
	if (!strcmp(path, PLAN_UMAD_ABI))
		return !t->no_umad;
	return !access(path, F_OK) && strncmp(path, "/sys/", 5) && strncmp(path, "/run/", 5);
}

static int fake_rdma_netns(struct ctl *ctl, int set)
{
	struct t *t = t_of(ctl);

	if (set < 0 || t->rdma_mode < 0)
		return t->rdma_mode;
	fprintf(t->runsf, "rdma system set netns %s\n", ctl_rdma_netns_name(set));
	fflush(t->runsf);
	if (t->rdma_busy) {
		if (t->rdma_busy > 0)
			t->rdma_busy--;
		return -EBUSY;
	}
	t->rdma_mode = set;
	return set;
}

static int fake_in_netns(struct ctl *ctl, const char *name,
			 int (*fn)(struct ctl *ctl, void *arg), void *arg)
{
	struct t *t = t_of(ctl);
	const char *root = ctl->sys_root;
	int rc;

	if (!strcmp(name, "missing"))
		return -ENOENT;
	snprintf(t->netns_root, sizeof(t->netns_root), "%s/netns/%s", root, name);
	ctl->sys_root = t->netns_root;
	rc = fn(ctl, arg);
	ctl->sys_root = root;
	return rc;
}

static void log_argv(struct t *t, const char *what, char *const argv[])
{
	int i;

	fputs(what, t->runsf);
	for (i = 0; argv[i]; i++)
		fprintf(t->runsf, " %s", argv[i]);
}

static int fake_spawn(struct ctl *ctl, char *const argv[], const char *out)
{
	struct t *t = t_of(ctl);

	log_argv(t, "spawn", argv);
	fprintf(t->runsf, " > %s\n", out);
	fflush(t->runsf);
	return T_SM_PID;
}

static int fake_wait_text(struct ctl *ctl, int pid, const char *path, const char *text,
			  unsigned int timeout_ms)
{
	struct t *t = t_of(ctl);

	fprintf(t->runsf, "wait %d %s %s %u\n", pid, path, text, timeout_ms);
	fflush(t->runsf);
	return t->wait_err;
}

static int fake_stop(struct ctl *ctl, int pid, const char *comm, unsigned int timeout_ms)
{
	struct t *t = t_of(ctl);

	fprintf(t->runsf, "stop %d %s %u\n", pid, comm, timeout_ms);
	fflush(t->runsf);
	return t->stop_ret;
}

static int fake_write_file(struct ctl *ctl, const char *path, const char *text)
{
	struct t *t = t_of(ctl);

	fprintf(t->runsf, "write %s %s\n", path, text);
	fflush(t->runsf);
	return 0;
}

static int fake_read_file(struct ctl *ctl, const char *path, char *buf, size_t len)
{
	struct t *t = t_of(ctl);

	if (strlen(path) < 10 || strcmp(path + strlen(path) - 10, "/node_guid"))
		return -ENOENT;
	snprintf(t->guid_read, sizeof(t->guid_read), "%s", path);
	snprintf(buf, len, "%s", T_NODE_GUID);
	return 0;
}

static const struct ctl_ops fake_ops = {
	.xfer = fake_xfer,
	.listen = fake_listen,
	.run = fake_run,
	.run_input = fake_run_input,
	.netns_open = fake_netns_open,
	.exists = fake_exists,
	.rdma_netns = fake_rdma_netns,
	.in_netns = fake_in_netns,
	.spawn = fake_spawn,
	.wait_text = fake_wait_text,
	.stop = fake_stop,
	.write_file = fake_write_file,
	.read_file = fake_read_file,
};

struct t *t_new(void)
{
	struct t *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->outf = open_memstream(&t->out, &t->out_size);
	t->errf = open_memstream(&t->err, &t->err_size);
	t->runsf = open_memstream(&t->runs, &t->runs_size);
	assert_non_null(t->outf);
	assert_non_null(t->errf);
	assert_non_null(t->runsf);
	ctl_init(&t->ctl, &fake_ops, t->outf, t->errf);
	/* no real device of this machine: tests that want some make a tree */
	t->ctl.sys_root = "/nonexistent/sys";
	/* nor namespaces or a saved rdma netns mode */
	t->ctl.netns_dir = "/nonexistent/run/netns";
	t->ctl.rdma_netns_path = "/nonexistent/run/ibsw/rdma-netns";
	t->ctl.rdma_netns_wait_ms = 200;
	t->rdma_mode = CTL_RDMA_SHARED;
	return t;
}

static void free_msgs(struct nlmsghdr **msgs, unsigned int *n)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		free(msgs[i]);
	*n = 0;
}

void t_free(struct t *t)
{
	ctl_fini(&t->ctl);
	free_msgs(t->req, &t->nreq);
	free_msgs(t->reply, &t->nreply);
	free_msgs(t->ntf, &t->nntf);
	fclose(t->outf);
	fclose(t->errf);
	fclose(t->runsf);
	free(t->out);
	free(t->err);
	free(t->runs);
	free(t);
}

int t_runv(struct t *t, int argc, char **argv)
{
	/* options are per run, as they would be per process */
	t->ctl.json = false;
	t->ctl.pretty = false;
	t->ctl.details = false;
	return ctl_main(&t->ctl, argc, argv);
}

/* Blanks and newlines: long commands are split after "\n" in the tests */
static const char blanks[] = { ' ', '\n', '\0' };

int t_run(struct t *t, const char *args)
{
	char *copy = strdup(args), *tok, *save = NULL;
	char *argv[512];
	int argc = 0, ret;

	assert_non_null(copy);
	argv[argc++] = "ibswctl";
	for (tok = strtok_r(copy, blanks, &save); tok; tok = strtok_r(NULL, blanks, &save)) {
		assert_true(argc < 511);
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	ret = t_runv(t, argc, argv);
	free(copy);
	return ret;
}

const char *t_out(struct t *t)
{
	fflush(t->outf);
	return t->out ? t->out : "";
}

const char *t_err(struct t *t)
{
	fflush(t->errf);
	return t->err ? t->err : "";
}

void t_clear(struct t *t)
{
	fclose(t->outf);
	fclose(t->errf);
	free(t->out);
	free(t->err);
	t->out = NULL;
	t->err = NULL;
	t->outf = open_memstream(&t->out, &t->out_size);
	t->errf = open_memstream(&t->err, &t->err_size);
	assert_non_null(t->outf);
	assert_non_null(t->errf);
	t->ctl.out = t->outf;
	t->ctl.err = t->errf;
	jw_init(&t->ctl.jw, t->outf, false);
	free_msgs(t->req, &t->nreq);
}

static struct nlmsghdr *new_msg(uint8_t cmd)
{
	struct nlmsghdr *nlh = calloc(1, 65536 * 2);
	struct genlmsghdr *genl;

	assert_non_null(nlh);
	nlh = mnl_nlmsg_put_header(nlh);
	nlh->nlmsg_type = T_FAMILY;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = IBSW_FAMILY_VERSION;
	return nlh;
}

struct nlmsghdr *t_reply(struct t *t, uint8_t cmd)
{
	assert_true(t->nreply < T_MAX_REPLY);
	return t->reply[t->nreply++] = new_msg(cmd);
}

struct nlmsghdr *t_notify(struct t *t, uint8_t cmd)
{
	assert_true(t->nntf < T_MAX_REPLY);
	return t->ntf[t->nntf++] = new_msg(cmd);
}

uint8_t t_cmd(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);

	return genl->cmd;
}

const struct nlattr *t_nth(const struct nlmsghdr *nlh, uint16_t type, unsigned int n)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) == type && !n--)
			return attr;
	return NULL;
}

const struct nlattr *t_attr(const struct nlmsghdr *nlh, uint16_t type)
{
	return t_nth(nlh, type, 0);
}

unsigned int t_count(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *attr;
	unsigned int n = 0;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		n += mnl_attr_get_type(attr) == type;
	return n;
}

const struct nlattr *t_nest_attr(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *attr;

	mnl_attr_for_each_nested(attr, nest)
		if (mnl_attr_get_type(attr) == type)
			return attr;
	return NULL;
}

bool t_have_jq(void)
{
	return !system("command -v jq >/dev/null 2>&1");
}

/* Pipe text through "jq FILTER"; NULL if jq is missing or fails */
char *t_jq(const char *text, const char *filter)
{
	char tmpl[] = "/tmp/ibswctl-test-XXXXXX", *cmd = NULL, *res;
	FILE *f, *p;
	size_t n = 0;
	int fd, rc;

	if (!t_have_jq())
		return NULL;
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_true(asprintf(&cmd, "jq -c '%s' < %s 2>&1", filter, tmpl) > 0);
	p = popen(cmd, "r");
	assert_non_null(p);
	res = calloc(1, 1 << 20);
	assert_non_null(res);
	n = fread(res, 1, (1 << 20) - 1, p);
	res[n] = '\0';
	rc = pclose(p);
	unlink(tmpl);
	free(cmd);
	if (rc) {
		print_error("jq '%s' failed: %s\non: %s\n", filter, res, text);
		free(res);
		return NULL;
	}
	return res;
}

bool t_json_valid(const char *text)
{
	char *res;
	bool ok;

	if (!t_have_jq())
		return true;
	res = t_jq(text, ".");
	ok = res;
	free(res);
	return ok;
}

char *t_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t size = 0;
	FILE *out;
	int c;

	if (!f)
		return NULL;
	out = open_memstream(&text, &size);
	assert_non_null(out);
	while ((c = getc(f)) != EOF)
		putc(c, out);
	fclose(out);
	fclose(f);
	return text;
}

void t_enter_fixtures(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : FIXTURES;

	if (chdir(dir)) {
		fprintf(stderr, "%s: cannot enter %s: %s\n", argv[0], dir, strerror(errno));
		exit(2);
	}
}

int t_run_group(const char *name, const struct cm_test *tests, size_t n)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return _cmocka_run_group_tests(name, tests, n, NULL, NULL);
}
