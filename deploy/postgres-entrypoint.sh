#!/bin/sh
# The official postgres image's start-up, in short: as root, own the data folder and drop
# to the postgres user; on an empty folder, initdb with the superuser POSTGRES_USER and
# its POSTGRES_PASSWORD (scram over TCP, trust on the local socket inside the container),
# then create POSTGRES_DB; then run `postgres ARGS`, listening on every address unless
# ARGS say otherwise (-c listen_addresses=127.0.0.1 in the test override).
set -eu
if [ "${1:-}" = "postgres" ]; then
    shift
    if [ "$(id -u)" = 0 ]; then
        mkdir -p "$PGDATA" /var/run/postgresql
        chown -R postgres:postgres "$PGDATA" /var/run/postgresql
        chmod 700 "$PGDATA"
        exec setpriv --reuid=postgres --regid=postgres --init-groups sh "$0" postgres "$@"
    fi
    if [ ! -s "$PGDATA/PG_VERSION" ]; then
        : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
        user=${POSTGRES_USER:-postgres}
        db=${POSTGRES_DB:-$user}
        pwfile=$(mktemp)
        printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
        initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
            --auth-local=trust --auth-host=scram-sha-256 >/dev/null
        rm -f "$pwfile"
        echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
        echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
        pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /var/run/postgresql" -w start >/dev/null
        if [ "$db" != postgres ]; then
            psql -v ON_ERROR_STOP=1 -h /var/run/postgresql -U "$user" -d postgres \
                -c "CREATE DATABASE \"$db\"" >/dev/null
        fi
        pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
        echo "postgres: initialised $PGDATA (user $user, database $db)"
    fi
    exec postgres -D "$PGDATA" "$@"
fi
exec "$@"
