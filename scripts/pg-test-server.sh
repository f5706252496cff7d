#!/usr/bin/env bash
# Throwaway PostgreSQL server for tests.
#
#   eval "$(bash scripts/pg-test-server.sh start)"
#       -> exports TEST_DATABASE_URL=postgres://meridian:meridian@127.0.0.1:<port>/meridian_test
#          and MERIDIAN_PG_DIR=<dir holding the cluster, its socket and its log>
#   bash scripts/pg-test-server.sh stop      # stops the server in $MERIDIAN_PG_DIR
#                                            # (or the last one started) and removes the dir
#   bash scripts/pg-test-server.sh status    # exit 0 when the server is running
#
# Only the `export ...` lines go to stdout; all progress goes to stderr.
# If MERIDIAN_PG_DIR is set and a server recorded there is running, `start`
# reuses it. MERIDIAN_PG_KEEP=1 makes `stop` keep the directory.
# The PostgreSQL binaries are installed with apt-get when they are absent.
set -euo pipefail

TMP_BASE="${TMPDIR:-/tmp}"
STATE_FILE="${TMP_BASE%/}/meridian-pg.last"   # remembers the last dir started
MARKER=".meridian-pg-test-server"              # only dirs carrying it are ever removed
DB_USER="meridian"
DB_PASS="meridian"
DB_NAME="meridian_test"
READY_TIMEOUT=60

log() { printf 'pg-test-server: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------- binaries --
PG_BIN=""
find_pg_bin() {
  PG_BIN=""
  local d
  # pg_ctl on PATH may be a symlink (e.g. /usr/local/bin/pg_ctl ->
  # /usr/lib/postgresql/15/bin/pg_ctl): use the directory it really lives in,
  # which also holds psql and pg_isready of the same version.
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    d="$(dirname "$(readlink -f "$(command -v pg_ctl)")")"
    if has_all_tools "$d"; then
      PG_BIN="$d"
      return 0
    fi
  fi
  # Newest major version first.
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5 -V -r); do
    if has_all_tools "$d"; then
      PG_BIN="$d"
      return 0
    fi
  done
  return 1
}
has_all_tools() {
  local t
  for t in pg_ctl initdb postgres psql pg_isready; do
    [[ -x "$1/$t" ]] || return 1
  done
}

install_pg() {
  command -v apt-get >/dev/null 2>&1 || die "PostgreSQL not found and apt-get is unavailable; install PostgreSQL (initdb, pg_ctl) manually"
  [[ $EUID -eq 0 ]] || die "PostgreSQL not found; installing it needs root (apt-get install postgresql)"
  local aptlog="${TMP_BASE%/}/meridian-pg-apt.log"
  log "PostgreSQL binaries not found; installing with apt-get (log: $aptlog)"
  # Do not let the package create and start its own 'main' cluster.
  mkdir -p /etc/postgresql-common/createcluster.d
  if [[ ! -e /etc/postgresql-common/createcluster.d/meridian-no-main.conf ]]; then
    echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/meridian-no-main.conf
  fi
  if ! {
    apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold postgresql
  } </dev/null >"$aptlog" 2>&1; then
    log "apt-get failed; last lines of $aptlog:"
    tail -n 40 "$aptlog" >&2 || true
    exit 1
  fi
  log "PostgreSQL installed"
}

ensure_pg_bin() {
  if ! find_pg_bin; then
    install_pg
    find_pg_bin || die "PostgreSQL still not found after apt-get install"
  fi
  log "using PostgreSQL binaries in $PG_BIN ($("$PG_BIN/postgres" --version))"
}

# ------------------------------------------------------------ os user -------
# initdb/postgres refuse to run as root, so as root everything runs as the
# 'postgres' OS user; as another user it runs as that user.
RUN_AS=()
ensure_run_as() {
  if [[ $EUID -eq 0 ]]; then
    if ! id -u postgres >/dev/null 2>&1; then
      log "creating OS user 'postgres'"
      useradd --system --user-group --no-create-home --home-dir /var/lib/postgresql \
        --shell /bin/bash postgres
    fi
    if command -v runuser >/dev/null 2>&1; then
      RUN_AS=(runuser -u postgres --)
    else
      RUN_AS=(su_postgres)
    fi
  else
    RUN_AS=()
  fi
}
su_postgres() {
  local q; q="$(printf '%q ' "$@")"
  su -s /bin/bash postgres -c "$q"
}
as_pg() { "${RUN_AS[@]}" "$@"; }

# ----------------------------------------------------------- helpers --------
free_port() {
  python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

pg_running() { # $1 = dir
  local dir="$1"
  [[ -f "$dir/data/PG_VERSION" && -f "$dir/data/postmaster.pid" ]] || return 1
  as_pg "$PG_BIN/pg_ctl" status -D "$dir/data" >/dev/null 2>&1
}

wait_ready() { # $1 = port
  local port="$1" i
  for ((i = 0; i < READY_TIMEOUT; i++)); do
    if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -t 1 >/dev/null 2>&1; then
      return 0
    fi
    sleep 1
  done
  return 1
}

psql_admin() { # runs SQL as the superuser over the unix socket
  local dir="$1" port="$2"; shift 2
  as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir/sock" -p "$port" -U postgres -d postgres "$@"
}

setup_role_and_db() {
  local dir="$1" port="$2"
  psql_admin "$dir" "$port" <<SQL >&2
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER') THEN
    CREATE ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASS';
  ELSE
    ALTER ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASS';
  END IF;
END
\$\$;
SQL
  if [[ "$(psql_admin "$dir" "$port" -tA -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != "1" ]]; then
    psql_admin "$dir" "$port" -c "CREATE DATABASE $DB_NAME OWNER $DB_USER" >&2
  fi
}

print_exports() {
  local dir="$1" port="$2"
  printf "export TEST_DATABASE_URL='postgres://%s:%s@127.0.0.1:%s/%s'\n" "$DB_USER" "$DB_PASS" "$port" "$DB_NAME"
  printf "export MERIDIAN_PG_DIR='%s'\n" "$dir"
}

# ------------------------------------------------------------- start --------
STARTED_DIR=""   # set while a server we started is not yet fully set up
cleanup_failed_start() {
  local rc=$?
  if [[ $rc -ne 0 && -n "$STARTED_DIR" ]]; then
    log "start failed; stopping the half-started server"
    if [[ -f "$STARTED_DIR/postgres.log" ]]; then
      log "last lines of $STARTED_DIR/postgres.log:"
      tail -n 30 "$STARTED_DIR/postgres.log" >&2 || true
    fi
    as_pg "$PG_BIN/pg_ctl" stop -D "$STARTED_DIR/data" -m immediate -w -t 30 >/dev/null 2>&1 || true
  fi
  return $rc
}

cmd_start() {
  ensure_pg_bin
  ensure_run_as
  command -v python3 >/dev/null 2>&1 || die "python3 is needed to pick a free port"

  local dir="${MERIDIAN_PG_DIR:-}"
  if [[ -n "$dir" && -f "$dir/port" ]] && pg_running "$dir"; then
    local port; port="$(cat "$dir/port")"
    log "reusing running server in $dir (port $port)"
    wait_ready "$port" || die "server in $dir does not accept connections"
    setup_role_and_db "$dir" "$port"
    echo "$dir" > "$STATE_FILE"
    print_exports "$dir" "$port"
    return 0
  fi

  if [[ -z "$dir" ]]; then
    dir="$(mktemp -d "${TMP_BASE%/}/meridian-pg-XXXXXX")"
  else
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
  fi
  touch "$dir/$MARKER"
  mkdir -p "$dir/sock"
  if [[ ${#RUN_AS[@]} -gt 0 ]]; then
    chown -R postgres: "$dir"
    chmod 0755 "$dir"
    if ! as_pg test -w "$dir"; then
      die "the postgres OS user cannot write to $dir (is ${TMP_BASE} readable by others?); set TMPDIR=/tmp"
    fi
  fi
  STARTED_DIR="$dir"
  trap cleanup_failed_start EXIT

  if [[ ! -f "$dir/data/PG_VERSION" ]]; then
    log "initdb in $dir/data"
    as_pg "$PG_BIN/initdb" -D "$dir/data" -U postgres -E UTF8 --locale=C \
      --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 ||
      { tail -n 30 "$dir/initdb.log" >&2; die "initdb failed"; }
  fi

  local port="" attempt
  for attempt in 1 2 3; do
    port="$(free_port)"
    # A conf file of our own, included last, so a restart just rewrites it.
    as_pg tee "$dir/data/meridian-test.conf" >/dev/null <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/sock'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 100
CONF
    if ! grep -q "^include_if_exists = 'meridian-test.conf'" "$dir/data/postgresql.conf"; then
      echo "include_if_exists = 'meridian-test.conf'" | as_pg tee -a "$dir/data/postgresql.conf" >/dev/null
    fi
    log "starting postgres on 127.0.0.1:$port (attempt $attempt)"
    if as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -w -t 60 -l "$dir/postgres.log" start >&2; then
      break
    fi
    port=""
    log "pg_ctl start failed; last lines of $dir/postgres.log:"
    tail -n 15 "$dir/postgres.log" >&2 || true
  done
  [[ -n "$port" ]] || die "could not start postgres"
  echo "$port" > "$dir/port"

  wait_ready "$port" || die "postgres did not accept connections within ${READY_TIMEOUT}s"
  setup_role_and_db "$dir" "$port"
  echo "$dir" > "$STATE_FILE"
  STARTED_DIR=""
  log "ready: postgres://$DB_USER:***@127.0.0.1:$port/$DB_NAME (dir $dir)"
  print_exports "$dir" "$port"
}

# -------------------------------------------------------------- stop --------
resolve_dir() {
  local dir="${MERIDIAN_PG_DIR:-}"
  if [[ -z "$dir" && -f "$STATE_FILE" ]]; then
    dir="$(cat "$STATE_FILE")"
  fi
  printf '%s' "$dir"
}

cmd_stop() {
  local dir; dir="$(resolve_dir)"
  if [[ -z "$dir" || ! -d "$dir" ]]; then
    log "nothing to stop (no MERIDIAN_PG_DIR and no recorded server)"
    return 0
  fi
  if [[ -f "$dir/data/postmaster.pid" ]]; then
    find_pg_bin || die "pg_ctl not found"
    ensure_run_as
    log "stopping postgres in $dir"
    if ! as_pg "$PG_BIN/pg_ctl" stop -D "$dir/data" -m fast -w -t 60 >&2; then
      # Last resort: the postmaster's own pid, from its pid file.
      local pid; pid="$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null || true)"
      if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
        log "pg_ctl stop failed; sending SIGQUIT to postmaster pid $pid"
        kill -QUIT "$pid" 2>/dev/null || true
        local i
        for ((i = 0; i < 20; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      fi
    fi
  else
    log "no server running in $dir"
  fi
  if [[ -f "$STATE_FILE" && "$(cat "$STATE_FILE")" == "$dir" ]]; then
    rm -f "$STATE_FILE"
  fi
  if [[ "${MERIDIAN_PG_KEEP:-0}" != "1" && -f "$dir/$MARKER" ]]; then
    rm -rf -- "$dir"
    log "removed $dir"
  fi
}

cmd_status() {
  local dir; dir="$(resolve_dir)"
  [[ -n "$dir" ]] || { log "no server recorded"; return 1; }
  find_pg_bin || { log "pg_ctl not found"; return 1; }
  ensure_run_as
  if pg_running "$dir"; then
    log "running in $dir on port $(cat "$dir/port" 2>/dev/null || echo '?')"
    return 0
  fi
  log "not running ($dir)"
  return 1
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
