# Redis from Debian's package, for a compose stack with no image registry
# (deploy/base-images.sh builds it on the local bookworm base). Behaves as the official
# image does for docker-compose.yml: `redis-server ARGS` as the redis user, data in /data,
# protected mode off unless a configuration file is given (the network is the compose
# project's; the test override binds it to 127.0.0.1).
ARG BASE_IMAGE=hearts-arena/bookworm:local
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends redis-server redis-tools \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
WORKDIR /data
VOLUME ["/data"]
EXPOSE 6379
ENTRYPOINT ["sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["redis-server"]
