# stats.awk: order statistics of a space-separated list of numbers, for
# the benchmark reports (bench-report.sh, lab-bench.sh).  Plain awk (mawk
# or gawk): an insertion sort, the lists are a few repetitions long.

function stats_sort(list, v,    n, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n
}

function median(list,    v, n) {
	n = stats_sort(list, v)
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

function lo(list,    v) {
	stats_sort(list, v)
	return v[1]
}

function hi(list,    v, n) {
	n = stats_sort(list, v)
	return v[n]
}
