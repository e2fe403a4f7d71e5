#!/bin/sh
# redis-server as the redis user, with /data its own (a fresh named volume is root's).
set -eu
if [ "${1:-}" = "redis-server" ]; then
    shift
    case " $* " in
        *.conf*) ;;
        *) set -- --protected-mode no "$@" ;;
    esac
    set -- redis-server --dir /data "$@"
    if [ "$(id -u)" = 0 ]; then
        chown -R redis:redis /data
        exec setpriv --reuid=redis --regid=redis --init-groups "$@"
    fi
fi
exec "$@"
