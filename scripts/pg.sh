#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, in a directory of its own:
#   scripts/pg.sh start DIR   initdb + start on a free 127.0.0.1 port, socket in DIR; writes
#                             DIR/env with BULWARK_TEST_PG_HOST and BULWARK_TEST_PG_PORT
#   scripts/pg.sh stop DIR    stop it (the caller removes DIR)
# Trust authentication on loopback only; fsync off because the data is thrown away.
# PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
set -euo pipefail
cmd=${1:?usage: pg.sh start|stop DIR}
dir=${2:?usage: pg.sh start|stop DIR}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "pg.sh: PostgreSQL server binaries not found (scripts/deps.sh test installs them)" >&2
  exit 1
fi

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    su postgres -s /bin/sh -c "$*"
  else
    sh -c "$*"
  fi
}

free_port() {
  python3 - <<'EOF'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
EOF
}

case "$cmd" in
start)
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  as_owner "'$bindir/initdb' -D '$dir/data' -A trust -U postgres -E UTF8 --no-locale >'$dir/initdb.log' 2>&1" || {
    cat "$dir/initdb.log" >&2; exit 1; }
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "'$bindir/pg_ctl' -D '$dir/data' -l '$dir/log' -w -t 60 \
        -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off \
        -c synchronous_commit=off -c full_page_writes=off -c max_connections=200\" start" >/dev/null
    then
      printf 'BULWARK_TEST_PG_HOST=127.0.0.1\nBULWARK_TEST_PG_PORT=%s\n' "$port" >"$dir/env"
      chmod a+r "$dir/env"
      echo "postgresql on 127.0.0.1:$port"
      exit 0
    fi
    echo "pg.sh: start on port $port failed (attempt $attempt)" >&2
  done
  cat "$dir/log" >&2 || true
  exit 1
  ;;
stop)
  [ -d "$dir/data" ] || exit 0
  as_owner "'$bindir/pg_ctl' -D '$dir/data' -m fast -w stop" >/dev/null
  ;;
*)
  echo "usage: pg.sh start|stop DIR" >&2
  exit 2
  ;;
esac
