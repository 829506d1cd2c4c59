#!/usr/bin/env bash
# Generates clients from the OpenAPI document as an API consumer would, from
# the document a running server serves at /openapi.yaml, with each
# generator's default options, and runs a small program through each against
# that real server (`dealctl serve --demo`), as both sides: list deals and
# requests with a two-value status filter, post a message with a link, PATCH
# a status with If-Match (and its 409s), get a download link and fetch the
# bytes. The programs are in .ci/clients/.
#   - TypeScript: openapi-typescript + openapi-fetch (sends an array as
#     status=open&status=partial), compiled with `tsc --strict`, run on Node;
#   - Go: oapi-codegen (models and client; sends status=open,partial);
#   - Go: ogen (strict; validates every answer it decodes), installed into
#     the same cache;
#   - TypeScript: @hey-api/openapi-ts (its SDK on its bundled fetch client);
#   - TypeScript: orval (axios functions; sends status[]=open&status[]=partial).
# The npm tools are installed into a cache directory keyed by their
# versions, so a repeated CI run does not install them again.
# Exits non-zero when a client does not generate, compile or run.
set -euo pipefail

OPENAPI_TYPESCRIPT_VERSION="7"
OPENAPI_FETCH_VERSION="0.17"
TYPESCRIPT_VERSION="5" # openapi-typescript 7 rejects TypeScript 7
OAPI_CODEGEN_VERSION="v2.8.2"
OGEN_VERSION="v1.24.0"
HEY_API_VERSION="0.95" # the newest that installs on Node 20
ORVAL_VERSION="8.38"
AXIOS_VERSION="1"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
	if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

# 1. The served document.
(cd "$root" && go build -o "$work/dealctl" ./cmd/dealctl)
port=$((20000 + RANDOM % 20000))
"$work/dealctl" serve --demo --db "$work/demo.db" --addr "127.0.0.1:$port" >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
	if curl -fsS "http://127.0.0.1:$port/openapi.yaml" -o "$work/openapi.yaml" 2>/dev/null; then break; fi
	sleep 0.2
done
if [[ ! -s "$work/openapi.yaml" ]]; then
	echo "the server did not serve /openapi.yaml:" >&2
	cat "$work/serve.log" >&2
	exit 1
fi

base="http://127.0.0.1:$port"
for _ in $(seq 1 50); do
	grep -q 'demo-buy-editor' "$work/serve.log" && break
	sleep 0.2
done
owner_key=$(awk '$1 == "demo-sell-admin" {print $4}' "$work/serve.log")
other_key=$(awk '$1 == "demo-buy-editor" {print $4}' "$work/serve.log")
if [[ -z "$owner_key" || -z "$other_key" ]]; then
	echo "the demo printed no keys:" >&2
	cat "$work/serve.log" >&2
	exit 1
fi

# 2. TypeScript: openapi-typescript + openapi-fetch.
cache="${XDG_CACHE_HOME:-$HOME/.cache}/dealctl-ci/ts-clients-${OPENAPI_TYPESCRIPT_VERSION}-${OPENAPI_FETCH_VERSION}-${TYPESCRIPT_VERSION}"
if [[ ! -x "$cache/node_modules/.bin/tsc" || ! -d "$cache/node_modules/openapi-fetch" ]]; then
	mkdir -p "$cache"
	# A private package.json keeps npm from walking up into another project.
	echo '{"private":true}' >"$cache/package.json"
	npm install --prefix "$cache" --no-audit --no-fund --loglevel=error \
		"openapi-typescript@${OPENAPI_TYPESCRIPT_VERSION}" "openapi-fetch@${OPENAPI_FETCH_VERSION}" \
		"typescript@${TYPESCRIPT_VERSION}" >&2
fi
ts="$work/ts"
mkdir -p "$ts"
echo '{"private":true,"type":"module"}' >"$ts/package.json"
ln -s "$cache/node_modules" "$ts/node_modules"
"$ts/node_modules/.bin/openapi-typescript" "$work/openapi.yaml" -o "$ts/schema.d.ts"
cp "$root/.ci/clients/openapi-fetch.ts" "$ts/main.ts"
cat >"$ts/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "strict": true, "target": "ES2022", "module": "ESNext",
    "moduleResolution": "Bundler", "types": [], "lib": ["ES2022", "DOM"], "outDir": "out"
  },
  "files": ["main.ts"]
}
JSON
"$ts/node_modules/.bin/tsc" -p "$ts/tsconfig.json"
node "$ts/out/main.js" "$base" "$owner_key" "$other_key"

# 3. Go: oapi-codegen.
gen="$work/go"
mkdir -p "$gen/dealclient"
cat >"$gen/go.mod" <<'MOD'
module example.com/dealclient

go 1.24
MOD
cat >"$gen/oapi-codegen.yaml" <<'CFG'
package: dealclient
generate:
  models: true
  client: true
output: dealclient/client.gen.go
CFG
cp "$root/.ci/clients/oapi-codegen/main.go" "$gen/main.go"
(cd "$gen" && go run "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@${OAPI_CODEGEN_VERSION}" \
	-config oapi-codegen.yaml "$work/openapi.yaml")
(cd "$gen" && GOFLAGS=-mod=mod go mod tidy && go vet ./... && go build -o oapiclient .)
"$gen/oapiclient" "$base" "$owner_key" "$other_key"

# 4. Go: ogen.
ogen_bin="${XDG_CACHE_HOME:-$HOME/.cache}/dealctl-ci/ogen-${OGEN_VERSION}/ogen"
if [[ ! -x "$ogen_bin" ]]; then
	GOBIN="$(dirname "$ogen_bin")" go install "github.com/ogen-go/ogen/cmd/ogen@${OGEN_VERSION}"
fi
og="$work/ogen"
mkdir -p "$og"
cat >"$og/go.mod" <<'MOD'
module example.com/ogenclient

go 1.24
MOD
cp "$root/.ci/clients/ogen/main.go" "$og/main.go"
# Its notes on header names and unused validators are not failures.
"$ogen_bin" --target "$og/dealclient" --package dealclient --clean "$work/openapi.yaml" 2>"$og/ogen.log" || {
	cat "$og/ogen.log" >&2
	exit 1
}
(cd "$og" && GOFLAGS=-mod=mod go mod tidy && go vet ./... && go build -o ogenclient .)
"$og/ogenclient" "$base" "$owner_key" "$other_key"

# 5. TypeScript: @hey-api/openapi-ts.
hcache="${XDG_CACHE_HOME:-$HOME/.cache}/dealctl-ci/hey-api-${HEY_API_VERSION}-${TYPESCRIPT_VERSION}"
if [[ ! -x "$hcache/node_modules/.bin/openapi-ts" || ! -x "$hcache/node_modules/.bin/tsc" ]]; then
	mkdir -p "$hcache"
	echo '{"private":true}' >"$hcache/package.json"
	npm install --prefix "$hcache" --no-audit --no-fund --loglevel=error \
		"@hey-api/openapi-ts@${HEY_API_VERSION}" "typescript@${TYPESCRIPT_VERSION}" >&2
fi
hey="$work/hey-api"
mkdir -p "$hey"
echo '{"private":true}' >"$hey/package.json"
(cd "$hey" && "$hcache/node_modules/.bin/openapi-ts" -i "$work/openapi.yaml" -o gen >"$hey/openapi-ts.log") || {
	cat "$hey/openapi-ts.log" >&2
	exit 1
}
cp "$root/.ci/clients/hey-api.ts" "$hey/main.ts"
# CommonJS: the generated SDK imports without file extensions, which Node's
# ES module loader does not resolve.
cat >"$hey/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "strict": true, "target": "ES2022", "module": "CommonJS", "moduleResolution": "Node10",
    "types": [], "lib": ["ES2022", "DOM", "DOM.Iterable"], "outDir": "out"
  },
  "files": ["main.ts"]
}
JSON
"$hcache/node_modules/.bin/tsc" -p "$hey/tsconfig.json"
node "$hey/out/main.js" "$base" "$owner_key" "$other_key"

# 6. TypeScript: orval.
ocache="${XDG_CACHE_HOME:-$HOME/.cache}/dealctl-ci/orval-${ORVAL_VERSION}-${AXIOS_VERSION}-${TYPESCRIPT_VERSION}"
if [[ ! -x "$ocache/node_modules/.bin/orval" || ! -d "$ocache/node_modules/axios" ]]; then
	mkdir -p "$ocache"
	echo '{"private":true}' >"$ocache/package.json"
	npm install --prefix "$ocache" --no-audit --no-fund --loglevel=error \
		"orval@${ORVAL_VERSION}" "axios@${AXIOS_VERSION}" "typescript@${TYPESCRIPT_VERSION}" >&2
fi
orv="$work/orval"
mkdir -p "$orv"
echo '{"private":true}' >"$orv/package.json"
ln -s "$ocache/node_modules" "$orv/node_modules"
(cd "$orv" && node_modules/.bin/orval --input "$work/openapi.yaml" --output gen/api.ts >"$orv/orval.log" 2>&1) || {
	cat "$orv/orval.log" >&2
	exit 1
}
cp "$root/.ci/clients/orval.ts" "$orv/main.ts"
cat >"$orv/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "strict": true, "target": "ES2022", "module": "CommonJS", "moduleResolution": "Node10",
    "types": [], "lib": ["ES2022", "DOM", "DOM.Iterable"], "outDir": "out", "esModuleInterop": true,
    "skipLibCheck": true
  },
  "files": ["main.ts"]
}
JSON
"$orv/node_modules/.bin/tsc" -p "$orv/tsconfig.json"
node "$orv/out/main.js" "$base" "$owner_key" "$other_key"
