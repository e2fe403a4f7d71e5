#!/bin/sh
# Base images for the compose stack when no image registry answers (docs/operations.md,
# "Without a registry"): a Debian bookworm root file system made from Debian's packages
# (mmdebstrap, then `docker import`), and Redis and PostgreSQL images built on it from
# Debian's own redis-server and postgresql packages. With a registry none of this is
# needed: docker-compose.yml's defaults (python:3.11-slim-bookworm, redis, postgres) apply.
#
#   sh deploy/base-images.sh            # builds what is missing; a second run does nothing
#   ARENA_REBUILD_BASE=1 sh deploy/base-images.sh   # builds them again
#
# Images made (names nobody pulls, so never confused with the official ones):
#   hearts-arena/bookworm:local   Debian 12 with python3 (3.11), venv and headers: the
#                                 Dockerfile's BASE_IMAGE in deploy/compose.offline.yml
#   hearts-arena/redis:local      redis-server 7 from Debian, run as the redis user
#   hearts-arena/postgres:local   PostgreSQL 15 from Debian, with the official image's
#                                 POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB / PGDATA
# The compose stack's Prometheus (Debian's prometheus package, deploy/prometheus.Dockerfile)
# is built by compose itself on hearts-arena/bookworm:local (deploy/compose.offline.yml);
# by hand: docker build --network host --build-arg BASE_IMAGE=hearts-arena/bookworm:local \
#   -t hearts-arena/prometheus:latest -f deploy/prometheus.Dockerfile deploy
# Packages come from the machine's own apt sources (/etc/apt/sources.list.d/*.sources and
# sources.list), or from DEBIAN_MIRROR when set. Builds use the host's network namespace
# (--network host): no bridge, no private-range address.
set -eu
cd "$(dirname "$0")/.."

BASE=hearts-arena/bookworm:local
REDIS=hearts-arena/redis:local
POSTGRES=hearts-arena/postgres:local
PACKAGES=python3,python3-venv,python3-dev,python-is-python3,ca-certificates,tzdata

# The machine's own extra certificate authorities (a TLS-inspecting proxy's, if any) are
# trusted by the images built here: deploy/Dockerfile installs deploy/ca-certificates/*.crt.
for ca in /usr/local/share/ca-certificates/*.crt; do
    [ -f "$ca" ] && cp "$ca" deploy/ca-certificates/
done

have() { [ -z "${ARENA_REBUILD_BASE:-}" ] && docker image inspect "$1" >/dev/null 2>&1; }

if have "$BASE"; then
    echo "==> $BASE: present"
else
    command -v mmdebstrap >/dev/null || { echo "mmdebstrap is needed (apt-get install mmdebstrap)" >&2; exit 1; }
    echo "==> $BASE: Debian bookworm from Debian's packages (mmdebstrap | docker import)"
    set --
    if [ -n "${DEBIAN_MIRROR:-}" ]; then
        set -- "deb $DEBIAN_MIRROR bookworm main" "deb $DEBIAN_MIRROR bookworm-updates main"
    else
        for sources in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
            # Only Debian's own archive: other vendors' lists stay on the host.
            [ -s "$sources" ] && grep -q 'debian' "$sources" && set -- "$@" "$sources"
        done
    fi
    # minbase + apt: a root file system like the official slim images (apt, no docs).
    mmdebstrap --quiet --variant=apt --mode=root --format=tar \
        --include="$PACKAGES" \
        --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
        --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
        bookworm - "$@" \
    | docker import \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV LANG=C.UTF-8' \
        --change 'CMD ["bash"]' \
        --message 'Debian bookworm from Debian packages (deploy/base-images.sh)' \
        - "$BASE"
fi

if have "$REDIS"; then
    echo "==> $REDIS: present"
else
    echo "==> $REDIS: Debian's redis-server on $BASE"
    docker build --network host --build-arg BASE_IMAGE="$BASE" -t "$REDIS" -f deploy/redis.Dockerfile deploy
fi

if have "$POSTGRES"; then
    echo "==> $POSTGRES: present"
else
    echo "==> $POSTGRES: Debian's PostgreSQL on $BASE"
    docker build --network host --build-arg BASE_IMAGE="$BASE" -t "$POSTGRES" -f deploy/postgres.Dockerfile deploy
fi
