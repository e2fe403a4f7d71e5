#!/bin/sh
# Prometheus as the prometheus user, after writing the bearer token it sends to the site's
# /metrics (deploy/prometheus.yml: credentials_file) from $ARENA_METRICS_TOKEN, readable
# by that user only. Without a token the site answers the scrape 403 (web/metrics.py).
set -eu
TOKEN_FILE=/etc/prometheus/arena-metrics-token
if [ "$(id -u)" = 0 ]; then
    umask 027
    printf '%s' "${ARENA_METRICS_TOKEN:-}" > "$TOKEN_FILE"
    chown root:prometheus "$TOKEN_FILE"
    if [ -z "${ARENA_METRICS_TOKEN:-}" ]; then
        echo "warning: ARENA_METRICS_TOKEN is empty: the site will refuse the scrape (403)" >&2
    fi
    chown -R prometheus:prometheus /prometheus
    exec setpriv --reuid=prometheus --regid=prometheus --init-groups "$@"
fi
exec "$@"
