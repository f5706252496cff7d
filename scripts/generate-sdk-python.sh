#!/usr/bin/env bash
# Generates the Python SDK's low-level client, sdk-python/meridian_client/, from spec/openapi.yaml with
# openapi-generator's `python` generator (pydantic v2, urllib3), at the version pinned in openapitools.json.
# Usage: scripts/generate-sdk-python.sh [out-root]   (writes only below "$out/sdk-python/meridian_client")
#
# The generator's jar is fetched once into openapitools.json's storageDir (~/.cache/openapi-generator-cli) with Maven
# (`mvn dependency:copy`, the same artifact the CLI would download); without Maven the CLI downloads it itself.
# Environment: MERIDIAN_SPEC overrides the input spec (the SDK tests use it to prove that a new operation needs no
# hand edit).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.}"
spec="${MERIDIAN_SPEC:-spec/openapi.yaml}"
sdk_version="0.1.0b1"   # keep in step with sdk-python/pyproject.toml

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
# The spec's OpenAPI 3.1 `webhooks` (event payloads we send, tagged Webhooks) would be generated as a second
# WebhooksApi class in the same file as the /webhooks management API, overwriting it. They describe requests the
# server makes, not operations a client calls, so the generator gets the spec without them (their payload schemas stay
# in components and are still generated as models).
node --input-type=module -e "
  import { readFileSync, writeFileSync } from 'node:fs';
  import { parse } from 'yaml';
  const doc = parse(readFileSync(process.argv[1], 'utf8'));
  delete doc.webhooks;
  writeFileSync(process.argv[2], JSON.stringify(doc, null, 2));
" "$spec" "$tmp/openapi.json"

# Only the package itself is kept: no docs, tests, CI files or setup files (sdk-python/pyproject.toml is hand-written).
npx --no-install openapi-generator-cli generate \
  -g python -i "$tmp/openapi.json" -o "$tmp/gen" \
  --package-name meridian_client --library urllib3 \
  --additional-properties="packageVersion=$sdk_version,projectName=meridian-sdk,httpUserAgent=meridian-python/$sdk_version,hideGenerationTimestamp=true" \
  --global-property=apiTests=false,modelTests=false,apiDocs=false,modelDocs=false \
  2>&1 | grep -Ev '^\[main\] INFO|^#|Unknown user config|OpenAPI 3.1 support is still in beta' >&2 || true
if [ ! -f "$tmp/gen/meridian_client/__init__.py" ]; then
  echo "generate-sdk-python: openapi-generator produced no meridian_client package" >&2
  exit 1
fi

mkdir -p "$out/sdk-python"
rm -rf "$out/sdk-python/meridian_client"
cp -R "$tmp/gen/meridian_client" "$out/sdk-python/meridian_client"
