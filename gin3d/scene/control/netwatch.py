"""Your partner's table at a network table of four, on the inset: ``PartnerWatch``.

Your partner plays the other hand of the round at the same time as you play yours. Each
player tells the table the public moves of its hand (``net.publicmoves``), checked there to
make sense as a hand, and the service passes your partner's on (``watch`` events). They play
on the small second table left of yours (``inset.InsetView``, as in a single-player team
game), animated as they come: the stock, the pile, every draw, discard, knock and layoff,
your partner nearest, both hands face down until laid out (what your partner holds is theirs
alone: the table's messages pass through every player's host). The line under it names the
two players and whose turn it is, or how the hand ended. Once your hand is over and your
partner's is not, W or a click on it puts their hand on your table (``on_table``: the
controller plays its moves there) and yours in the inset, until W or a click again, or the
next deal.
"""

from __future__ import annotations

from ..tabletop.inset import InsetView
from .perspective import flip_event
from .team_controller import SPREAD_ROOM


class PartnerWatch:
    """The inset of a network partnership table; ``names`` are the players' by player."""

    def __init__(self, base, scene, speed: float, names: tuple[str, ...], on_settled=None) -> None:
        self.scene = scene
        self.names = names
        self.on_settled = on_settled  # called once the moves shown so far have played
        scene.frame_spreads(0.0, SPREAD_ROOM, aside=1)  # the inset takes the left
        factory = scene.factory
        self.inset = InsetView(base, speed, factory.back_name, factory.style, scene.detail)
        self.inset.set_looks(factory.style, factory.back_name, scene.felt)  # the table's felt
        self.inset.queue.on_idle.append(self._label)
        self.hand: int | None = None  # the table's number of the hand shown
        self.players: tuple[int, int] = (0, 0)  # partner, rival: inset seats 0 and 1
        self.told: dict = {}  # the latest state told of it (stock, turn, over, result)
        self.events: list = []  # its public moves so far, your partner at seat 0
        self.settled = ""  # how it stands as the inset shows it (the pad's line)
        self.on_table = False  # your partner's hand is on the table, yours in the inset
        self.yours = ""  # your hand's line while it is in the inset
        self.how = "Your partner's table - their cards stay theirs"  # the label's 2nd line
        self._label()

    def show(self, data: dict, speed: float) -> list:
        """The next public moves of your partner's hand (a ``watch`` event's data), on the
        inset unless their hand is on the table; returns them, your partner at seat 0."""
        seat, seats = data["seat"], tuple(data["seats"])
        if data["hand"] != self.hand:  # a new round's: its deal gathers the last one's cards
            self.hand = data["hand"]
            self.players = (seats[seat], seats[1 - seat])
            self.events = []
            self.settled = ""
        events = data["events"] if seat == 0 else [flip_event(e) for e in data["events"]]
        self.events += events
        self.told = {k: data[k] for k in ("stock", "turn", "over", "result")}
        if seat == 1 and self.told["turn"] in (0, 1):
            self.told["turn"] = 1 - self.told["turn"]
        if self.told["result"] is not None and seat == 1:
            winner, points = self.told["result"]
            self.told["result"] = (1 - winner, points)
        if not self.on_table:
            self.inset.show_events(events, speed)
        self._label()
        return events

    def swap(self, yours: list | None, line: str = "") -> None:
        """Your partner's hand to the table and ``yours`` (your hand's events, your seat 0)
        into the inset, its ``line`` under it; None: your partner's back into the inset."""
        self.on_table = yours is not None
        self.yours = line
        self.inset.rebuild(self.events if yours is None else yours)
        self._label()

    def line(self) -> str:
        """The inset's label: the hand it shows, then what it is."""
        if self.on_table:
            return f"{self.yours}\nYour table - click or W to go back to it"
        if self.hand is None:
            return "Your partner's table\nWaiting for its deal..."
        return f"{self.state()}\n{self.how}"

    def state(self) -> str:
        """How the hand shown stands: "Rosie vs Walt: 25 cards in stock, Walt to play"."""
        mate, rival = (self.names[p] for p in self.players)
        head = f"{mate} vs {rival}"
        told = self.told
        if not told["over"]:
            turn = told["turn"]
            who = f", {self.names[self.players[turn]]} to play" if turn in (0, 1) else ""
            state = f"{head}: {told['stock']} cards in stock{who}"
        elif told["result"] is None:
            state = f"{head}: a drawn hand"
        else:
            winner, points = told["result"]
            state = f"{head}: {self.names[self.players[winner]]} won {points}"
        return state

    def _label(self) -> None:
        """The line and the turn strip, once the moves shown so far have played."""
        if not self.inset.queue.busy:
            turn = self.told.get("turn")
            over = self.told.get("over", True) or self.on_table
            self.inset.set_label(self.line(), None if over or turn not in (0, 1) else turn)
            settled = self.state() if self.hand is not None else ""
            if settled != self.settled:
                self.settled = settled
                if self.on_settled is not None:
                    self.on_settled()

    def contains(self, mpos: tuple[float, float]) -> bool:
        return self.inset.contains(mpos)

    def set_shown(self, on: bool) -> None:
        self.inset.set_shown(on)

    def destroy(self) -> None:
        self.on_settled = None
        self.inset.destroy()
        self.scene.frame_spreads()  # the table is the next game's too


__all__ = ["PartnerWatch"]
