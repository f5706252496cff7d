#!/usr/bin/env bash
# `npm test`: spec lint, typecheck, lint, generated-code check, unit, integration and contract tests on SQLite, the
# contract suite on Postgres when TEST_DATABASE_URL is set, then schemathesis against a live server.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s\n' "$*"; }
step "spec lint (Redocly, Spectral)";            npm run -s lint:spec
step "typecheck (tsc --noEmit)";                 npm run -s typecheck
step "lint (Biome)";                             npm run -s lint
step "generated code matches the spec";          npm run -s check:generated
step "unit tests";                               npm run -s test:unit
step "integration tests (SQLite)";               npm run -s test:integration
step "contract tests (SQLite)";                  npm run -s test:contract
step "contract and integration tests (Postgres)"; npm run -s test:contract:pg
step "schemathesis";                             npm run -s test:schemathesis
