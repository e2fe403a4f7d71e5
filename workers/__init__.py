"""Hearts Arena workers: the Celery side of the platform and the sandbox that runs bots.

Importing this package imports nothing heavy: `workers.sandbox` is usable on its own (by
the workers and by ``arena match run --sandbox``) without Celery installed.
"""
