#!/usr/bin/env bash
# Checks the systemd units in docs/examples/ the way an administrator's
# systemd would read them: `systemd-analyze verify` must print nothing (any
# warning fails), and `systemd-analyze security --offline=true` must rate
# each unit at most 3.5 ("OK"). Debian's systemd package provides both
# without systemd running; it is installed when missing.
set -euo pipefail

MAX_EXPOSURE="3.5"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
examples="$root/docs/examples"

if ! command -v systemd-analyze >/dev/null; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# verify insists that ExecStart's binary exists: the units name
# /usr/bin/dealctl, so check copies that point at a stand-in executable
# instead. Nothing else in them is changed. A template is checked as an
# instance (port 8081), as `systemctl start dealctl@8081` would load it.
printf '#!/bin/sh\nexit 0\n' >"$work/dealctl"
chmod +x "$work/dealctl"
units=()
for unit in "$examples"/*.service; do
	name="$(basename "$unit")"
	[[ "$name" == *@.service ]] && name="${name%@.service}@8081.service"
	sed "s|/usr/bin/dealctl|$work/dealctl|g" "$unit" >"$work/$name"
	units+=("$work/$name")
done
if [[ ${#units[@]} -eq 0 ]]; then
	echo "check-units: no unit in docs/examples" >&2
	exit 1
fi

status=0
for unit in "${units[@]}"; do
	name="$(basename "$unit")"
	out="$(systemd-analyze verify --man=no "$unit" 2>&1)" || { echo "$out" >&2; echo "check-units: $name: verify failed" >&2; status=1; continue; }
	if [[ -n "$out" ]]; then
		echo "$out" >&2
		echo "check-units: $name: verify warned (above)" >&2
		status=1
	fi
	report="$(systemd-analyze security --offline=true --no-pager "$unit" 2>&1)" || true
	exposure="$(sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p' <<<"$report")"
	if [[ -z "$exposure" ]]; then
		echo "$report" >&2
		echo "check-units: $name: no exposure level in the security report" >&2
		status=1
		continue
	fi
	if awk -v e="$exposure" -v max="$MAX_EXPOSURE" 'BEGIN { exit !(e > max) }'; then
		grep '✗' <<<"$report" >&2 || true
		echo "check-units: $name: exposure $exposure, above $MAX_EXPOSURE" >&2
		status=1
		continue
	fi
	echo "check-units: $name: verified, exposure $exposure"
done
exit "$status"
