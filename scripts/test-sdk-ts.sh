#!/usr/bin/env bash
# The TypeScript SDK (sdk-ts/): typecheck (src, tests and the type-level tests in sdk-ts/test/types.ts), format and
# lint (Biome, sdk-ts/biome.json), build to sdk-ts/dist, typecheck the example against the built package, then the
# mocha suite: the live server (every operation through the resource tree), local HTTP servers, webhooks,
# generation, and the packed tarball as users get it (publint, attw, types under node16 and bundler, Node.js 20, 22
# and 24, a browser bundle in Chromium: sdk-ts/test/package.test.ts). The generated tree is checked by
# `npm run check:generated` (scripts/generated-trees.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n--> sdk-ts: %s\n' "$*"; }

step "typecheck (tsc -p sdk-ts/tsconfig.json)"
npx --no-install tsc -p sdk-ts/tsconfig.json --noEmit

step "format and lint (Biome)"
(cd sdk-ts && npx --no-install biome check --error-on-warnings .)

step "build (sdk-ts/dist)"
npm run -s build -w @meridian/sdk

node --input-type=module -e '
  const sdk = await import("@meridian/sdk");
  const client = new sdk.Meridian({ apiKey: "mk_live_x" });
  if (typeof client.projects.list !== "function") throw new Error("the built package has no resource tree");
  console.log(`import "@meridian/sdk" (dist) ${sdk.VERSION}: ${Object.keys(sdk.resourceMethods).length} operations in the tree`);
'

step "example typechecks against the built package"
npx --no-install tsc -p examples/typescript/tsconfig.json

step "mocha"
npx --no-install mocha --config .mocharc.json 'sdk-ts/test/**/*.test.ts'
