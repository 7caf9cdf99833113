"""Online → Find an opponent: the service's open public tables, quick match, a table of your own.

The state ``Tables``, a ``lobby.LobbyScreen`` (its ``hub``, ``_lobby``, ``_start_lobby``,
``_say``, ``_set_name`` and ``_for_match``). The service answers through ``NetService``
(``public_table_page``, ``join_public_table``, ``open_public_table``, ``quick_match``, over
``gin3d.net.service_client``); a match it starts reaches the table as any other does, by the
hub's ``connected`` event. The list shows ``PUBLIC_ROWS`` tables a page, in the service's
order (each network's first table before anybody's second, newest first), with Previous
and Next.
"""

from __future__ import annotations

import time

from panda3d.core import TextNode

from ...net.constants import NO_ANSWER
from ...scene.control.net_hub import normalize_code
from ...scene.ui.palette import GOLD
from .lobby import LobbyScreen

PUBLIC_ROWS = 5
REFRESH_S = 4.0  # the list asks the service again this often while it shows
QUICK_PRESETS = ("classic", "pagat", "oklahoma")
SOFT = (0.85, 0.85, 0.8, 1)


def waiting_words(seconds: float) -> str:
    """How long a table has waited: "waiting 45 s", "waiting 3 min"."""
    seconds = max(0, int(seconds))
    return f"waiting {seconds} s" if seconds < 60 else f"waiting {seconds // 60} min"


def table_line(table, now: float | None = None) -> str:
    """One row of the list: the host's name, the rules and target, how long it has waited."""
    waited = (time.time() if now is None else now) - table.since
    return f"{table.name}  -  {table.preset} to {table.target}  -  {waiting_words(waited)}"


class TablesScreen(LobbyScreen):
    """State ``Tables``: the service's open public tables, quick match, a table of your own."""

    name = "Tables"
    public_tables: list = []

    def enter(self) -> None:
        self.services.end_game()
        if self._start_lobby("Find an opponent") is None:
            return
        p = self._lobby("Find an opponent")
        self.public_rows: list = []
        self.public_tables = []
        self.page_offset = 0  # the first table shown (the list comes a page at a time)
        self.own_code = ""  # the join code of the table we opened here, once listed
        p.button("back", "Back", lambda: self.request("Online"), (0, -0.8), scale=0.055)
        self._esc("Online")
        if not self.hub.config.relay:
            p.text(
                "No online service is set up: type its address in Settings, Online service.",
                0.3,
                0.045,
            ).setWordwrap(34)
            return
        p.text("Open tables", 0.62, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        self.public_empty = p.text("", 0.5, 0.042, x=-1.05, align=TextNode.ALeft, fg=SOFT)
        p.button("refresh", "Refresh", self._refresh_public, (0.92, 0.63), scale=0.045)
        self.page_text = p.text("", -0.2, 0.036, x=-1.05, align=TextNode.ALeft, fg=SOFT)
        self.prev_button = p.button(
            "prev", "< Previous", lambda: self._turn_page(-1), (0.3, -0.19), scale=0.04
        )
        self.next_button = p.button(
            "next", "Next >", lambda: self._turn_page(1), (0.92, -0.19), scale=0.04
        )
        for button in (self.prev_button, self.next_button):
            button.hide()  # shown once there is more than one page
        y = -0.34
        p.text("Quick match", y, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        for i, preset in enumerate(QUICK_PRESETS):
            p.button(
                f"quick:{preset}",
                preset.title(),
                lambda preset=preset: self._quick(preset),
                (-0.35 + i * 0.5, y + 0.012),
                scale=0.045,
                frameSize=(-2.6, 2.6, -0.55, 1.05),
            )
        y -= 0.14
        p.text("Or open a table", y, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        p.text(
            f"with your setup's rules ({self.services.setup.rules().name}); anyone may take it",
            y - 0.07,
            0.036,
            x=-1.1,
            align=TextNode.ALeft,
            fg=SOFT,
        )
        self.open_button = p.button(
            "open", "Open", self._open_public, (0.92, y + 0.012), scale=0.045
        )
        self._refresh_public()

    def _refresh_public(self, task=None) -> None:
        """Ask the service for its open tables; the list shows them when the answer comes,
        and asks again ``REFRESH_S`` seconds later (tables come and go)."""
        self.services.tasks.remove("public-tables-refresh")
        if not self.public_tables:
            self.public_empty.setText("Asking the service...")
        fut = self.hub.open().public_table_page(self.page_offset, PUBLIC_ROWS)
        self._when_done(fut, self._show_public)
        self.services.tasks.doMethodLater(REFRESH_S, self._refresh_public, "public-tables-refresh")

    def _when_done(self, fut, then) -> None:
        """Call ``then(fut)`` on the main thread once ``fut`` is done (while this screen shows)."""

        def check(task):
            if not fut.done():
                return task.cont
            if self.state == "Tables":
                then(fut)
            return task.done

        self.services.tasks.add(check, "public-tables-answer")

    def _show_public(self, fut) -> None:
        p = self.panel
        for widget in self.public_rows:  # off the panel too: its lists keep no dead rows
            p.remove(widget)
        self.public_rows = []
        exc = fut.exception()
        if exc is not None:
            words = str(exc).removeprefix(NO_ANSWER) or type(exc).__name__
            self.public_empty.setText(f"The service did not answer: {words}"[:120])
            return
        page = fut.result()
        if not page.tables and page.offset > 0:  # the tables of this page went meanwhile
            self.page_offset = max(0, page.total - PUBLIC_ROWS)
            self._refresh_public()
            return
        self.public_tables = page.tables[:PUBLIC_ROWS]
        self.public_empty.setText(
            "" if self.public_tables else "No open tables now: quick match or open one below."
        )
        self._show_page(page)
        for i, table in enumerate(self.public_tables):
            y = 0.5 - i * 0.13
            if table.code == self.own_code:  # ours: it waits for someone else to join
                self.public_rows.append(
                    p.text(
                        "Your table" + table_line(table).removeprefix(table.name),
                        y,
                        0.042,
                        x=-1.05,
                        align=TextNode.ALeft,
                        fg=GOLD,
                    )
                )
                continue
            self.public_rows.append(
                p.text(table_line(table), y, 0.042, x=-1.05, align=TextNode.ALeft)
            )
            self.public_rows.append(
                p.button(
                    f"join{i}",
                    "Join",
                    lambda t=table: self._join_public(t),
                    (0.92, y + 0.012),
                    scale=0.045,
                    frameSize=(-2.4, 2.4, -0.55, 1.05),
                )
            )

    def _show_page(self, page) -> None:
        """ "Tables 6-10 of 23" and the page buttons (active only where there is a page)."""
        first, last = page.offset + 1, page.offset + len(self.public_tables)
        many = page.total > PUBLIC_ROWS or page.offset > 0
        self.page_text.setText(f"Tables {first}-{last} of {page.total}" if many else "")
        for button, usable in (
            (self.prev_button, page.offset > 0),
            (self.next_button, last < page.total),
        ):
            button["state"] = "normal" if usable else "disabled"
            if many:
                button.show()
            else:
                button.hide()

    def _turn_page(self, step: int) -> None:
        self.page_offset = max(0, self.page_offset + step * PUBLIC_ROWS)
        self._refresh_public()

    def _join_public(self, table) -> None:
        self._set_name()
        self._for_match("guest", "online")
        self._say(f"Joining {table.name}'s table...")
        self.hub.watch(self.hub.open().join_public_table(table), "could not join")

    def _quick(self, preset: str) -> None:
        self._set_name()
        self._for_match("guest", "online")  # or host, when no table waits (the event says)
        self._say(f"Quick match ({preset}): looking for a table...")
        self.hub.watch(self.hub.open().quick_match(preset), "quick match failed")

    def _open_public(self) -> None:
        self._set_name()
        self._for_match("host", "online")
        self._say("Opening your table...")
        self.hub.watch(
            self.hub.open().open_public_table(self.services.setup.rules()),
            "could not open the table",
        )

    def _hosting(self, info) -> None:
        if self.state == "Tables":
            self.own_code = normalize_code(info.code)  # listed with the code it was opened with
            self.open_button["state"] = "disabled"  # one table at a time (Back closes it)
            self._public_waiting()
            self._refresh_public()  # shown at once as ours, with no Join

    def _public_waiting(self) -> None:
        """Our table is listed (opened, or quick match found none): wait for a guest."""
        self.hub.role = "host"
        self._say("Your table is listed: waiting for an opponent (Back closes it)...")

    def exit(self) -> None:
        self.services.tasks.remove("public-tables-answer")
        self.services.tasks.remove("public-tables-refresh")
        self.public_rows = []
        self._close()
        if self.services.session is None and self.hub.role == "host":  # nobody came: close it
            self.hub.close()
