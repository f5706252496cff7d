#!/usr/bin/env bash
# Regenerates everything derived from the contract (spec/openapi.yaml and the files it references). Usage:
# scripts/generate.sh [out-root]
# out-root defaults to the repository root; check-generated.sh passes a temporary directory. Each generator writes
# only below "$out/<its tree>", and every tree is listed in scripts/generated-trees.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.}"
mkdir -p "$out/generated"
# The multi-file contract bundled into one document; every generator below (and the server) reads the bundle.
bundle="$out/generated/openapi.yaml"
npx --no-install tsx scripts/bundle-spec.ts "$bundle"
# openapi-typescript writes its own do-not-edit banner at the top of the file. --default-non-nullable false (as for the
# SDK): a request field with a `default` stays optional, so the body types say what a caller may omit; response fields
# are required exactly when the spec lists them in `required`.
npx --no-install openapi-typescript "$bundle" --output "$out/generated/openapi.ts" --enum-values \
  --default-non-nullable false >/dev/null
# The operation table; generate-sdk-ts.sh writes the same table into the SDK's tree.
npx --no-install tsx scripts/generate-operations.ts "$bundle" --server "$out/generated/operations.ts"
# The SDKs' generators (each owns its tree).
for sub in scripts/generate-sdk-ts.sh scripts/generate-sdk-python.sh; do
  if [ -f "$sub" ]; then SPEC="$bundle" MERIDIAN_SPEC="$bundle" bash "$sub" "$out"; fi
done
