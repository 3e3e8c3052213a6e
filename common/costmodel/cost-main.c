// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model's command line: the program "cost", linked beside each
 * lock's "verify" with the same machine (common/checker/checker.h) and
 * the same lock code.  One execution on the sequentially consistent
 * memory, every CPU taking the lock again and again for -T cycles, then
 * one line of key=value results (cost_run(), cost-run.c).
 */
#include "checker.h"

const char *const program = "cost";

static void usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "cost: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nusage: cost -T CYCLES [-c CPUS] [-C TRANSFER] [-O READ_OCCUPANCY%%] [-J HIT] [-F FENCE]\n"
		"            [-G ATOMIC] [-H HOLD] [-W WORK] [-s SEED] [-Z] [-N NAME]\n"
		"            [-D SOCKETS [-X CROSS]] [-k LOCK_LINE_WRITES]: sockets, data in the lock's line\n"
		"            [-P HOST_CORES [-Q SLICE] [-K WAKE]] [-B SPIN]: vCPUs on fewer cores (host.h)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int opt;

	cfg.self = argv[0];
	while ((opt = getopt(argc, argv, "c:s:N:T:C:O:J:F:G:ZD:X:k:H:W:P:Q:K:B:")) != -1) {
		switch (opt) {
		case 'c':
			cfg.cpus = num(optarg, 1, MAX_CPUS, "-c (CPUs)");
			break;
		case 's':
			cfg.seed = num(optarg, 0, 1L << 62, "-s (seed)");
			break;
		case 'N':
			cfg.name = optarg;
			break;
		case 'T':
			costcfg.cost_end = num(optarg, 1, 100000000, "-T (cycles to simulate)");
			break;
		case 'C':
			costcfg.transfer = num(optarg, 1, 100000, "-C (cycles of a cache-line transfer)");
			break;
		case 'O':
			costcfg.read_occupancy = num(optarg, 1, 100, "-O (percent of a transfer a read miss keeps its line)");
			break;
		case 'J':
			costcfg.hit = num(optarg, 1, 1000, "-J (cycles of a hit)");
			break;
		case 'F':
			costcfg.fence = num(optarg, 0, 1000, "-F (cycles of a fence)");
			break;
		case 'G':
			costcfg.atomic = num(optarg, 0, 1000, "-G (cycles a locked RMW adds)");
			break;
		case 'Z':
			costcfg.by_completion = 1;
			break;
		case 'D':
			costcfg.sockets = num(optarg, 1, 8, "-D (sockets)");
			break;
		case 'X':
			costcfg.cross = num(optarg, 1, 100000, "-X (cycles of a transfer between sockets)");
			break;
		case 'k':
			costcfg.lock_line_writes = num(optarg, 0, 64, "-k (writes to the lock's line in the critical section)");
			break;
		case 'H':
			costcfg.hold = num(optarg, 0, 1000000, "-H (cycles inside the critical section)");
			break;
		case 'W':
			costcfg.work = num(optarg, 0, 1000000, "-W (cycles between unlock and lock)");
			break;
		case 'P':
			costcfg.cores = num(optarg, 1, 64, "-P (host cores the vCPUs share)");
			break;
		case 'Q':
			costcfg.slice = num(optarg, 1, 1000000000, "-Q (cycles of a host slice)");
			break;
		case 'K':
			costcfg.wake = num(optarg, 0, 1000000000, "-K (cycles from a kick to its vCPU running)");
			break;
		case 'B':
			costcfg.spin = num(optarg, 0, 1000000000, "-B (cycles of a bounded spin)");
			break;
		default:
			usage("unknown option%s", "");
		}
	}
	if (optind < argc)
		usage("unexpected argument '%s'", argv[optind]);
	if (!costcfg.cost_end)
		usage("%s", "-T CYCLES is required");
	if (machine_setup())
		return 2;
	return cost_run();
}
