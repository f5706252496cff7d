#!/usr/bin/env bash
# Lints the OpenAPI contract with both Redocly (recommended + stricter rules, see redocly.yaml)
# and Spectral (spectral:oas, see .spectral.yaml). Fails on any error or warning.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

SPEC=spec/openapi.yaml

echo "==> redocly lint ${SPEC}"
npx --no-install redocly lint "${SPEC}" --max-problems 200

echo "==> spectral lint ${SPEC}"
npx --no-install spectral lint --fail-severity=warn "${SPEC}"
