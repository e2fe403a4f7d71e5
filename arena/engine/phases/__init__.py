"""The rooms of the decision kinds (docs/decisions/0006): one module per phase of a hand,
each registered once here; `Hand` runs the phases its rules select (`room.selected`), and
the runner, the replay, the text and the viewer ask a kind's room (`room.room_of`) for its
judge, its codec and its words.

A new kind is one module with its `Room` subclass, registered (`room.register`): the
engine registers the built-in ones below; a test or a plug-in registers its own.
"""

from __future__ import annotations

from .bidding import AuctionRoom
from .calling import CallRoom, IllegalCallError
from .exposing import ExposeRoom, IllegalExposureError, exposed_config
from .moon_choice import IllegalMoonChoiceError, MoonChoiceRoom
from .passing import IllegalPassError, PassRoom
from .pledging import IllegalPledgeError, PledgeRoom
from .queen_refusal import IllegalQueenRefusalError, QueenRefusalRoom
from .revealing import IllegalRevealError, RevealRoom
from .room import (
    HandPort,
    Phase,
    Room,
    Show,
    Stage,
    fault_of,
    kinds,
    refused,
    register,
    room_of,
    rooms,
    selected,
    unregister,
    words,
)
from .tricks import (
    DrawRoom,
    HandOverError,
    IllegalPlayError,
    OutOfTurnError,
    PennyPlayRoom,
    PickupRoom,
    PlayRoom,
)

for _room in (
    CallRoom,
    PassRoom,
    AuctionRoom,
    RevealRoom,
    PlayRoom,
    PennyPlayRoom,
    DrawRoom,
    PickupRoom,
    MoonChoiceRoom,
    PledgeRoom,
    QueenRefusalRoom,
    ExposeRoom,
):
    register(_room)

__all__ = [
    "AuctionRoom",
    "CallRoom",
    "DrawRoom",
    "ExposeRoom",
    "HandOverError",
    "HandPort",
    "IllegalCallError",
    "IllegalExposureError",
    "IllegalMoonChoiceError",
    "IllegalPassError",
    "IllegalPlayError",
    "IllegalPledgeError",
    "IllegalQueenRefusalError",
    "IllegalRevealError",
    "MoonChoiceRoom",
    "OutOfTurnError",
    "PassRoom",
    "PennyPlayRoom",
    "Phase",
    "PickupRoom",
    "PlayRoom",
    "PledgeRoom",
    "QueenRefusalRoom",
    "RevealRoom",
    "Room",
    "Show",
    "Stage",
    "exposed_config",
    "fault_of",
    "kinds",
    "refused",
    "register",
    "room_of",
    "rooms",
    "selected",
    "unregister",
    "words",
]
