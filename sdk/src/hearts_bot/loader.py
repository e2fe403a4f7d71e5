"""Loading a bot from a file (``mybot.py``) or a module (``package.module:Class``)."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from types import ModuleType

from .bot import Bot

STARTERS = {
    "random": "hearts_bot.starters.random_bot",
    "heuristic": "hearts_bot.starters.heuristic_bot",
}
"""Short names for the SDK's starter bots (``starter:random``)."""


class BotLoadError(Exception):
    """The bot could not be loaded; the message says why and what to do."""


def load_bot(spec: str) -> Bot:
    """A bot instance from `spec`.

    `spec` is a path to a ``.py`` file, ``package.module`` or ``package.module:Name``,
    or ``starter:NAME`` for a starter bot. Without ``:Name``, the module's ``bot``
    instance is used if it has one, else the one `Bot` subclass it defines.
    Raises BotLoadError.
    """
    if spec.startswith("starter:"):
        name = spec.removeprefix("starter:")
        if name not in STARTERS:
            raise BotLoadError(f"unknown starter {name!r}; known: {', '.join(sorted(STARTERS))}")
        spec = STARTERS[name]
    if spec.endswith(".py"):
        module_part, attribute = spec, ""
        module = _import_file(spec)
    else:
        module_part, _, attribute = spec.partition(":")
        is_file = module_part.endswith(".py")
        module = _import_file(module_part) if is_file else _import(module_part)
    if attribute:
        if not hasattr(module, attribute):
            raise BotLoadError(f"{module_part} has no attribute {attribute!r}")
        return _instantiate(getattr(module, attribute), f"{module_part}:{attribute}")
    candidate = getattr(module, "bot", None)
    if isinstance(candidate, Bot):
        return candidate
    classes = [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, Bot)
        and value.__module__ == module.__name__
        and not inspect.isabstract(value)
    ]
    if len(classes) != 1:
        found = ", ".join(cls.__name__ for cls in classes) or "none"
        raise BotLoadError(
            f"{module_part} must define exactly one Bot subclass that implements pass_cards "
            f"and play_card (found: {found}); or name one as {module_part}:ClassName"
        )
    return _instantiate(classes[0], f"{module_part}:{classes[0].__name__}")


def _instantiate(value: object, where: str) -> Bot:
    if isinstance(value, Bot):
        return value
    if inspect.isclass(value) and issubclass(value, Bot):
        if inspect.isabstract(value):
            missing = ", ".join(sorted(value.__abstractmethods__))
            raise BotLoadError(f"{where} does not implement {missing}")
        try:
            return value()
        except Exception as error:
            raise BotLoadError(f"{where}() raised {type(error).__name__}: {error}") from error
    raise BotLoadError(f"{where} is not a Bot subclass or instance")


def _import(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise BotLoadError(f"cannot import {name}: {error}") from error


def _import_file(given: str) -> ModuleType:
    # os.path, not pathlib: pathlib (with urllib.parse, ipaddress and fnmatch) is nothing
    # else a serving bot loads, and every sandboxed bot pays for its imports at each start.
    if not os.path.isfile(given):
        raise BotLoadError(f"no such bot file: {given}")
    path = os.path.realpath(given)
    folder = os.path.dirname(path)
    # Let the bot import helper modules that sit beside it.
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = f"hearts_bot_user_{os.path.splitext(os.path.basename(path))[0]}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise BotLoadError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        raise BotLoadError(f"importing {path} raised {type(error).__name__}: {error}") from error
    return module
