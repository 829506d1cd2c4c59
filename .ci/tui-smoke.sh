#!/usr/bin/env bash
# Smoke test of `dealctl tui`: the real binary, in a real terminal (tmux),
# against a real server (`dealctl serve --demo`). It opens a conversation,
# filters, answers, checks the answer reached the server, and quits.
# Exits non-zero on the first failed step, with the screen it saw.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$(go env GOPATH)/bin:$PATH"

if ! command -v tmux >/dev/null; then
	echo "installing tmux"
	apt-get install -y tmux >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y tmux >/dev/null; }
fi

work=$(mktemp -d)
sock="dealctl-smoke-$$" # a tmux server of our own: never the user's sessions
server_pid=""
cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "tui-smoke: FAIL: $*" >&2
	echo "--- screen" >&2
	tmux -L "$sock" capture-pane -p -t smoke >&2 2>/dev/null || true
	echo "--- server log (tail)" >&2
	tail -n 20 "$work/serve.err" >&2 || true
	exit 1
}

screen() { tmux -L "$sock" capture-pane -p -t smoke; }

# wait_for TEXT: poll the screen for up to 15 s.
wait_for() {
	for _ in $(seq 150); do
		if screen 2>/dev/null | grep -qF -- "$1"; then return 0; fi
		sleep 0.1
	done
	fail "the screen never showed: $1"
}

echo "==> build"
go build -o "$work/dealctl" ./cmd/dealctl

echo "==> serve --demo"
"$work/dealctl" serve --demo --addr 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
for _ in $(seq 150); do
	grep -q 'demo-buy-editor' "$work/serve.out" 2>/dev/null && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; echo "tui-smoke: dealctl serve exited" >&2; exit 1; }
	sleep 0.1
done
base=$(sed -n 's/^dealctl serving the API on \(http[^ ]*\) .*/\1/p' "$work/serve.out")
key=$(awk '$1 == "demo-buy-editor" {print $4}' "$work/serve.out")
[[ -n "$base" && -n "$key" ]] || { cat "$work/serve.out" >&2; echo "tui-smoke: no server address or key in the demo output" >&2; exit 1; }

env_vars=(HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_CACHE_HOME="$work/home/.cache"
	DEALCTL_KEYRING=file DEALCTL_SERVER="$base" DEALCTL_API_KEY="$key" DEALCTL_DEAL=orion TERM=xterm-256color)

echo "==> dealctl tui in tmux (100x30), as the counterparty"
tmux -L "$sock" new-session -d -s smoke -x 100 -y 30 \
	"env ${env_vars[*]} $work/dealctl tui --download-dir $work; echo \"tui exited \$?\" >$work/exit; sleep 60"
wait_for "Orion │"
wait_for "Certificate of incorporation"

echo "==> open: enter reads the conversation of the first request"
tmux -L "$sock" send-keys -t smoke Enter
wait_for "Conversation"
wait_for "(response"
tmux -L "$sock" send-keys -t smoke Escape
# Wait for the list to take the focus back (its heavy rule) before the
# next key: an Escape followed at once by f is read as alt+f, as in any
# terminal program, since the two bytes arrive together.
wait_for "━ Requests"

echo "==> filter: f shows open requests only"
tmux -L "$sock" send-keys -t smoke f
wait_for "filter: open"
if screen | grep -qF "Certificate of incorporation"; then
	fail "the open filter still shows 1.1, which is complete"
fi

echo "==> answer: a, text, partial, ctrl+s"
tmux -L "$sock" send-keys -t smoke a
wait_for "^S send"
tmux -L "$sock" send-keys -t smoke -l "Smoke test answer from tmux."
tmux -L "$sock" send-keys -t smoke C-p
wait_for "[x] partial"
tmux -L "$sock" send-keys -t smoke C-s
wait_for "Answer posted on"
number=$(screen | sed -n 's/.*Answer posted on \([0-9.]*\);.*/\1/p' | head -n1)
[[ -n "$number" ]] || fail "no request number in the confirmation"
if ! env "${env_vars[@]}" "$work/dealctl" messages ls "$number" | grep -qF "Smoke test answer from tmux."; then
	fail "the answer on $number did not reach the server"
fi

echo "==> quit"
tmux -L "$sock" send-keys -t smoke q
for _ in $(seq 100); do [[ -s "$work/exit" ]] && break; sleep 0.1; done
grep -qx "tui exited 0" "$work/exit" 2>/dev/null || fail "dealctl tui did not exit 0 on q: $(cat "$work/exit" 2>/dev/null)"

echo "tui-smoke: ok (answered $number)"
