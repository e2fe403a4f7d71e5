"""What the templates share: card and time filters, and the signed-in user.

Cards are drawn as text with a coloured Unicode suit (♣ ♦ ♠ ♥), with a spoken name for
screen readers, so they stay legible at any size and need no images.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from flask import Flask, g
from markupsafe import Markup, escape

SUITS: Final = {
    "C": ("♣", "clubs"),
    "D": ("♦", "diamonds"),
    "S": ("♠", "spades"),
    "H": ("♥", "hearts"),
}
RANKS: Final = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}


JOKERS = ("JK1", "JK2", "JK3")  # 004 'Joker Hearts': rules may add up to three


def card_name(code: str) -> str:
    """The spoken name of a card: `QS` → `queen of spades`, `JK1` → `joker 1`."""
    if code in JOKERS:
        return f"joker {code[2]}"
    rank, suit = code[:1], code[1:2]
    if rank not in RANKS or suit not in SUITS:
        return code
    return f"{RANKS[rank]} of {SUITS[suit][1]}"


def card_html(code: str) -> Markup:
    """A card as a small labelled element: rank and coloured suit (a joker: 🃏 and its
    number)."""
    if code in JOKERS:
        return Markup(
            '<span class="card joker" role="img" aria-label="{name}" title="{name}">'
            '<span class="pip" aria-hidden="true">🃏</span>{n}</span>'
        ).format(name=card_name(code), n=code[2])
    rank, suit = code[:1], code[1:2]
    if rank not in RANKS or suit not in SUITS:
        return Markup('<span class="card">{}</span>').format(code)
    shown = "10" if rank == "T" else rank
    return Markup(
        '<span class="card suit-{s}" role="img" aria-label="{name}" title="{name}">'
        '{rank}<span class="pip" aria-hidden="true">{pip}</span></span>'
    ).format(s=suit.lower(), name=card_name(code), rank=shown, pip=SUITS[suit][0])


def cards_html(codes: list[str]) -> Markup:
    """Several cards in a row."""
    return Markup(" ").join(card_html(code) for code in codes)


def when(value: datetime | None) -> str:
    """A timestamp for people: `2024-05-01 12:00 UTC` (blank for None)."""
    if value is None:
        return "—"
    return value.strftime("%Y-%m-%d %H:%M UTC")


def number(value: float | None, digits: int = 1) -> str:
    """A figure with `digits` decimals, or a dash."""
    if value is None:
        return "—"
    return f"{value:,.{digits}f}"


def _context() -> dict[str, Any]:
    return {"user": g.get("user")}


def init_app(app: Flask) -> None:
    """Register the filters and the context."""
    app.jinja_env.filters.update(
        card=card_html, cards=cards_html, card_name=card_name, when=when, number=number
    )
    app.jinja_env.globals["escape"] = escape
    app.context_processor(_context)
