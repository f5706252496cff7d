#!/usr/bin/env bash
# `npm run test:console`: the settings console end to end (docs/console.md). Builds console/ when its build is missing
# or stale (scripts/build-console.ts), then runs the Playwright journeys (console/e2e/) in Debian's Chromium against
# the real server on SQLite, and on Postgres too when TEST_DATABASE_URL is set. Each run rewrites the screenshots in
# docs/console/; arguments pass to Playwright (file names to run a subset). Skipped, saying why, only when Chromium cannot be installed (scripts/ensure-chromium.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! browser="$(bash scripts/ensure-chromium.sh)"; then
  echo "console end-to-end tests skipped: Chromium is not available" >&2
  exit 0
fi
export MERIDIAN_CHROMIUM="$browser"
node --import tsx scripts/build-console.ts
echo "console end to end on SQLite"
env -u TEST_DATABASE_URL npx --no-install playwright test --config console/e2e/playwright.config.ts "$@"
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "console end to end on Postgres"
  npx --no-install playwright test --config console/e2e/playwright.config.ts "$@"
fi
