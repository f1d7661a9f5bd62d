// SPDX-License-Identifier: GPL-2.0
/*
 * The real I/O of ibswctl: the generic netlink socket (tools/lib's genl.c,
 * opened on first use), running programs, opening and entering namespaces,
 * the rdma netns mode (NETLINK_RDMA). Kept thin: everything else is tested
 * with fakes of these.
 */
#define _GNU_SOURCE
#include "ibswctl.h"
#include "genl.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#define RECV_BUF_SIZE	(1024 * 1024)	/* an lft-get reply is 48 KiB and more */

/* A reply callback of ibswctl's kind, called through the library's */
struct reply_call {
	struct ctl *ctl;
	ctl_msg_cb cb;
	void *data;
};

static int reply_cb(const struct nlmsghdr *nlh, void *data)
{
	struct reply_call *c = data;

	return c->cb(c->ctl, nlh, c->data);
}

static int nl_open(struct ctl *ctl)
{
	struct ibsw_genl *g;
	int err;

	if (ctl->priv)
		return 0;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	err = ibsw_genl_open(g, RECV_BUF_SIZE);
	if (!err) {
		ctl->priv = g;
		return 0;
	}
	free(g);
	ctl->reported = true;
	if (err == -ENOENT) {
		/* no ibsw family, so no switch either (fabric down relies on it) */
		ctl_err(ctl, "generic netlink family \"%s\" not found: is the ibsw module loaded?",
			IBSW_FAMILY_NAME);
		return err;
	}
	ctl_err(ctl, "cannot open the generic netlink socket: %s", strerror(-err));
	return -EPROTO;
}

/* Could not talk to the kernel at all: reported already (ctl->reported) */
static int nl_xfer(struct ctl *ctl, struct nlmsghdr *req, ctl_msg_cb cb, void *data)
{
	struct reply_call call = { ctl, cb, data };
	struct ibsw_genl *g;
	int err = nl_open(ctl);

	if (err)
		return err;
	g = ctl->priv;
	req->nlmsg_type = g->family;
	err = ibsw_genl_xfer(g, req, cb ? reply_cb : NULL, &call);
	if (g->ext_msg[0])
		snprintf(ctl->ext_msg, sizeof(ctl->ext_msg), "%s", g->ext_msg);
	if (g->ext_miss_type)
		ctl->ext_miss_type = g->ext_miss_type;
	return err;
}

static int nl_listen(struct ctl *ctl, ctl_msg_cb cb, void *data)
{
	struct reply_call call = { ctl, cb, data };
	struct ibsw_genl *g;
	int err = nl_open(ctl);

	if (err)
		return err;
	g = ctl->priv;
	if (!g->mcgrp) {
		ctl_err(ctl, "the ibsw family has no \"%s\" group", IBSW_MCGRP_MONITOR);
		return -EPROTO;
	}
	err = ibsw_genl_subscribe(g);
	if (err)
		return err;
	/* until a signal ends the program: each event is flushed when printed */
	for (;;) {
		err = ibsw_genl_listen(g, reply_cb, &call);
		if (err != -ENOBUFS)
			return err;
		ctl_err(ctl, "notifications lost (receive buffer overrun)");
	}
}

static int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* Run argv with stdin from fd (-1: this process's); its exit status or -errno */
static int run_fd(struct ctl *ctl, char *const argv[], int fd)
{
	pid_t pid;

	fflush(ctl->out);
	fflush(ctl->err);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (fd >= 0 && dup2(fd, STDIN_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "ibswctl: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return wait_child(pid);
}

static int sys_run(struct ctl *ctl, char *const argv[])
{
	return run_fd(ctl, argv, -1);
}

/* stdin from a memory file: no pipe to fill, no SIGPIPE if the child dies */
static int sys_run_input(struct ctl *ctl, char *const argv[], const char *text)
{
	size_t len = strlen(text), off = 0;
	ssize_t n;
	int fd, rc;

	fd = memfd_create("ibswctl-input", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off < len) {
		n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			close(fd);
			return rc;
		}
		off += n;
	}
	rc = lseek(fd, 0, SEEK_SET) < 0 ? -errno : run_fd(ctl, argv, fd);
	close(fd);
	return rc;
}

static int sys_netns_open(struct ctl *ctl, const char *name)
{
	char path[4096];
	int fd;

	(void)ctl;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%s", IBSWCTL_NETNS_DIR, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static bool sys_exists(struct ctl *ctl, const char *path)
{
	(void)ctl;
	return !access(path, F_OK);
}

/*
 * As "ip netns exec" enters a namespace: the network namespace, then a
 * mount namespace of its own in which sysfs is mounted afresh, so that it
 * shows the network namespace's devices (sysfs tags them with it when it
 * is mounted). Exit status 126: the namespace could not be entered.
 */
static int sys_in_netns(struct ctl *ctl, const char *name,
			int (*fn)(struct ctl *ctl, void *arg), void *arg)
{
	int fd = sys_netns_open(ctl, name), rc;
	pid_t pid;

	if (fd < 0)
		return fd;
	fflush(ctl->out);
	fflush(ctl->err);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (!pid) {
		if (setns(fd, CLONE_NEWNET) || unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) ||
		    (umount2(ctl->sys_root, MNT_DETACH) && errno != EINVAL) ||
		    mount(name, ctl->sys_root, "sysfs", 0, NULL)) {
			fprintf(ctl->err, "ibswctl: cannot enter network namespace %s: %s\n", name,
				strerror(errno));
			fflush(ctl->err);
			_exit(126);
		}
		rc = fn(ctl, arg);
		fflush(ctl->out);
		fflush(ctl->err);
		_exit(rc);
	}
	close(fd);
	rc = wait_child(pid);
	return rc == 126 ? -EPERM : rc;
}

static int sys_spawn(struct ctl *ctl, char *const argv[], const char *out)
{
	int fd, in;
	pid_t pid;

	fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	fflush(ctl->out);
	fflush(ctl->err);
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -errno;
	}
	if (!pid) {
		in = open("/dev/null", O_RDONLY);
		if (in < 0 || dup2(in, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 ||
		    setsid() < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "ibswctl: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	return pid;
}

static bool file_has(const char *path, const char *text)
{
	char *line = NULL;
	size_t size = 0;
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!found && getline(&line, &size, f) >= 0)
		found = strstr(line, text);
	free(line);
	fclose(f);
	return found;
}

static int sys_wait_text(struct ctl *ctl, int pid, const char *path, const char *text,
			 unsigned int timeout_ms)
{
	const struct timespec tick = { .tv_nsec = 200 * 1000 * 1000 };
	unsigned int waited = 0;

	(void)ctl;
	for (;;) {
		if (file_has(path, text))
			return 0;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return -ECHILD;
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&tick, NULL);
		waited += 200;
	}
}

/* Whether pid runs comm (/proc/PID/comm), so that a reused pid is left alone */
static bool runs(int pid, const char *comm)
{
	char path[64], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return !strcmp(buf, comm);
}

/* Gone: no such process, or a zombie (reaped if it is our child) */
static bool gone(int pid, const char *comm)
{
	waitpid(pid, NULL, WNOHANG);
	if (!runs(pid, comm))
		return true;
	return false;
}

static int sys_stop(struct ctl *ctl, int pid, const char *comm, unsigned int timeout_ms)
{
	const struct timespec tick = { .tv_nsec = 100 * 1000 * 1000 };
	unsigned int waited;

	(void)ctl;
	if (pid <= 0 || !runs(pid, comm))
		return 2;
	if (kill(pid, SIGTERM) && errno == ESRCH)
		return 2;
	for (waited = 0; waited < timeout_ms; waited += 100) {
		if (gone(pid, comm))
			return 0;
		nanosleep(&tick, NULL);
	}
	if (kill(pid, SIGKILL) && errno != ESRCH)
		return -errno;
	for (waited = 0; waited < 5000; waited += 100) {
		if (gone(pid, comm))
			return 1;
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}

static int sys_write_file(struct ctl *ctl, const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;
	size_t len = strlen(text);

	(void)ctl;
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int sys_read_file(struct ctl *ctl, const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	(void)ctl;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		err = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return err;
}

struct rdma_reply {
	int mode;
};

static int rdma_attr_cb(const struct nlattr *attr, void *data)
{
	struct rdma_reply *r = data;

	if (mnl_attr_get_type(attr) == RDMA_NLDEV_SYS_ATTR_NETNS_MODE &&
	    !mnl_attr_validate(attr, MNL_TYPE_U8))
		r->mode = mnl_attr_get_u8(attr) ? CTL_RDMA_SHARED : CTL_RDMA_EXCLUSIVE;
	return MNL_CB_OK;
}

static int rdma_reply_cb(const struct nlmsghdr *nlh, void *data)
{
	/* nldev messages have no header of their own before the attributes */
	return mnl_attr_parse(nlh, 0, rdma_attr_cb, data);
}

/* rdma system show / rdma system set netns MODE, over NETLINK_RDMA */
static int sys_rdma_netns(struct ctl *ctl, int set)
{
	struct rdma_reply r = { .mode = -ENOENT };
	char buf[8192];
	uint32_t seq = time(NULL), portid;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	int ret, op, err = 0;

	(void)ctl;
	nl = mnl_socket_open(NETLINK_RDMA);
	if (!nl)
		/* no RDMA netlink: ib_core is not loaded */
		return errno == EPROTONOSUPPORT ? -ENOENT : -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	op = set < 0 ? RDMA_NLDEV_CMD_SYS_GET : RDMA_NLDEV_CMD_SYS_SET;
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	if (set >= 0)
		mnl_attr_put_u8(nlh, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, set == CTL_RDMA_SHARED);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		err = -errno;
		goto out;
	}
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0)
			break;
		ret = mnl_cb_run(buf, ret, seq, portid, rdma_reply_cb, &r);
	} while (ret > MNL_CB_STOP);
	if (ret < 0)
		err = -errno;
out:
	mnl_socket_close(nl);
	if (err)
		return err;
	return set < 0 ? r.mode : set;
}

static void nl_close(struct ctl *ctl)
{
	struct ibsw_genl *g = ctl->priv;

	if (!g)
		return;
	ibsw_genl_close(g);
	free(g);
	ctl->priv = NULL;
}

const struct ctl_ops ctl_sys_ops = {
	.xfer = nl_xfer,
	.listen = nl_listen,
	.run = sys_run,
	.run_input = sys_run_input,
	.netns_open = sys_netns_open,
	.exists = sys_exists,
	.rdma_netns = sys_rdma_netns,
	.in_netns = sys_in_netns,
	.spawn = sys_spawn,
	.wait_text = sys_wait_text,
	.stop = sys_stop,
	.write_file = sys_write_file,
	.read_file = sys_read_file,
	.close = nl_close,
};
