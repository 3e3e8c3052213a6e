// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's /init: runs the torture plan and turns the machine off.
 *
 * The plan comes from the kernel command line, so one initramfs serves
 * every plan:
 *
 *   qsl.mode=test|shell      run the plan, or give the reader a shell
 *   qsl.plan=a,b,c           locktorture torture_type values, in order
 *                            ("none": no locktorture run)
 *   qsl.duration=SECONDS     how long each locktorture run lasts
 *   qsl.stat=SECONDS         locktorture's stat_interval
 *   qsl.qsltorture=PARAMS    run qsl_torture.ko after locktorture, with
 *                            PARAMS (commas become spaces); "off" skips it
 *   qsl.klitmus=PARAMS       run every klitmus7 module in /modules/klitmus/
 *                            (make klitmus-N), each with PARAMS (commas
 *                            become spaces), after the rest; "off" skips it
 *
 * Every line this program prints starts with "QSL: " so that the host's
 * verdict can tell it from the kernel's own messages.  The same source is
 * built statically for x86_64 and sparc64.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static char cmdline[4096];

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("QSL: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	/*
	 * Wait until the serial line has sent it: the kernel's own messages
	 * (a module loading next) go to the same console and would otherwise
	 * land in the middle of this line ("lock=qspinlock[    2.57] ...").
	 */
	tcdrain(STDOUT_FILENO);
	va_end(ap);
}

/*
 * Copy the value of "key=" on the kernel command line into @buf, or @def
 * when the key is absent.  Returns @buf.
 */
static const char *param(const char *key, const char *def, char *buf,
			 size_t size)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	snprintf(buf, size, "%s", def);
	while ((p = strstr(p, key)) != NULL) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, "\n ");

			if (n >= size)
				n = size - 1;
			memcpy(buf, p + klen + 1, n);
			buf[n] = '\0';
			break;
		}
		p += klen;
	}
	return buf;
}

static void power_off(void)
{
	sync();
	say("powering off");
#ifdef __x86_64__
	/*
	 * QEMU runs x86 guests with -no-reboot, so a reboot ends the guest;
	 * it does not depend on the firmware's power-off (ACPI S5), which
	 * a configuration without ACPI would not have.
	 */
	reboot(RB_AUTOBOOT);
#else
	reboot(RB_POWER_OFF);
#endif
	for (;;)
		pause();
}

static int load_module(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0) {
		say("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	ret = syscall(SYS_finit_module, fd, params, 0);
	if (ret)
		say("loading %s failed: %s", path, strerror(errno));
	close(fd);
	return ret;
}

static int unload_module(const char *name)
{
	int ret = syscall(SYS_delete_module, name, O_NONBLOCK);

	if (ret)
		say("unloading %s failed: %s", name, strerror(errno));
	return ret;
}

/*
 * Does the kernel log hold a line with this text?  (SYSLOG_ACTION_READ_ALL:
 * the whole ring buffer, as dmesg reads it.)
 */
static int kernel_said(const char *text)
{
	static char buf[1 << 17];
	int n = klogctl(3, buf, sizeof(buf) - 1);

	if (n < 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

/*
 * Which spinlock the running kernel takes a contended lock with: the one
 * it was built with, or, where the kernel says its slowpath falls back
 * to test-and-set in a guest (virt_spin_lock(), step 9 on), that.
 */
static const char *lock_kind(void)
{
	char line[512];
	FILE *f = fopen("/proc/kallsyms", "r");
	const char *kind = NULL;

	if (!f)
		return "unknown (no /proc/kallsyms)";
	while (fgets(line, sizeof(line), f)) {
		char *sym = strrchr(line, ' ');

		if (sym && strcmp(sym + 1, "queued_spin_lock_slowpath\n") == 0) {
			kind = "qspinlock";
			break;
		}
	}
	fclose(f);
	if (kind && kernel_said("virt_spin_lock: on:"))
		return "virt-test-and-set";
	/* The paravirt queue, whose waiters halt (step 10 on). */
	if (kind && kernel_said("PV spinlocks enabled"))
		return "pv-qspinlock";
	if (kind)
		return kind;
#ifdef __x86_64__
	return "ticket";
#elif defined(__sparc__)
	return "test-and-set";
#else
	return "unknown";
#endif
}

/*
 * The kernel's lock event counts (CONFIG_LOCK_EVENT_COUNTS), one file a
 * count in debugfs: print the queued spinlock's, "pv_*" and "lock_*", on
 * one line, "lock events NAME=N ...", which the verdict reads.  A kernel
 * without them says so.
 */
static void report_lock_events(void)
{
	static const char dir[] = "/sys/kernel/debug/lock_event_counts";
	char line[2048] = "", path[512], num[32];
	struct dirent *e;
	size_t len = 0;
	DIR *d;

	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	d = opendir(dir);
	if (!d) {
		say("lock events: none (no %s)", dir);
		return;
	}
	while ((e = readdir(d))) {
		ssize_t n;
		int fd;

		if (strncmp(e->d_name, "pv_", 3) && strncmp(e->d_name, "lock_", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, num, sizeof(num) - 1);
		close(fd);
		if (n <= 0)
			continue;
		num[n] = '\0';
		num[strcspn(num, "\n")] = '\0';
		len += snprintf(line + len, sizeof(line) - len, " %s=%s",
				e->d_name, num);
		if (len >= sizeof(line))
			break;
	}
	closedir(d);
	say("lock events%s", line);
}

static void run_shell(void)
{
	pid_t pid;

	if (access("/bin/sh", X_OK)) {
		say("no shell in this initramfs (busybox exists only for x86_64)");
		return;
	}
	say("starting a shell; modules are in /modules; 'exit' powers off");
	pid = fork();
	if (pid == 0) {
		/* Make the console our controlling tty: job control, ^C. */
		setsid();
		ioctl(0, TIOCSCTTY, 1);
		execl("/bin/sh", "sh", "-l", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void run_locktorture(const char *type, int duration, int stat)
{
	char params[256];

	snprintf(params, sizeof(params),
		 "torture_type=%s stat_interval=%d", type, stat);
	say("run %s start duration=%d", type, duration);
	if (load_module("/modules/locktorture.ko", params)) {
		say("run %s end: not started", type);
		return;
	}
	sleep(duration);
	unload_module("locktorture");
	say("run %s end", type);
}

static void run_qsltorture(const char *spec, int duration)
{
	char params[1100];
	char *p;

	snprintf(params, sizeof(params), "duration=%d %s", duration, spec);
	for (p = params; *p; p++)
		if (*p == ',')
			*p = ' ';
	say("run qsl_torture start duration=%d", duration);
	if (load_module("/modules/qsl_torture.ko", params)) {
		say("run qsl_torture end: not started");
		return;
	}
	/*
	 * The module runs its whole test, and prints its result, from its
	 * init function; unloading it only frees it.
	 */
	unload_module("qsl_torture");
	say("run qsl_torture end");
}

/*
 * Each klitmus7 module runs its litmus test when /proc/litmus is read and
 * prints herd7's format: the histogram of final states, the witnesses,
 * the Observation line.  Every line goes to the console behind
 * "QSL: klitmus| " for common/boot/klitmus-verdict.sh; a module that does
 * not load, or a /proc/litmus that cannot be read, says so there.
 */
static void run_klitmus(const char *spec)
{
	static const char dir[] = "/modules/klitmus";
	char params[256], path[512], name[256], buf[4096], *nl, *p;
	struct dirent **list;
	size_t len = 0;
	int n, i;

	snprintf(params, sizeof(params), "%s", spec);
	for (p = params; *p; p++)
		if (*p == ',')
			*p = ' ';
	n = scandir(dir, &list, NULL, alphasort);
	if (n < 0) {
		say("klitmus: no %s: %s", dir, strerror(errno));
		return;
	}
	say("run klitmus start modules=%d params=%s", n - 2, params);
	for (i = 0; i < n; i++) {
		ssize_t got;
		int fd;

		if (!strstr(list[i]->d_name, ".ko"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		snprintf(name, sizeof(name), "%s", list[i]->d_name);
		*strstr(name, ".ko") = '\0';
		say("klitmus| module %s", name);
		if (load_module(path, params)) {
			say("klitmus| not loaded %s", name);
			continue;
		}
		fd = open("/proc/litmus", O_RDONLY);
		if (fd < 0) {
			say("klitmus| no /proc/litmus from %s: %s", name, strerror(errno));
		} else {
			len = 0;
			while ((got = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
				len += got;
				buf[len] = '\0';
				while ((nl = strchr(buf, '\n'))) {
					*nl = '\0';
					if (buf[0])
						say("klitmus| %s", buf);
					len -= nl + 1 - buf;
					memmove(buf, nl + 1, len + 1);
				}
				if (len == sizeof(buf) - 1) {
					say("klitmus| %s", buf);
					len = 0;
				}
			}
			if (len)
				say("klitmus| %s", buf);
			close(fd);
		}
		unload_module(name);
	}
	say("run klitmus end");
}

int main(void)
{
	struct utsname u;
	char mode[16], plan[1024], qsl[1024], klitmus[256], num[16], *type, *save;
	int fd, duration, stat;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);

	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, cmdline, sizeof(cmdline) - 1);

		cmdline[n > 0 ? n : 0] = '\0';
		close(fd);
	}

	uname(&u);
	say("init on %s %s, %ld cpus online", u.machine, u.release,
	    sysconf(_SC_NPROCESSORS_ONLN));
	say("lock=%s", lock_kind());

	param("qsl.mode", "test", mode, sizeof(mode));
	if (strcmp(mode, "shell") == 0) {
		run_shell();
		power_off();
	}

	param("qsl.plan", "spin_lock,spin_lock_irq,rw_lock", plan, sizeof(plan));
	duration = atoi(param("qsl.duration", "15", num, sizeof(num)));
	stat = atoi(param("qsl.stat", "5", num, sizeof(num)));
	if (duration <= 0 || stat <= 0) {
		say("bad qsl.duration or qsl.stat on the command line");
		power_off();
	}
	param("qsl.qsltorture", "off", qsl, sizeof(qsl));
	param("qsl.klitmus", "off", klitmus, sizeof(klitmus));
	say("plan %s duration=%d qsl_torture=%s klitmus=%s", plan, duration, qsl, klitmus);

	if (strcmp(plan, "none") != 0 &&
	    load_module("/modules/torture.ko", "") == 0) {
		for (type = strtok_r(plan, ",", &save); type;
		     type = strtok_r(NULL, ",", &save))
			run_locktorture(type, duration, stat);
	}
	if (strcmp(qsl, "off") != 0)
		run_qsltorture(strcmp(qsl, "on") ? qsl : "", duration);
	if (strcmp(klitmus, "off") != 0)
		run_klitmus(klitmus);
	report_lock_events();

	say("plan done");
	power_off();
	return 0;
}
