"""One game loop for every kind of game: a ``GameDriver`` asks each ``Seat`` for its move.

A seat is the local human (answers come from the table's input), a computer level (with its
thinking pause as data), a script (the tutorial), a log (a replay) or a feed of moves checked
elsewhere (a network match: ``FedGame``). The driver owns the
``Game``, applies each answer through the engine and fires the hooks the scene, the saves and
the statistics listen to. No Panda3D and no clock of its own: the caller pumps it with the
time, so it runs the same under the table's task loop and in a plain test.
"""

from .feed import FedGame, FedSeat
from .groups import PartnershipDriver, PartnershipTable
from .loop import GAME_OVER, HAND_OVER, MOVED, THINKING, WAITING, GameDriver, IllegalAnswer
from .one_hand import OneHand
from .seats import ComputerSeat, LocalSeat, ReplayLog, ReplaySeat, ScriptSeat, Seat, seat_for

__all__ = [
    "GAME_OVER",
    "HAND_OVER",
    "MOVED",
    "THINKING",
    "WAITING",
    "ComputerSeat",
    "FedGame",
    "FedSeat",
    "GameDriver",
    "IllegalAnswer",
    "LocalSeat",
    "OneHand",
    "PartnershipDriver",
    "PartnershipTable",
    "ReplayLog",
    "ReplaySeat",
    "ScriptSeat",
    "Seat",
    "seat_for",
]
