"""A network table of three, or four in two teams, as the app's session: ``NetGroupSession``.

The same face as a two-player ``NetSession`` (the table, result and game-over screens serve
both), with a ``NetGroupController``: the table's players by name on the pad, the one who
sits out, the teams, and the connection line saying which player you are and the table's
safety code. Each agreed hand goes into the statistics and hand history (the rows of
three-player and partnership games). The chat and the emotes are everyone's at the table,
each line under its player's name. A table has no rematch or save: what its players hear of
each other (a player's link lost, the computer taking a seat, a player back, a refusal, a
chat flooder muted, a player removed for not playing or cheating) shows as the table's
messages; a guest's own link lost and back, on the connection line too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...net.constants import CONNECTED, HOST_BACK, HOST_LOST, RECONNECTING
from .netgroup import NetGroupController
from .nettable import EMOTE_TEXT, ChatBox, NetSession

TOLD = ("link was lost", "played by the computer", "plays again", "is back", "refused")
TOLD += ("muted", "removed", "remove player")  # a chat flooder; a staller or cheater out
# how the table's messages name a player: by its number from 0 for the host
PLAYER_WORDS = re.compile(r"\b[Pp]layers? (\d)(?: and (\d))?\b")


def named(text: str, names: Sequence[str]) -> str:
    """A table's message with each player it names by number ("player 1", "players 0 and
    2", counted from 0) named as the table shows them ("Player 2", "You and Bob")."""

    def name(m: re.Match) -> str:
        players = [int(g) for g in m.groups() if g is not None]
        if any(p >= len(names) for p in players):
            return m.group(0)
        return " and ".join(names[p] for p in players)

    return PLAYER_WORDS.sub(name, text)


def table_names(players: int, me: int, name: str, told: Sequence[str] = ()) -> tuple[str, ...]:
    """Every player's name at the table, by player: yours, the name each other player
    announced (``told``, by player), or "Player 2" for one that announced none or the same
    as another (the table's messages name players by number, from 1 for the host)."""
    told = list(told) + [""] * players
    names = []
    for p in range(players):
        if p == me:
            names.append(name)
            continue
        mine = told[p]
        clash = mine in (name, *(told[q] for q in range(players) if q not in (p, me)))
        names.append(mine if mine and not clash else f"Player {p + 1}")
    return tuple(names)


class NetGroupSession(NetSession):
    """One network table on the table (the local player is player ``my_seat``)."""

    def __init__(
        self,
        app,
        net,
        my_seat: int,
        players: int,
        rules,
        safety_code: str = "",
        names: Sequence[str] = (),
        **kw,
    ):
        self.players = players
        self.told_names = tuple(names)
        self.table_rules = rules
        super().__init__(app, net, my_seat, "", "direct", safety_code, **kw)

    def _controller(self, my_seat: int) -> NetGroupController:
        names = table_names(self.players, my_seat, "You", self.told_names)
        self.names = (names[my_seat], "?")
        return NetGroupController(
            self.app, self.app.scene, self.net, my_seat, self.players, names, self.table_rules
        )

    @property
    def rules(self):
        return self.table_rules

    def again(self) -> None:
        """A table has no rematch: a new one is hosted from the LAN screen."""
        self._note("A table plays one game: host a new one from the LAN screen")

    def handle(self, ev) -> None:
        kind = ev.kind
        if kind in ("table", "watch"):
            self.controller.handle(ev)
        elif kind == "note":
            text = ev.data["text"]
            if text.startswith(HOST_LOST):  # our own link: the hand waits, its moves kept
                self.link_state = RECONNECTING
                self.hud.set_message("Table: the link to the host was lost, reconnecting")
            elif text == HOST_BACK:
                self.link_state = CONNECTED
                self.hud.set_message("Table: back at the table")
            elif any(word in text for word in TOLD):
                self.hud.set_message(f"Table: {named(text, self.controller.player_names)}")
        else:
            super().handle(ev)
            return
        self.refresh_status()
        self._prompt()

    def _keep(self, data: dict) -> None:
        """An agreed hand (or round): into the statistics and hand history, in the rows of
        three-player and partnership games, each hand counted once."""
        from ...recorder import MatchKeeper

        if not data.get("table"):
            return
        try:
            if self.keeper is None:
                self.keeper = MatchKeeper(self.kind, (self.player_name, ""), data["table"])
            c = self.controller
            if self.keeper.record_table(data["game"], c.me, c.player_names):
                self.app.progress.announce()  # an achievement earned at a network table
        except (OSError, ValueError) as err:
            self.hud.set_message(f"Statistics are not kept for this table: {err}")

    def refresh_status(self) -> None:
        me = self.controller.me
        parts = [f"Table of {self.players}", f"you are player {me + 1}"]
        if self.safety_code:
            parts.append(f"table safety code {self.safety_code}")
        state = self.alarm or self.link_state
        self.status.set("  -  ".join(parts), state, alarm=state != CONNECTED)
        self.status.claim.hide()
        self.status.save.hide()

    def _prompt(self) -> None:
        c = self.controller
        if self.alarm:
            super()._prompt()
        elif c.watching_line():
            self.hud.set_prompt(c.watching_line())
        elif c.current.phase == "deal" and not c.queue.busy and not c.waiting_for_human():
            if c.playing is None:
                self.hud.set_prompt("Waiting for the table...")
            else:
                self.hud.set_prompt(f"Dealing (shuffling with {c.names[1]})...")

    def _chat_box(self) -> ChatBox:
        """The chat's usual place is taken (at three by the portrait of the player sitting
        out, at four by your partner's table): its newest lines go lower, above yours."""
        return ChatBox(self.app, self._send_chat, self._send_emote, self._typing, compact=True)

    def _chat_line(self, kind: str, data) -> None:
        """A line from another player at the table, under its name (``seat``: its number)."""
        who = self.controller.player_names[data["seat"]]
        text = data["text"] if kind == "chat" else f"*{EMOTE_TEXT.get(data['name'], '?')}*"
        self.chat.add(f"{who}: {text}")

    def _ended(self, reason: str, detail: str) -> None:
        super()._ended(reason, named(detail, self.controller.player_names))

    def set_active(self, on: bool) -> None:
        super().set_active(on)
        self.controller.set_shown(on)  # your partner's table (four) with the HUD


__all__ = ["NetGroupSession", "named", "table_names"]
