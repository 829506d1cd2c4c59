#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the tests and prints the line that
# points them at it:
#
#   eval "$(.ci/start-postgres.sh)"
#   DEALCTL_REQUIRE_PG=1 go test ./...
#
# It installs Debian's postgresql when absent, runs initdb once, and
# starts the server on a free loopback port as an unprivileged user
# (PostgreSQL refuses to run as root). Run it again and it only prints the
# line for the server already running. No Docker. Stop it with
#   .ci/start-postgres.sh stop
#
# Only the export line goes to stdout; everything else goes to stderr.
set -euo pipefail

dir="${DEALCTL_PG_DIR:-${TMPDIR:-/tmp}/dealctl-ci-pg}"
data="$dir/data"
pgbin_dir() {
	local d
	d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
	[[ -n "$d" && -x "$d/initdb" && -x "$d/pg_ctl" ]] && echo "$d"
}

# Run a PostgreSQL binary as the unprivileged owner of $dir.
as_owner() {
	if [[ "$(id -u)" -eq 0 ]]; then
		runuser -u "$owner" -- "$@"
	else
		"$@"
	fi
}

print_export() {
	echo "export DEALCTL_TEST_PG='postgres://postgres@127.0.0.1:$(cat "$dir/port")/postgres?sslmode=disable'"
}

bin="$(pgbin_dir || true)"
if [[ -z "$bin" ]]; then
	if [[ "$(id -u)" -ne 0 ]]; then
		echo "start-postgres: PostgreSQL is not installed and installing it needs root (apt-get install postgresql)" >&2
		exit 1
	fi
	echo "start-postgres: installing postgresql" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq postgresql >&2
	bin="$(pgbin_dir)"
fi

owner="$(id -un)"
if [[ "$(id -u)" -eq 0 ]]; then
	owner=postgres
	id postgres >/dev/null 2>&1 || owner=nobody
fi

if [[ "${1:-}" == "stop" ]]; then
	if [[ -d "$data" ]]; then
		as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >&2 || true
	fi
	exit 0
fi

if [[ -f "$dir/port" ]] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
	print_export
	exit 0
fi

mkdir -p "$dir"
chown "$owner" "$dir"
chmod 700 "$dir"
if [[ ! -f "$data/PG_VERSION" ]]; then
	rm -rf "$data"
	as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --no-locale --no-sync >&2
fi

# A free loopback port: nothing answers on it.
port=""
for p in $(shuf -i 20000-60000 -n 50); do
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		port=$p
		break
	fi
done
[[ -n "$port" ]] || { echo "start-postgres: no free port found" >&2; exit 1; }

# Tuned for throwaway test data: no fsync. Enough connections for tests
# that open several instances at once.
as_owner "$bin/pg_ctl" -D "$data" -l "$dir/log" -w -t 60 \
	-o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
	start >&2 || { cat "$dir/log" >&2; exit 1; }
echo "$port" >"$dir/port"
print_export
