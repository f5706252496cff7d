#!/usr/bin/env bash
# The Python SDK's checks (npm run test:sdk:python): builds sdk-python with `python -m build` (wheel and sdist) and
# checks both with `twine check --strict`, installs the wheel into a virtualenv (.venv-sdk-python, reused between
# runs), runs mypy --strict over the package, starts the real server on a free port with a throw-away SQLite file and
# the NYC demo data, creates a key of a tenant limited to 2 requests/minute with the server's CLI (tenants have no
# API; the tests make their read-only key through POST /api-keys), and runs pytest (sdk-python/tests) against it:
# every operation through the resource tree, every live test on Meridian and on AsyncMeridian, mypy --strict over
# examples/python/ and the Python snippets of both READMEs, the typo program that must fail mypy, the examples run
# against the demo, and the wheel installed into a fresh virtualenv on each Python 3.9–3.13 at hand (README example
# and mypy there: tests/test_packaging.py). Exits non-zero on any failure; stops the server on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
venv="$root/.venv-sdk-python"
step() { printf '\n==> %s\n' "$*"; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/meridian-sdk-python-XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

step "Python SDK: virtualenv, build (python -m build), twine check --strict, install"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
# Built from a copy: setuptools leaves build/ and *.egg-info beside the sources it builds.
mkdir -p "$tmp/src" && cp -R sdk-python/pyproject.toml sdk-python/README.md sdk-python/LICENSE sdk-python/meridian "$tmp/src/"
# flask: the SDK README's webhook receiver is one of the snippets mypy checks.
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  "pytest==9.2.0" "mypy==2.4.1" "standardwebhooks==1.1.0" "flask==3.1.3" "build==1.6.1" "twine==7.0.0"
"$venv/bin/python" -m build --outdir "$tmp/dist" "$tmp/src" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log" >&2; exit 1; }
"$venv/bin/twine" check --strict "$tmp"/dist/*
export MERIDIAN_WHEEL="$(ls "$tmp"/dist/*.whl)" MERIDIAN_SDIST="$(ls "$tmp"/dist/*.tar.gz)"
# The version stays the same between edits: reinstall our package itself every run.
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$MERIDIAN_WHEEL"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$MERIDIAN_WHEEL"

step "Python SDK: mypy --strict (the package: hand-written layer and generated operations)"
# Caches and bytecode stay out of the tree (sdk-python/meridian/_generated is diffed whole by check:generated).
export PYTHONDONTWRITEBYTECODE=1
(cd sdk-python && "$venv/bin/mypy" --strict --cache-dir "$venv/.mypy_cache" meridian)

step "Python SDK: live server"
port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
api_key="mk_live_$("$venv/bin/python" -c 'import secrets, string; a = string.ascii_letters + string.digits; print("".join(secrets.choice(a) for _ in range(40)))')"
export MERIDIAN_SQLITE_FILE="$tmp/meridian.sqlite"
unset DATABASE_URL
# The delivery worker runs in process (off by default under NODE_ENV=test) for the live webhook delivery test, whose
# receiver listens on 127.0.0.1: private webhook targets are allowed explicitly.
PORT="$port" HOST=127.0.0.1 MERIDIAN_API_KEY="$api_key" MERIDIAN_IMPORT_DEMO=true NODE_ENV=test MERIDIAN_WORKER=true MERIDIAN_WEBHOOK_ALLOW_PRIVATE=true \
  node --import tsx server/main.ts >"$tmp/server.log" 2>&1 &
server_pid=$!
base_url="http://127.0.0.1:$port/v1"
deadline=$((SECONDS + 120))
until curl -sf -o /dev/null "$base_url/openapi.json"; do
  if ! kill -0 "$server_pid" 2>/dev/null; then echo "server exited:" >&2; cat "$tmp/server.log" >&2; exit 1; fi
  if [ "$SECONDS" -ge "$deadline" ]; then echo "server not ready after 120 s:" >&2; cat "$tmp/server.log" >&2; exit 1; fi
  sleep 0.5
done
echo "server ready on $base_url (pid $server_pid)"

# A tenant limited to 2 requests per minute, and a key of it: tenants have no API, so the CLI makes them on the same
# database file.
cli() { NODE_ENV=test node --import tsx server/cli.ts "$@"; }
key_of() { sed -n 's/^API key (shown once, store it now): //p'; }
tiny_tenant="$(cli tenants create --name "Tiny $port-$RANDOM" --rate-limit 2 | "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["tenantId"])')"
tiny_key="$(cli keys create --tenant "$tiny_tenant" --scopes read --name "SDK tests (tiny)" | key_of)"
if [ -z "$tiny_key" ]; then echo "could not create the rate-limited tenant's key" >&2; exit 1; fi

step "Python SDK: pytest"
status=0
(cd sdk-python && MERIDIAN_BASE_URL="$base_url" MERIDIAN_API_KEY="$api_key" MERIDIAN_TINY_KEY="$tiny_key" \
  "$venv/bin/pytest" -q -p no:cacheprovider -rP tests) || status=$?
exit "$status"
