#!/usr/bin/env bash
# Run schemathesis (property-based API tests) against a live Meridian server.
#
#   bash scripts/schemathesis.sh [extra `st run` args...]
#   (st runs inside a temp dir: give paths in extra args as absolute paths)
#
# - creates/reuses the virtualenv .venv-schemathesis (or $SCHEMATHESIS_VENV)
#   with a pinned schemathesis;
# - starts `node --import tsx server/main.ts` on a free 127.0.0.1 port with a
#   fresh temp SQLite file, the demo import on, a generated admin API key and a
#   rate limit and failed-auth limit of 1,000,000/min (both have their own
#   contract tests; at the defaults most generated cases would only see 429s);
# - runs `st run generated/openapi.yaml` (the bundled contract) against it, skipping the operationIds listed
#   in test/schemathesis-exclude.txt; then once more over the console's /auth/* paths (at the server root) with a
#   signed-in owner's session cookie and the same-origin Origin header;
# - stops the server by its pid and exits with schemathesis' exit code.
#
# Env knobs: SCHEMATHESIS_ONLY (`api` or `auth`: one of the two runs; default both), SCHEMATHESIS_MAX_EXAMPLES (default 50), SCHEMATHESIS_SEED
# (default 20240601), SCHEMATHESIS_WORKERS (default 1), SCHEMATHESIS_VENV,
# SCHEMATHESIS_READY_TIMEOUT (seconds, default 120).
set -euo pipefail

ST_VERSION="4.32.5"   # pinned; bump deliberately
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${SCHEMATHESIS_VENV:-$ROOT/.venv-schemathesis}"
SPEC="$ROOT/generated/openapi.yaml"   # the contract bundled by npm run generate
EXCLUDE_FILE="$ROOT/test/schemathesis-exclude.txt"
MAX_EXAMPLES="${SCHEMATHESIS_MAX_EXAMPLES:-50}"
SEED="${SCHEMATHESIS_SEED:-20240601}"
# One worker: with two threads, hypothesis' lambda descriptions run ast.parse concurrently, and CPython 3.11
# sometimes fails that with "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905),
# reported by schemathesis as a runtime error of whichever operation it was generating (docs/toolchain.md).
WORKERS="${SCHEMATHESIS_WORKERS:-1}"
READY_TIMEOUT="${SCHEMATHESIS_READY_TIMEOUT:-120}"

log() { printf 'schemathesis.sh: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

cd "$ROOT"
command -v python3 >/dev/null 2>&1 || die "python3 is required"
command -v node >/dev/null 2>&1 || die "node is required"
[[ -f "$SPEC" ]] || die "spec not found: $SPEC"

# ------------------------------------------------------------ virtualenv ----
installed_version() {
  "$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null || true
}

make_venv() {
  local out
  if out="$(python3 -m venv --clear "$VENV" 2>&1)"; then
    return 0
  fi
  log "python3 -m venv failed: $out"
  # Debian's system python ships venv/ensurepip separately.
  if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    log "installing python3-venv with apt-get"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv; } \
      </dev/null >/tmp/meridian-python3-venv-apt.log 2>&1 ||
      { tail -n 30 /tmp/meridian-python3-venv-apt.log >&2; die "apt-get install python3-venv failed"; }
    python3 -m venv --clear "$VENV" >&2 || die "python3 -m venv still fails"
  else
    die "cannot create a virtualenv; install python3-venv"
  fi
}

if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
  log "creating virtualenv $VENV"
  make_venv
fi
if [[ "$(installed_version)" != "$ST_VERSION" || ! -x "$VENV/bin/st" ]]; then
  log "installing schemathesis==$ST_VERSION into $VENV"
  pip_log="$(mktemp "${TMPDIR:-/tmp}/meridian-st-pip-XXXXXX.log")"
  if ! "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
      "schemathesis==$ST_VERSION" </dev/null >"$pip_log" 2>&1; then
    tail -n 30 "$pip_log" >&2
    die "pip install schemathesis==$ST_VERSION failed"
  fi
  rm -f "$pip_log"
fi
log "$("$VENV/bin/st" --version)"

# ------------------------------------------------------------ exclusions ----
EXCLUDE_ARGS=()
if [[ -f "$EXCLUDE_FILE" ]]; then
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line%%#*}"                       # strip comments
    line="${line//[[:space:]]/}"             # and whitespace
    [[ -z "$line" ]] && continue
    [[ "$line" =~ ^[A-Za-z0-9_.-]+$ ]] || die "bad operationId '$line' in $EXCLUDE_FILE"
    EXCLUDE_ARGS+=(--exclude-operation-id "$line")
  done <"$EXCLUDE_FILE"
fi
log "excluding $(( ${#EXCLUDE_ARGS[@]} / 2 )) operation(s) listed in ${EXCLUDE_FILE#"$ROOT"/}"

# ---------------------------------------------------------------- server ----
PORT="$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
if [[ -z "${MERIDIAN_API_KEY:-}" ]]; then
  MERIDIAN_API_KEY="$(python3 -c 'import secrets, string
a = string.ascii_letters + string.digits
print("mk_live_" + "".join(secrets.choice(a) for _ in range(40)))')"
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/meridian-st-XXXXXX")"
SERVER_LOG="$WORK/server.log"
SERVER_PID=""

ST_PID=""
# Stops a process this script started: SIGTERM, then up to $2 × 0.2 s for it to exit, then SIGKILL; reaps it.
stop_pid() {
  local pid="$1" tries="$2" name="$3" i
  if [[ -z "$pid" ]] || ! kill -0 "$pid" 2>/dev/null; then return 0; fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < tries; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name pid $pid did not stop on SIGTERM; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}
stop_st() {
  stop_pid "$ST_PID" 25 schemathesis
  ST_PID=""
}
stop_server() {
  stop_pid "$SERVER_PID" 50 server
  SERVER_PID=""
}
cleanup() {
  local rc=$?
  stop_st
  stop_server
  if [[ $rc -ne 0 && -f "$SERVER_LOG" ]]; then
    log "last lines of the server log ($SERVER_LOG):"
    tail -n 40 "$SERVER_LOG" >&2 || true
  fi
  if [[ "${SCHEMATHESIS_KEEP_TMP:-0}" != "1" ]]; then
    rm -rf -- "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Private webhook targets are allowed explicitly, as in every test: the URLs the fuzzer registers are accepted
# without a DNS lookup (none would resolve here).
log "starting server on 127.0.0.1:$PORT (SQLite $WORK/meridian.sqlite, log $SERVER_LOG)"
env -u DATABASE_URL \
  PORT="$PORT" \
  MERIDIAN_SQLITE_FILE="$WORK/meridian.sqlite" \
  MERIDIAN_API_KEY="$MERIDIAN_API_KEY" \
  MERIDIAN_IMPORT_DEMO=true \
  MERIDIAN_RATE_LIMIT="${MERIDIAN_RATE_LIMIT:-1000000}" \
  MERIDIAN_AUTH_FAILURE_LIMIT="${MERIDIAN_AUTH_FAILURE_LIMIT:-1000000}" \
  MERIDIAN_WEBHOOK_ALLOW_PRIVATE=true \
  NODE_ENV=test \
  node --import tsx server/main.ts </dev/null >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!

ready=0
deadline=$((SECONDS + READY_TIMEOUT))
while ((SECONDS < deadline)); do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    die "server exited before becoming ready"
  fi
  if python3 - "$PORT" <<'PY' 2>/dev/null; then
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/v1/openapi.json", timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
PY
    ready=1
    break
  fi
  sleep 1
done
((ready)) || die "server not ready after ${READY_TIMEOUT}s (GET /v1/openapi.json)"
log "server ready (pid $SERVER_PID)"

# ----------------------------------------------------------- schemathesis ----
ST_ARGS=(
  --config-file "$ROOT/test/schemathesis.toml"
  run "$SPEC"
  --url "http://127.0.0.1:$PORT/v1"
  -H "Authorization: Bearer $MERIDIAN_API_KEY"
  --exclude-path-regex '^/auth/'
  --max-examples "$MAX_EXAMPLES"
  --seed "$SEED"
  --workers "$WORKERS"
  --generation-database none
  "${EXCLUDE_ARGS[@]}"
  "$@"
)
log "running: st run generated/openapi.yaml --url http://127.0.0.1:$PORT/v1 --max-examples $MAX_EXAMPLES --seed $SEED --workers $WORKERS (+$(( ${#EXCLUDE_ARGS[@]} / 2 )) exclusions)"
# Run from the temp dir so schemathesis/hypothesis caches (.schemathesis/,
# .hypothesis/) do not land in the work tree. Paths in extra args must
# therefore be absolute.
# st runs in the background and is waited for, so a SIGINT/SIGTERM to this
# script is handled at once (the EXIT trap then stops st and the server).
ONLY="${SCHEMATHESIS_ONLY:-}"
st_rc=0
if [[ "$ONLY" != auth ]]; then
  set +e
  (cd "$WORK" && exec "$VENV/bin/st" "${ST_ARGS[@]}") </dev/null &
  ST_PID=$!
  wait "$ST_PID"
  st_rc=$?
  ST_PID=""
  set -e
  log "schemathesis exit code (/v1): $st_rc"
fi

[[ "$ONLY" == api ]] && exit "$st_rc"

# ------------------------------------------------ console sign-in (/auth) ----
# The console's /auth/* operations sit at the server root (their own `servers`) and read a session cookie:
# a second run against the root, with a signed-in owner's cookie (set up through the CLI's setup link and
# POST /auth/setup, as a person would) and the same-origin Origin header the cross-site check asks for.
ORIGIN="http://127.0.0.1:$PORT"
# By id, not name: the /v1 run's PATCH /tenant may have renamed the demo tenant.
TENANT_ID="$(sed -n '/created the demo tenant /{s/.*created the demo tenant \([0-9a-f-]*\).*/\1/p;q;}' "$SERVER_LOG")"
[[ -n "$TENANT_ID" ]] || die "the server log names no demo tenant"
link="$(env -u DATABASE_URL MERIDIAN_SQLITE_FILE="$WORK/meridian.sqlite" NODE_ENV=test \
  node --import tsx server/cli.ts users create --tenant "$TENANT_ID" \
  --email schemathesis@example.com --role owner </dev/null | sed -n 's/.*#token=//p')"
[[ -n "$link" ]] || die "users create printed no setup link"
COOKIE="$(python3 - "$ORIGIN" "$link" <<'PY'
import json, sys, urllib.request
origin, token = sys.argv[1], sys.argv[2]
body = json.dumps({"token": token, "password": "schemathesis fuzzes the console sign-in"}).encode()
req = urllib.request.Request(origin + "/auth/setup", data=body, method="POST",
                             headers={"content-type": "application/json", "origin": origin})
with urllib.request.urlopen(req, timeout=10) as r:
    print(r.headers["set-cookie"].split(";")[0])
PY
)"
[[ "$COOKIE" == __Host-meridian_session=* ]] || die "POST /auth/setup set no session cookie"
# The cookie goes through the spec's `consoleSession` security scheme (not a fixed header), so that schemathesis'
# checks of requests without it can leave it out.
AUTH_CONFIG="$WORK/schemathesis-auth.toml"
{ cat "$ROOT/test/schemathesis.toml"; printf '\n[auth.openapi.consoleSession]\napi_key = "%s"\n' "${COOKIE#*=}"; } >"$AUTH_CONFIG"
AUTH_ARGS=(
  --config-file "$AUTH_CONFIG"
  run "$SPEC"
  --url "$ORIGIN"
  -H "Origin: $ORIGIN"
  --include-path-regex '^/auth/'
  --max-examples "$MAX_EXAMPLES"
  --seed "$SEED"
  --workers "$WORKERS"
  --generation-database none
)
# Two passes: the operations that end sessions (sign-out, sign out everywhere, ending one) last, so that the
# others run signed in.
ENDING=(--include-operation-id signOut --include-operation-id signOutEverywhere --include-operation-id revokeConsoleSession)
KEEPING=(--exclude-operation-id signOut --exclude-operation-id signOutEverywhere --exclude-operation-id revokeConsoleSession)
auth_rc=0
for pass in KEEPING ENDING; do
  if [[ "$pass" == KEEPING ]]; then which=("${KEEPING[@]}"); else which=("${ENDING[@]}"); fi
  log "running: st run generated/openapi.yaml --url $ORIGIN --include-path-regex '^/auth/' (console sign-in, $pass)"
  set +e
  (cd "$WORK" && exec "$VENV/bin/st" "${AUTH_ARGS[@]}" "${which[@]}" "$@") </dev/null &
  ST_PID=$!
  wait "$ST_PID"
  rc=$?
  ST_PID=""
  set -e
  log "schemathesis exit code (/auth, $pass): $rc"
  ((rc == 0)) || auth_rc=$rc
done
exit $((st_rc != 0 ? st_rc : auth_rc))
