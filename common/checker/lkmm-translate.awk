# lkmm-translate.awk: the Linux-kernel memory model's litmus tests (herd7's
# C litmus format) as the lock checker's tests (struct vc_litmus, vc.h).
#
#   awk -v out=FILE.c [-v root=TREE] [-v raw=1] -f lkmm-translate.awk T.litmus... >FILE.tsv
#
# Writes ONE C file (out) with one struct vc_litmus per test it can
# translate, in the array vc_lkmm_tests[] the checker's -L searches after
# its own tests (litmus.c), each named "lkmm:" and the test's name; and on
# stdout one TSV row per test read:
#
#   name  path  result  expect  kind  action  note
#
# path: the file, less the prefix root; result: the test's "Result:" line
# (herd7's answer for the LKMM: Never, Sometimes or Always); expect: what
# the checker's "can the exists clause hold?" must answer where it agrees
# with the LKMM (reachable or never; "-" for a skipped test); kind: lock
# (it takes a spinlock) or plain; action: run or skip; note: why it was
# skipped (the first construct it cannot translate), or what the
# translation changed, or "-".
#
# With raw=1 (verify-herd.sh) the Result line is neither needed nor read:
# the checker asks whether the clause's proposition can hold, as herd7's
# "Observation" line answers it (Never, or not), and expect is "-".
#
# The translation keeps the thread bodies as they are: herd's C is C.  Each
# shared variable becomes a field of a per-test struct laid out at
# vc_vars(), and each parameter "int *x" a local pointer to it, so that
# READ_ONCE(*x), smp_store_release(x, 1), atomic_inc(v) compile to the lab
# shim's __atomic builtins, which the checker sees; a spinlock_t parameter
# is one of the checker's locks (vc_lockref_of()), taken with the step's
# own spin_lock().  Registers stay local variables (0 unless the init block
# says otherwise) and are copied at the thread's end into a per-test static
# struct, which the exists clause reads after the run together with the
# final values of the variables.  Every thread copies every register it
# declares, so the copy of one execution never leaks into the next.
#
# POSIX awk only (mawk, busybox awk, gawk --posix): the CI machine may lack
# anything else.

BEGIN {
	if (out == "") {
		print "lkmm-translate.awk: usage: awk -v out=FILE.c [-v root=TREE] -f lkmm-translate.awk FILE.litmus..." > "/dev/stderr"
		exit 2
	}
	ntests = 0
	ntrans = 0
	split("", seen)
	# What a thread body may call, beyond C.  The lab's shim defines the
	# first group (<linux/compiler.h>, <asm/barrier.h>, <linux/atomic.h>),
	# this file's preamble the rest (the kernel's orders, as in
	# tools/memory-model/linux-kernel.def).
	nok = split("READ_ONCE WRITE_ONCE smp_mb smp_rmb smp_wmb barrier " \
		"smp_store_release smp_load_acquire smp_store_mb " \
		"smp_mb__before_atomic smp_mb__after_atomic " \
		"smp_mb__after_spinlock smp_mb__after_unlock_lock " \
		"xchg xchg_relaxed xchg_acquire xchg_release " \
		"cmpxchg cmpxchg_relaxed cmpxchg_acquire cmpxchg_release " \
		"atomic_read atomic_set atomic_read_acquire atomic_set_release " \
		"atomic_add atomic_sub atomic_inc atomic_dec " \
		"atomic_sub_and_test atomic_dec_and_test atomic_inc_and_test " \
		"atomic_add_negative atomic_add_unless atomic_inc_not_zero " \
		"spin_lock spin_unlock spin_trylock spin_is_locked " \
		"rcu_read_lock rcu_read_unlock rcu_dereference rcu_assign_pointer", w, " ")
	for (i = 1; i <= nok; i++)
		prim[w[i]] = 1
	nsfx = split(" _relaxed _acquire _release", sfx, " ")
	sfx[0] = ""
	split("add sub inc dec", w, " ")
	for (i = 1; i <= 4; i++)
		for (k = 0; k <= 3; k++) {
			prim["atomic_" w[i] "_return" sfx[k]] = 1
			prim["atomic_fetch_" w[i] sfx[k]] = 1
		}
	for (k = 0; k <= 3; k++) {
		prim["atomic_xchg" sfx[k]] = 1
		prim["atomic_cmpxchg" sfx[k]] = 1
	}
	# The lab shim's own functions (<linux/atomic.h>): no macro over them.
	split("atomic_cmpxchg atomic_cmpxchg_relaxed atomic_cmpxchg_acquire " \
		"atomic_cmpxchg_release atomic_xchg atomic_fetch_add", w, " ")
	for (i in w)
		shimfn[w[i]] = 1
	# C words a body may use.
	split("if else int long short char unsigned signed bool void const " \
		"volatile u8 u16 u32 u64 s8 s16 s32 s64 true false sizeof", w, " ")
	for (i in w)
		cword[w[i]] = 1
	# Register types: C integers and pointers to them.
	split("int long unsigned bool u8 u16 u32 u64 s8 s16 s32 s64 char short signed", w, " ")
	for (i in w)
		rtype[w[i]] = 1
	# Skip reasons for primitives this translation cannot express.
	split("synchronize_rcu synchronize_rcu_expedited call_rcu rcu_barrier " \
		"kfree_rcu", w, " ")
	for (i in w)
		why_prim[w[i]] = "RCU grace period (" w[i] ")"
}

FNR == 1 && NR != 1 {
	translate(prevfile, text)
	text = ""
}
{
	text = text $0 "\n"
	prevfile = FILENAME
}
END {
	if (NR > 0)
		translate(prevfile, text)
	finish()
}

# ---- output ------------------------------------------------------------

function row(name, path, result, expect, kind, action, note)
{
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, path, result, expect, kind, action, note
}

function skip(reason)
{
	row(T_name, T_path, T_result, "-", "-", "skip", reason)
	return 0
}

function emit(s)
{
	C = C s "\n"
}

# ---- scanning ----------------------------------------------------------

function trim(s)
{
	sub(/^[ \t\r\n]+/, "", s)
	sub(/[ \t\r\n]+$/, "", s)
	return s
}

# Skip blanks and comments: herd's (* ... *) (nested), C's // and /* */.
function skipws(   c, d)
{
	while (P <= L) {
		c = substr(S, P, 1)
		if (c == " " || c == "\t" || c == "\n" || c == "\r") {
			P++
		} else if (substr(S, P, 2) == "(*") {
			d = 1
			P += 2
			while (P <= L && d > 0) {
				if (substr(S, P, 2) == "(*") {
					d++
					P += 2
				} else if (substr(S, P, 2) == "*)") {
					d--
					P += 2
				} else
					P++
			}
		} else if (substr(S, P, 2) == "//") {
			while (P <= L && substr(S, P, 1) != "\n")
				P++
		} else if (substr(S, P, 2) == "/*") {
			d = index(substr(S, P + 2), "*/")
			P = d ? P + d + 3 : L + 1
		} else
			break
	}
}

# At a "{": the text up to its matching "}", without the two; P after it.
function block(   d, c, start)
{
	d = 0
	start = P + 1
	for (; P <= L; P++) {
		c = substr(S, P, 1)
		if (c == "{")
			d++
		else if (c == "}" && --d == 0) {
			P++
			return substr(S, start, P - 1 - start)
		}
	}
	BAD = "unbalanced braces"
	return ""
}

# herd's comments (* ... *) out of a clause or an init block.
function uncomment(s,   r, i, d)
{
	r = ""
	while ((i = index(s, "(*")) > 0) {
		r = r substr(s, 1, i - 1)
		s = substr(s, i + 2)
		d = 1
		while (d > 0 && s != "") {
			if (substr(s, 1, 2) == "(*") {
				d++
				s = substr(s, 3)
			} else if (substr(s, 1, 2) == "*)") {
				d--
				s = substr(s, 3)
			} else
				s = substr(s, 2)
		}
	}
	return r s
}

# ---- one test ----------------------------------------------------------

function translate(file, txt,   hdr, i, t, n, tail, q, qpos, prop, filt, main, r, expect, note, nm)
{
	ntests++
	# intptr_t (the catalogue's generated tests) is a long in the kernel
	gsub(/uintptr_t/, "unsigned long", txt)
	gsub(/intptr_t/, "long", txt)
	# a volatile variable (manual/locked/) is one the checker sees anyway
	gsub(/volatile[ \t]+/, "", txt)
	S = txt
	L = length(S)
	P = 1
	BAD = ""
	T_path = file
	if (root != "" && index(file, root "/") == 1)
		T_path = substr(file, length(root) + 2)
	T_name = file
	sub(/.*\//, "", T_name)
	sub(/\.litmus$/, "", T_name)
	T_result = "-"
	if (match(S, /Result:[ \t]*(Never|Sometimes|Always)/)) {
		T_result = substr(S, RSTART, RLENGTH)
		sub(/Result:[ \t]*/, "", T_result)
	}

	skipws()
	hdr = substr(S, P, index(substr(S, P) "\n", "\n") - 1)
	if (hdr !~ /^C[ \t]/)
		return skip("not a C litmus test (" hdr ")")
	T_name = trim(substr(hdr, 2))
	P += length(hdr)
	if (T_name in seen)
		return skip("a second test of this name (" seen[T_name] ")")
	seen[T_name] = T_path
	if (T_result == "-" && !raw)
		return skip("no Result line")

	# diy7's lines between the name and the init block: a quoted cycle,
	# then Key=value lines (Prefetch=, Com=, Orig=, Hash=)
	for (;;) {
		skipws()
		if (substr(S, P, 1) != "\"" && !match(substr(S, P), /^[A-Za-z]+=/))
			break
		n = index(substr(S, P) "\n", "\n")
		P += n
	}
	# the init block, then the threads P0..Pn, then the clauses
	split("", vtype); split("", vorder); nvars = 0
	split("", lockidx); nlocks = 0
	split("", vinit); split("", rinit)
	split("", tparams); split("", tbody); split("", tpar)
	split("", regt); split("", rorder); nregs = 0
	skipws()
	init = ""
	if (substr(S, P, 1) == "{")
		init = block()
	nthreads = 0
	for (;;) {
		skipws()
		if (!match(substr(S, P), /^P[0-9]+[ \t]*\(/))
			break
		t = substr(S, P + 1, RLENGTH - 2) + 0
		if (t != nthreads)
			return skip("threads not numbered P0, P1, ... in order")
		P += RLENGTH
		n = index(substr(S, P), ")")
		if (!n)
			return skip("unterminated parameter list of P" t)
		tparams[t] = substr(S, P, n - 1)
		P += n
		skipws()
		if (substr(S, P, 1) != "{")
			return skip("no body after P" t "()")
		tbody[t] = block()
		if (BAD != "")
			return skip(BAD)
		nthreads++
	}
	if (nthreads == 0)
		return skip("no thread P0()")
	if (nthreads > 8)
		return skip("more than 8 threads (" nthreads ")")
	tail = uncomment(substr(S, P))
	gsub(/\/\/[^\n]*/, "", tail)
	gsub(/[\r\n\t]/, " ", tail)
	gsub(/locations[ ]*\[[^]]*\]/, "", tail)

	# the parameters: shared variables and locks
	for (t = 0; t < nthreads; t++)
		if (!params(t))
			return skip(BAD)
	if (nlocks > 2)
		return skip("more than 2 locks (the checker frees and checks 2)")
	if (!initblock(init))
		return skip(BAD)
	for (t = 0; t < nthreads; t++)
		if (!body(t))
			return skip(BAD)

	# the clauses: [filter PROP] (exists | ~exists | forall) PROP
	if (match(tail, /~[ ]*exists/) || match(tail, /exists/) || match(tail, /forall/)) {
		q = substr(tail, RSTART, RLENGTH)
		qpos = RSTART
	} else
		return skip("no exists clause")
	main = trim(substr(tail, qpos + length(q)))
	filt = trim(substr(tail, 1, qpos - 1))
	if (filt != "") {
		if (filt !~ /^filter[ (]/)
			return skip("cannot read the clauses: " filt)
		filt = trim(substr(filt, 7))
	}
	prop = clause(main)
	if (BAD != "")
		return skip("exists clause: " BAD)
	note = "-"
	# The Result line is herd7's observation of the clause's proposition,
	# whatever its quantifier: Never and Sometimes are what "can it hold?"
	# answers; Always is "can it fail?" answering never.
	if (raw)
		expect = "-"
	else if (T_result == "Always") {
		prop = "!" prop
		expect = "never"
		note = "the clause negated (Result: Always): the checker asks whether it can fail"
	} else
		expect = T_result == "Sometimes" ? "reachable" : "never"
	if (filt != "") {
		filt = clause(filt)
		if (BAD != "")
			return skip("filter clause: " BAD)
		# herd7 keeps only the executions the filter accepts and asks
		# whether one of them satisfies the clause: that is one
		# execution that satisfies both, which is what the checker
		# looks for.  For Always, "every accepted execution satisfies
		# it" is "none satisfies the filter and not the clause".
		prop = "(" filt " && " prop ")"
		note = (note == "-" ? "" : note "; ") "filter ANDed into the clause"
	}
	for (t = 0; t < nthreads; t++)
		if (tbody[t] ~ /rcu_/) {
			note = (note == "-" ? "" : note "; ") "no grace period: rcu_read_lock() and rcu_read_unlock() order nothing"
			break
		}
	nm = "lkmm" ntrans
	emit_test(nm, prop, q)
	ntrans++
	tname[ntrans] = T_name
	tcid[ntrans] = nm
	tthreads[ntrans] = nthreads
	row(T_name, T_path, T_result, expect, nlocks ? "lock" : "plain", "run", note)
	return 1
}

# P<t>'s parameters: "int *x" is the variable x (an int), "int **p" the
# variable p (an int *), "atomic_t *v", "spinlock_t *s" one of the locks.
function params(t,   a, n, i, p, name, ty, stars)
{
	n = split(tparams[t], a, ",")
	for (i = 1; i <= n; i++) {
		p = trim(a[i])
		if (p == "" || p == "void")
			continue
		if (!match(p, /[A-Za-z_][A-Za-z0-9_]*$/)) {
			BAD = "cannot read the parameter '" p "' of P" t
			return 0
		}
		name = substr(p, RSTART)
		ty = trim(substr(p, 1, RSTART - 1))
		stars = ty
		gsub(/[^*]/, "", stars)
		gsub(/[ *]+$/, "", ty)
		if (stars == "") {
			BAD = "a parameter that is not a pointer ('" p "' of P" t ")"
			return 0
		}
		ty = ty substr(stars, 2)
		tpar[t ":" name] = 1
		if (ty == "spinlock_t" || ty == "raw_spinlock_t") {
			if (!(name in lockidx)) {
				if (name in vtype) {
					BAD = name " is both a lock and a variable"
					return 0
				}
				lockidx[name] = nlocks++
			}
			continue
		}
		if (ty ~ /srcu/) {
			BAD = "SRCU (" ty ")"
			return 0
		}
		if (!vartype(ty)) {
			BAD = "a shared variable of type " ty " (" name ")"
			return 0
		}
		if (name in lockidx) {
			BAD = name " is both a lock and a variable"
			return 0
		}
		if (!addvar(name, ty))
			return 0
	}
	return 1
}

function vartype(ty,   b)
{
	b = ty
	sub(/ *\*+$/, "", b)
	if (b == "atomic_t" || b == "int" || b == "unsigned int" || b == "unsigned" ||
	    b == "long" || b == "unsigned long" || b == "u32" || b == "u64" ||
	    b == "s32" || b == "s64")
		return ty == b || ty ~ /^[a-z0-9_ ]+ \*$/ || ty ~ /^[a-z0-9_]+\*$/
	return 0
}

function addvar(name, ty)
{
	sub(/\*$/, " *", ty)
	gsub(/  +/, " ", ty)
	if (name in vtype) {
		if (vtype[name] != ty) {
			BAD = name " declared as " vtype[name] " and as " ty
			return 0
		}
		return 1
	}
	vtype[name] = ty
	vorder[++nvars] = name
	return 1
}

function varsize(ty)
{
	if (ty ~ /\*$/ || ty ~ /long$/ || ty ~ /64$/)
		return 8
	return 4
}

# The init block: "x=1;", "int x = 1;", "int *y = &x;", "p=y;",
# "atomic_t v = ATOMIC_INIT(1);", "0:r1=2;".
function initblock(s,   a, n, i, e, lhs, rhs, eq, ty, name)
{
	s = uncomment(s)
	gsub(/[\r\n\t]/, " ", s)
	n = split(s, a, ";")
	for (i = 1; i <= n; i++) {
		e = trim(a[i])
		if (e == "")
			continue
		eq = index(e, "=")
		lhs = trim(eq ? substr(e, 1, eq - 1) : e)
		rhs = trim(eq ? substr(e, eq + 1) : "0")
		if (lhs ~ /^[0-9]+:[A-Za-z_][A-Za-z0-9_]*$/) {
			if (rhs !~ /^-?[0-9]+$/) {
				BAD = "register " lhs " initialised to " rhs
				return 0
			}
			rinit[lhs] = rhs
			continue
		}
		if (!match(lhs, /[A-Za-z_][A-Za-z0-9_]*$/)) {
			BAD = "cannot read the init entry '" e "'"
			return 0
		}
		name = substr(lhs, RSTART)
		ty = trim(substr(lhs, 1, RSTART - 1))
		if (name in lockidx) {
			if (rhs != "0") {
				BAD = "a lock initialised to " rhs
				return 0
			}
			continue
		}
		if (ty != "" && ty != "spinlock_t") {
			if (!vartype(ty)) {
				BAD = "a shared variable of type " ty " (" name ")"
				return 0
			}
			if (!addvar(name, ty))
				return 0
		} else if (!(name in vtype) && !addvar(name, "int"))
			return 0
		if (match(rhs, /^ATOMIC_INIT *\(.*\)$/)) {
			sub(/^ATOMIC_INIT *\( */, "", rhs)
			sub(/ *\)$/, "", rhs)
		}
		sub(/^&/, "", rhs)
		if (rhs ~ /^[A-Za-z_][A-Za-z0-9_]*$/) {
			# a variable's name: its address, into a pointer (herd7
			# makes a location of a name it has not seen: an int)
			if (!(rhs in vtype) && !(rhs in lockidx) && !addvar(rhs, "int"))
				return 0
			if (!(rhs in vtype) || vtype[name] !~ /\*$/) {
				BAD = "the initial value " rhs " of " name
				return 0
			}
		} else if (rhs !~ /^-?[0-9]+$/ && rhs !~ /^0x[0-9a-fA-F]+$/) {
			BAD = "the initial value " rhs " of " name
			return 0
		}
		if (rhs != "0")
			vinit[name] = rhs
	}
	return 1
}

# P<t>'s body: find its registers (declarations at its top level), and
# check that everything it calls or names is translated.
function body(t,   b, depth, d, decl, ty, rest, seg, c, lead, k, x, ident, nl, nu, out)
{
	b = tbody[t]
	gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", b)
	gsub(/\/\/[^\n]*/, "", b)
	if (match(b, /(^|[^A-Za-z0-9_])(while|for|do|goto|return|switch)([^A-Za-z0-9_]|$)/)) {
		x = substr(b, RSTART, RLENGTH)
		gsub(/[^a-z]/, "", x)
		BAD = "a " x " statement in P" t
		return 0
	}
	d = b
	gsub(/(^|[^A-Za-z0-9_])else[ \t]*\{/, " {", d)
	if (d ~ /[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/) {
		BAD = "herd7's own syntax (NAME{...}) in P" t
		return 0
	}
	# statement by statement: a segment ending at ";" that declares
	# registers gets their initial values
	depth = 0
	out = ""
	rest = b
	while (match(rest, /[;{}]/)) {
		seg = substr(rest, 1, RSTART - 1)
		c = substr(rest, RSTART, 1)
		rest = substr(rest, RSTART + 1)
		if (c == ";" && match(seg, /^[ \t\n]*(unsigned +|signed +)?[a-z][a-z0-9_]*( +long| +int)?[ \t*]+[A-Za-z_][A-Za-z0-9_]*[ \t]*((,[ \t*]*[A-Za-z_][A-Za-z0-9_]*[ \t]*)*|=.*)$/)) {
			lead = seg
			sub(/[^ \t\n].*/, "", lead)
			ty = trim(seg)
			match(ty, /^(unsigned +|signed +)?[a-z][a-z0-9_]*( +long| +int)?/)
			decl = substr(ty, RLENGTH + 1)
			ty = substr(ty, 1, RLENGTH)
			k = ty
			sub(/ .*/, "", k)
			if (k in rtype && !regs(t, ty, decl, depth))
				return 0
			if (k in rtype)
				seg = lead DECL
		}
		out = out seg c
		if (c == "{")
			depth++
		else if (c == "}")
			depth--
	}
	out = out rest
	sub(/^\n+/, "", out)
	sub(/\n+$/, "", out)
	tbody[t] = out
	# every identifier: a register, a parameter, a primitive or C
	x = b
	while (match(x, /[A-Za-z_][A-Za-z0-9_]*/)) {
		ident = substr(x, RSTART, RLENGTH)
		if (RSTART > 1 && substr(x, RSTART - 1, 1) ~ /[0-9]/) {
			x = substr(x, RSTART + RLENGTH)
			continue
		}
		x = substr(x, RSTART + RLENGTH)
		if (ident in cword || ident in prim || (t ":" ident) in tpar ||
		    (t ":" ident) in regt)
			continue
		if (ident in why_prim)
			BAD = why_prim[ident]
		else if (ident ~ /srcu/)
			BAD = "SRCU (" ident ")"
		else if (ident ~ /rcu/)
			BAD = "RCU (" ident ")"
		else
			BAD = "unsupported: " ident
		BAD = BAD " in P" t
		return 0
	}
	# a lock held at the end is an error for the checker
	d = b
	nl = gsub(/spin_(try)?lock[ \t]*\(/, "", d)
	nu = gsub(/spin_unlock[ \t]*\(/, "", d)
	if (nl != nu) {
		BAD = "P" t " ends with a lock held (the checker requires every lock free at the end)"
		return 0
	}
	# the names P<t> uses must be its parameters
	return 1
}

# The declarators of one declaration of P<t>'s registers ("int r0, *r1",
# "int r2 = READ_ONCE(*x)"): each a register, 0 unless the init block or
# its initialiser says otherwise; DECL is the declaration rewritten.
function regs(t, ty, decl, depth,   a, m, k, x, name, init)
{
	if (depth > 0) {
		BAD = "a register declared inside a block of P" t
		return 0
	}
	if (index(decl, "="))
		m = split(decl, a, "\n\n\n")
	else
		m = split(decl, a, ",")
	DECL = ""
	for (k = 1; k <= m; k++) {
		x = trim(a[k])
		init = ""
		if (index(x, "=")) {
			init = trim(substr(x, index(x, "=") + 1))
			x = trim(substr(x, 1, index(x, "=") - 1))
		}
		match(x, /[A-Za-z_][A-Za-z0-9_]*$/)
		name = substr(x, RSTART)
		x = substr(x, 1, RSTART - 1)
		gsub(/[^*]/, "", x)
		if ((t ":" name) in regt) {
			BAD = "register " t ":" name " declared twice"
			return 0
		}
		regt[t ":" name] = ty (x == "" ? "" : " " x)
		rorder[++nregs] = t ":" name
		if (init == "")
			init = ((t ":" name) in rinit) ? rinit[t ":" name] : "0"
		DECL = DECL (DECL == "" ? "" : "; ") ty " " x name " = " init
	}
	return 1
}

# ---- the clauses -------------------------------------------------------

function clause(s,   c, i, w)
{
	split("", tok)
	nt = 0
	s = trim(s)
	i = 1
	while (i <= length(s)) {
		c = substr(s, i, 1)
		if (c == " ") {
			i++
		} else if (c == "(" || c == ")" || c == "~") {
			tok[++nt] = c
			i++
		} else if (substr(s, i, 2) == "/\\" || substr(s, i, 2) == "\\/" ||
			   substr(s, i, 2) == "!=" || substr(s, i, 2) == "==") {
			tok[++nt] = substr(s, i, 2)
			i += 2
		} else if (c == "=") {
			tok[++nt] = "=="
			i++
		} else if (match(substr(s, i), /^[]A-Za-z0-9_:[&.-]+/)) {
			tok[++nt] = substr(s, i, RLENGTH)
			i += RLENGTH
		} else {
			BAD = "cannot read '" substr(s, i) "'"
			return ""
		}
	}
	tk = 1
	w = p_or()
	if (BAD == "" && tk <= nt)
		BAD = "unexpected '" tok[tk] "'"
	return w
}

function p_or(   a)
{
	a = p_and()
	while (BAD == "" && tok[tk] == "\\/") {
		tk++
		a = "(" a " || " p_and() ")"
	}
	return a
}

function p_and(   a)
{
	a = p_not()
	while (BAD == "" && tok[tk] == "/\\") {
		tk++
		a = "(" a " && " p_not() ")"
	}
	return a
}

function p_not(   a, loc, op, val)
{
	if (tk > nt) {
		BAD = "the clause ends too early"
		return ""
	}
	if (tok[tk] == "~" || tok[tk] == "not") {
		tk++
		return "!" p_not()
	}
	if (tok[tk] == "(") {
		tk++
		a = p_or()
		if (BAD == "" && tok[tk] != ")")
			BAD = "')' missing"
		tk++
		return "(" a ")"
	}
	if (tok[tk] == "true" || tok[tk] == "false") {
		tk++
		return tok[tk - 1] == "true" ? "1" : "0"
	}
	loc = location(tok[tk++])
	op = tok[tk++]
	if (op != "==" && op != "!=") {
		BAD = "expected = or != after " tok[tk - 2]
		return ""
	}
	val = value(tok[tk++])
	return "(" loc " " op " " val ")"
}

function location(s,   t, r)
{
	if (match(s, /^[0-9]+:[A-Za-z_][A-Za-z0-9_]*$/)) {
		if (!(s in regt)) {
			BAD = "register " s " is not declared by its thread"
			return ""
		}
		t = s
		sub(/:.*/, "", t)
		r = s
		sub(/.*:/, "", r)
		return "lkmm_r->p" t "_" r
	}
	sub(/^\[/, "", s)
	sub(/\]$/, "", s)
	if (s in lockidx) {
		BAD = "the lock " s " in the clause"
		return ""
	}
	if (!(s in vtype)) {
		BAD = "unknown location " s
		return ""
	}
	return "lkmm_v->" s (vtype[s] == "atomic_t" ? ".counter" : "")
}

# A number, or a variable's name: its address (a pointer's value).
function value(s)
{
	if (s ~ /^-?[0-9]+$/ || s ~ /^0x[0-9a-fA-F]+$/)
		return s
	sub(/^&/, "", s)
	if (s in vtype) {
		return "(void *)&lkmm_v->" s
	}
	BAD = "the value " s
	return ""
}

# ---- C ------------------------------------------------------------------

function cstr(s)
{
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

function emit_test(nm, prop, q,   i, k, v, ty, off, sz, big, names, t, p, name, a, n, rt)
{
	emit("")
	emit("/* " T_name " (" T_path "): Result: " T_result " */")
	# the variables: 8-byte ones first, so that no field needs padding
	emit("struct " nm "_vars {")
	names = ""
	off = 0
	for (big = 1; big >= 0; big--)
		for (i = 1; i <= nvars; i++) {
			v = vorder[i]
			sz = varsize(vtype[v])
			if ((sz == 8) != big)
				continue
			ty = vtype[v]
			if (ty ~ /\*$/)
				emit("\t" ty v ";")
			else
				emit("\t" ty " " v ";")
			for (k = 0; k < sz; k += 4)
				names = names " " cstr(k ? v "+" k : v) ","
			off += sz < 4 ? 4 : sz
		}
	if (nvars == 0) {
		emit("\tint lkmm_none;")
		names = " \"-\","
		off = 4
	}
	emit("};")
	emit("_Static_assert(sizeof(struct " nm "_vars) <= VC_VARS_BYTES, \"" T_name ": the variables exceed VC_VARS_BYTES\");")
	emit("static const char *const " nm "_names[] = {" names " };")
	emit("_Static_assert(sizeof(" nm "_names) / sizeof(" nm "_names[0]) * 4 >= sizeof(struct " nm "_vars), \"one name an int\");")
	emit("static struct {")
	for (i = 1; i <= nregs; i++) {
		rt = regt[rorder[i]]
		t = rorder[i]
		sub(/:.*/, "", t)
		name = rorder[i]
		sub(/.*:/, "", name)
		emit("\t" rt (rt ~ /\*$/ ? "" : " ") "p" t "_" name ";")
	}
	if (nregs == 0)
		emit("\tint lkmm_none;")
	emit("} " nm "_r;")

	for (t = 0; t < nthreads; t++) {
		emit("")
		emit("static void " nm "_p" t "(void)")
		emit("{")
		emit("\tstruct " nm "_vars *const lkmm_v __attribute__((__unused__)) = (struct " nm "_vars *)vc_vars();")
		n = split(tparams[t], a, ",")
		for (k = 1; k <= n; k++) {
			p = trim(a[k])
			if (p == "" || p == "void")
				continue
			match(p, /[A-Za-z_][A-Za-z0-9_]*$/)
			name = substr(p, RSTART)
			if (name in lockidx)
				emit("\tstruct vc_lockref *const " name " __attribute__((__unused__)) = vc_lockref_of(" lockidx[name] ");")
			else
				emit("\t" vtype[name] (vtype[name] ~ /\*$/ ? "" : " ") "*const " name " __attribute__((__unused__)) = &lkmm_v->" name ";")
		}
		emit("")
		emit(tbody[t])
		for (i = 1; i <= nregs; i++) {
			p = rorder[i]
			if (p !~ "^" t ":")
				continue
			sub(/.*:/, "", p)
			emit("\t" nm "_r.p" t "_" p " = " p ";")
		}
		emit("}")
	}

	k = 0
	for (i = 1; i <= nvars; i++)
		if (vorder[i] in vinit)
			k++
	if (k) {
		emit("")
		emit("static void " nm "_init(void)")
		emit("{")
		emit("\tstruct " nm "_vars *const lkmm_v = (struct " nm "_vars *)vc_vars();")
		emit("")
		for (i = 1; i <= nvars; i++) {
			v = vorder[i]
			if (!(v in vinit))
				continue
			p = "&lkmm_v->" v (vtype[v] == "atomic_t" ? ".counter" : "")
			if (vinit[v] ~ /^[A-Za-z_]/)
				emit("\tvc_litmus_set(" p ", sizeof(lkmm_v->" v "), (uintptr_t)&lkmm_v->" vinit[v] ");")
			else
				emit("\tvc_litmus_set(" p ", sizeof(lkmm_v->" v "), (uint64_t)(" vinit[v] "));")
		}
		emit("}")
	}
	emit("")
	emit("/* " q " " prop " */")
	emit("static int " nm "_exists(void)")
	emit("{")
	emit("\tstruct " nm "_vars *const lkmm_v __attribute__((__unused__)) = (struct " nm "_vars *)vc_vars();")
	emit("\t__typeof__(" nm "_r) *const lkmm_r __attribute__((__unused__)) = &" nm "_r;")
	emit("")
	emit("\treturn " prop ";")
	emit("}")
	TINIT[nm] = k ? 1 : 0
}

function finish(   i, nm)
{
	print "// SPDX-License-Identifier: GPL-2.0" > out
	print "/*" > out
	print " * Generated by common/checker/lkmm-translate.awk from the Linux-kernel" > out
	print " * memory model's litmus tests: do not edit.  Each test below is the" > out
	print " * .litmus file's threads, unchanged, on variables at vc_vars() and the" > out
	print " * checker's locks; its exists() is the clause (negated for Result:" > out
	print " * Always, ANDed with the filter clause)." > out
	print " */" > out
	print "#include <linux/compiler.h>" > out
	print "#include <linux/atomic.h>" > out
	print "#include <asm/barrier.h>" > out
	print "#include \"vc.h\"" > out
	print "" > out
	print "/* The step's own lock (api.c); smp_mb__after_spinlock() as on arm64, powerpc, riscv. */" > out
	print "#define spin_lock(l)\t\tvc_api_lock(l)" > out
	print "#define spin_unlock(l)\t\tvc_api_unlock(l)" > out
	print "#define spin_trylock(l)\t\tvc_api_trylock(l)" > out
	print "#define spin_is_locked(l)\tvc_api_is_locked(l)" > out
	print "#define smp_mb__after_spinlock()\tsmp_mb()" > out
	print "/* powerpc's, the one architecture that needs it: a full barrier */" > out
	print "#define smp_mb__after_unlock_lock()\tsmp_mb()" > out
	print "/* smp_store_mb(): the shim's (asm/barrier.h), WRITE_ONCE() then smp_mb() */" > out
	print "/*" > out
	print " * Only tests without a grace period get here (no synchronize_rcu()):" > out
	print " * there the LKMM's rcu_read_lock() and rcu_read_unlock() order nothing," > out
	print " * rcu_dereference() is READ_ONCE() and rcu_assign_pointer() a release" > out
	print " * (tools/memory-model/linux-kernel.def)." > out
	print " */" > out
	print "#define rcu_read_lock()\t\tdo { } while (0)" > out
	print "#define rcu_read_unlock()\tdo { } while (0)" > out
	print "#define rcu_dereference(p)\tREAD_ONCE(p)" > out
	print "#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))" > out
	print "" > out
	print "/*" > out
	print " * The atomics the lab's <linux/atomic.h> lacks, as __atomic builtins with" > out
	print " * the kernel's orders (Documentation/atomic_t.txt): no suffix and a" > out
	print " * value returned, fully ordered (__ATOMIC_SEQ_CST); _acquire, _release;" > out
	print " * _relaxed and the void operations, __ATOMIC_RELAXED.  The shim's own" > out
	print " * functions (atomic_cmpxchg*(), atomic_xchg(), atomic_fetch_add()) serve" > out
	print " * as they are; one of vc-today.h's is shadowed by a macro of its order." > out
	print " */" > out
	mac("xchg_acquire(p, v)", "__atomic_exchange_n((p), (__typeof__(*(p)))(v), __ATOMIC_ACQUIRE)")
	mac("xchg_release(p, v)", "__atomic_exchange_n((p), (__typeof__(*(p)))(v), __ATOMIC_RELEASE)")
	mac("atomic_inc(v)", "((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_RELAXED))")
	mac("atomic_dec(v)", "((void)__atomic_fetch_sub(&(v)->counter, 1, __ATOMIC_RELAXED))")
	split("SEQ_CST RELAXED ACQUIRE RELEASE", mo, " ")
	for (i = 0; i <= 3; i++) {
		o = "__ATOMIC_" mo[i + 1]
		s = sfx[i]
		mac("atomic_add_return" s "(i, v)", "({ int __lk_i = (i); __atomic_fetch_add(&(v)->counter, __lk_i, " o ") + __lk_i; })")
		mac("atomic_sub_return" s "(i, v)", "({ int __lk_i = (i); __atomic_fetch_sub(&(v)->counter, __lk_i, " o ") - __lk_i; })")
		mac("atomic_inc_return" s "(v)", "(__atomic_fetch_add(&(v)->counter, 1, " o ") + 1)")
		mac("atomic_dec_return" s "(v)", "(__atomic_fetch_sub(&(v)->counter, 1, " o ") - 1)")
		mac("atomic_fetch_add" s "(i, v)", "__atomic_fetch_add(&(v)->counter, (i), " o ")")
		mac("atomic_fetch_sub" s "(i, v)", "__atomic_fetch_sub(&(v)->counter, (i), " o ")")
		mac("atomic_fetch_inc" s "(v)", "__atomic_fetch_add(&(v)->counter, 1, " o ")")
		mac("atomic_fetch_dec" s "(v)", "__atomic_fetch_sub(&(v)->counter, 1, " o ")")
		mac("atomic_xchg" s "(v, n)", "__atomic_exchange_n(&(v)->counter, (n), " o ")")
		mac("atomic_cmpxchg" s "(v, o, n)", "({ int __lk_o = (o); __atomic_compare_exchange_n(&(v)->counter, &__lk_o, (n), false, " o ", " (o == "__ATOMIC_RELEASE" ? "__ATOMIC_RELAXED" : o) "); __lk_o; })")
	}
	mac("atomic_sub_and_test(i, v)", "(atomic_sub_return(i, v) == 0)")
	mac("atomic_dec_and_test(v)", "(atomic_dec_return(v) == 0)")
	mac("atomic_inc_and_test(v)", "(atomic_inc_return(v) == 0)")
	mac("atomic_add_negative(i, v)", "(atomic_add_return(i, v) < 0)")
	print "/* Fully ordered if it adds, unordered if it does not (as herd7's). */" > out
	mac("atomic_add_unless(v, a, u)", "({ atomic_t *__lk_v = (v); int __lk_a = (a), __lk_u = (u); int __lk_c = atomic_read(__lk_v); bool __lk_ok = true; do { if (__lk_c == __lk_u) { __lk_ok = false; break; } } while (!__atomic_compare_exchange_n(&__lk_v->counter, &__lk_c, __lk_c + __lk_a, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)); __lk_ok; })")
	mac("atomic_inc_not_zero(v)", "atomic_add_unless((v), 1, 0)")
	printf "%s", C > out
	print "" > out
	print "const struct vc_litmus vc_lkmm_tests[] = {" > out
	for (i = 1; i <= ntrans; i++) {
		nm = tcid[i]
		printf "\t{ .name = %s, .threads = %d, .thread = {", cstr("lkmm:" tname[i]), tthreads[i] > out
		for (t = 0; t < tthreads[i]; t++)
			printf " %s_p%d%s", nm, t, t + 1 < tthreads[i] ? "," : "" > out
		printf " },\n\t  .exists = %s_exists,%s .var_names = %s_names,\n", nm,
			TINIT[nm] ? " .init = " nm "_init," : "", nm > out
		printf "\t  .regs = &%s_r, .regs_size = sizeof(%s_r) },\n", nm, nm > out
	}
	print "\t{ NULL }" > out
	print "};" > out
	close(out)
}

function mac(proto, def,   name)
{
	name = proto
	sub(/\(.*/, "", name)
	if (name in shimfn)
		return
	print "#ifndef " name > out
	print "#define " proto "\t" def > out
	print "#endif" > out
}
