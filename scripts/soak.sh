#!/bin/sh
# Memory and latency of the API server under a mixed load (BenchmarkSoak
# in internal/server/soak_test.go): the server runs as a child process on
# a 550-row deal, 8 readers poll the list and single requests with
# If-None-Match, 2 writers post messages and move statuses; the child's
# RSS is sampled from /proc every second and every read is timed.
#
#   scripts/soak.sh                                  # 3 minutes on SQLite, then on PostgreSQL
#   DEALCTL_SOAK_STORE=sqlite scripts/soak.sh        # one store only
#   DEALCTL_SOAK_SECONDS=60 scripts/soak.sh          # a shorter run
#
# PostgreSQL comes from internal/pgtest (DEALCTL_TEST_PG, or a throwaway
# server from the installed binaries); without one that half is skipped
# unless DEALCTL_REQUIRE_PG=1.
set -eu
cd "$(dirname "$0")/.."
exec go test ./internal/server -run '^$' -bench '^BenchmarkSoak$' -benchtime 1x -count 1 -timeout 30m "$@"
