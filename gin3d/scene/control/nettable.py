"""A network match on the table: the usual HUD and input, plus the connection line and chat.

``NetSession`` has the same face as the app's single-player ``Session`` (controller, hud,
input, game, set_active, destroy), so the table, result and game-over screens serve both.
Its controller is a ``NetTableController``; the app's frame task hands it every NetEvent.
"""

from __future__ import annotations

from math import ceil

from direct.gui.DirectGui import DGG, DirectEntry, DirectFrame, OnscreenText
from direct.showbase.DirectObject import DirectObject
from panda3d.core import TextNode

from ...net.constants import CONNECTED, DECLINED, GONE, SAVED_BYE
from ..ui import theme
from ..ui.hud import Hud, button, suitify
from ..ui.palette import GOLD
from ..ui.result_story import counted
from .net_hub import net_event
from .netcontroller import NetTableController
from .perspective import MatchRecord
from .tableinput import KEYS, TableInput

EMOTES = (
    ("hello", "Hello"),
    ("well_played", "Well played"),
    ("oops", "Oops"),
    ("thinking", "Hmm..."),
    ("thanks", "Thanks"),
    ("good_game", "Good game"),
)
EMOTE_TEXT = dict(EMOTES)
CHAT_LINES = 7
MATCH_KINDS = ("game", "your_turn", "hand_over", "game_over")
ENDINGS = {
    "opponent left": "Your opponent left the table",
    "you left": "You left the table",
    "claimed": "The match was claimed",
    "finished": "The match is over",
    "saves differ": "The two saves are not of the same point in this match: it cannot be resumed",
    "rules refused": "The host's match does not use the rules it offered: refused",
}


def ending_text(reason: str, detail: str = "") -> str:
    """What the table says when a match ends (``ended`` event)."""
    if reason == "opponent left" and detail == SAVED_BYE:
        return "Your opponent saved the match to finish later (Saved matches: Resume)"
    if reason == "opponent left" and detail == DECLINED:
        return "Your opponent declined your rules"
    if reason == "saves differ" and detail:
        return f"This match cannot be resumed: {detail}"
    if reason == "rules refused" and detail:
        return f"Refused: {detail}"
    return ENDINGS.get(reason, f"The match ended: {reason}")


class ChatBox:
    """The last few chat lines, a text entry (Enter sends) and the emotes as buttons;
    ``compact``: the newest lines and the entry only, in the narrow room above your portrait
    (a network table's: the third portrait or the partner's inset takes the usual place)."""

    def __init__(self, base, send_text, send_emote, on_typing, compact: bool = False) -> None:
        self.base = base
        self.send_text = send_text
        self.on_typing = on_typing
        self.lines: list[str] = []
        self.most = 2 if compact else CHAT_LINES  # wrapped lines shown
        self.per_line = 17 if compact else 24  # characters a shown line holds, about
        # top left, under the scores and sort buttons (compact: under the inset, above your
        # portrait): clear of both hands and the melds
        # compact: narrow enough to end left of an eleven-card hand
        width, height, top = (0.46, 0.17, -1.245) if compact else (0.72, 0.58, -0.4)
        self.frame = DirectFrame(
            parent=base.a2dTopLeft,
            frameColor=(0, 0, 0, 0.5),
            relief=DGG.FLAT,
            frameSize=(0, width, -height, 0),
            pos=(0.03, 0, top),
        )
        if not compact:
            OnscreenText(
                parent=self.frame,
                text="Chat",
                pos=(0.025, -0.05),
                scale=0.036,
                fg=GOLD,
                align=TextNode.ALeft,
            )
        chat = (0.95, 0.95, 0.9, 1)
        self.text = theme.text_line(
            self.frame,
            (0.025, -0.04 if compact else -0.1),
            0.03 if compact else 0.032,
            chat,
            TextNode.ALeft,
            shadow=None,
            wordwrap=14 if compact else 21,
        )
        self.entry = DirectEntry(
            parent=self.frame,
            scale=0.032,
            width=12.5 if compact else 20.5,
            pos=(0.025, 0, -0.145 if compact else -0.39),
            numLines=1,
            focus=0,
            command=self._send,
            focusInCommand=lambda: self._focus(True),
            focusOutCommand=lambda: self._focus(False),
            frameColor=(0.95, 0.93, 0.86, 1),
            text_fg=(0.1, 0.08, 0.05, 1),
            initialText="",
            cursorKeys=1,
        )
        self.typing = False
        # a click on the table (GUI clicks do not reach "mouse1") gives the keys back
        self.listener = DirectObject()
        self.listener.accept("mouse1", self._click_away)
        self.emote_buttons = {}
        for i, (name, label) in enumerate(() if compact else EMOTES):
            x = 0.13 + (i % 3) * 0.23
            y = -0.465 - (i // 3) * 0.07
            self.emote_buttons[name] = button(
                self.frame,
                label,
                lambda n=name: send_emote(n),
                (x, 0, y),
                scale=0.03,
                frameSize=(-3.5, 3.5, -0.55, 1.05),
            )

    def add(self, line: str) -> None:
        self.lines.append(line)
        # keep what fits: a long line wraps, so count wrapped lines from the newest back
        shown: list[str] = []
        used = 0
        for text in reversed(self.lines):
            need = 1 + len(text) // self.per_line
            if used + need > self.most and shown:
                break
            shown.insert(0, text)
            used += need
        self.text.setText(suitify("\n".join(shown)))

    def _focus(self, on: bool) -> None:
        self.typing = on
        self.on_typing(on)

    def _click_away(self) -> None:
        if self.typing:
            self.entry["focus"] = 0
            self._focus(False)

    def _send(self, text: str) -> None:
        text = text.strip()
        self.entry.enterText("")
        self.entry["focus"] = 0
        self._focus(False)
        if text:
            self.send_text(text)

    def type_and_send(self, text: str) -> None:
        """What pressing Enter after typing ``text`` does (scripts, tests)."""
        self.entry.enterText(text)
        self._send(self.entry.get())

    def show(self) -> None:
        self.frame.show()

    def hide(self) -> None:
        self.frame.hide()

    def destroy(self) -> None:
        self.listener.ignoreAll()
        self.frame.destroy()


CLAIM_SHOWN_AFTER = 30.0  # seconds the opponent owes a step before the countdown shows


def claim_line(claim_in: float | None, stall: float | None) -> str:
    """The status text while the opponent owes us a step: nothing for the first half
    minute (it is thinking), then a countdown to the claim, then the claim itself."""
    if claim_in is None:
        return ""
    if claim_in <= 0:
        return "Your opponent has stopped playing: you may claim the match"
    if stall is not None and stall - claim_in < CLAIM_SHOWN_AFTER:
        return ""
    return f"Waiting for your opponent to play: you may claim the match in {ceil(claim_in)} s"


class StatusLine:
    """The connection line: opponent, route, round trip, safety code, and the link's state."""

    def __init__(self, base, on_claim, on_save=None) -> None:
        self.claim = button(
            base.a2dTopRight, "Claim the match", on_claim, (-0.3, 0, -0.47), scale=0.04
        )
        self.claim.hide()
        # the other way out while the opponent is away: keep the match to finish later
        self.save = button(
            base.a2dTopRight,
            "Save and leave",
            on_save or (lambda: None),
            (-0.3, 0, -0.55),
            scale=0.04,
        )
        self.save.hide()
        right = base.a2dTopRight  # below the deadwood count and its "after discarding" line
        self.info = theme.text_line(
            right, (-0.06, -0.32), 0.036, (0.85, 0.95, 1, 1), TextNode.ARight
        )
        self.state = theme.text_line(
            right, (-0.06, -0.375), 0.04, (1, 1, 0.85, 1), TextNode.ARight, wordwrap=44
        )

    def set(self, info: str, state: str, alarm: bool = False) -> None:
        self.info.setText(info)
        self.state.setText(state)
        self.state["fg"] = (1, 0.45, 0.35, 1) if alarm else (1, 1, 0.85, 1)

    def show(self) -> None:
        self.info.show()
        self.state.show()

    def hide(self) -> None:
        self.info.hide()
        self.state.hide()
        self.claim.hide()
        self.save.hide()

    def destroy(self) -> None:
        self.info.destroy()
        self.state.destroy()
        self.claim.destroy()
        self.save.destroy()


class NetSession:
    """One network match on the table (the local player is drawn as seat 0)."""

    tournament = ""  # a network game is never the tournament's (the results screen asks)
    verdict = ""
    trophy = False

    def __init__(
        self,
        app,
        net,
        my_seat: int,
        opponent: str,
        route: str = "",
        safety_code: str = "",
        kind: str = "lan",
        player_name: str = "You",
    ) -> None:
        self.app = app
        self.net = net
        self.names = ("You", opponent or "Opponent")
        self.kind = kind
        self.player_name = player_name
        self.keeper = None  # MatchKeeper: statistics and history, from the first verified hand
        self.kept = MatchRecord()  # the current game for the keeper (the table's may lag)
        self.resumed = False  # a saved match that goes on (its rules were agreed long ago)
        self.route = route
        self.safety_code = safety_code
        self.link_state = CONNECTED
        self.alarm = ""  # a cheat or an ending: shown in red, input off
        self.ended: str | None = None
        self.want_rematch = False
        self.saving = False  # Save and leave pressed: waiting for the opponent to confirm
        self.notes: list = []  # callables told about rematch news (the game-over screen)
        self.controller = self._controller(my_seat)
        self.hud = Hud(app, self.on_hud_action, lambda: app.request("Pause"))
        # no computer help against a person: the Hint button stays off in network matches
        self.input = TableInput(app, app.scene, self.controller, self.hud, hints=lambda: False)
        self.chat = self._chat_box()
        self.status = StatusLine(app, self._claim, self.save_and_leave)
        self.controller.on_message.append(self.hud.set_message)
        self.controller.on_hand_over.append(lambda g: app.hand_over())
        self.controller.on_game_over.append(lambda g: app.hand_over())
        self.controller.on_change.append(self._prompt)
        self.refresh_status()
        self.input.refresh()
        # the claim countdown moves with the clock, not with events
        self._clock_task = f"net-claim-clock-{id(self)}"
        app.taskMgr.doMethodLater(1.0, self._tick, self._clock_task)

    def _controller(self, my_seat: int) -> NetTableController:
        controller = NetTableController(self.app, self.app.scene, self.net, self.names)
        controller.seat = my_seat
        return controller

    def _tick(self, task):
        self.refresh_status()
        return task.again

    # -- what the app's screens read ---------------------------------------------------------
    @property
    def game(self):
        return self.controller.game

    @property
    def rules(self):
        """The match's rules (the host's), as the deal's views carry them."""
        return self.controller.current.rules

    def result_pending(self) -> bool:
        return self.controller.showing_result

    def again(self) -> None:
        """The game-over screen's "Play again": ask the opponent for a rematch."""
        self.want_rematch = True
        self.net.answer_rematch(True)
        self._note("Rematch asked: waiting for your opponent...")

    # -- events ------------------------------------------------------------------------------
    def handle(self, ev) -> None:
        """One NetEvent from the frame task."""
        kind, data = ev.kind, ev.data
        if kind == "hand_over":
            self._keep(data)
        if kind in MATCH_KINDS:
            self._match_event(ev)
        elif kind in ("chat", "emote"):
            self._chat_line(kind, data)
        elif kind == "status":
            self.link_state = data["text"]
        elif kind == "connected":
            self.route = data.get("route", self.route)
            self.link_state = CONNECTED
        elif kind == "refused":
            who = "The other player refused" if data["by_peer"] else "Refused from the other side"
            self.chat.add(f"{who}: {data['reason']}")
        elif kind == "error":
            self._error(data["message"])
        elif kind == "cheat":
            self.alarm = f"{data['message']} - evidence saved to {data['evidence']}"
            self.controller.stop()
        elif kind == "ended":
            self._ended(data["reason"], data.get("detail", ""))
        elif kind == "resumed":
            self._resumed(data["hands"])
        elif kind == "offer":
            self.app.request("Offer", data["rules"], data.get("opponent") or self.names[1])
        elif kind == "saved":
            self.app.notice = (
                f"Your match with {self.names[1]} is saved. To finish it, "
                "open LAN or Online, then Saved matches."
            )
            self.app.request("Menu")
            return
        self.refresh_status()
        self._prompt()

    def _match_event(self, ev) -> None:
        """A move, deal or result of the match: the controller's; a new game after a
        rematch both asked for starts at the table."""
        if (
            self.want_rematch
            and ev.kind == "game"
            and self.controller.showing_result
            and self.game is not None
            and self.game.over
        ):
            self.want_rematch = False
            self.controller.start_rematch()
            self.app.request("Table")
        self.controller.handle(ev)

    def _chat_line(self, kind: str, data) -> None:
        who = self.names[self._local(data["seat"])]
        text = data["text"] if kind == "chat" else f"*{EMOTE_TEXT.get(data['name'], '?')}*"
        self.chat.add(f"{who}: {text}")

    def _error(self, message: str) -> None:
        self.chat.add(f"(!) {message}")
        if message.startswith("not saved") and self.app.screens.state == "Pause":
            self.app.request("Table")  # say it where the player looks
        if message.startswith("not saved"):
            self.hud.set_message(message)

    def _ended(self, reason: str, detail: str) -> None:
        self.ended = reason
        self.controller.stop()
        text = ending_text(reason, detail)
        if not self.alarm and reason != "finished":
            self.alarm = text
        self._note(text)

    def _local(self, seat: int) -> int:
        me = self.controller.seat or 0
        return 0 if seat == me else 1

    def _note(self, text: str) -> None:
        for fn in list(self.notes):
            fn(text)

    def refresh_status(self) -> None:
        try:
            snap = self.net.status()
        except (AttributeError, RuntimeError):
            snap = {}
        parts = [f"vs {self.names[1]}", snap.get("route") or self.route or "?"]
        rtt = snap.get("round_trip_ms")
        if rtt is not None:
            parts.append(f"round trip {rtt:.0f} ms")
        code = snap.get("safety_code") or self.safety_code
        if code:
            parts.append(f"safety code {code}")
        if self.alarm:
            state = self.alarm
        elif self.link_state.startswith("waiting"):
            state = "The line dropped: waiting for opponent..."
        elif self.link_state == GONE:
            state = "Opponent gone (no line for a minute): you may claim the match"
        else:
            state = self.link_state
        stalled = claim_line(snap.get("claim_in"), snap.get("stall_s"))
        if stalled and not self.alarm and self.link_state == CONNECTED and not self.ended:
            state = stalled
        may_claim = self.link_state == GONE or snap.get("claim_in") == 0
        self.status.set(
            "  -  ".join(parts),
            state,
            alarm=bool(self.alarm) or self.link_state != CONNECTED or may_claim,
        )
        if may_claim and self.ended is None:
            self.status.claim.show()
        else:
            self.status.claim.hide()
        away = self.link_state.startswith("waiting") or self.link_state == GONE
        if away and self.ended is None and not self.saving:
            self.status.save.show()
        else:
            self.status.save.hide()

    def _claim(self) -> None:
        """After "opponent gone", or once the opponent stopped playing: end the match as won
        by forfeit."""
        self._watch(self.net.claim())

    def save_and_leave(self) -> None:
        """Save the match, tell the opponent, and go back to the menu (finish it later)."""
        if self.ended is not None:
            self.hud.set_message("The match is over: there is nothing to save")
            return

        if self.saving:
            return  # pressed again while the first press is still being confirmed

        def done(f) -> None:  # on the network thread: back through the event queue
            exc = f.exception()
            if exc is None:
                self.net.events.put(net_event("saved", path=f.result()))
            else:
                self.saving = False
                self.net.events.put(net_event("error", message=f"not saved: {exc}"))

        self.saving = True
        self.status.save.hide()
        # with the line down the opponent's confirmation can take a few seconds
        self.hud.set_message("Saving the match and telling your opponent...")
        self.net.save_and_leave().add_done_callback(done)

    # -- statistics and history ---------------------------------------------------------------
    def _keep(self, data: dict) -> None:
        """A verified hand: into the statistics and hand history (each counted once)."""
        from ...recorder import MatchKeeper

        try:
            self.kept.add(data["hand"], self.controller.seat or 0)
        except ValueError as err:  # out of step (should not happen): keep playing
            self.hud.set_message(f"Statistics are not kept for this hand: {err}")
            return
        if self.keeper is None and data.get("match"):
            try:
                self.keeper = MatchKeeper(
                    self.kind, (self.player_name, self.names[1]), data["match"]
                )
            except (OSError, ValueError) as err:
                self.hud.set_message(f"Statistics are not kept for this match: {err}")
                return
        if self.keeper is not None:
            try:
                if self.keeper.record(self.kept.game, data.get("game_number", 0)):
                    self.app.progress.announce()  # an achievement earned online
            except OSError as err:
                self.hud.set_message(f"Statistics could not be saved: {err}")

    def _resumed(self, hands: list) -> None:
        """A saved match goes on: the finished hands of its game, as the result screens and
        the statistics know them (they were counted when first played)."""
        self.resumed = True
        seat = self.controller.seat if self.controller.seat is not None else 0
        for record in (self.controller.record, self.kept):
            record.reset()
            for hand in hands:
                record.add(hand, seat)
        n = len(hands)
        self.chat.add(
            f"(!) match resumed after {counted(n, 'hand')}; an unfinished hand is dealt again"
        )

    def _prompt(self) -> None:
        """While the line is down or the match is over, say so where the prompt goes."""
        if self.alarm:
            self.hud.set_prompt(self.alarm if len(self.alarm) < 60 else self.alarm[:57] + "...")
        elif self.link_state.startswith("waiting") and not self.controller.waiting_for_human():
            self.hud.set_prompt("Waiting for opponent...")  # (your own move still goes)
        elif self.controller.current.phase == "deal" and not self.controller.queue.busy:
            if (
                self.controller.current.turn == -1
                and self.controller.seat == 0
                and (self.controller.record.game is None and not self.resumed)
            ):
                # nothing dealt yet: the guest is reading our rules
                self.hud.set_prompt(f"Waiting for {self.names[1]} to accept your rules...")
            else:
                self.hud.set_prompt("Dealing (shuffling with your opponent)...")

    # -- chat ---------------------------------------------------------------------------------
    def _chat_box(self) -> ChatBox:
        return ChatBox(self.app, self._send_chat, self._send_emote, self._typing)

    def _send_chat(self, text: str) -> None:
        if self.ended is not None:
            self.chat.add("(!) the match is over: nobody is listening")
            return
        self.chat.add(f"You: {text}")
        self._watch(self.net.chat(text[:200]))

    def _send_emote(self, name: str) -> None:
        if self.ended is None:
            self.chat.add(f"You: *{EMOTE_TEXT[name]}*")
            self._watch(self.net.emote(name))

    def _watch(self, fut) -> None:
        def done(f) -> None:
            if f.exception() is not None:  # on the network thread: report through the queue
                self.net.events.put(net_event("error", message=f"chat not sent: {f.exception()}"))

        fut.add_done_callback(done)

    def _typing(self, on: bool) -> None:
        """While the chat entry has the keyboard, the table's keys are off."""
        for key, name in KEYS.items():
            if on:
                self.app.ignore(key)
            else:
                self.app.accept(key, self.input.do, [name])

    # -- the Session face ---------------------------------------------------------------------
    def on_hud_action(self, name: str) -> None:
        self.app.scene.play_sound("click")
        self.input.do(name)

    def set_active(self, on: bool) -> None:
        self.input.enabled = on
        if on:
            self.hud.show()
            self.chat.show()
            self.status.show()
            self.input.refresh()
            self._prompt()
        else:
            self.hud.hide()
            self.chat.hide()

    def destroy(self) -> None:
        self.app.taskMgr.remove(self._clock_task)
        self.controller.destroy()
        self.app.queue.finish_all()
        self.input.destroy()
        self.hud.destroy()
        self.chat.destroy()
        self.status.destroy()
        self.notes.clear()


__all__ = ["ChatBox", "NetSession", "StatusLine", "EMOTES"]
