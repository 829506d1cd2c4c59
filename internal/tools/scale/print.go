package main

import (
	"fmt"
	"math"
)

// The figures of a row, as printed. A cell not run (-cells) shows "—",
// not NaN or 0.

// rate is a cell's calls a second.
func rate(r result) string {
	if r.seconds == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f", r.perSecond())
}

// cpu is a cell's server CPU a call, in µs.
func cpu(r result) string {
	if r.calls == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f", r.cpuMicros)
}

// latencies is a cell's posts' p50 / p99.
func latencies(r result) string {
	if len(r.posts) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f / %.1f ms", r.postMillis(0.5), r.postMillis(0.99))
}

// percent is 100 × a / b, for two figures of cells that both ran.
func percent(a, b float64) string {
	v := 100 * a / b
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f %%", v)
}

// times is how many times b's rate a's is, for one cell on two core counts.
func times(a, b result) string {
	if a.calls == 0 || b.calls == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f×", a.perSecond()/b.perSecond())
}

func printRow(r row) {
	postCPU := "—"
	if r.post.calls > 0 {
		postCPU = fmt.Sprintf("%.2f ms + database %.2f ms", r.postCPUms, r.postDBCPUms)
	}
	fmt.Printf("%d core(s): list 304 %s/s, one request %s/s, list 200 %s/s, post %s/s (%s, server CPU %s a post), mixed with deltas %s/s (posts %s), mixed with whole lists %s/s (posts %s), RSS %.0f MiB (peak %.0f)\n",
		r.cores, rate(r.list304), rate(r.request200), rate(r.list200), rate(r.post), latencies(r.post), postCPU,
		rate(r.mixed), latencies(r.mixed), rate(r.mixedWhole), latencies(r.mixedWhole), r.rss, r.peakRSS)
	fmt.Printf("%d core(s), server CPU a call in µs: list 304 %s, one request %s, list 200 %s, post %s, mixed with deltas %s, mixed with whole lists %s (list 304 / mixed: %s)\n",
		r.cores, cpu(r.list304), cpu(r.request200), cpu(r.list200), cpu(r.post), cpu(r.mixed), cpu(r.mixedWhole),
		percent(r.list304.cpuMicros, r.mixed.cpuMicros))
	if len(r.quietRSS) > 0 {
		fmt.Printf("%d core(s), quiet: RSS %.0f MiB at the end of the mixed load", r.cores, r.rss)
		for _, q := range r.quietRSS {
			fmt.Printf(", %.0f after %s", q.rss, q.after)
		}
		fmt.Println(" without calls")
	}
	for name, res := range map[string]result{"list 304": r.list304, "one request": r.request200, "list 200": r.list200, "post": r.post, "mixed": r.mixed, "mixed whole": r.mixedWhole} {
		if res.errors > 0 || len(res.unwanted) > 0 {
			fmt.Printf("  %s: %d errors, unexpected statuses %v\n", name, res.errors, res.unwanted)
		}
	}
}

func printTable(rows []row, o options) {
	fmt.Printf("\n%d deals × %d rows, %d keys, %d calls in flight, %.0f s a cell", o.shape.deals, o.shape.rows, o.shape.keys, o.workers, o.seconds)
	if o.rounds > 1 {
		fmt.Printf(" (list 304 and mixed in %d rounds taken in turn)", o.rounds)
	}
	fmt.Print("\n\n")
	fmt.Println("| server cores | list 304 | one request 200 | list 200 | post | post p50 / p99 | mixed, deltas | its posts p50 / p99 | mixed / pure poll | mixed, whole lists | its posts p50 / p99 | RSS MiB (peak) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f (%.0f) |\n",
			r.cores, rate(r.list304), rate(r.request200), rate(r.list200), rate(r.post), latencies(r.post),
			rate(r.mixed), latencies(r.mixed), percent(r.mixed.perSecond(), r.list304.perSecond()),
			rate(r.mixedWhole), latencies(r.mixedWhole), r.rss, r.peakRSS)
	}
	if len(rows) > 1 {
		first, last := rows[0], rows[len(rows)-1]
		fmt.Printf("\n%d-core / %d-core: list 304 %s, one request %s, list 200 %s, post %s, mixed %s\n", last.cores, first.cores,
			times(last.list304, first.list304), times(last.request200, first.request200), times(last.list200, first.list200),
			times(last.post, first.post), times(last.mixed, first.mixed))
	}
}
