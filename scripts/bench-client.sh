#!/usr/bin/env bash
# Issue 4's target: `dealctl requests ls -o json` on a 2,200-row deal
# within 1.6x of curl fetching the same list, whole process.
#
#   scripts/bench-client.sh               # build, seed, serve, measure
#   ROWS=5000 RUNS=50 scripts/bench-client.sh
#   DEALCTL_BIN=/path/dealctl scripts/bench-client.sh
#   KEEP=1 scripts/bench-client.sh       # keep the work directory (world,
#                                        # database, list.json) for a look
#
# It writes a world file with one deal of $ROWS rows (scripts/bench-world.sh:
# sections of 21 rows, the section and 20 requests with bodies, due dates,
# assignees, and a few answers), seeds a throwaway embedded database with `dealctl admin
# apply`, starts `dealctl serve` on it (rate limit raised so the runs are
# not throttled), and compares with hyperfine:
#   curl                 curl -s -H 'Authorization: Bearer KEY' …/requests
#   dealctl, cold cache  a fresh cache directory every run: full answers
#   dealctl, warm cache  the ETag cache filled: the list comes back as 304
# The deal is given by id, as curl's URL has it. For the warm case alone,
# the deal remembered, in alternated rounds with the ratio printed, see
# scripts/bench-ls.sh.
# Needs curl and hyperfine (Debian: apt-get install -y curl hyperfine).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-2200}
RUNS=${RUNS:-40}
work=$(mktemp -d)
server=
cleanup() {
	if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
	if [ -n "${KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

BIN=${DEALCTL_BIN:-}
if [ -z "$BIN" ]; then
	BIN=$work/dealctl
	CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$BIN" ./cmd/dealctl # as released
fi
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache XDG_DATA_HOME=$work/data
export DEALCTL_KEYRING=file NO_COLOR=1

key=dlk_bench000000000000000000000000000000000
ROWS=$ROWS KEY=$key scripts/bench-world.sh >"$work/world.yaml"

echo "seeding $ROWS rows…" >&2
"$BIN" admin apply -f "$work/world.yaml" --db "$work/server.db" -o json >"$work/applied.json"
deal=$(sed -n 's/.*"big": *"\([^"]*\)".*/\1/p' "$work/applied.json" | head -1)
addr=127.0.0.1:$(( 20000 + RANDOM % 20000 ))
"$BIN" serve --addr "$addr" --db "$work/server.db" --rate-limit 1000000 >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://$addr/healthz" >/dev/null && break; sleep 0.1; done
url="http://$addr/api/v1/deals/$deal/requests"
export DEALCTL_SERVER=http://$addr DEALCTL_API_KEY=$key DEALCTL_DEAL=$deal

got=$("$BIN" requests ls -o json | grep -c '"number"' || true)
curl -s -H "Authorization: Bearer $key" "$url" >"$work/list.json"
bytes=$(wc -c <"$work/list.json")
echo "list: $got rows, $bytes bytes from the server; $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# One --prepare per command: hyperfine applies a lone --prepare to every
# command, which would empty the cache before the warm runs too.
hyperfine -N --warmup 3 --runs "$RUNS" \
	--export-markdown "$work/results.md" --export-json "$work/results.json" \
	--prepare true --prepare "rm -rf $work/cache" --prepare true \
	-n curl "curl -s -H 'Authorization: Bearer $key' $url" \
	-n 'dealctl, cold cache' "$BIN requests ls -o json" \
	-n 'dealctl, warm cache' "$BIN requests ls -o json"
echo "server answers: $(grep -c 'status=200' "$work/serve.log") full, $(grep -c 'status=304' "$work/serve.log") not modified" >&2
cat "$work/results.md"
# The median, which a neighbour's burst moves less than the mean.
echo "medians (ms):"
awk -F'"' '/"command":/ {c = $4} /"median":/ {split($0, a, ": "); sub(",", "", a[2]); printf "  %-22s %6.1f\n", c, a[2] * 1000}' "$work/results.json"
