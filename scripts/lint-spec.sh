#!/usr/bin/env bash
# Lints the OpenAPI contract with both Redocly (recommended + stricter rules, see redocly.yaml) and Spectral
# (spectral:oas, see .spectral.yaml). Fails on any error or warning. Redocly reads the hand-written files under
# spec/ (it follows their references, and names the file of each problem); Spectral reads the bundle that
# `npm run generate` writes (generated/openapi.yaml), the document the server serves, because its OpenAPI 3.1
# schema check does not follow a path item's file reference.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

SPEC=spec/openapi.yaml
BUNDLE=generated/openapi.yaml

echo "==> redocly lint ${SPEC} (and the files it references)"
npx --no-install redocly lint "${SPEC}" --max-problems 200

echo "==> spectral lint ${BUNDLE}"
npx --no-install spectral lint --fail-severity=warn "${BUNDLE}"
