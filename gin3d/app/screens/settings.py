"""The Settings screen, and the window settings read before the window opens.

The settings themselves are the pure module ``gin3d.settings``; ``game_app.apply_settings``
puts them to use.
"""

from __future__ import annotations

from direct.gui.DirectGui import DGG, DirectEntry
from panda3d.core import TextNode

from ... import settings as settings_mod
from ...built_in import built_in_service
from ...engine import PRESETS
from ...net.constants import NO_ANSWER
from ...players import levels, opponent_name
from ...recorder import PARTNERSHIPS, THREE_PLAYERS
from ...scene.ui.panel import entry
from ...settings import OPPONENT_LEVELS, Settings
from .base import Screen

RESOLUTIONS = ((1280, 720), (1600, 900), (1920, 1080), (2560, 1440), (3840, 2160))
SPEEDS = ((0.0, "Instant"), (0.6, "Slow"), (1.0, "Normal"), (1.8, "Fast"), (3.0, "Fastest"))
VOLUMES = (0.0, 0.25, 0.5, 0.75, 1.0)
STYLE_NAMES = {"classic": "Classic", "four_colour": "Four-colour", "large_index": "Large index"}
FELT_NAMES = {"green": "Green", "blue": "Blue", "burgundy": "Burgundy", "charcoal": "Charcoal"}
BACK_NAMES = {"blue": "Blue", "red": "Red", "harlequin": "Harlequin"}
LEFT_X, RIGHT_X = -1.38, 0.08  # the two columns of settings
ROW_TOP, ROW_STEP = 0.6, 0.115  # the first row's height and the rows' spacing
LEVEL_NAMES = {lv: opponent_name(lv) for lv, _ in levels()}  # short names: "Walt"
LEVEL_NAMES.update(lan="LAN games", online="Online games")  # network matches (MatchKeeper)
LEVEL_NAMES[THREE_PLAYERS] = "Three players"  # three-player games
LEVEL_NAMES[PARTNERSHIPS] = "Partnerships"  # four players in two teams


def _next(options, value):
    """The option after ``value`` (the first one if ``value`` is not among them)."""
    options = list(options)
    return options[(options.index(value) + 1) % len(options)] if value in options else options[0]


def _volume_name(v: float) -> str:
    return f"{round(v * 100)}%" if v else "off"


def _speed_name(v: float) -> str:
    return next((n for s, n in SPEEDS if s == v), f"{v:g}x")


class SettingsScreen(Screen):
    """State ``Settings``: a draft of the settings, saved by Save; Cancel and Esc go back."""

    name = "Settings"

    def enter(self, back: str = "Menu") -> None:
        self.flow.back_to = back
        self.draft = self.services.user_settings
        p = self._panel("Settings", width=1.45, height=0.94)
        d = lambda: self.draft  # noqa: E731 - rows read the draft as it changes
        left = [
            (
                "resolution",
                "Window size",
                lambda: "{} x {}".format(*d().resolution),
                lambda: self._set(resolution=_next(RESOLUTIONS, d().resolution)),
            ),
            (
                "fullscreen",
                "Full screen",
                lambda: "on" if d().fullscreen else "off",
                lambda: self._set(fullscreen=not d().fullscreen),
            ),
            (
                "antialiasing",
                "Antialiasing",
                lambda: f"{d().antialiasing}x" if d().antialiasing else "off",
                lambda: self._set(antialiasing=_next(settings_mod.MULTISAMPLES, d().antialiasing)),
            ),
            (
                "speed",
                "Animation",
                lambda: _speed_name(d().animation_speed),
                lambda: self._set(
                    animation_speed=_next([s for s, _ in SPEEDS], d().animation_speed)
                ),
            ),
            (
                "music",
                "Music",
                lambda: _volume_name(d().music_volume),
                lambda: self._set(music_volume=_next(VOLUMES, d().music_volume)),
            ),
            (
                "ambience",
                "Table ambience",
                lambda: _volume_name(d().ambience_volume),
                lambda: self._set(ambience_volume=_next(VOLUMES, d().ambience_volume)),
            ),
            (
                "effects",
                "Sound effects",
                lambda: _volume_name(d().effects_volume),
                lambda: self._set(effects_volume=_next(VOLUMES, d().effects_volume)),
            ),
        ]
        right = [
            (
                "felt",
                "Felt",
                lambda: FELT_NAMES[d().felt],
                lambda: self._set(felt=_next(settings_mod.FELTS, d().felt)),
            ),
            (
                "card_back",
                "Card back",
                lambda: BACK_NAMES[d().card_back],
                lambda: self._set(card_back=_next(settings_mod.CARD_BACKS, d().card_back)),
            ),
            (
                "style",
                "Card style",
                lambda: STYLE_NAMES[d().card_style],
                lambda: self._set(card_style=_next(settings_mod.CARD_STYLES, d().card_style)),
            ),
            (
                "rules",
                "Default rules",
                lambda: d().rules_preset,
                lambda: self._set(
                    rules_preset=_next(PRESETS, d().rules_preset), rules_overrides={}
                ),
            ),
            (
                "level",
                "Opponent",
                lambda: LEVEL_NAMES.get(d().opponent_level, d().opponent_level),
                lambda: self._set(opponent_level=_next(OPPONENT_LEVELS, d().opponent_level)),
            ),
            (  # a three-player game's other computer (never the same as the first)
                "second",
                "Second opponent",
                lambda: LEVEL_NAMES.get(d().second_opponent_level, d().second_opponent_level),
                lambda: self._set(
                    second_opponent_level=_next(OPPONENT_LEVELS, d().second_opponent_level)
                ),
            ),
            (
                "undo",
                "Undo (casual)",
                lambda: "on" if d().undo_enabled else "off",
                lambda: self._set(undo_enabled=not d().undo_enabled),
            ),
            (
                "hints",
                "Hint button",
                lambda: "on" if d().hints_enabled else "off",
                lambda: self._set(hints_enabled=not d().hints_enabled),
            ),
        ]
        self.setting_rows = []
        for column, rows in ((LEFT_X, left), (RIGHT_X, right)):
            for i, (key, label, value, cmd) in enumerate(rows):
                y = ROW_TOP - i * ROW_STEP
                p.text(label, y, 0.048, x=column, align=TextNode.ALeft)
                b = p.button(
                    key,
                    value(),
                    lambda cmd=cmd: (cmd(), self._refresh_settings()),
                    (column + 0.98, y + 0.012),
                    scale=0.046,
                    frameSize=(-4.6, 4.6, -0.55, 1.05),
                )
                self.setting_rows.append((b, value))
        aa_y = ROW_TOP - [k for k, *_ in left].index("antialiasing") * ROW_STEP
        self.aa_note = p.text(  # under its label, clear of the buttons
            "", aa_y - 0.052, 0.03, x=LEFT_X + 0.02, align=TextNode.ALeft, fg=(1, 0.8, 0.6, 1)
        )
        y = ROW_TOP - len(left) * ROW_STEP  # the left column's last row
        p.text("Your name", y, 0.048, x=LEFT_X, align=TextNode.ALeft)
        self.name_entry = DirectEntry(
            parent=p.frame,
            initialText=self.draft.player_name,
            scale=0.046,
            width=9.2,
            pos=(LEFT_X + 0.77, 0, y),
            numLines=1,
            focus=0,
            frameColor=(0.95, 0.9, 0.75, 0.95),
            text_fg=(0.12, 0.08, 0.04, 1),
            relief=DGG.FLAT,
        )
        p.widgets.append(self.name_entry)
        self._service_row(p, ROW_TOP - (len(right) - 1) * ROW_STEP - 0.2)
        self.settings_note = p.text(
            "Window size, full screen and antialiasing apply when "
            "gin3d starts again; the rest as soon as you save.",
            -0.62,
            0.036,
            fg=(0.85, 0.9, 0.85, 1),
        )
        self._refresh_settings()
        p.button(
            "save",
            "Save",
            self._save_settings,
            (0.35, -0.8),
            scale=0.06,
            frameSize=(-3, 3, -0.55, 1.05),
        )
        p.button(
            "back",
            "Cancel",
            lambda: self.request(self.flow.back_to),
            (-0.35, -0.8),
            scale=0.06,
            frameSize=(-3, 3, -0.55, 1.05),
        )
        self._esc(back)

    def _set(self, **changes) -> None:
        self.draft = self.draft.but(**changes)

    def _refresh_settings(self) -> None:
        for b, value in self.setting_rows:
            b["text"] = value()
        # a software renderer draws without multisampling (quality.fit_framebuffer)
        off = self.draft.antialiasing and self.services.software_renderer()
        self.aa_note.setText("(not available on this renderer)" if off else "")

    def _save_settings(self) -> bool:
        """Check the draft (name included), write it, and apply what applies at once."""
        try:
            draft = self.draft.but(
                player_name=self.name_entry.get().strip(),
                online_service=p_entry_text(self.panel, "service"),
            )
        except ValueError as err:
            self.settings_note.setText(str(err))
            self.settings_note["fg"] = (1, 0.6, 0.5, 1)
            return False
        try:
            settings_mod.save(draft)
        except OSError as err:
            self.settings_note.setText(f"Could not save the settings: {err}")
            return False
        self.services.apply_settings(draft)
        self.request(self.flow.back_to)
        return True

    def _service_row(self, p, y: float) -> None:
        """Settings → Online service: the nodes' address and a Test button that asks them."""
        p.text("Online service", y, 0.048, x=LEFT_X, align=TextNode.ALeft)
        entry(p, "service", self.draft.online_service, (-0.6, y), width=22, scale=0.042)
        p.button(
            "test_service",
            "Test",
            self._test_service,
            (0.95, y + 0.012),
            scale=0.046,
            frameSize=(-2.4, 2.4, -0.55, 1.05),
        )
        built = built_in_service()
        empty = (
            f"empty: this game's own service, {built}"
            if built
            else "empty: LAN, direct and a friend by code"
        )
        self.service_note = p.text(
            f"host:port of a gin3d-relay (several: comma-separated); {empty}",
            y - 0.075,
            0.032,
            x=-1.38,
            align=TextNode.ALeft,
            fg=(0.85, 0.9, 0.85, 1),
        )

    def _test_service(self) -> None:
        """Ask the typed service whether it answers; the line under it says what came back."""
        text = p_entry_text(self.panel, "service") or built_in_service()
        note = self.service_note
        if not text:
            note.setText("No service typed: LAN, direct and a friend by code only")
            return
        try:
            fut = self.services.hub.open().probe_service(text)
        except (ValueError, OSError) as err:
            note.setText(f"Not an address: {err}")
            return
        note.setText(f"Asking {text}...")

        def check(task):
            if not fut.done():
                return task.cont
            if note is self.service_note:  # still this screen
                note.setText(service_words(fut))
            return task.done

        self.services.tasks.add(check, "settings-test-service")

    def exit(self) -> None:
        self.services.tasks.remove("settings-test-service")
        self.service_note = None
        self._close()


def p_entry_text(panel, key: str) -> str:
    """What a panel's text field holds now, trimmed."""
    return panel.entries[key].get().strip()


def service_words(fut) -> str:
    """What a probe of the online service found, in the player's words."""
    exc = fut.exception()
    if exc is not None:
        return f"Not an address: {exc}"
    probe = fut.result()
    if not probe.ok:
        return f"No answer: {probe.error.removeprefix(NO_ANSWER)}"[:140]
    if not probe.compatible:
        return (
            f"It answers ({probe.address}) but speaks another version "
            f"({probe.relay_protocol}, game protocol {probe.protocol}): update gin3d"
        )
    nodes = "one of several nodes" if probe.mode == "redis" else "a single node"
    return f"The service answers: {probe.address}, {nodes}, ready for online play"


def window_prc(s: Settings, software: bool = False) -> str:
    """Panda3D configuration lines for the window settings (read before the window opens);
    ``software``: the last start found a software renderer, which gets no multisampling
    whatever the setting (``scene/media/quality.fit_framebuffer``)."""
    aa = 0 if software else s.antialiasing
    return (
        f"win-size {s.resolution[0]} {s.resolution[1]}\n"
        f"fullscreen {'#t' if s.fullscreen else '#f'}\n"
        f"framebuffer-multisample {'1' if aa else '0'}\nmultisamples {aa}\n"
    )
