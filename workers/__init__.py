"""Hearts Arena workers: the Celery side of the platform and the sandbox that runs bots.

`workers.app` (the Celery app, configured by `workers.config` from the environment),
`workers.matches` / `workers.validation` / `workers.scheduling` (the tasks), heartbeats,
status, the local platform's supervisor and seed, and `arena bench season`
(`workers.bench`); docs/operations.md describes them.

Importing this package imports nothing heavy: `workers.sandbox` is usable on its own (by
the workers and by ``arena match run --sandbox``) without Celery installed.
"""
