#!/usr/bin/env bash
# Measures how long `dealctl --version` takes, whole process (issue 4
# target: under 20 ms), and what package initialisation costs in it.
#
#   scripts/bench-startup.sh            # build ./cmd/dealctl, then measure
#   DEALCTL_BIN=/path/dealctl scripts/bench-startup.sh   # measure a given binary
#   RUNS=300 scripts/bench-startup.sh
#   BASELINE=/path/older-dealctl scripts/bench-startup.sh  # before/after in one run
#
# Uses hyperfine when installed (Debian: apt-get install -y hyperfine),
# else a plain timing loop. Read the minimum and the user+system CPU time
# rather than the mean on a busy machine: the mean measures the neighbours.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# from_disk SRC DST: a copy left in the page cache as a binary read back
# from disk is, whoever wrote it (see scripts/bench-ls.sh: the state is
# worth about 100 page faults a run), so that both sides start alike.
from_disk() {
	cp "$1" "$2"
	sync "$2"
	dd if="$2" iflag=nocache count=0 status=none
	cat "$2" >/dev/null
}
if [ -z "${DEALCTL_BIN:-}" ]; then
	CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/built" ./cmd/dealctl # as released
fi
BIN=$tmp/dealctl
from_disk "${DEALCTL_BIN:-$tmp/built}" "$BIN"
if [ -n "${BASELINE:-}" ]; then
	from_disk "$BASELINE" "$tmp/baseline"
	BASELINE=$tmp/baseline
fi
echo "binary: $BIN ($(du -h "$BIN" | cut -f1)); $(nproc) CPUs; load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"

if command -v hyperfine >/dev/null; then
	# With a baseline, the two alternate in rounds of 20 runs, so that the
	# machine's drift lands on both.
	if [ -n "${BASELINE:-}" ]; then
		for r in $(seq $((RUNS / 20))); do
			hyperfine -N --warmup 5 --runs 20 --style none --export-csv "$BIN.round.csv" \
				-n now "$BIN --version" -n baseline "$BASELINE --version" >/dev/null
			awk -F, -v r="$r" 'NR > 1 {m[$1] = $4 * 1000; c[$1] = ($5 + $6) * 1000}
				END {printf "round %2d  median now %6.2f ms, baseline %6.2f ms;  CPU now %6.2f ms, baseline %6.2f ms\n", r, m["now"], m["baseline"], c["now"], c["baseline"]}' "$BIN.round.csv"
		done
		rm -f "$BIN.round.csv"
	fi
	hyperfine -N --warmup 20 --runs "$RUNS" "$BIN --version"
else
	echo "hyperfine not found: timing $RUNS runs in a loop"
	start=$(date +%s%N)
	for _ in $(seq "$RUNS"); do "$BIN" --version >/dev/null; done
	end=$(date +%s%N)
	echo "mean: $(( (end - start) / RUNS / 1000 )) µs per run"
fi

echo
echo "package initialisation, the costliest (minimum over 20 runs, ms):"
for _ in $(seq 20); do GODEBUG=inittrace=1 "$BIN" --version 2>&1 >/dev/null; done |
	awk '/^init /{k=$2; if (!(k in m) || $5 < m[k]) m[k] = $5}
	     END {for (k in m) {t += m[k]; printf "%8.2f  %s\n", m[k], k}; printf "%8.2f  all packages\n", t}' |
	sort -n | tail -12
