#!/usr/bin/env bash
# Generates the Python SDK's generated tree, sdk-python/meridian/_generated/, from the bundled contract (generated/openapi.yaml):
# - models/: openapi-generator's `python` generator (pydantic v2 models only), at the version pinned in
#   openapitools.json, as the sub-package `meridian._generated.models`;
# - resources.py, webhook_events.py, __init__.py: sdk-python/scripts/generate_operations.py (the typed operations of
#   both clients, the webhook event union, the model index).
# The hand-written layer (sdk-python/meridian/*.py) imports from this tree and the generator never writes there.
# Usage: scripts/generate-sdk-python.sh [out-root]   (writes only below "$out/sdk-python/meridian/_generated")
#
# The generator's jar is fetched once into openapitools.json's storageDir (~/.cache/openapi-generator-cli) with Maven
# (`mvn dependency:copy`, the same artifact the CLI would download); without Maven the CLI downloads it itself.
# Environment: MERIDIAN_SPEC overrides the input spec (the SDK tests use it to prove that a new operation needs no
# hand edit).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.}"
spec="${MERIDIAN_SPEC:-generated/openapi.yaml}"

version="$(node -p "require('./openapitools.json')['generator-cli'].version")"
storage="$(node -p "require('./openapitools.json')['generator-cli'].storageDir.replace(/^~/, require('os').homedir())")"
jar="$storage/$version.jar"
if [ ! -f "$jar" ] && command -v mvn >/dev/null 2>&1; then
  mkdir -p "$storage"
  mvn -q -B dependency:copy -Dartifact="org.openapitools:openapi-generator-cli:$version" -DoutputDirectory="$storage" >&2
  mv "$storage/openapi-generator-cli-$version.jar" "$jar"
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# spec.json (the whole document, each operation's place in the resource tree in its x-sdk) and openapi.json (what
# openapi-generator reads): scripts/sdk-python-spec.ts says why each differs from the bundle.
npx --no-install tsx scripts/sdk-python-spec.ts "$spec" "$tmp"

# Models only (and models/__init__.py, the supporting file that lists them): the operations, the HTTP client and the
# configuration are the SDK's own (generate_operations.py and the hand-written meridian/_base_client.py on httpx),
# shared by the sync and the async client.
# --name-mappings: the generator escapes a property named `field` (a Citation's) to `var_field`; mapped to itself it
# keeps the storage name and adds a `field` property, so users write `citation.field` like the JSON says.
npx --no-install openapi-generator-cli generate \
  -g python -i "$tmp/openapi.json" -o "$tmp/gen" \
  --package-name meridian._generated \
  --additional-properties="hideGenerationTimestamp=true" \
  --name-mappings=field=field \
  --global-property=models,supportingFiles=__init__.py:py.typed,modelTests=false,modelDocs=false \
  2>&1 | grep -Ev '^\[main\] INFO|^#|Unknown user config|OpenAPI 3.1 support is still in beta|Failed to get the schema name: null' >&2 || true
if [ ! -f "$tmp/gen/meridian/_generated/models/__init__.py" ]; then
  echo "generate-sdk-python: openapi-generator produced no meridian/_generated/models package" >&2
  exit 1
fi

dir="$out/sdk-python/meridian/_generated"
rm -rf "$dir"
mkdir -p "$dir"
cp -R "$tmp/gen/meridian/_generated/models" "$dir/models"
cp "$tmp/gen/meridian/_generated/py.typed" "$dir/py.typed"
PYTHONDONTWRITEBYTECODE=1 python3 sdk-python/scripts/generate_operations.py "$tmp/spec.json" "$dir"
