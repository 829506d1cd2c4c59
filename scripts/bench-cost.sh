#!/bin/sh
# CPU per call of the API server, on SQLite and on PostgreSQL, beside a
# plain net/http server answering the same bytes in the same run
# (BenchmarkCost in internal/server/cost_test.go). The servers run as
# child processes on loopback; the figures are their CPU time (and the
# PostgreSQL processes' on that machine) divided by the calls, with 8
# keep-alive clients on a 2,200-row deal.
#
#   scripts/bench-cost.sh              # 3 rounds of 1 s a case, about 2 minutes
#   DEALCTL_COST_SECONDS=3 scripts/bench-cost.sh   # 3 s a round
#   DEALCTL_COST_CASES='8 told' DEALCTL_COST_CPUPROFILE=/tmp/cpu.out \
#     scripts/bench-cost.sh -bench 'BenchmarkCost/sqlite'   # one case, profiled
#
# PostgreSQL comes from internal/pgtest (DEALCTL_TEST_PG, or a throwaway
# server from the installed binaries); without one that half is skipped
# unless DEALCTL_REQUIRE_PG=1. Results vary with what else the machine
# runs: on a shared machine, run it when it is quiet, and more than once.
set -eu
cd "$(dirname "$0")/.."
exec go test ./internal/server -run '^$' -bench '^BenchmarkCost$' -benchtime 1x -count 1 "$@"
