#!/usr/bin/env bash
# `npm run build`: the server compiled by tsc (tsconfig.build.json) into dist/, with what it reads at runtime
# (docs/deploy.md, "Build"):
#   dist/main.js, worker.js, cli.js, migrate.js  the entry points (node dist/main.js …)
#   dist/server/, dist/generated/                the compiled modules; migrations under dist/server/db/migrations
#   dist/generated/openapi.yaml, openapi.json    the bundled contract the server validates against and serves
#   dist/datasets/                               the NYC dataset of the demo
#   dist/docs-assets/                            /docs' assets precompressed (Brotli and gzip)
#   dist/console/dist/                           the settings console's build (scripts/build-console.ts)
# Production then needs only `npm ci --omit=dev` (or `npm prune --omit=dev`) beside dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
tsc -p tsconfig.build.json
mkdir -p dist/datasets
cp generated/openapi.yaml dist/generated/openapi.yaml
cp datasets/nyc-capital-projects-2019-09-01.csv dist/datasets/
for entry in main worker cli migrate; do
  printf "// Entry point written by scripts/build.sh.\nimport './server/%s.js';\n" "$entry" > "dist/$entry.js"
done
node --import tsx scripts/build-assets.ts dist
node --import tsx scripts/build-console.ts
mkdir -p dist/console
cp -r console/dist dist/console/dist
echo "build: dist/ ready (node dist/main.js, dist/worker.js, dist/cli.js, dist/migrate.js)"
