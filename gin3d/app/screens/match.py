"""More network screens: the host's table setup (rules), the guest's look at the host's rules
before playing them, and the saved network matches (resume, delete).

States ``HostSetup`` (with the single-player setup's ``RulesRows``), ``Offer``, ``Saved`` and
``DeleteSaved``, each a ``lobby.LobbyScreen`` (its ``hub``, ``_lobby``, ``_say`` and
``_start_lobby``).
"""

from __future__ import annotations

from panda3d.core import TextNode

from ...net.constants import DEFAULT_PORT
from ...scene.control.net_hub import parse_address, rules_label
from ...scene.ui.palette import GOLD
from ...scene.ui.panel import entry
from ...scene.ui.result_story import counted
from .base import Screen
from .lobby import LobbyScreen
from .setup import RulesRows

SOFT = (0.85, 0.85, 0.8, 1)
SAVED_ROWS = 6


class HostSetupScreen(Screen):
    """State ``HostSetup``: the host picks the rules before the table opens."""

    name = "HostSetup"

    def enter(self, mode: str = "lan", table: str = "", players: int = 2) -> None:
        """Before a table opens: the rules preset, its options and the game target (of a
        table of ``players``: 3, or 4 in two teams, on the LAN)."""
        title = f"Host {table}" if table else "Host an online game"
        p = self._panel(title, width=1.05, height=0.94)
        self.players = players
        self.rows = RulesRows(
            self.services.setup, p, 0.62, opponent=False, on_change=self._refresh, players=players
        )
        last = self.rows.last_y
        self.rows.note = p.text("", last - 0.07, 0.04, fg=(1, 0.8, 0.6, 1))
        self.setup_summary = [p.text("", last - 0.15, 0.045, fg=GOLD)] + [
            p.text("", last - 0.22 - i * 0.055, 0.034, fg=SOFT) for i in range(5)
        ]
        p.text(
            "Your opponent sees these rules before accepting them."
            if players == 2
            else "The players who join see these rules at the table.",
            -0.64,
            0.038,
            fg=(0.85, 1, 0.85, 1),
        )
        self._refresh()
        back = "Lan" if mode == "lan" else "Online"
        p.button(
            "host",
            "Open the table",
            lambda: self.request("Hosting", mode, table, None, players),
            (0.35, -0.78),
            scale=0.065,
            frameSize=(-5, 5, -0.55, 1.05),
        )
        p.button("back", "Back", lambda: self.request(back), (-0.55, -0.78), scale=0.06)
        self._esc(back)

    def _refresh(self) -> None:
        """The rows, and the chosen rules in words, as the guest will see them."""
        self.rows.refresh()
        rules = self.services.setup.rules()
        lines = [rules_label(rules, self.players)] + rules.describe()[:5]
        for widget, text in zip(self.setup_summary, lines + [""] * len(self.setup_summary)):
            widget.setText(text)

    def exit(self) -> None:
        self.setup_summary = []
        self._close()


class OfferScreen(LobbyScreen):
    """State ``Offer``: the guest sees the host's rules before playing them."""

    name = "Offer"

    def enter(self, rules, opponent: str = "") -> None:
        """Over the table, before the first deal: play the host's rules, or leave."""
        session = self.services.session
        if session is None:
            self.request("Menu")
            return
        who = opponent or "The host"
        # narrower than the table's corner line (who, route, safety code), which stays readable
        p = self._panel(f"{who}'s rules", width=1.0, height=0.86)
        p.text(rules_label(rules), 0.56, 0.055, fg=GOLD)
        for i, line in enumerate(rules.describe()):
            p.text(line, 0.44 - i * 0.07, 0.04)
        p.text("Play this match with these rules?", -0.44, 0.045, fg=(0.85, 1, 0.85, 1))
        p.button("accept", "Accept", self._accept_offer, (0.35, -0.62), scale=0.065)
        p.button("decline", "Decline", self._decline_offer, (-0.35, -0.62), scale=0.06)
        self.services.ignore("escape")
        self.services.accept("escape", self._decline_offer)

    def _accept_offer(self) -> None:
        if self.hub.service is not None:
            self.hub.service.answer_offer(True)
        self.request("Table")

    def _decline_offer(self) -> None:
        if self.hub.service is not None:
            self.hub.service.answer_offer(False)
        self.services.end_game()
        self.request("Lan" if self.hub.kind == "lan" else "Online")
        self._say("You declined the host's rules: the match was not started.", error=True)


class SavedScreen(LobbyScreen):
    """State ``Saved``: the saved network matches (resume, delete)."""

    name = "Saved"

    def enter(self, back: str | None = None, page: int = 0) -> None:
        """The saved network matches, newest first, a page of ``SAVED_ROWS`` at a time:
        opponent, score, rules, date; Resume or Delete."""
        from ...net.savelist import list_saved

        self.services.end_game()
        self.saved_back = back or self.saved_back
        if self._start_lobby("Saved matches") is None:
            return
        p = self._lobby("Saved matches")
        self.saved = list_saved(self.hub.config.save_dir)
        p.text(
            "Matches you saved (or that stopped) to finish later with the same opponent",
            0.66,
            0.038,
            fg=SOFT,
        )
        if not self.saved:
            p.text(
                "No saved matches. During a network match: Esc, then Save and leave.", 0.4, 0.045
            )
        pages = max(1, -(-len(self.saved) // SAVED_ROWS))
        page = min(max(page, 0), pages - 1)
        self.saved_page = page  # where Delete / Keep it come back to
        first = page * SAVED_ROWS
        for i, sm in enumerate(self.saved[first : first + SAVED_ROWS], start=first):
            y = 0.53 - (i - first) * 0.15
            if sm.ok:
                role = "you host" if sm.role == "host" else "you joined"
                kind = {"lan": "LAN", "online": "Online"}.get(sm.kind, "")
                game = f", game {sm.game_number + 1}" if sm.game_number else ""
                hands = counted(sm.hands, "hand")
                game += ", finished" if sm.finished else ""
                p.text(
                    f"vs {sm.opponent or 'unknown'}   {sm.scores[0]} - {sm.scores[1]}"
                    f"   (after {hands}{game})",
                    y,
                    0.045,
                    x=-1.15,
                    align=TextNode.ALeft,
                )
                p.text(
                    f"{rules_label(sm.rules)}   -   {kind}, {role}   -   "
                    f"{sm.saved_at.replace('T', ' ')[:16]} UTC",
                    y - 0.055,
                    0.034,
                    x=-1.12,
                    align=TextNode.ALeft,
                    fg=(0.85, 0.9, 1, 1),
                )
            else:
                p.text(
                    f"Unreadable: {sm.path.name}",
                    y,
                    0.045,
                    x=-1.15,
                    align=TextNode.ALeft,
                    fg=(1, 0.7, 0.6, 1),
                )
                why = p.text(
                    sm.error, y - 0.055, 0.032, x=-1.12, align=TextNode.ALeft, fg=(1, 0.8, 0.7, 1)
                )
                why["wordwrap"] = 48
            b = p.button(
                f"resume{i}",
                "Resume",
                lambda sm=sm: self._resume_match(sm),
                (0.68, y + 0.005),
                scale=0.045,
                frameSize=(-2.8, 2.8, -0.55, 1.05),
            )
            if not sm.resumable:
                b["state"] = "disabled"
                b["text_fg"] = (0.5, 0.5, 0.5, 1)
            p.button(
                f"delete{i}",
                "Delete",
                lambda sm=sm: self.request("DeleteSaved", sm),
                (1.0, y + 0.005),
                scale=0.045,
                frameSize=(-2.8, 2.8, -0.55, 1.05),
            )
        if pages > 1:  # buttons keep their index in self.saved, whatever the page
            p.text(f"Page {page + 1} of {pages} ({len(self.saved)} saved)", -0.37, 0.034, fg=SOFT)
            if page > 0:
                p.button(
                    "newer",
                    "< Newer",
                    lambda: self.request("Saved", None, page - 1),
                    (-0.5, -0.37),
                    scale=0.04,
                )
            if page < pages - 1:
                p.button(
                    "older",
                    "Older >",
                    lambda: self.request("Saved", None, page + 1),
                    (0.5, -0.37),
                    scale=0.04,
                )
        y = -0.5
        p.text("Host's address (for a match you joined)", y, 0.04, x=-1.15, align=TextNode.ALeft)
        entry(p, "address", "", (-0.05, y), width=10, scale=0.04)
        p.text(
            "Empty: its table on the LAN, the address it had, or the relay.",
            y - 0.07,
            0.032,
            x=-1.15,
            align=TextNode.ALeft,
            fg=SOFT,
        )
        p.button("back", "Back", lambda: self.request(self.saved_back), (0, -0.8), scale=0.055)
        self._esc(self.saved_back)

    def _resume_match(self, sm) -> None:
        """Host the saved match again, or join the host that resumes it."""
        if not sm.resumable:
            why = sm.error if not sm.ok else "the match is finished"
            self._say(f"{sm.path.name} cannot be resumed: {why}", error=True)
            return
        if sm.role == "host":
            self.request("Hosting", sm.kind or "lan", "", sm)
            return
        typed = self.panel.entries["address"].get().strip()
        if typed:
            try:
                parse_address(typed, DEFAULT_PORT)
            except ValueError as exc:
                self._say(str(exc), error=True)
                return
        lan = (sm.kind or self.hub.kind) == "lan"
        if not (typed or sm.address or lan or self.hub.config.relay):
            self._say(
                "Type the host's address (host:port): this save does not know it and "
                "no relay is set",
                error=True,
            )
            return
        self._for_match("guest", sm.kind or self.hub.kind)
        who = sm.opponent or "your opponent"
        if typed:
            where = f" at {typed}..."
        elif lan:  # the host may have a new address: its table is looked for on the LAN first
            where = " (looking for their table on the LAN)..."
        else:
            where = f" at {sm.address}..." if sm.address else " through the relay..."
        self._say(f"Resuming the match with {who}{where}")
        self.hub.watch(
            self.hub.open().resume(
                sm.path, typed or None, lan_interfaces=self.hub.config.lan_interfaces
            ),
            "could not resume",
        )


class DeleteSavedScreen(LobbyScreen):
    """State ``DeleteSaved``: the question before a saved match is deleted."""

    name = "DeleteSaved"

    def enter(self, sm) -> None:
        """Ask before a saved match is deleted (nothing is ever deleted without this)."""
        p = self._panel("Delete this saved match?", width=1.0, height=0.45)
        p.text(sm.summary() if sm.ok else f"{sm.path.name} (unreadable)", 0.1, 0.04)
        p.text(
            "It cannot be resumed afterwards. Your opponent's copy is not affected.",
            0.0,
            0.036,
            fg=SOFT,
        )
        p.button("yes", "Delete", lambda: self._delete_saved(sm), (0.35, -0.22), scale=0.06)
        p.button(
            "no",
            "Keep it",
            lambda: self.request("Saved", None, self.saved_page),
            (-0.35, -0.22),
            scale=0.06,
        )
        self._esc("Saved")

    def _delete_saved(self, sm) -> None:
        from ...net.savelist import delete_saved

        try:
            delete_saved(sm.path)
        except (OSError, ValueError) as exc:
            self.request("Saved", None, self.saved_page)
            self._say(f"Could not delete {sm.path.name}: {exc}", error=True)
            return
        self.request("Saved", None, self.saved_page)
        self._say(f"Deleted {sm.path.name}.")


__all__ = ["DeleteSavedScreen", "HostSetupScreen", "OfferScreen", "SavedScreen"]
