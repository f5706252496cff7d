#!/usr/bin/env bash
# The TypeScript SDK (sdk-ts/): typecheck (src, tests and the type-level tests in sdk-ts/test/types.ts), format and
# lint (Biome, sdk-ts/biome.json), build to sdk-ts/dist, check the package contents (npm pack --dry-run), typecheck
# the example against the built package, then the mocha suite (live server, local HTTP servers, webhooks,
# generation). The generated tree is checked by `npm run check:generated` (scripts/generated-trees.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n--> sdk-ts: %s\n' "$*"; }

step "typecheck (tsc -p sdk-ts/tsconfig.json)"
npx --no-install tsc -p sdk-ts/tsconfig.json --noEmit

step "format and lint (Biome)"
(cd sdk-ts && npx --no-install biome check --error-on-warnings .)

step "build (sdk-ts/dist)"
npm run -s build -w @meridian/sdk

step "package contents (npm pack --dry-run)"
pack="$(cd sdk-ts && npm pack --dry-run --json --ignore-scripts 2>/dev/null)"
node --input-type=module -e '
  const [pack] = JSON.parse(process.argv[1]);
  const files = pack.files.map((f) => f.path);
  const bad = files.filter((f) => !/^(dist\/.+\.(js|d\.ts)|package\.json|README\.md|LICENSE)$/.test(f));
  const required = ["package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts", "dist/generated/operations.js"];
  const missing = required.filter((f) => !files.includes(f));
  if (bad.length || missing.length) {
    console.error(`unexpected: ${bad.join(", ") || "-"}; missing: ${missing.join(", ") || "-"}`);
    process.exit(1);
  }
  console.log(`${pack.name}@${pack.version}: ${files.length} files, ${pack.size} bytes packed`);
' "$pack"
node --input-type=module -e '
  const sdk = await import("@meridian/sdk");
  if (typeof sdk.Meridian !== "function") throw new Error("the built package does not export Meridian");
  console.log(`import "@meridian/sdk" (dist): ${Object.keys(sdk.operationTable).length} operations`);
'

step "example typechecks against the built package"
npx --no-install tsc -p examples/typescript/tsconfig.json

step "mocha"
npx --no-install mocha --config .mocharc.json 'sdk-ts/test/**/*.test.ts'
