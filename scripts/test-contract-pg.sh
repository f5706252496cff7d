#!/usr/bin/env bash
# The contract suite again, on Postgres (TEST_DATABASE_URL), each run in a schema of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "TEST_DATABASE_URL is not set: the Postgres leg is skipped (.ci/run sets it; see README)." >&2
  exit 0
fi
MERIDIAN_TEST_DB=postgres npx --no-install mocha 'test/contract/**/*.test.ts' 'test/integration/**/*.test.ts'
