#!/usr/bin/env bash
# `npm test`: spec lint, typecheck, lint, generated-code check, Containerfile lint (hadolint), unit, integration
# and contract tests on SQLite (integration includes the pruned build, test/integration/dist.test.ts), the
# contract and integration suites on Postgres when TEST_DATABASE_URL is set, the hostile-input suite (test/security/,
# on SQLite and on Postgres when TEST_DATABASE_URL is set), the API reference (/docs) in headless Chromium, the
# settings console end to end (Playwright in Chromium, SQLite and Postgres), then
# schemathesis against a live server. Ends with one line of totals over every mocha run ("N passed, N failed,
# N skipped").
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s\n' "$*"; }
log="$(mktemp "${TMPDIR:-/tmp}/meridian-test-XXXXXX.log")"
trap 'rm -f "$log"' EXIT
# Runs an npm script, echoing its output and keeping a copy to count mocha's "N passing/failing/pending".
counted() { npm run -s "$1" 2>&1 | tee -a "$log"; }

step "spec lint (Redocly, Spectral)";             npm run -s lint:spec
step "typecheck (tsc --noEmit)";                  npm run -s typecheck
step "lint (scripts/lint.sh)";                    npm run -s lint
step "generated code matches the spec";           npm run -s check:generated
step "Containerfile (hadolint)";                  npm run -s lint:containerfile
step "unit tests";                                counted test:unit
step "integration tests (SQLite)";                counted test:integration
step "contract tests (SQLite)";                   counted test:contract
step "contract and integration tests (Postgres)"; counted test:contract:pg
step "hostile inputs (SQLite, and Postgres when TEST_DATABASE_URL is set)"; counted test:security
step "browser: /docs in headless Chromium";       counted test:browser
step "console end to end (Playwright, Chromium)"; npm run -s test:console
step "schemathesis";                              npm run -s test:schemathesis
step "TypeScript SDK";                            counted test:sdk:ts
step "Python SDK";                                npm run -s test:sdk:python

sum() { grep -oE "^ +[0-9]+ $1" "$log" | awk '{ s += $1 } END { print s + 0 }'; }
printf '\nmocha: %s passed, %s failed, %s skipped\n' "$(sum passing)" "$(sum failing)" "$(sum pending)"
