#!/usr/bin/env bash
# One command for a newcomer: build dealctl, serve the demo deal on a
# throwaway embedded database, and point the client at it. On a terminal
# it opens a shell with DEALCTL_SERVER and DEALCTL_API_KEY set (type exit
# to stop the server); piped, it prints the list, says so, and stops the
# server, unless --keep, which serves until Ctrl-C.
#
#   bash scripts/demo.sh [--keep]
set -euo pipefail
keep=false
case "${1:-}" in
--keep) keep=true ;;
"") ;;
*) echo "usage: bash scripts/demo.sh [--keep]" >&2; exit 2 ;;
esac
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bin="$PWD/bin"
mkdir -p "$bin"
echo "building dealctl…" >&2
go build -o "$bin/dealctl" ./cmd/dealctl

work="$(mktemp -d)"
addr="${DEALCTL_DEMO_ADDR:-127.0.0.1:8080}"
"$bin/dealctl" serve --demo --addr "$addr" >"$work/serve.out" 2>"$work/serve.log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT

for _ in $(seq 100); do
	grep -q '^  export DEALCTL_API_KEY=' "$work/serve.out" 2>/dev/null && break
	if ! kill -0 "$server" 2>/dev/null; then
		echo "the demo server did not start:" >&2; cat "$work/serve.log" >&2
		echo "(is something else on $addr? set DEALCTL_DEMO_ADDR=127.0.0.1:PORT)" >&2
		exit 1
	fi
	sleep 0.1
done
cat "$work/serve.out"

export DEALCTL_SERVER="http://$addr"
DEALCTL_API_KEY="$(grep -m1 '^  export DEALCTL_API_KEY=' "$work/serve.out" | cut -d= -f2)"
export DEALCTL_API_KEY
export DEALCTL_DEAL=Orion
# Keep the demo's keys and caches out of the user's own configuration.
export DEALCTL_KEYRING=file XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
export PATH="$bin:$PATH"

echo "\$ dealctl requests ls --status open --overdue"
dealctl requests ls --status open --overdue
if [[ -t 0 && -t 1 ]]; then
	echo
	echo "You are the owning side's admin on Project Orion. Try: dealctl progress,"
	echo "dealctl requests show 1.3, dealctl answer 2.4 --partial -m 'Draft attached'."
	echo "Type exit to stop the demo server."
	"${SHELL:-bash}" -i || true
elif $keep; then
	echo
	echo "The demo server keeps running at $DEALCTL_SERVER (--keep): use the keys above from"
	echo "another terminal; Ctrl-C stops it and throws its database away."
	wait "$server" || true
else
	echo
	echo "Not on a terminal, so the demo server has stopped now and its database is gone:"
	echo "the keys above no longer work. To keep it running, run this on a terminal (it opens"
	echo "a shell), or: bash scripts/demo.sh --keep (serves until Ctrl-C)."
fi
