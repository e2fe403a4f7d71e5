"""`bot_environ`: the environment variables a sandboxed bot is started with, one value for
a cold start (bubblewrap's ``--setenv``) and a warm one (the template's request).

Nothing of the worker's environment is ever passed: bubblewrap and the template both
start from an empty one. A bot gets the platform's two (`BASE_ENVIRON`: its working
folder, ``/bot``, and the C.UTF-8 locale, which Python would choose by itself) and the
``[env]`` table of the ``hearts-bot.toml`` in its files, literal strings its owner wrote
and the upload's check bounded (`arena.match.manifest.check_env`: no loader, shell,
runtime or platform variable). docs/languages.md, "What a bot gets".
"""

from __future__ import annotations

from arena.match.manifest import manifest_environ

from .kinds import AnyEnvironment

BOT_DIR = "/bot"
"""Where a bot's files are in its sandbox, and its working folder."""
BASE_ENVIRON: dict[str, str] = {"PWD": BOT_DIR, "LC_CTYPE": "C.UTF-8"}
"""What every sandboxed bot gets, whatever its kind or manifest."""


def bot_environ(env: AnyEnvironment) -> dict[str, str]:
    """The variables `env`'s bot is started with: `BASE_ENVIRON`, then its manifest's
    ``[env]`` (read from the version's files, checked when it was uploaded; a manifest
    that no longer passes the check raises ManifestError, and the bot is not started).

    A manifest cannot set ``PWD`` or ``LC_CTYPE``, so the platform's two always hold.
    """
    return {**BASE_ENVIRON, **manifest_environ(env.bot_dir)}
