#!/usr/bin/env bash
# Release check, run by .ci/run: .goreleaser.yaml is valid, and a snapshot
# build of the host target stamps version, commit and date into
# `dealctl version`. With --full it also builds every archive and package
# (all six targets, slower) and checks what they contain.
#
# goreleaser is installed with `go install` (a few minutes, once) into
# ${XDG_CACHE_HOME:-$HOME/.cache}/dealctl-ci/goreleaser-VERSION/bin, and
# reused from there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# goreleaser v2.17.0 is the newest release that builds with Go 1.26. Where
# the module proxy refuses one of its dependencies (go.digitalxero.dev/go-msix,
# for nfpm's MSIX packager, is refused by the proxy this project's CI
# reaches), v2.16.0 is used: same v2 configuration schema. The first
# version already in the cache wins, and an install that failed is not
# tried again (delete its "refused" marker in the cache to retry).
GORELEASER_VERSIONS="${GORELEASER_VERSIONS:-v2.17.0 v2.16.0}"
full=false
[[ "${1:-}" == "--full" ]] && full=true

step() { printf '\n--> %s\n' "$*"; }

cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/dealctl-ci"
has_version() { # has_version VERSION: the cached binary is that version
	"$cache_root/goreleaser-$1/bin/goreleaser" --version 2>/dev/null |
		grep -Eq "^GitVersion:[[:space:]]+v?${1#v}$"
}
goreleaser=""
for v in $GORELEASER_VERSIONS; do
	if has_version "$v"; then goreleaser="$cache_root/goreleaser-$v/bin/goreleaser"; break; fi
done
if [[ -z "$goreleaser" ]]; then
	for v in $GORELEASER_VERSIONS; do
		if [[ -e "$cache_root/goreleaser-$v/refused" ]]; then continue; fi
		step "installing goreleaser $v into $cache_root/goreleaser-$v (a few minutes, cached afterwards)"
		mkdir -p "$cache_root/goreleaser-$v/bin"
		if GOBIN="$cache_root/goreleaser-$v/bin" go install "github.com/goreleaser/goreleaser/v2@$v"; then
			goreleaser="$cache_root/goreleaser-$v/bin/goreleaser"
			break
		fi
		echo "goreleaser $v did not install; trying the next version" >&2
		touch "$cache_root/goreleaser-$v/refused"
	done
fi
if [[ -z "$goreleaser" ]]; then
	echo "no goreleaser of $GORELEASER_VERSIONS could be installed" >&2
	exit 1
fi
"$goreleaser" --version | grep '^GitVersion:'

# goreleaser writes into dist/; leave the tree as it was found (KEEP_DIST=1
# keeps it, to look inside).
[[ -n "${KEEP_DIST:-}" ]] || trap 'rm -rf dist' EXIT

# goreleaser reads the commit and its date from git, but in a snapshot it
# drops all of it ("none") when the clone has no remote. Lend it one
# through the environment, never in .git/config.
commit=""
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	commit=$(git rev-parse HEAD | cut -c1-12)
	if ! git ls-remote --get-url >/dev/null 2>&1; then
		export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url \
			GIT_CONFIG_VALUE_0=https://github.com/dealctl/dealctl.git
	fi
fi

step "goreleaser check"
"$goreleaser" check

if $full; then
	step "goreleaser release --snapshot (every target, archives, packages; nothing published)"
	"$goreleaser" release --snapshot --clean --skip=publish,sign
else
	step "goreleaser build --snapshot --single-target ($(go env GOOS)/$(go env GOARCH))"
	"$goreleaser" build --snapshot --clean --single-target
fi

step "the snapshot binary reports what was stamped"
want=$(sed -n 's/.*"version":[[:space:]]*"\([^"]*\)".*/\1/p' dist/metadata.json | head -n1)
exe=""
[[ "$(go env GOOS)" == windows ]] && exe=.exe
bin=$(find dist -type f -name "dealctl$exe" -path "*_$(go env GOOS)_$(go env GOARCH)*" | head -n1)
if [[ -z "$want" || -z "$bin" ]]; then
	echo "no version in dist/metadata.json ($want) or no host binary under dist/ ($bin)" >&2
	exit 1
fi
for args in version --version; do
	out=$("$bin" $args)
	echo "$ dealctl $args"; echo "$out"
	first=$(head -n1 <<<"$out")
	if [[ "$first" != "dealctl version $want" ]]; then
		echo "dealctl $args: first line is \"$first\", want \"dealctl version $want\"" >&2
		exit 1
	fi
	if [[ -n "$commit" ]] && ! grep -q "commit $commit" <<<"$out"; then
		echo "dealctl $args: the commit $commit is not stamped" >&2
		exit 1
	fi
	if [[ -n "$commit" ]] && grep -Eq "built (unknown|0001-01-01)" <<<"$out"; then
		echo "dealctl $args: the build date is not stamped" >&2
		exit 1
	fi
done

if $full; then
	step "archives and packages carry the binary, README, LICENSE, completions and man pages"
	version=${want}
	for archive in dist/dealctl_"${version}"_*.tar.gz; do
		list=$(tar -tzf "$archive")
		for f in dealctl README.md LICENSE CHANGELOG.md completions/dealctl.bash completions/dealctl.zsh \
			completions/dealctl.fish completions/dealctl.ps1 man/dealctl.1 man/dealctl-requests-ls.1; do
			grep -qx "$f" <<<"$list" || { echo "$archive lacks $f" >&2; exit 1; }
		done
	done
	ls dist/dealctl_"${version}"_windows_*.zip >/dev/null
	ls dist/*.deb dist/*.rpm dist/checksums.txt
	if command -v dpkg-deb >/dev/null; then
		deb=$(find dist -maxdepth 1 -name '*_amd64.deb' | head -n1)
		list=$(dpkg-deb -c "$deb")
		for f in ./usr/bin/dealctl ./usr/share/man/man1/dealctl.1 ./usr/share/bash-completion/completions/dealctl \
			./usr/share/zsh/vendor-completions/_dealctl ./usr/share/fish/vendor_completions.d/dealctl.fish \
			./usr/share/doc/dealctl/copyright ./usr/share/doc/dealctl/README.md; do
			grep -q " $f\$" <<<"$list" || { echo "$deb lacks $f" >&2; exit 1; }
		done
	fi
fi
echo "release check passed"
