"""The ``hearts-bot`` command: new, serve, play, check, replay.

``play``, ``check`` and ``replay`` run the platform's own ``arena`` command (its engine,
its match runner, its upload checks), so a bot is tested locally exactly as it will be
played; the SDK itself never imports the platform.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys

from .bot import Bot
from .loader import BotLoadError, load_bot
from .server import DEFAULT_ADDRESS, AddressError, sdk_version, serve

ARENA_ENV = "HEARTS_ARENA"
"""Environment variable naming the ``arena`` executable (default: ``arena`` on PATH)."""
HOUSE_PREFIX = "house:"
DEFAULT_OPPONENTS = "heuristic"
DEFAULT_PLAYERS = 4


class CommandError(Exception):
    """A user error the command reports in one line (exit status 2)."""


# -- new -------------------------------------------------------------------------------


def bot_names(name: str) -> tuple[str, str]:
    """The file name and class name for `name` (``my-bot`` -> ``my_bot.py``, ``MyBot``).

    >>> bot_names("cautious")
    ('cautious.py', 'CautiousBot')
    >>> bot_names("MyBot.py")
    ('my_bot.py', 'MyBot')
    """
    stem = name.removesuffix(".py")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", stem):
        raise CommandError(
            f"bot name {name!r} must start with a letter and use letters, digits, - or _"
        )
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", stem).replace("-", "_").lower()
    camel = "".join(part[:1].upper() + part[1:] for part in snake.split("_") if part)
    if not camel.endswith("Bot"):
        camel += "Bot"
    return f"{snake}.py", camel


def command_new(args: argparse.Namespace) -> int:
    file_name, class_name = bot_names(args.name)
    from pathlib import Path  # here, not at the top: serving never needs it

    path = Path(args.dir) / file_name
    if path.exists() and not args.force:
        raise CommandError(f"{path} already exists (use --force to overwrite it)")
    from importlib import resources  # only here: it imports zipfile, which serving never needs

    template = resources.files("hearts_bot").joinpath("templates/bot.py.tmpl").read_text()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(template.format(class_name=class_name, file_name=file_name))
    print(f"wrote {path} ({class_name}); next: hearts-bot play {path} --vs random,heuristic")
    return 0


# -- serve -----------------------------------------------------------------------------


def command_serve(args: argparse.Namespace) -> int:
    bot = _load(args.bot)
    try:
        serve(bot, args.address)
    except AddressError as error:
        raise CommandError(str(error)) from None
    return 0


# -- play, check and replay (through the arena command) --------------------------------


def opponent_spec(entry: str) -> str:
    """How the arena names an opponent: a house bot's name becomes ``house:NAME``;
    a file (``other.py``), a module (``pkg.mod:Cls``) or ``house:NAME`` stays as it is.

    >>> opponent_spec("random"), opponent_spec("house:heuristic"), opponent_spec("me.py")
    ('house:random', 'house:heuristic', 'me.py')
    """
    entry = entry.strip()
    if not entry:
        raise CommandError("an empty opponent in --vs")
    if ":" in entry or entry.endswith(".py") or os.sep in entry:
        return entry
    if not re.fullmatch(r"[A-Za-z0-9_-]+", entry):
        raise CommandError(f"opponent {entry!r} is not a house bot name, a .py file or pkg.mod:Cls")
    return HOUSE_PREFIX + entry


def match_command(
    bot: str | None,
    *,
    vs: str,
    players: int,
    rules: str,
    hands: int | None,
    seed: int | None,
    sandbox: bool = False,
    out: str | None = None,
    command: str | None = None,
) -> list[str]:
    """The ``arena match run`` arguments for ``hearts-bot play`` (without the executable).

    The opponents in `vs` are repeated in turn to fill the other ``players - 1`` seats;
    the bot sits in seat 0. Your own bot runs as a plain local process unless `sandbox`
    (the platform always sandboxes uploads). With `command` instead of `bot`, a bot in
    any language: that command is run here (``--address unix:PATH`` appended), never
    sandboxed.

    >>> match_command("me.py", vs="random,heuristic", players=4, rules="standard",
    ...               hands=5, seed=7)  # doctest: +NORMALIZE_WHITESPACE
    ['match', 'run', '--rules', 'standard', '--bot', 'me.py', '--bot', 'house:random',
     '--bot', 'house:heuristic', '--bot', 'house:random', '--seed', '7', '--hands', '5',
     '--no-sandbox']
    >>> match_command(None, command="node dist/bot.js", vs="heuristic", players=4,
    ...               rules="standard", hands=None, seed=None)  # doctest: +NORMALIZE_WHITESPACE
    ['match', 'run', '--rules', 'standard', '--bot', 'command:node dist/bot.js',
     '--bot', 'house:heuristic', '--bot', 'house:heuristic', '--bot', 'house:heuristic',
     '--no-sandbox']
    """
    if (bot is None) == (command is None):
        raise CommandError("give a bot file or --command, one of them")
    if command is not None:
        if sandbox:
            raise CommandError(
                "--command runs your own program here, never in the sandbox (the platform "
                "sandboxes it once uploaded): drop --sandbox"
            )
        if not command.strip():
            raise CommandError("--command is empty: give the command that serves your bot")
    opponents = [opponent_spec(entry) for entry in vs.split(",")]
    if players < 2:  # 2 for Domino Hearts only; the arena refuses it for other rules
        raise CommandError(f"--players must be at least 2, not {players}")
    if len(opponents) > players - 1:
        raise CommandError(f"--vs names {len(opponents)} opponents for {players - 1} other seats")
    first = f"command:{command}" if command is not None else (bot or "")
    command_line = ["match", "run", "--rules", rules, "--bot", first]
    for seat in range(players - 1):
        command_line += ["--bot", opponents[seat % len(opponents)]]
    if seed is not None:
        command_line += ["--seed", str(seed)]
    if hands is not None:
        command_line += ["--hands", str(hands)]
    if out is not None:
        command_line += ["--out", out]
    command_line.append("--sandbox" if sandbox else "--no-sandbox")
    return command_line


def check_command(
    bot: str | None,
    *,
    sandbox: bool = False,
    command: str | None = None,
    rules: str | None = None,
) -> list[str]:
    """The ``arena bot check`` arguments for ``hearts-bot check``: a Python bot, or with
    `command` a bot in any language (run as a local process, never sandboxed).

    >>> check_command(None, command="./bot", rules="omnibus")
    ['bot', 'check', '--command', './bot', '--rules', 'omnibus', '--no-sandbox']
    """
    if (bot is None) == (command is None):
        raise CommandError("give a bot file or --command, one of them")
    if command is not None and sandbox:
        raise CommandError(
            "--command runs your own program here, never in the sandbox (the platform "
            "sandboxes it once uploaded): drop --sandbox"
        )
    arguments = ["bot", "check", *(["--command", command] if command else [bot or ""])]
    if rules is not None:
        arguments += ["--rules", rules]
    return [*arguments, "--sandbox" if sandbox else "--no-sandbox"]


def replay_command(
    replay: str,
    bot: str,
    *,
    seat: int,
    decisions: list[int],
    every: bool,
    game: int = 1,
    request: bool = False,
    sandbox: bool = False,
) -> list[str]:
    """The ``arena replay ask`` arguments for ``hearts-bot replay`` (without the executable).

    >>> replay_command("m.json.gz", "me.py", seat=0, decisions=[12], every=False)
    ... # doctest: +NORMALIZE_WHITESPACE
    ['replay', 'ask', 'm.json.gz', 'me.py', '--seat', '0', '--game', '1',
     '--decision', '12', '--no-sandbox']
    """
    if every == bool(decisions):
        raise CommandError("give --decision K (one or more) or --all, not both")
    command = ["replay", "ask", replay, bot, "--seat", str(seat), "--game", str(game)]
    for number in decisions:
        command += ["--decision", str(number)]
    if every:
        command.append("--all")
    if request:
        command.append("--request")
    command.append("--sandbox" if sandbox else "--no-sandbox")
    return command


def find_arena(explicit: str | None = None) -> str:
    """The arena executable: `explicit`, $HEARTS_ARENA, or ``arena`` on PATH.

    Raises CommandError, saying how to install it, when there is none.
    """
    candidate = explicit or os.environ.get(ARENA_ENV) or "arena"
    import shutil  # here, not at the top: serving never needs it

    found = shutil.which(candidate)
    if found is None:
        raise CommandError(
            f"the `{candidate}` command was not found: `hearts-bot play`, `check` and `replay` "
            "run the platform's own engine through it. Install the platform's command-line "
            "tool (from a checkout of Hearts Arena: pip install ./sdk .), or point "
            f"${ARENA_ENV} or --arena at it."
        )
    return found


def _run_arena(arena: str, arguments: list[str]) -> int:
    command = [arena, *arguments]
    print(f"hearts-bot: running {shlex.join(['arena', *arguments])}", file=sys.stderr, flush=True)
    try:
        # The arena draws the progress bar and the score table on this terminal.
        return subprocess.run(command, check=False).returncode
    except KeyboardInterrupt:
        return 130


def _check_bot_argument(bot: str) -> None:
    if bot.endswith(".py") and not os.path.isfile(bot):
        raise CommandError(f"no such bot file: {bot}")
    _load(bot)  # fail fast, with the bot's own error, before starting a match


def command_play(args: argparse.Namespace) -> int:
    arguments = match_command(
        args.bot,
        vs=args.vs,
        players=args.players,
        rules=args.rules,
        hands=args.hands,
        seed=args.seed,
        sandbox=args.sandbox,
        out=args.out,
        command=args.command,
    )
    arena = find_arena(args.arena)
    if args.bot is not None:
        _check_bot_argument(args.bot)
    return _run_arena(arena, arguments)


def command_check(args: argparse.Namespace) -> int:
    arguments = check_command(
        args.bot, sandbox=args.sandbox, command=args.command, rules=args.rules
    )
    arena = find_arena(args.arena)
    if args.bot is not None:
        _check_bot_argument(args.bot)
    return _run_arena(arena, arguments)


def command_replay(args: argparse.Namespace) -> int:
    arguments = replay_command(
        args.replay,
        args.bot,
        seat=args.seat,
        decisions=args.decision or [],
        every=args.all,
        game=args.game,
        request=args.request,
        sandbox=args.sandbox,
    )
    if not os.path.isfile(args.replay):
        raise CommandError(f"no such replay file: {args.replay}")
    arena = find_arena(args.arena)
    _check_bot_argument(args.bot)
    return _run_arena(arena, arguments)


def _load(spec: str) -> Bot:
    try:
        return load_bot(spec)
    except BotLoadError as error:
        raise CommandError(str(error)) from None


# -- main ------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hearts-bot", description="Write, try and check a Hearts Arena bot."
    )
    parser.add_argument("--version", action="version", version=sdk_version())
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    new = commands.add_parser("new", help="write a starter bot file to edit")
    new.add_argument("name", help="the bot's name, e.g. cautious (writes cautious.py)")
    new.add_argument("--dir", default=".", help="where to write it (default: here)")
    new.add_argument("--force", action="store_true", help="overwrite an existing file")
    new.set_defaults(func=command_new)

    bot_help = "a bot file (mybot.py), a module (pkg.mod:Class) or starter:random|heuristic"
    serve_ = commands.add_parser("serve", help="serve a bot over gRPC (as the arena does)")
    serve_.add_argument("bot", help=bot_help)
    serve_.add_argument(
        "--address", default=DEFAULT_ADDRESS, help="unix:/path or host:port (default: %(default)s)"
    )
    serve_.set_defaults(func=command_serve)

    sandbox_help = (
        "run your bot inside the platform's sandbox (needs bubblewrap); by default it runs "
        "as a plain local process, which is fine for your own code on your own machine"
    )
    command_help = (
        "a bot in any language: the command that serves it, e.g. './bot' or "
        "'node dist/bot.js' (--address unix:PATH is appended; run here, never sandboxed)"
    )
    play = commands.add_parser(
        "play",
        help="play local matches against house bots",
        description="Play a local match of your bot against house bots (or other bots), "
        "with the platform's engine and match runner. A bot in any language: --command "
        "'./bot' (docs/languages.md).",
    )
    play.add_argument("bot", nargs="?", help=bot_help + " (or give --command)")
    play.add_argument("--command", help=command_help)
    play.add_argument(
        "--vs",
        default=DEFAULT_OPPONENTS,
        help="comma-separated opponents, repeated to fill the table: house bot names "
        "(random, heuristic, ...), other bot files or pkg.mod:Class (default: %(default)s)",
    )
    play.add_argument("--hands", type=int, help="hands to play (default: a full match)")
    play.add_argument("--seed", type=int, help="the deal's seed, for repeatable matches")
    play.add_argument("--rules", default="standard", help="rules preset (default: %(default)s)")
    play.add_argument(
        "--players",
        type=int,
        default=DEFAULT_PLAYERS,
        help="seats at the table; must match the rules (default: %(default)s)",
    )
    play.add_argument(
        "--out",
        help="write the match's replay here (.json or .json.gz), to verify it, view it "
        "(arena replay view) or re-ask its decisions",
    )
    play.add_argument("--arena", help=f"the arena executable (default: ${ARENA_ENV} or arena)")
    play.add_argument("--sandbox", action="store_true", help=sandbox_help)
    play.set_defaults(func=command_play)

    check = commands.add_parser(
        "check",
        help="run the platform's upload checks on a bot",
        description="Run the checks the platform runs on an upload: the bot starts, "
        "refuses malformed and out-of-order requests with the protocol's status codes, and "
        "plays a short match of the rules against house bots, every decision on time. "
        "A bot in any language: --command './bot' (docs/languages.md).",
    )
    check.add_argument("bot", nargs="?", help=bot_help + " (or give --command)")
    check.add_argument("--command", help=command_help)
    check.add_argument("--rules", help="rules preset (default: standard)")
    check.add_argument("--arena", help=f"the arena executable (default: ${ARENA_ENV} or arena)")
    check.add_argument("--sandbox", action="store_true", help=sandbox_help)
    check.set_defaults(func=command_check)

    replay = commands.add_parser(
        "replay",
        help="ask your bot a recorded decision of a replay again, beside the recorded answer",
        description="Rebuild the exact request of a recorded decision from a replay (a .json "
        "or .json.gz file, yours or downloaded from the site), send it to your bot over the "
        "real protocol, and print the bot's answer beside the recorded one. --all asks every "
        "decision of the seat and lists where the answers differ. Exit status: 0 all the "
        "same, 1 some differ, 2 an error.",
    )
    replay.add_argument("replay", help="the replay file (.json or .json.gz)")
    replay.add_argument("bot", help=bot_help)
    replay.add_argument("--seat", type=int, required=True, help="the seat to ask (from 0)")
    replay.add_argument(
        "--decision",
        type=int,
        action="append",
        metavar="K",
        help="the seat's K-th decision in its game, from 1 (repeatable)",
    )
    replay.add_argument("--all", action="store_true", help="every decision of the seat")
    replay.add_argument(
        "--game", type=int, default=1, help="the game of a duplicate set (default: %(default)s)"
    )
    replay.add_argument(
        "--request", action="store_true", help="also print each query sent (protobuf text)"
    )
    replay.add_argument("--arena", help=f"the arena executable (default: ${ARENA_ENV} or arena)")
    replay.add_argument("--sandbox", action="store_true", help=sandbox_help)
    replay.set_defaults(func=command_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``hearts-bot`` with `argv`; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
    except CommandError as error:
        print(f"hearts-bot: {error}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
