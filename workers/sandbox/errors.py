"""The sandbox's own errors (a bot's misbehaviour is not one of them: see `ExitReason`)."""

from __future__ import annotations


class SandboxError(Exception):
    """Something went wrong on our side while starting or stopping a sandbox."""


class SandboxUnavailableError(SandboxError):
    """This machine cannot run untrusted code safely; the message names what is missing."""


class EnvironmentBuildError(SandboxError):
    """A bot version's environment could not be built (bad upload or requirements)."""


class PackageIndexUnavailableError(EnvironmentBuildError):
    """The package index did not answer while a version's requirements were installed.

    The platform's trouble, not the bot's: the version waits and is validated again
    (`arena.store.dispatch.defer_version`), instead of being rejected for our outage.
    """
