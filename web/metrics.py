"""The site's Prometheus metrics at ``/metrics``: requests by route and status, latency,
the store's commits and pool, and the platform's queues and seasons read at scrape time.

Why a protected path rather than a port of its own: `arena web` is one waitress process,
so the metrics live in that process whichever port serves them; the site's port is the one
already published, proxied and health-checked, and a second listening port would be one
more thing to bind, publish and firewall per container. ``/metrics`` answers:

* a peer address inside ``METRICS_ALLOW`` (``$ARENA_METRICS_ALLOW``: comma-separated
  networks, default ``127.0.0.1/32,::1/128``: the machine itself; empty: none), when the
  request carries no forwarding header (``Forwarded``, ``X-Forwarded-For``,
  ``X-Real-IP``): a reverse proxy on the same machine makes every visitor's request come
  from 127.0.0.1, and such a request is an outsider's;
* or any peer with ``Authorization: Bearer <METRICS_TOKEN>`` (``$ARENA_METRICS_TOKEN``,
  compared in constant time): Prometheus's ``authorization`` setting, for scrapes from
  another host or container.

Everyone else gets 403. Labels never hold user data: a request's route is its URL rule's
template (``/bots/<int:bot_id>``, never the path asked for), ``<unmatched>`` when no rule
matched; its method is one of the standard ones or ``other``.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
import os
import time
from collections.abc import Iterable
from typing import Any

from flask import Flask, Response, current_app, g, request
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Histogram, generate_latest
from prometheus_client.registry import Collector, CollectorRegistry

from arena.store.metrics import PlatformCollector, watch_store

from .database import sessions

EXTENSION = "arena.metrics"
PATH = "/metrics"
DEFAULT_ALLOW = "127.0.0.1/32,::1/128"
FORWARDING_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "<unmatched>"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


@functools.cache
def _request_metrics() -> tuple[Counter, Histogram]:
    """The request metrics of this process (one set, whatever number of apps it makes)."""
    return (
        Counter(
            "arena_http_requests",
            "Requests answered by the site, by route template, method and status code.",
            ["route", "method", "status"],
        ),
        Histogram(
            "arena_http_request_duration_seconds",
            "Time from a request's arrival in the app to its response (a stream's: until "
            "its first byte), by route template and method.",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
        ),
    )


class _Default(Collector):
    """The process's default registry (requests, the store, the process) inside the app's."""

    def collect(self) -> Iterable[Any]:
        return REGISTRY.collect()


def networks(text: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The networks of a comma-separated list; raises ValueError naming a bad entry.

    >>> [str(n) for n in networks("127.0.0.1/32, 198.51.100.0/24,")]
    ['127.0.0.1/32', '198.51.100.0/24']
    """
    found = []
    for entry in text.split(","):
        part = entry.strip()
        if not part:
            continue
        try:
            found.append(ipaddress.ip_network(part, strict=False))
        except ValueError as error:
            raise ValueError(f"ARENA_METRICS_ALLOW: {part!r} is not a network ({error})") from None
    return tuple(found)


def init_app(app: Flask) -> None:
    """Count every request, watch the app's store and serve ``/metrics``.

    Settings: ``METRICS_ALLOW`` and ``METRICS_TOKEN`` (see the module). Raises ValueError
    for a malformed ``METRICS_ALLOW``.
    """
    app.config.setdefault("METRICS_ALLOW", os.environ.get("ARENA_METRICS_ALLOW", DEFAULT_ALLOW))
    app.config.setdefault("METRICS_TOKEN", os.environ.get("ARENA_METRICS_TOKEN") or None)
    allowed = networks(str(app.config["METRICS_ALLOW"] or ""))
    factory = sessions(app)
    watch_store(factory.kw["bind"], factory)
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Default())
    registry.register(PlatformCollector(factory))
    app.extensions[EXTENSION] = (registry, allowed)
    _request_metrics()
    app.before_request(_start)
    app.after_request(_count)
    app.add_url_rule(PATH, "metrics", _serve, methods=["GET"])


def _start() -> None:
    g.metrics_started = time.perf_counter()


def _count(response: Response) -> Response:
    started = g.pop("metrics_started", None)
    if started is None:
        return response
    requests, latency = _request_metrics()
    rule = request.url_rule
    route = rule.rule if rule is not None else UNMATCHED
    method = request.method if request.method in METHODS else "other"
    requests.labels(route, method, str(response.status_code)).inc()
    latency.labels(route, method).observe(time.perf_counter() - started)
    return response


def allowed_request() -> bool:
    """Whether this request may read the metrics (see the module)."""
    token = current_app.config.get("METRICS_TOKEN")
    given = request.headers.get("Authorization", "")
    if token and given.startswith("Bearer "):
        return hmac.compare_digest(given[7:].strip().encode(), str(token).encode())
    if any(name in request.headers for name in FORWARDING_HEADERS):
        return False
    _, allowed = current_app.extensions[EXTENSION]
    return peer_allowed(request.remote_addr or "", allowed)


def peer_allowed(
    address: str, allowed: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network]
) -> bool:
    """Whether `address` is in one of the `allowed` networks; an IPv4 peer reaching a
    dual-stack socket (``::ffff:127.0.0.1``) counts as its IPv4 address.

    >>> peer_allowed("::ffff:127.0.0.1", networks("127.0.0.1/32"))
    True
    >>> peer_allowed("198.51.100.7", networks("127.0.0.1/32,::1/128")), peer_allowed("?", [])
    (False, False)
    """
    try:
        peer = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(peer, ipaddress.IPv6Address) and peer.ipv4_mapped is not None:
        peer = peer.ipv4_mapped
    return any(peer in network for network in allowed)


def _serve() -> Response:
    """The metrics in Prometheus's text format, to those allowed (403 otherwise)."""
    if not allowed_request():
        return Response(
            "the metrics are served to the allowed networks, or with the metrics token\n",
            status=403,
            mimetype="text/plain",
        )
    registry, _ = current_app.extensions[EXTENSION]
    return Response(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
