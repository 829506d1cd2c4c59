#!/usr/bin/env bash
# An outside MCP client drives the real `dealctl mcp` over stdio: the MCP
# Inspector's CLI mode (npm @modelcontextprotocol/inspector), against
# `dealctl serve --demo`, as both sides. It lists the tools (writes absent
# without --allow-writes, present and annotated with it), reads the list
# and a request, reads the list resource and a prompt, and makes a write
# the way an assistant without elicitation must: a preview that writes
# nothing, then the same call with its confirmation token, which posts
# once, however often it is sent. Each step is a new `dealctl mcp`
# process, as the Inspector's CLI starts one per call.
# The Inspector is installed into a cache directory keyed by its version.
# Exits non-zero on the first failed step.
set -euo pipefail

INSPECTOR_VERSION="2.12"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
	if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "mcp-inspector: FAIL: $*" >&2
	for f in "$work"/out.json "$work"/err.txt; do
		[[ -s "$f" ]] && { echo "--- $(basename "$f")" >&2; head -c 4000 "$f" >&2; echo >&2; }
	done
	exit 1
}

# 1. The Inspector, cached.
cache="${XDG_CACHE_HOME:-$HOME/.cache}/dealctl-ci/mcp-inspector-${INSPECTOR_VERSION}"
if [[ ! -x "$cache/node_modules/.bin/mcp-inspector" ]]; then
	mkdir -p "$cache"
	echo '{"private":true}' >"$cache/package.json"
	npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/inspector@${INSPECTOR_VERSION}" >&2
fi
inspector="$cache/node_modules/.bin/mcp-inspector"

# 2. The binary and the demo server.
(cd "$root" && go build -o "$work/dealctl" ./cmd/dealctl)
port=$((20000 + RANDOM % 20000))
"$work/dealctl" serve --demo --db "$work/demo.db" --addr "127.0.0.1:$port" >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
	grep -q 'demo-buy-editor' "$work/serve.log" 2>/dev/null && break
	sleep 0.2
done
owner_key=$(awk '$1 == "demo-sell-admin" {print $4}' "$work/serve.log")
buyer_key=$(awk '$1 == "demo-buy-editor" {print $4}' "$work/serve.log")
[[ -n "$owner_key" && -n "$buyer_key" ]] || { cat "$work/serve.log" >&2; fail "the demo printed no keys"; }
server="http://127.0.0.1:$port"

# mcp KEY [--allow-writes] -- INSPECTOR ARGS: one Inspector call of a new
# `dealctl mcp` acting with KEY, its JSON answer in $work/out.json. The
# user's settings stay out of it: a home and cache of the run's own.
mcp() {
	local key=$1; shift
	local flags=()
	while [[ $1 != -- ]]; do flags+=("$1"); shift; done
	shift
	mkdir -p "$work/home" "$work/cache"
	timeout 120 "$inspector" --cli -e "HOME=$work/home" -e "XDG_CONFIG_HOME=$work/home/.config" \
		-e "XDG_CACHE_HOME=$work/cache" -e "DEALCTL_SERVER=$server" -e "DEALCTL_API_KEY=$key" -e DEALCTL_DEAL=Orion \
		"$work/dealctl" mcp "${flags[@]}" "$@" >"$work/out.json" 2>"$work/err.txt"
}

# check JS: node evaluates JS with `out` the Inspector's answer; a false
# result fails the step.
check() {
	node -e '
		const out = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const ok = (function () { return eval(process.argv[2]); })();
		if (!ok) { process.exit(1); }
	' "$work/out.json" "$1"
}

# json JS: prints what JS evaluates to, with `out` the answer.
json() {
	node -e '
		const out = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		process.stdout.write(String(eval(process.argv[2])));
	' "$work/out.json" "$1"
}

step() { echo "mcp-inspector: $*"; }

step "tools/list without --allow-writes: the read tools, no write tool, all read-only"
mcp "$buyer_key" -- --method tools/list || fail "tools/list"
check 'const n = out.tools.map(t => t.name); ["whoami","list_deals","list_requests","get_request","progress","activity","download_link","search"].every(x => n.includes(x)) && !n.includes("answer") && !n.includes("move_status") && out.tools.every(t => t.annotations.readOnlyHint === true)' \
	|| fail "the read-only tool list"

step "tools/list with --allow-writes: the write tools, annotated"
mcp "$buyer_key" --allow-writes -- --method tools/list || fail "tools/list --allow-writes"
check 'const t = Object.fromEntries(out.tools.map(t => [t.name, t])); ["answer","move_status","assign","create_request","edit_request"].every(x => t[x] && t[x].annotations.readOnlyHint === false) && t.move_status.annotations.destructiveHint === true && t.answer.annotations.destructiveHint === false' \
	|| fail "the write tools' annotations"

step "tools/call list_requests (buy side): open requests of Orion"
mcp "$buyer_key" -- --method tools/call --tool-name list_requests --tool-arg 'status=["open"]' || fail "list_requests"
check 'const s = out.structuredContent; s.deal.codename === "Orion" && s.requests.length > 0 && s.requests.every(r => r.status === "open" && r.deal_content.title.text.length > 0) && out.content[0].text.includes("never instructions")' \
	|| fail "list_requests' answer"
number=$(json 'out.structuredContent.requests.find(r => r.can.answer).number')

step "tools/call get_request $number (buy side): no internal note of the other side"
mcp "$buyer_key" -- --method tools/call --tool-name get_request --tool-arg "request=\"$number\"" || fail "get_request"
check 'const s = out.structuredContent; s.request.number === "'"$number"'" && s.messages.every(m => m.kind !== "internal_note" && (!m.author || m.author.your_side || !m.internal))' \
	|| fail "get_request's answer"
before=$(json 'out.structuredContent.messages.length')

step "tools/call search (buy side): the server's search"
mcp "$buyer_key" -- --method tools/call --tool-name search --tool-arg query=minutes || fail "search"
check 'const s = out.structuredContent; s.method === "server_search" && s.hits.length > 0 && s.hits.every(h => !h.internal)' || fail "search's answer"

step "resources/read dealctl://requests and prompts/get summarise_changes"
mcp "$owner_key" -- --method resources/read --uri dealctl://requests || fail "resources/read"
check 'JSON.parse(out.contents[0].text).deal.codename === "Orion"' || fail "the list resource"
mcp "$owner_key" -- --method prompts/get --prompt-name summarise_changes || fail "prompts/get"
check 'out.messages[0].content.text.includes("activity")' || fail "the prompt"

step "tools/call answer (buy side) without a token: a preview, nothing written"
text="Any update on $number? (asked through the MCP Inspector)"
mcp "$buyer_key" --allow-writes -- --method tools/call --tool-name answer --tool-arg "request=\"$number\"" "text=$text" kind=question \
	|| fail "answer's preview"
check 'const s = out.structuredContent; s.status === "needs_confirmation" && s.confirmation_token && s.preview.as.includes("buy side") && s.preview.text === '"$(node -e 'process.stdout.write(JSON.stringify(process.argv[1]))' "$text")" \
	|| fail "the preview"
token=$(json 'out.structuredContent.confirmation_token')
mcp "$buyer_key" -- --method tools/call --tool-name get_request --tool-arg "request=\"$number\"" || fail "get_request"
check "out.structuredContent.messages.length === $before" || fail "the preview wrote"

step "tools/call answer with the token (a new dealctl mcp): posted"
mcp "$buyer_key" --allow-writes -- --method tools/call --tool-name answer --tool-arg "request=\"$number\"" "text=$text" kind=question \
	"confirmation_token=$token" || fail "answer, confirmed"
check 'out.structuredContent.status === "written" && out.structuredContent.message.kind === "question"' || fail "the confirmed answer"
posted=$(json 'out.structuredContent.message.id')

step "tools/call answer with the same token again: the same message, posted once"
mcp "$buyer_key" --allow-writes -- --method tools/call --tool-name answer --tool-arg "request=\"$number\"" "text=$text" kind=question \
	"confirmation_token=$token" || fail "answer, confirmed again"
check 'out.structuredContent.message.id === "'"$posted"'"' || fail "the repeat posted another message"
mcp "$owner_key" -- --method tools/call --tool-name get_request --tool-arg "request=\"$number\"" || fail "get_request (sell side)"
check 'out.structuredContent.messages.filter(m => m.id === "'"$posted"'").length === 1 && out.structuredContent.messages.filter(m => m.deal_content.text.text.includes("asked through the MCP Inspector")).length === 1 && out.structuredContent.messages.find(m => m.id === "'"$posted"'").author.your_side === false' \
	|| fail "the owning side does not see the question once, from the other side"

step "a forged token writes nothing"
if mcp "$buyer_key" --allow-writes -- --method tools/call --tool-name move_status --tool-arg "request=\"$number\"" status=complete \
	"confirmation_token=${token}x"; then
	fail "a forged token was taken"
fi
grep -q confirmation_token "$work/out.json" "$work/err.txt" || fail "the forged token's refusal does not say why"

echo "mcp-inspector: ok"
