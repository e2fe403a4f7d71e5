# PostgreSQL from Debian's packages (15 in bookworm), for a compose stack with no image
# registry (deploy/base-images.sh builds it on the local bookworm base). Speaks the
# official image's interface as docker-compose.yml uses it: POSTGRES_USER,
# POSTGRES_PASSWORD, POSTGRES_DB, PGDATA (/var/lib/postgresql/data), PGPORT, `postgres
# ARGS` as the command, pg_isready on PATH.
ARG BASE_IMAGE=hearts-arena/bookworm:local
FROM ${BASE_IMAGE}
# (No Debian "main" cluster: the entry point makes the one in PGDATA.)
RUN mkdir -p /etc/postgresql-common/createcluster.d \
    && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/no-main.conf \
    && apt-get update \
    && apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
    && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME ["/var/lib/postgresql/data"]
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
