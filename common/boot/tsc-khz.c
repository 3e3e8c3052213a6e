// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: print the rate of this host's TSC in kHz, measured against
 * CLOCK_MONOTONIC_RAW, or nothing (and exit 1) if three measurements do
 * not agree within 0.1%.
 *
 * Under TCG, QEMU gives an x86 guest the host's own counter as its TSC,
 * so this is the guest's TSC rate too.  qemu/x86_64.sh passes it as
 * tsc_early_khz=: the guest's own calibration against the emulated PIT
 * sometimes fails when vCPU threads are descheduled, and the kernel then
 * runs on jiffies, with hrtimers only as fine as the tick.
 *
 * Used by host_tsc_khz in lib.sh, the one probe of the host's clock.
 */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * A TSC reading and the time it was taken: the clock read on both sides
 * of it, retried until the two are within 20 us, so that a preemption
 * between the reads cannot skew the pair (a loaded host, make check's
 * parallel jobs).
 */
static int stamp(double *t, unsigned long long *c)
{
	int i;

	for (i = 0; i < 1000; i++) {
		double before = seconds();

		*c = __rdtsc();
		*t = seconds();
		if (*t - before < 20e-6) {
			*t = (before + *t) / 2;
			return 0;
		}
	}
	return -1;
}

static double measure_khz(void)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	unsigned long long c0, c1;
	double t0, t1;

	if (stamp(&t0, &c0))
		return 0;
	nanosleep(&nap, NULL);
	if (stamp(&t1, &c1))
		return 0;
	return (c1 - c0) / (t1 - t0) / 1e3;
}

int main(void)
{
	double khz[3], lo, hi;
	int i;

	for (i = 0; i < 3; i++)
		khz[i] = measure_khz();
	lo = hi = khz[0];
	for (i = 1; i < 3; i++) {
		lo = khz[i] < lo ? khz[i] : lo;
		hi = khz[i] > hi ? khz[i] : hi;
	}
	if (lo <= 0 || (hi - lo) > lo / 1000) {
		fprintf(stderr, "tsc-khz: measurements disagree: %.0f..%.0f kHz\n", lo, hi);
		return 1;
	}
	printf("%.0f\n", (lo + hi) / 2);
	return 0;
}
