#!/usr/bin/env bash
# Starts a throwaway S3 server (versitygw, posix backend in a temporary
# folder, on a free loopback port) for the file-store tests and prints the
# lines that point them at it:
#
#   eval "$(.ci/start-versitygw.sh)"
#   DEALCTL_REQUIRE_S3=1 go test ./...
#
# It installs versitygw with `go install` when absent (the Go module proxy
# is all it needs). Run it again and it only prints the lines for the
# server already running. Stop it with
#   .ci/start-versitygw.sh stop
#
# Only the export lines go to stdout; everything else goes to stderr.
set -euo pipefail

VERSITYGW_VERSION=v1.8.0
dir="${DEALCTL_S3_DIR:-${TMPDIR:-/tmp}/dealctl-ci-s3}"
export PATH="$(go env GOPATH)/bin:$PATH"

print_export() {
	echo "export DEALCTL_TEST_S3='http://127.0.0.1:$(cat "$dir/port")'"
	echo "export AWS_ACCESS_KEY_ID='dealctlci' AWS_SECRET_ACCESS_KEY='$(cat "$dir/secret")'"
}

running() { [[ -f "$dir/pid" ]] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; }

if [[ "${1:-}" == "stop" ]]; then
	if running; then kill "$(cat "$dir/pid")"; fi
	rm -rf "$dir"
	exit 0
fi
if running; then
	print_export
	exit 0
fi

# Its --version says "git" when built by go install: read the module's.
if ! go version -m "$(command -v versitygw 2>/dev/null || echo /nonexistent)" 2>/dev/null | grep -Eq "^\s+mod\s+github.com/versity/versitygw\s+${VERSITYGW_VERSION}\b"; then
	echo "start-versitygw: installing versitygw ${VERSITYGW_VERSION} (a few minutes)" >&2
	go install "github.com/versity/versitygw/cmd/versitygw@${VERSITYGW_VERSION}" >&2
fi

rm -rf "$dir"
mkdir -p "$dir/data"
head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/secret"
for _ in 1 2 3 4 5; do
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
	echo "$port" > "$dir/port"
	versitygw --access dealctlci --secret "$(cat "$dir/secret")" --port "127.0.0.1:$port" posix "$dir/data" > "$dir/log" 2>&1 &
	echo $! > "$dir/pid"
	for _ in $(seq 1 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			print_export
			exit 0
		fi
		running || break
		sleep 0.1
	done
	kill "$(cat "$dir/pid")" 2>/dev/null || true
done
echo "start-versitygw: versitygw did not start:" >&2
cat "$dir/log" >&2
exit 1
