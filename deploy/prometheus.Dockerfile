# Prometheus 2.42 from Debian's package, for docker-compose.yml's `prometheus` service (no
# image registry needed beyond the base: deploy/compose.offline.yml builds it on the local
# bookworm base that deploy/base-images.sh makes). Carries our scrape configuration
# (prometheus.yml), the alert rules (prometheus-alerts.yml) and the console dashboard
# (prometheus/consoles/arena.html, served at /consoles/arena.html). Runs as Debian's
# `prometheus` user; the entry point writes the site's scrape token from
# $ARENA_METRICS_TOKEN first (docs/operations.md, "Dashboards").
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends prometheus \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /prometheus && chown prometheus:prometheus /prometheus
COPY prometheus.yml prometheus-alerts.yml /etc/prometheus/
COPY prometheus/consoles/ /etc/prometheus/consoles/
COPY prometheus/console_libraries/ /etc/prometheus/console_libraries/
COPY prometheus/entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN promtool check rules /etc/prometheus/prometheus-alerts.yml
WORKDIR /prometheus
VOLUME ["/prometheus"]
EXPOSE 9090
ENTRYPOINT ["sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["prometheus", "--config.file=/etc/prometheus/prometheus.yml", \
     "--storage.tsdb.path=/prometheus", "--storage.tsdb.retention.time=30d", \
     "--web.listen-address=0.0.0.0:9090", \
     "--web.console.templates=/etc/prometheus/consoles", \
     "--web.console.libraries=/etc/prometheus/console_libraries"]
