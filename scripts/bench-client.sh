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
# It writes a world file with one deal of $ROWS rows (sections of 21 rows:
# the section and 20 requests with bodies, due dates, assignees, and a
# few answers), seeds a throwaway embedded database with `dealctl admin
# apply`, starts `dealctl serve` on it (rate limit raised so the runs are
# not throttled), and compares with hyperfine:
#   curl                 curl -s -H 'Authorization: Bearer KEY' …/requests
#   dealctl, cold cache  a fresh cache directory every run: full answers
#   dealctl, warm cache  the ETag cache filled: the list comes back as 304
# dealctl resolves the deal first (one more call: GET /deals/{id}), then
# lists, decodes and prints indented JSON; curl prints the body as sent.
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
	go build -trimpath -o "$BIN" ./cmd/dealctl
fi
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache XDG_DATA_HOME=$work/data
export DEALCTL_KEYRING=file NO_COLOR=1

key=dlk_bench000000000000000000000000000000000
{
	cat <<YAML
organizations:
  - {key: acme,   name: Acme Capital}
  - {key: target, name: Target Co}
users:
  - {key: alice, name: Alice Sato, email: alice@target.example, organization: target}
  - {key: bob,   name: Bob Reyes,  email: bob@acme.example,     organization: acme}
deals:
  - key: big
    name: Project Big
    codename: Big
    timezone: Europe/London
    parties:
      - {key: sell, side: sell, label: Target Co, owner: true, organization: target}
      - {key: buy,  side: buy,  label: null,      organization: acme}
    people:
      - {user: alice, party: sell, access: admin,  role: principal, project_admin: true, joined: true}
      - {user: bob,   party: buy,  access: editor, role: counsel, joined: true}
    requests:
YAML
	awk -v rows="$ROWS" 'BEGIN {
		split("legal tax accounting business human_resources technology", cat, " ")
		split("low medium high", pri, " ")
		split("open partial complete", st, " ")
		n = 0
		for (s = 1; n < rows; s++) {
			printf "      - {number: \"%d\", kind: section, title: \"Workstream %d\"}\n", s, s; n++
			for (i = 1; i <= 20 && n < rows; i++) {
				k = s * 20 + i
				printf "      - number: \"%d.%d\"\n", s, i
				printf "        title: \"Request %d.%d: copies of every agreement of kind %d, with amendments\"\n", s, i, k % 97
				printf "        body: \"Provide the signed copies, the schedules and any side letters. Flag anything that changes control, pricing or exclusivity. Ref %d.\"\n", k
				printf "        priority: %s\n        category: %s\n        status: %s\n", pri[k % 3 + 1], cat[k % 6 + 1], st[k % 3 + 1]
				printf "        due_date: 2027-%02d-%02d\n", k % 12 + 1, k % 28 + 1
				if (k % 2) printf "        assignee: bob\n"
				if (k % 7 == 0) printf "        messages:\n          - {author: bob, text: \"Attached the agreements for %d.%d.\", partial: true}\n", s, i
				n++
			}
		}
	}'
	cat <<YAML
keys:
  - {key: bench, user: alice, name: bench, access: write, secret: $key}
YAML
} >"$work/world.yaml"

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
