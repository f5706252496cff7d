#!/usr/bin/env bash
# Regenerates the TypeScript SDK's generated tree from the bundled contract (generated/openapi.yaml). Usage: scripts/generate-sdk-ts.sh [out-root]
# Writes below "$out/sdk-ts/src/generated/": schema.ts (openapi-typescript), operations.ts (the operation table, the
# same as the server's), resources.ts (the resource tree), models.ts, webhooks.ts and version.ts
# (scripts/generate-operations.ts); into the repository itself it also sets sdk-ts/package.json's version. SPEC overrides the input document (used by the SDK's test that
# proves a new operation reaches the client).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.}"
spec="${SPEC:-generated/openapi.yaml}"
dir="$out/sdk-ts/src/generated"
mkdir -p "$dir"
# openapi-typescript writes its own do-not-edit banner at the top of the file. --default-non-nullable false: a field
# with a `default` stays optional (otherwise request bodies would require e.g. ProjectCreate.actualCost); response
# fields are required exactly when the spec lists them in `required`.
npx --no-install openapi-typescript "$spec" --output "$dir/schema.ts" --default-non-nullable false >/dev/null
npx --no-install tsx scripts/generate-operations.ts "$spec" --sdk "$dir"
# The package's version follows the spec (scripts/sdk-version.ts); only a generation into the repository writes it.
if [ "$out" = "." ]; then npx --no-install tsx scripts/sdk-version.ts "$spec" --write; fi
