// SPDX-License-Identifier: GPL-2.0
/*
 * The checker's command line: the configuration, then a replay or a
 * search (explore.c), and the verdict lines people and the scripts read.
 * The cost model is a program of its own (common/costmodel/cost-main.c)
 * on the same machine.
 */
#include "checker.h"

const char *const program = "verify";

/* ---- driver ------------------------------------------------------------ */

static void usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "verify: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nusage: verify [-m sc|tso|weak] [-c CPUS] [-a ACQS] [-n LEVELS] [-i IRQ_ACQS]\n"
		"              [-l LOCKREF_CPUS] [-b PREEMPTIONS] [-w REORDERINGS] [-S SPURIOUS] [-x MAX_EXECS]\n"
		"              [-p PCT_DEPTH -s SEED] [-r SCHEDULE] [-N NAME] [-L LITMUS_TEST|list] [-A POISON]\n"
		"              [-E] [-R] [-q] [-M MINIMISATION_BUDGET]\n"
		"(the cost model is a program of its own: cost, beside verify)\n");
	exit(2);
}

/*
 * -L list: the project's own tests and what each model must answer, one
 * tab-separated row a test under a header naming the columns, for the
 * scripts (tsv_columns in lib.sh).  A test without a kind or an answer
 * for every model is an error: each test carries its expectations.
 */
static void list_litmus(void)
{
	int i, m, bad = 0;

	printf("name\tkind");
	for (m = 0; m < VC_MODELS; m++)
		printf("\t%s", model_name[m]);
	printf("\tnote\n");
	for (i = 0; vc_litmus_tests[i].name; i++) {
		const struct vc_litmus *t = &vc_litmus_tests[i];

		if (!t->kind || (strcmp(t->kind, "plain") && strcmp(t->kind, "lock"))) {
			fprintf(stderr, "verify: litmus test %s: kind is not plain or lock\n", t->name);
			bad = 1;
		}
		for (m = 0; m < VC_MODELS; m++)
			if (!t->expect[m] || (strcmp(t->expect[m], "never") &&
					      strcmp(t->expect[m], "reachable"))) {
				fprintf(stderr, "verify: litmus test %s: no answer (never or reachable) under %s\n",
					t->name, model_name[m]);
				bad = 1;
			}
		printf("%s\t%s", t->name, t->kind ? t->kind : "-");
		for (m = 0; m < VC_MODELS; m++)
			printf("\t%s", t->expect[m] ? t->expect[m] : "-");
		printf("\t%s\n", t->note ? t->note : "");
	}
	exit(bad ? 2 : 0);
}

/* -L NAME: the project's own tests (litmus.c), then the LKMM suite's. */
static const struct vc_litmus *find_litmus(const char *name)
{
	const struct vc_litmus *const tables[] = { vc_litmus_tests, vc_lkmm_tests };
	unsigned int k;
	int i;

	for (k = 0; k < ARRAY_SIZE(tables); k++)
		for (i = 0; tables[k] && tables[k][i].name; i++)
			if (!strcmp(name, tables[k][i].name))
				return &tables[k][i];
	fprintf(stderr, "verify: unknown litmus test '%s'; valid:", name);
	for (k = 0; k < ARRAY_SIZE(tables); k++)
		for (i = 0; tables[k] && tables[k][i].name; i++)
			fprintf(stderr, " %s", tables[k][i].name);
	fprintf(stderr, "\n");
	exit(2);
}

static void config_str(char *buf, size_t n)
{
	snprintf(buf, n, "%d CPUs x %d", cfg.cpus, cfg.acq);
	if (cfg.levels > 1)
		snprintf(buf + strlen(buf), n - strlen(buf), ", %d nested level%s x %d",
			 cfg.levels - 1, cfg.levels > 2 ? "s" : "", cfg.irq_acq);
	if (cfg.lockref)
		snprintf(buf + strlen(buf), n - strlen(buf), ", %d lockref user%s",
			 cfg.lockref, cfg.lockref > 1 ? "s" : "");
	if (cfg.trylock)
		snprintf(buf + strlen(buf), n - strlen(buf), ", %d trylock user%s",
			 cfg.trylock, cfg.trylock > 1 ? "s" : "");
	if (cfg.observers)
		snprintf(buf + strlen(buf), n - strlen(buf), ", %d observer%s",
			 cfg.observers, cfg.observers > 1 ? "s" : "");
	if (!cfg.pct && cfg.bound < 1000)
		snprintf(buf + strlen(buf), n - strlen(buf), ", <= %d preemptions",
			 cfg.bound);
	if (cfg.spurious)
		snprintf(buf + strlen(buf), n - strlen(buf), ", <= %d spurious wake-up%s a CPU",
			 cfg.spurious, cfg.spurious > 1 ? "s" : "");
	if (cfg.pct)
		snprintf(buf + strlen(buf), n - strlen(buf), ", PCT depth %d seed %llu",
			 cfg.pct, (unsigned long long)cfg.seed);
}

static void report_failure(const struct best *b, long execs, double secs, const char *conf)
{
	/* one more: an empty trace must still be a replay, not NULL */
	int *s = malloc((b->n + 1) * sizeof(int));

	if (b->hit)
		printf("litmus %s %s: reachable: the exists clause holds after execution %ld (%d events; %.1f s)\n",
		       cfg.name, model_name[cfg.model], execs, b->n, secs);
	else
		printf("verify %s %s [%s]: FAIL: %s (execution %ld, %d events, %d preemptions; %.1f s)\n",
		       cfg.name, model_name[cfg.model], conf, b->msg, execs, b->n,
		       b->pre, secs);
	memcpy(s, b->sched, b->n * sizeof(int));
	replay_sched = s;
	replay_alt = b->alt;
	replay_len = b->n;
	dpor = 0;
	execute(0);
	print_trace();
	if (cfg.litmus)
		printf("replay: %s -m %s -L %s -r ", cfg.self, model_name[cfg.model],
		       cfg.name);
	else
		printf("replay: %s -m %s -c %d -a %d -n %d -i %d -l %d -t %d -o %d -N %s -r ",
		       cfg.self, model_name[cfg.model], cfg.cpus, cfg.acq, cfg.levels,
		       cfg.irq_acq, cfg.lockref, cfg.trylock, cfg.observers, cfg.name);
	if (b->n)
		print_sched(s, b->alt, b->n, stdout);
	else
		printf("''");	/* failed before its first event */
	printf("\n");
}

/*
 * The verdict of a search: a failure with its trace and replay line, a
 * litmus test's answer, or PASS; then -E's behaviours, and the one
 * "result:" line the scripts read.  Returns the exit status: 0, 1 (a
 * failure), 3 (a search or litmus test not exhausted within -x).
 */
static int report(const struct search *s, double secs, const char *conf)
{
	int was_dpor = dpor;	/* report_failure()'s replay clears it */
	const char *verdict;
	int rc;

	if (cfg.audit)
		printf("audit: poison %#x, %ld executions, event hash %016llx\n",
		       cfg.audit > 0 ? cfg.audit : 0, s->execs,
		       (unsigned long long)audit_hash);
	if (s->best.set) {
		report_failure(&s->best, s->first_fail ? s->first_fail : s->execs, secs, conf);
		verdict = s->best.hit ? "reachable" : "FAIL";
		rc = s->best.hit ? 0 : 1;
	} else if (cfg.litmus) {
		printf("litmus %s %s: %s: %ld executions%s in %.1f s\n", cfg.name,
		       model_name[cfg.model], s->exhausted ? "never" : "not found",
		       s->execs, s->exhausted ? ", every one (exhausted)" :
		       ", NOT exhausted (budget -x)", secs);
		verdict = s->exhausted ? "never" : "not-found";
		rc = s->exhausted ? 0 : 3;
	} else {
		char spur[64] = "";

		if (cfg.spurious)
			snprintf(spur, sizeof(spur), "; %ld spurious wake-ups", spurious_taken);
		printf("verify %s %s [%s]: PASS: %ld executions%s in %.1f s (%.0f/s; %ld cut short by sleep sets or the bound%s)\n",
		       cfg.name, model_name[cfg.model], conf, s->execs,
		       dpor ? (s->exhausted ? ", every one (exhausted)" :
			       ", NOT exhausted (budget -x)") : " (PCT)",
		       secs, s->execs / (secs > 0 ? secs : 1e-9), s->sleeps, spur);
		verdict = "PASS";
		rc = dpor && !s->exhausted ? 3 : 0;
	}
	if (cfg.enumerate)
		printf("behaviours: %ld classes (digest %016llx), %ld final states (digest %016llx), %ld failing executions\n",
		       classes.n, (unsigned long long)classes.digest, states.n,
		       (unsigned long long)states.digest, s->fails);
	/* one line for the scripts: the sentences above are for people */
	printf("result: name=%s model=%s explorer=%s verdict=%s executions=%ld exhausted=%d cut=%ld bound=%d reorder_bound=%d classes=%ld class_digest=%016llx states=%ld state_digest=%016llx failures=%ld first_failure=%ld events=%d preemptions=%d spurious=%ld seconds=%.2f failure=%s\n",
	       cfg.name, model_name[cfg.model],
	       cfg.pct ? "pct" : cfg.reference ? "reference" : "dpor", verdict, s->execs,
	       was_dpor ? s->exhausted : 0, s->sleeps, cfg.bound, cfg.reorder_bound,
	       classes.n, (unsigned long long)classes.digest, states.n,
	       (unsigned long long)states.digest, s->fails, s->first_fail, s->best.n,
	       s->best.pre, spurious_taken, secs, s->best.set && !s->best.hit ? s->best.msg : "-");
	return rc;
}

int main(int argc, char **argv)
{
	static struct search srch;
	char conf[128];
	int opt, i;
	double t0;

	cfg.self = argv[0];
	while ((opt = getopt(argc, argv, "m:c:a:n:i:l:t:o:x:p:s:r:N:qM:b:w:S:L:A:ER")) != -1) {
		switch (opt) {
		case 'E':
			cfg.enumerate = 1;
			break;
		case 'R':
			cfg.reference = 1;
			break;
		case 'm':
			for (i = 0; i < 3 && strcmp(optarg, model_name[i]); i++)
				;
			if (i == 3)
				usage("unknown model '%s' (valid: sc, tso, weak)", optarg);
			cfg.model = i;
			break;
		case 'c':
			cfg.cpus = num(optarg, 1, MAX_CPUS, "-c (CPUs)");
			break;
		case 'a':
			cfg.acq = num(optarg, 1, 100, "-a (acquisitions per CPU)");
			break;
		case 'n':
			cfg.levels = num(optarg, 1, MAX_LEVELS, "-n (context levels)");
			break;
		case 'i':
			cfg.irq_acq = num(optarg, 1, 10, "-i (acquisitions per nested level)");
			break;
		case 'l':
			cfg.lockref = num(optarg, 0, MAX_CPUS, "-l (lockref CPUs)");
			break;
		case 't':
			cfg.trylock = num(optarg, 0, MAX_CPUS, "-t (trylock CPUs)");
			break;
		case 'o':
			cfg.observers = num(optarg, 0, MAX_CPUS, "-o (observer CPUs)");
			break;
		case 'x':
			cfg.max_execs = num(optarg, 1, 1000000000, "-x (executions)");
			break;
		case 'p':
			cfg.pct = num(optarg, 1, 16, "-p (PCT depth)");
			break;
		case 's':
			cfg.seed = num(optarg, 0, 1L << 62, "-s (seed)");
			break;
		case 'r':
			cfg.replay = optarg;
			break;
		case 'N':
			cfg.name = optarg;
			break;
		case 'q':
			cfg.quiet = 1;
			break;
		case 'b':
			cfg.bound = num(optarg, 0, 1000, "-b (preemption bound)");
			break;
		case 'w':
			cfg.reorder_bound = num(optarg, 0, 1000, "-w (reordering bound)");
			break;
		case 'S':
			cfg.spurious = num(optarg, 0, 100, "-S (spurious wake-ups per CPU)");
			break;
		case 'A':
			cfg.audit = strcmp(optarg, "none") ? num(optarg, 1, 255,
				"-A (audit poison byte, or none)") : -1;
			break;
		case 'L':
			if (!strcmp(optarg, "list"))
				list_litmus();
			cfg.litmus = find_litmus(optarg);
			break;
		case 'M':
			cfg.min_budget = num(optarg, 0, 100000000, "-M (minimisation budget)");
			break;
		default:
			usage("unknown option%s", "");
		}
	}
	if (optind < argc)
		usage("unexpected argument '%s'", argv[optind]);
	if (cfg.lockref + cfg.trylock + cfg.observers > cfg.cpus)
		usage("-l, -t and -o (lockref, trylock and observer CPUs) cannot exceed -c (CPUs)%s", "");
	if (cfg.observers && cfg.levels > 1)
		usage("-o (observers) runs without nested levels (-n 1)%s", "");
	if (cfg.observers && cfg.model == WEAK)
		usage("-o (observers) asks in real time: under SC and TSO only%s", "");
	if (cfg.litmus) {
		/* one context per thread, the first outcome found is the answer */
		cfg.cpus = cfg.litmus->threads;
		cfg.acq = 1;
		cfg.levels = 1;
		cfg.lockref = 0;
		cfg.trylock = 0;
		cfg.observers = 0;
		cfg.minimise = 0;
		cfg.name = cfg.litmus->name;
	}

	if (cfg.reference)
		cfg.enumerate = 1;
	if (cfg.enumerate)
		cfg.minimise = 0;
	if (machine_setup())
		return 2;
	config_str(conf, sizeof(conf));

	if (cfg.replay) {
		int *s, *a, n = parse_sched(cfg.replay, &s, &a);

		if (n < 0)
			usage("bad schedule '%s' (a list like 0x12,1,0:2,0x3)", cfg.replay);
		replay_sched = s;
		replay_alt = a;
		replay_len = n;
		if (execute(0) == X_FAIL) {
			printf("verify %s %s [%s]: FAIL: %s (replayed, %d events)\n", cfg.name,
			       model_name[cfg.model], conf, fail_msg, nev);
			print_trace();
			return 1;
		}
		printf("verify %s %s [%s]: PASS (replayed, %d events)\n", cfg.name,
		       model_name[cfg.model], conf, nev);
		print_trace();
		return 0;
	}

	dpor = !cfg.pct;
	if (dpor && nprocs > DPOR_PROCS) {
		fprintf(stderr, "verify: %d processes (CPU contexts and store buffers) are too many for the exhaustive search (at most %d); use -p for PCT\n",
			nprocs, DPOR_PROCS);
		return 2;
	}
	if (dpor)
		stk = calloc(MAX_EVENTS, sizeof(*stk));
	rng_state = cfg.seed * 2654435761ULL + 88172645463325252ULL;
	t0 = now();
	explore(&srch);
	return report(&srch, now() - t0, conf);
}
