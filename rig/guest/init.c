// SPDX-License-Identifier: GPL-2.0
/*
 * init for the test guest: PID 1 of the initramfs the rig boots.
 *
 * It mounts the pseudo filesystems, runs the commands listed in
 * /tests/<mode>.list one after the other, each in its own session with a
 * time limit, and powers the machine off. The mode comes from the kernel
 * command line (kperf.mode=check|run|bench|shell; check by default).
 *
 * Test output goes to the virtio console /dev/hvc0 when there is one, so
 * that kernel messages on the serial console never split a TAP line; the
 * host reads the two streams separately. Every command is framed:
 *
 *   KPERF-BEGIN <suite> <name>
 *   ... its own output (TAP for tests) ...
 *   KPERF-END <suite> <name> <exit=N|signal=N|timeout>
 *
 * and the run ends with KPERF-DONE, after a kmemleak scan on kernels that
 * have kmemleak (reported as KPERF-KMEMLEAK lines).
 *
 * A list line is: <suite> <timeout-seconds> <program> [args...], with
 * programs relative to /tests. Lines starting with # are ignored.
 *
 * kperf.fault=panic|hang|warn is the rig's own self-test: after the tests,
 * init exits (a real kernel panic), blocks forever (a hung guest), or
 * writes a WARNING line to the kernel log; each must fail the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int out_fd = 1;

static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (write(out_fd, buf, n) < 0)
		return;
}

static void do_mount(const char *src, const char *dst, const char *type,
		     unsigned long flags, const char *data)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, flags, data) && errno != EBUSY)
		say("# init: mount %s on %s: %s\n", type, dst, strerror(errno));
}

static void cmdline_get(const char *key, char *val, size_t len)
{
	char buf[4096], *p;
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	size_t klen = strlen(key);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (p = strtok(buf, "\t\n "); p; p = strtok(NULL, "\t\n ")) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(val, len, "%s", p + klen + 1);
			return;
		}
	}
}

/*
 * perf_event_max_sample_rate as the kernel booted with it.  Both kernels
 * lower it for good whenever a sample's interrupt takes too long, which
 * under TCG a test that samples hard (or a TB flush in a PMI) can cause;
 * each test starts from the boot value, so that one test's slow
 * interrupts do not make a later test's frequency EINVAL.
 */
#define MAX_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
static char boot_rate[32];

static void rate_save(void)
{
	int fd = open(MAX_RATE, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, boot_rate, sizeof(boot_rate) - 1);

	if (fd >= 0)
		close(fd);
	boot_rate[n > 0 ? n : 0] = '\0';
}

static void rate_restore(void)
{
	int fd;

	if (!boot_rate[0])
		return;
	fd = open(MAX_RATE, O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, boot_rate, strlen(boot_rate)) < 0)
		say("# init: restore %s: %s\n", MAX_RATE, strerror(errno));
	close(fd);
}

/* Run one command to completion or until its time is up. */
static void run_one(const char *suite, int timeout, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	struct timespec now, deadline, ts;
	sigset_t chld;
	int status = 0;
	pid_t pid, r;

	rate_restore();
	say("KPERF-BEGIN %s %s\n", suite, name);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);

	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		sigprocmask(SIG_UNBLOCK, &chld, NULL);
		setsid();
		if (chdir("/tmp"))
			_exit(126);
		dup2(null, 0);
		dup2(out_fd, 1);
		dup2(out_fd, 2);
		execv(argv[0], argv);
		say("# init: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		say("KPERF-END %s %s exit=127\n", suite, name);
		return;
	}

	/* Wait for our child; other exits (orphans reparented to us) only wake us. */
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		ts.tv_sec = deadline.tv_sec - now.tv_sec;
		ts.tv_nsec = deadline.tv_nsec - now.tv_nsec;
		if (ts.tv_nsec < 0) {
			ts.tv_nsec += 1000000000L;
			ts.tv_sec--;
		}
		if (ts.tv_sec < 0 ||
		    (sigtimedwait(&chld, NULL, &ts) < 0 && errno == EAGAIN)) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			say("KPERF-END %s %s timeout\n", suite, name);
			goto reap;
		}
	}
	/* Leftover processes of the test's session must not outlive it. */
	kill(-pid, SIGKILL);
	if (WIFEXITED(status))
		say("KPERF-END %s %s exit=%d\n", suite, name, WEXITSTATUS(status));
	else
		say("KPERF-END %s %s signal=%d\n", suite, name, WTERMSIG(status));
reap:
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static void run_list(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f) {
		say("# init: no %s\n", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *argv[32], *suite, *tmo, *tok;
		char prog[512];
		int argc = 0;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		suite = strtok(line, " \t\n");
		tmo = strtok(NULL, " \t\n");
		if (!suite || !tmo)
			continue;
		while ((tok = strtok(NULL, " \t\n")) && argc < 31)
			argv[argc++] = tok;
		argv[argc] = NULL;
		if (!argc)
			continue;
		if (argv[0][0] != '/') {
			snprintf(prog, sizeof(prog), "/tests/%s", argv[0]);
			argv[0] = prog;
		}
		run_one(suite, atoi(tmo), argv);
	}
	fclose(f);
}

static void inject_fault(const char *fault)
{
	int fd;

	if (!strcmp(fault, "panic")) {
		say("# init: exiting on purpose (kperf.fault=panic)\n");
		exit(1);
	}
	if (!strcmp(fault, "hang")) {
		say("# init: hanging on purpose (kperf.fault=hang)\n");
		for (;;)
			pause();
	}
	if (!strcmp(fault, "warn")) {
		/*
		 * A line as the kernel prints it, on the console the rig reads
		 * the kernel log from (a kmsg write of userspace need not
		 * reach the console before the guest powers off).
		 */
		static const char line[] =
			"WARNING: CPU: 0 PID: 1 at kperf.fault=warn (rig self-test)\n";

		fd = open("/dev/console", O_WRONLY);
		if (fd >= 0) {
			if (write(fd, line, sizeof(line) - 1) < 0)
				say("# init: console: %s\n", strerror(errno));
			close(fd);
		}
	}
}

static void kmemleak_report(void)
{
	const char *km = "/sys/kernel/debug/kmemleak";
	char buf[4096], *line, *save;
	ssize_t n;
	int fd;

	if (access(km, F_OK))
		return;
	/* kmemleak only reports objects older than five seconds */
	sleep(6);
	fd = open(km, O_RDWR);
	if (fd < 0)
		return;
	if (write(fd, "scan", 4) < 0)
		say("# init: kmemleak scan: %s\n", strerror(errno));
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			say("KPERF-KMEMLEAK %s\n", line);
	}
	close(fd);
}

int main(void)
{
	char mode[32] = "check", fault[16] = "", list[64];
	int fd, i;

	do_mount("proc", "/proc", "proc", 0, NULL);
	do_mount("sysfs", "/sys", "sysfs", 0, NULL);
	do_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	do_mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	do_mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	do_mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	do_mount("devpts", "/dev/pts", "devpts", 0, NULL);

	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		out_fd = fd;
	}
	cmdline_get("kperf.mode", mode, sizeof(mode));
	cmdline_get("kperf.fault", fault, sizeof(fault));

	if (!strcmp(mode, "shell")) {
		static char * const sh[] = { "/bin/sh", "-i", NULL };
		static char * const env[] = { "PATH=/bin:/sbin:/tests", "HOME=/tmp",
				"TERM=vt100", NULL };

		say("kperf guest shell: tests are in /tests; 'poweroff -f' to leave\n");
		if (fork() == 0) {
			setsid();
			ioctl(0, TIOCSCTTY, 1);
			execve(sh[0], sh, env);
			say("no shell in this guest: %s\n", strerror(errno));
			_exit(1);
		}
		while (wait(NULL) > 0)
			;
	} else {
		/*
		 * Results on the virtio console, kernel messages on serial.
		 * A slow (debug) kernel may still be probing virtio when init
		 * starts: wait up to 60 s for the device node.
		 */
		for (i = 0; i < 600; i++) {
			fd = open("/dev/hvc0", O_WRONLY);
			if (fd >= 0 || !strcmp(mode, "run"))
				break;
			usleep(100000);
		}
		if (fd >= 0 && strcmp(mode, "run"))
			out_fd = fd;
		say("KPERF-MODE %s\n", mode);
		setenv("PATH", "/bin:/sbin:/tests", 1);
		snprintf(list, sizeof(list), "/tests/%s.list", mode);
		rate_save();
		run_list(list);
		inject_fault(fault);
		kmemleak_report();
		say("KPERF-DONE\n");
	}
	sync();
	reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	return 0;
}
