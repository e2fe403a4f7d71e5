"""`arena replay show`: a replay as text, trick by trick, for people and for diffs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena.engine import Card

from .replay_view import readable
from .sentences import call_value, sentence


def _pretty(text: str) -> str:
    return Card.from_str(text).pretty


def render(replay: dict[str, Any], *, pretty: bool = True, notes: bool = True) -> Iterator[str]:
    """Yield the lines of the match (a replay of either version): header, each game, hand,
    pass, trick and the result; with `notes`, each bot's note under the line of its
    decision. Raises arena.match.replay.ReplayError for a v2 replay that does not re-play."""
    replay = readable(replay)  # drawn from v1's layout, a v2 replay re-played into it
    show = _pretty if pretty else str
    noted = _note_lines if notes else _no_lines
    names = [e["name"] for e in replay["entrants"]]
    rules = replay["rules"]
    yield (
        f"Match {replay['match_id']} — rules {rules.get('name', 'custom')}, "
        f"{rules['players']} players, seed {replay['seed']}, {replay['match_format']}"
    )
    for game in replay["games"]:
        seating = game["seating"]
        who = [f"{seat}:{names[e]}" for seat, e in enumerate(seating)]
        yield ""
        yield f"Game {game['index'] + 1} — seats {', '.join(who)}"
        for hand in game["hands"]:
            yield (
                f"  Hand {hand['number'] + 1}: dealer seat {hand['dealer']}, "
                f"pass {hand['pass_direction']}"
            )
            if "call" in hand:
                call = hand["call"]
                note = f" [{call['fault']}]" if call.get("fault") else ""
                said = sentence("call", hand["dealer"], call_value(call), show)
                yield f"    {said}{note}"
                yield from noted([call])
            if "auction" in hand:
                yield from _auction_lines(hand["auction"])
                yield from noted([*hand["auction"]["bids"], hand["auction"]["naming"]])
            for given in hand["passes"]:
                note = f" [{given['fault']}]" if given.get("fault") else ""
                yield f"    {sentence('pass', given['seat'], given['cards'], show)}{note}"
                yield from noted([given])
            if hand.get("reveals"):
                shown = "  ".join(
                    f"{r['seat']}:{show(r['card'])}" + (f"!{r['fault']}" if r.get("fault") else "")
                    for r in hand["reveals"]
                )
                yield f"    face down: {shown}  → {hand['scoring_suit']} scores"
                yield from noted(hand["reveals"])
            later = hand.get("decisions", [])  # kinds v1 has no place of its own for
            for other in later:
                if other["kind"] != "moon_choice":  # the shooter's choice: after the tricks
                    yield from _other_lines(other, noted)
            for number, trick in enumerate(hand["tricks"], 1):
                plays = []
                for play in trick["plays"]:
                    mark = f"!{play['fault']}" if play.get("fault") else ""
                    if play.get("drew"):  # Domino Hearts: drawn from the stock first
                        mark += f" (drew {' '.join(show(c) for c in play['drew'])})"
                    plays.append(f"{play['seat']}:{show(play['card'])}{mark}")
                # Cancellation Hearts: -1 when nobody won it (its cards wait for the next
                # trick won, or are discarded after the last trick).
                taker = f"seat {trick['winner']}" if trick["winner"] >= 0 else "nobody (set aside)"
                if "pickup" in trick:  # Enfle: the next seat could not follow
                    up = trick["pickup"]
                    taker = (
                        f"seat {up['seat']} cannot follow and takes up {len(up['cards'])} "
                        f"card{'' if len(up['cards']) == 1 else 's'}: "
                        f"{' '.join(show(c) for c in up['cards'])}"
                    )
                elif trick["winner"] < 0 and "went_out" in hand:  # Enfle: the last, unfinished
                    taker = "unfinished"
                yield f"    trick {number:2d}: {'  '.join(plays)}  → {taker}"
                yield from noted(trick["plays"])
            for other in later:  # 004 'Shooting the moon': the shooter's choice
                if other["kind"] == "moon_choice":
                    yield from _other_lines(other, noted)
            if "kept" in hand:  # Domino Hearts: the last survivor's cards (and the stock)
                kept = hand["kept"]
                yield (
                    f"    seat {kept['seat']} keeps {len(kept['cards'])} "
                    f"card{'' if len(kept['cards']) == 1 else 's'}: "
                    f"{' '.join(show(c) for c in kept['cards'])}"
                )
            if "went_out" in hand:  # Enfle: the first out of cards wins
                out = hand["went_out"]
                yield (
                    f"    seat {out} is out of cards and wins"
                    if out is not None
                    else "    the hand reached the cap on tricks: every seat scores its cards"
                )
            for number, multi in enumerate(hand.get("multi_rounds", []), 1):
                yield from _multi_round_lines(number, multi, show)
                yield from noted(multi["plays"])
            moon = f" (seat {hand['moon']} shot the moon)" if hand.get("moon") is not None else ""
            if "lives" in hand:  # Danger Hearts
                moon += f"  lives {hand['lives']}"
            if "pot" in hand:  # a chip settlement: points, then the chips they cost
                yield (
                    f"    points {hand['penalty_points']}  chips paid {hand['points']}  "
                    f"paid in all {hand['totals']}  pot {hand['pot']}{moon}"
                )
            else:
                yield f"    points {hand['points']}  totals {hand['totals']}{moon}"
    yield ""
    result = replay["result"]
    if result["void"]:
        yield "VOID — the platform failed; this match is not scored."
        return
    for entry in sorted(result["entrants"], key=lambda e: e["rank"]):
        flags = " (disqualified)" if entry["disqualified"] else ""
        yield (
            f"  #{entry['rank']} {entry['name']}: {entry['score']} points, "
            f"{entry['faults']} faults{flags}"
        )
    for fault in replay.get("faults", []):
        yield (
            f"  fault: {names[fault['entrant']]} game {fault['game'] + 1} hand "
            f"{fault['hand'] + 1}: {fault['kind']} — {fault['detail']}"
        )
    for name, count in zip(names, replay.get("notes", []), strict=False):
        if notes and (count["kept"] or count["dropped"]):
            dropped = f", {count['dropped']} dropped (over the match's budget)"
            yield f"  notes: {name} {count['kept']} kept{dropped if count['dropped'] else ''}"


def _note_lines(records: list[dict[str, Any]]) -> Iterator[str]:
    """The notes of these decisions, each under its seat, a note's lines indented."""
    for record in records:
        if record.get("note"):
            first, *rest = record["note"].splitlines() or [""]
            yield f"      note, seat {record['seat']}: {first}"
            for line in rest:
                yield f"        {line}"


def _no_lines(records: list[dict[str, Any]]) -> Iterator[str]:
    return iter(())


def _auction_lines(auction: dict[str, Any]) -> Iterator[str]:
    """Auction Hearts: the bids in turn, then who names which suit for how many chips."""
    if auction["bids"]:
        bids = "  ".join(
            f"{b['seat']}:{'pass' if b['bid'] is None else b['bid']}"
            + (f"!{b['fault']}" if b.get("fault") else "")
            for b in auction["bids"]
        )
        yield f"    bids: {bids}"
    naming = auction["naming"]
    how = "again, without bidding" if auction["standing"] else f"for {auction['bid']} chips"
    note = f" [{naming['fault']}]" if naming.get("fault") else ""
    yield f"    seat {auction['declarer']} names {naming['suit']} to avoid, {how}{note}"


def _multi_round_lines(number: int, multi: dict[str, Any], show: Any) -> Iterator[str]:
    """003 'FOUR-PENNY HEARTS': a multi-round, its pennies side by side (each column a
    penny-round in play order, seat:card), each penny's winner underneath."""
    pennies = len(multi["winners"])
    columns: list[list[str]] = [[] for _ in range(pennies)]
    for play in multi["plays"]:
        mark = f"!{play['fault']}" if play.get("fault") else ""
        columns[play["penny"]].append(f"{play['seat']}:{show(play['card'])}{mark}")
    columns = [
        [f"penny {p}", *cells, f"→ seat {multi['winners'][p]}"] for p, cells in enumerate(columns)
    ]
    width = max(len(cell) for column in columns for cell in column) + 2
    yield f"    multi-round {number}, seat {multi['leader']} leads:"
    for row in range(max(len(column) for column in columns)):
        cells = [column[row] if row < len(column) else "" for column in columns]
        yield "      " + "".join(cell.ljust(width) for cell in cells).rstrip()


def _other_lines(other: dict[str, Any], noted: Any) -> Iterator[str]:
    """A decision v1 files under `decisions`: its sentence (its kind's room's words,
    `arena.match.sentences`)."""
    note = f" [{other['fault']}]" if other.get("fault") else ""
    # Cards in these sentences are named as the rules name them (QS), as they always were
    # in the text; the viewer draws the same sentence with suit symbols.
    yield f"    {sentence(other['kind'], other['seat'], other.get('value'))}{note}"
    yield from noted([other])
