"""The keyboard help: F1 (or ?) on any screen lists that screen's keys; F1, ? or Esc closes it.

The table's keys come from ``tableinput.KEYS`` itself, so the list cannot drift from what the
keys do. While the help is open it owns Esc (the screen's own Esc target is put back when it
closes) and the table's input is paused, so reading the help never moves a card.
"""

from __future__ import annotations

from direct.gui.DirectGui import DGG, DirectFrame, OnscreenText
from panda3d.core import TextNode

from ..ui.palette import GOLD
from .tableinput import KEYS

OPEN_KEYS = ("f1", "shift-/", "?")  # "?" is shift-/ on most layouts
KEY_NAMES = {"arrow_left": "Left", "arrow_right": "Right", "enter": "Enter", "space": "Space"}
COMMANDS = (  # the table's commands in the order the help lists them
    ("stock", "draw from the stock"),
    ("take", "take the pile's top card"),
    ("pass", "pass the upcard"),
    ("left", "choose a card"),
    ("right", None),
    ("confirm", "discard the chosen card (or lay it off)"),
    ("moveleft", "move the chosen card left / right in the hand"),
    ("moveright", None),
    ("knock", "knock"),
    ("gin", "go gin"),
    ("bestlayoff", "best layoff"),
    ("done", "done laying off"),
    ("sort:melds", "sort by melds / rank / suit"),
    ("sort:rank", None),
    ("sort:suit", None),
    ("hint", "hint"),
    ("next", "next hand"),
    ("watch", "teams: your partner's hand, once yours is over"),
    ("skip", "the computer's move at once (three players: the hand you sit out)"),
    ("sheet", "the score sheet, hand by hand (again: away)"),
)
GENERAL = [("F1 or ?", "this help (again, or Esc, to close it)")]
BUTTON_KEYS = [  # a panel's buttons (scene/ui/focus.py)
    ("Tab / Down, Shift-Tab / Up", "move the gold ring between the buttons"),
    ("Enter or Space", "press the button in the ring"),
]
SCREENS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "Menu": ("Main menu", [("Mouse", "choose an entry")]),
    "Setup": (
        "New game",
        [
            ("Click", "next choice"),
            ("Right-click", "the choice before"),
            ("< / >", "the choice before / after"),
            ("Esc", "back to the menu"),
        ],
    ),
    "Tournament": (
        "Tournament",
        [("Play", "the next rung's game (or resume it)"), ("Esc", "back to the menu")],
    ),
    "HostSetup": (
        "Host a table",
        [
            ("Click", "next choice"),
            ("Right-click", "the choice before"),
            ("< / >", "the choice before / after"),
            ("Esc", "back"),
        ],
    ),
    "HandResult": ("Hand result", [("Enter or n", "next hand"), ("Esc", "pause menu")]),
    "GameOver": ("Game over", [("Esc", "main menu")]),
    "Pause": ("Paused", [("Esc", "back to the table")]),
    "Lan": (
        "LAN play",
        [
            ("Click a field", "type in it; Enter or the button beside it"),
            ("Esc", "back to the menu"),
        ],
    ),
    "Online": (
        "Online play",
        [
            ("Click a field", "type in it; Enter or the button beside it"),
            ("Esc", "back to the menu"),
        ],
    ),
    "Hosting": ("Hosting", [("Esc", "close the table and go back")]),
    "Tables": (
        "Find an opponent",
        [("Join", "take a listed table"), ("Esc", "back to Online play (closes your table)")],
    ),
    "Replay": (
        "Replay",
        [("Left / Right", "step back / on"), ("Home / End", "start / end"), ("Esc", "close")],
    ),
    "Tutorial": (
        "Tutorial",
        [("Click a chapter", "play it (Watch, or Play along)"), ("Esc", "back to the menu")],
    ),
    "Lesson": (
        "Tutorial",
        [
            ("Space", "next step"),
            ("Backspace", "the step before"),
            ("Esc", "the chapter list (from it: the main menu)"),
        ],
    ),
}


def table_keys() -> list[tuple[str, str]]:
    """(keys, what they do) for the table, from ``KEYS``."""
    by_command: dict[str, list[str]] = {}
    for key, command in KEYS.items():
        by_command.setdefault(command, []).append(KEY_NAMES.get(key, key))
    rows: list[tuple[list[str], str]] = []
    for command, words in COMMANDS:
        keys = by_command.get(command, [])
        if words is None and rows:  # shares the line above ("choose a card": Left / Right)
            rows[-1][0].extend(keys)
        else:
            rows.append((list(keys), words))
    return [(" / ".join(keys), words) for keys, words in rows if keys]


def sections(state: str, table: bool) -> list[tuple[str, list[tuple[str, str]]]]:
    """What the help shows on screen ``state``; ``table``: the table's keys work here too."""
    out = []
    if state in SCREENS:
        out.append(SCREENS[state])
    if state == "Table" or table:
        out.append(
            (
                "At the table",
                [
                    *table_keys(),
                    (
                        "Esc",
                        "pause menu (the match goes on online)" if state == "Table" else "back",
                    ),
                ],
            )
        )
    general = GENERAL if state in ("Table", "Tutorial") or table else GENERAL + BUTTON_KEYS
    out.append(("Everywhere", general))
    return out


class HelpOverlay:
    """F1 / ? help over whatever screen is showing (installed once by the app)."""

    def __init__(self, app) -> None:
        self.app = app
        self.frame: DirectFrame | None = None
        self.saved_escape = None  # the screen's own Esc handler while the help owns Esc
        self.paused_input = None
        for key in OPEN_KEYS:
            app.accept(key, self.toggle, [key])
        # always in the corner, so the help can be found at all
        self.tip = OnscreenText(
            parent=app.a2dBottomLeft,
            text="F1 or ?: keys",
            pos=(0.03, 0.03),
            scale=0.032,
            fg=(1, 1, 1, 0.55),
            align=TextNode.ALeft,
            shadow=(0, 0, 0, 0.6),
        )

    @property
    def is_open(self) -> bool:
        return self.frame is not None

    def toggle(self, key: str = "f1") -> None:
        if key != "f1" and self._typing():  # a "?" typed into a text field stays there
            return
        if self.is_open:
            self.close()
        else:
            self.open()

    def _typing(self) -> bool:
        """Whether a text field (name, code, chat) has the keyboard now."""
        return any(np.node().getFocus() for np in self.app.aspect2d.findAllMatches("**/+PGEntry"))

    def _screen(self) -> tuple[str, bool]:
        """The screen showing now, and whether the table's keys act on it."""
        screens = self.app.screens
        state = screens.state or "Menu"
        tutorial = getattr(screens, "tutorial", None)
        table = bool(
            tutorial is not None and tutorial.view is not None and tutorial.view.input is not None
        )
        return state, table

    def open(self) -> None:
        state, table = self._screen()
        self.lines = []
        rows: list[tuple[str, str, bool]] = []  # (left, right, heading)
        for title, keys in sections(state, table):
            rows.append((title, "", True))
            rows += [(k, w, False) for k, w in keys]
        step = min(0.066, 1.6 / max(1, len(rows)))
        half = 0.5 * step * len(rows) + 0.16
        self.frame = DirectFrame(
            parent=self.app.aspect2d,
            frameColor=(0.03, 0.05, 0.04, 0.95),
            relief=DGG.FLAT,
            frameSize=(-1.0, 1.0, -half, half),
            state=DGG.NORMAL,
            sortOrder=100,
        )  # over every panel
        self.frame.setBin("gui-popup", 100)
        OnscreenText(parent=self.frame, text="Keys", pos=(0, half - 0.1), scale=0.065, fg=GOLD)
        y = half - 0.2
        for left, right, heading in rows:
            if heading:
                self.lines.append(
                    OnscreenText(
                        parent=self.frame,
                        text=left,
                        pos=(-0.9, y),
                        scale=0.046,
                        fg=GOLD,
                        align=TextNode.ALeft,
                    )
                )
            else:
                self.lines.append(
                    OnscreenText(
                        parent=self.frame,
                        text=left,
                        pos=(-0.3, y),
                        scale=0.04,
                        fg=(1, 1, 0.85, 1),
                        align=TextNode.ARight,
                    )
                )
                self.lines.append(
                    OnscreenText(
                        parent=self.frame,
                        text=right,
                        pos=(-0.22, y),
                        scale=0.04,
                        fg=(1, 1, 1, 1),
                        align=TextNode.ALeft,
                    )
                )
            y -= step
        # the help owns Esc while it is open; the screen's own target comes back after
        self.saved_escape = self._escape_handler()
        self.app.accept("escape", self.close)
        session = self.app.session
        if session is not None and getattr(session, "input", None) is not None:
            self.paused_input = (session.input, session.input.enabled)
            session.input.enabled = False

    def _escape_handler(self):
        """(method, extra args) of the app's own Esc handler now, or None."""
        app = self.app
        if not app.isAccepting("escape"):
            return None
        acceptors = app.messenger.whoAccepts("escape") or {}
        entry = acceptors.get(app.messenger._getMessengerId(app))
        return (entry[0], entry[1]) if entry else None

    def text(self) -> str:
        """Everything the help says now (tests)."""
        return "\n".join(t.getText() for t in self.lines) if self.is_open else ""

    def close(self) -> None:
        if self.frame is None:
            return
        self.frame.destroy()
        self.frame = None
        self.lines = []
        now = self._escape_handler()
        if now is not None and now[0] == self.close:  # no screen took Esc meanwhile
            self.app.ignore("escape")
            if self.saved_escape is not None:
                method, extra = self.saved_escape
                self.app.accept("escape", method, extra)
        self.saved_escape = None
        if self.paused_input is not None:
            inp, was = self.paused_input
            if inp is getattr(self.app.session, "input", None):
                inp.enabled = was
            self.paused_input = None


__all__ = ["HelpOverlay", "sections", "table_keys"]
