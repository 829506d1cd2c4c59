#!/usr/bin/env bash
# Lints the served OpenAPI document with Redocly's `recommended` ruleset
# (configured in redocly.yaml at the repository root). Exits non-zero on any
# error. Redocly is installed from npm into a cache directory, pinned, so
# reruns are offline-fast and CI does not depend on a global install.
set -euo pipefail

REDOCLY_VERSION="2.77.0"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/dealctl-ci/redocly-${REDOCLY_VERSION}"
bin="$cache/node_modules/.bin/redocly"

if [[ ! -x "$bin" ]]; then
	mkdir -p "$cache"
	# A private package.json keeps npm from walking up into another project.
	[[ -f "$cache/package.json" ]] || echo '{"private":true}' >"$cache/package.json"
	npm install --prefix "$cache" --no-audit --no-fund --loglevel=error \
		"@redocly/cli@${REDOCLY_VERSION}" >&2
fi

cd "$root"
# Telemetry off: CI must not phone home, and it is slow when offline.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
exec "$bin" lint --config redocly.yaml internal/server/openapi/openapi.yaml
