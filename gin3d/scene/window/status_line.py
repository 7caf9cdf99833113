"""What a player sees, written as one JSON line per change for the player's-eye tests.

Asked for by the environment (``GIN3D_STATUS=path``), the running game appends a snapshot of
its screen to that file whenever it changes: the screen's name, the texts and buttons on the
2D layer (with their boxes in window pixels), the panel's text fields and what is typed in
them, the local hand's cards with a point where each one can be clicked, what glows, and
whether anything is moving. The player's-eye suite reads it beside its screenshots to know
where to click; nothing in the game reads it back.

Every few seconds (and at each hand's end) a ``metrics`` line adds, for the frames since the
previous one, the figures a soak test
watches: frame-time percentiles, resident memory and the renderer's prepared vertex buffers.
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from pathlib import Path

from panda3d.core import NodePath, PGButton, PGItem, Point3, TextNode

from .frame_rate import FrameCap

STATUS_ENV = "GIN3D_STATUS"
SUIT_MARKS = {"\5s\5": "♠", "\5h\5": "♥", "\5d\5": "♦", "\5c\5": "♣"}
PERIOD = 0.1  # seconds between looks at the screen
CLEARANCE = 2  # pixels a text keeps from a button
METRICS_PERIOD = 5.0


def _plain(text: str) -> str:
    """A TextNode's text without the suit-graphic markup (the symbols a player reads)."""
    for mark, symbol in SUIT_MARKS.items():
        text = text.replace(mark, symbol)
    return text


def _label_left_of(box: list[int], labels: list[tuple[str, list[int]]]) -> str:
    """The text nearest to the left of a button's ``box`` whose middle is level with it."""
    x0, y0, _x1, y1 = box
    beside = [
        (x0 - tb[2], text) for text, tb in labels if tb[2] <= x0 and y0 <= (tb[1] + tb[3]) / 2 <= y1
    ]
    return min(beside)[1] if beside else ""


def rss_kib() -> int:
    """Resident memory of this process, KiB (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


class StatusLine:
    """Appends the screen's state to a file on every change (see the module's docstring)."""

    def __init__(self, app, path: str | Path, cap: FrameCap | None = None) -> None:
        self.app = app
        self.cap = cap  # an on-screen window's frames (drawn only when the picture changes)
        self._drew = False  # whether the previous loop drew a frame
        self._looked_at = -1  # the frames drawn when the screen was last looked at
        self.path = Path(path)
        self.last = ""
        self.frames: deque[float] = deque(maxlen=600)
        self.next_metrics = 0.0
        self.hands_seen = -1
        self.seq = 0
        app.taskMgr.add(self._frame, "status-line-frames")
        app.taskMgr.doMethodLater(PERIOD, self._look, "status-line")

    # -- the pieces of a snapshot -------------------------------------------------------
    def _pixels(self, np: NodePath) -> list[int] | None:
        """The window-pixel box (x0, y0, x1, y1, top-left origin) of a 2D node, or None.
        A button's box is its frame (what takes the click), not the geometry below it."""
        node = np.node()
        if isinstance(node, PGItem) and node.hasFrame():
            left, right, bottom, top = node.getFrame()
            r2d = self.app.render2d
            a = r2d.getRelativePoint(np, Point3(left, 0, bottom))
            b = r2d.getRelativePoint(np, Point3(right, 0, top))
            lo = Point3(min(a.x, b.x), 0, min(a.z, b.z))
            hi = Point3(max(a.x, b.x), 0, max(a.z, b.z))
        else:
            bounds = np.getTightBounds(self.app.render2d)
            if not bounds:
                return None
            lo, hi = bounds
        w, h = self.app.win.getXSize(), self.app.win.getYSize()
        return [
            round((lo.x + 1) / 2 * w),
            round((1 - hi.z) / 2 * h),
            round((hi.x + 1) / 2 * w),
            round((1 - lo.z) / 2 * h),
        ]

    def _point(self, pt) -> list[int] | None:
        if pt is None:
            return None
        w, h = self.app.win.getXSize(), self.app.win.getYSize()
        return [round((pt[0] + 1) / 2 * w), round((1 - pt[1]) / 2 * h)]

    def _buttons(self) -> list[dict]:
        """Each button: its text, its box, whether it can be clicked, and its ``label``, the
        text just left of it on its line (a settings row's name: "Felt"), "" if none."""
        boxes = [(text, self._pixels(np)) for text, np in self._text_nodes()]
        labels = [(text, box) for text, box in boxes if box is not None]
        out = []
        for np in self.app.render2d.findAllMatches("**/+PGButton"):
            if np.isHidden() or np.isStashed():
                continue
            node = np.node()
            assert isinstance(node, PGButton)
            texts = node.getStateDef(0).findAllMatches("**/+TextNode")
            label = _plain(texts[0].node().getText()) if texts.getNumPaths() else ""
            box = self._pixels(np)
            if box is None:
                continue
            out.append(
                {
                    "text": label,
                    "box": box,
                    "active": bool(node.getActive()),
                    "label": _label_left_of(box, labels),
                }
            )
        return out

    def _entries(self) -> list[dict]:
        """The text fields of the screen's panel, and at a network table its chat line:
        their key, what is typed, where to click."""
        panel = getattr(self.app.screens, "panel", None)
        out = []
        fields = dict(getattr(panel, "entries", {}))
        chat = getattr(getattr(self.app.session, "chat", None), "entry", None)
        if chat is not None and self.app.screens.state == "Table":
            fields["chat"] = chat  # a network table's chat line
        for key, field in fields.items():
            if field.isEmpty() or field.isHidden():
                continue
            box = self._pixels(field)
            if box is not None:
                out.append(
                    {"key": key, "text": field.get(), "box": box, "focus": field.guiItem.getFocus()}
                )
        return out

    def _text_nodes(self) -> list[tuple[str, NodePath]]:
        out = []
        for np in self.app.render2d.findAllMatches("**/+TextNode"):
            if (
                np.isHidden()
                or np.isStashed()
                or np.getParent().node().isOfType(PGButton.getClassType())
            ):
                continue
            node = np.node()
            assert isinstance(node, TextNode)
            text = _plain(node.getText()).strip()
            if text:
                out.append((text, np))
        return out

    def _texts(self) -> list[str]:
        return [text for text, _np in self._text_nodes()]

    def _crowded(self, buttons: list[dict]) -> list[str]:
        """The texts that touch a button (closer than ``CLEARANCE`` pixels): hard to read
        and to click beside."""
        out = []
        for text, np in self._text_nodes():
            box = self._pixels(np)
            if box is None:
                continue
            for b in buttons:
                x0, y0, x1, y1 = b["box"]
                if (
                    box[0] < x1 + CLEARANCE
                    and x0 < box[2] + CLEARANCE
                    and box[1] < y1 + CLEARANCE
                    and y0 < box[3] + CLEARANCE
                ):
                    out.append(f"{text} | {b['text']}")
        return out

    def _cut_off(self) -> list[str]:
        """The texts that run past an edge of the window (a player cannot read them whole)."""
        w, h = self.app.win.getXSize(), self.app.win.getYSize()
        out = []
        for text, np in self._text_nodes():
            box = self._pixels(np)
            if box is not None and (box[0] < -1 or box[1] < -1 or box[2] > w + 1 or box[3] > h + 1):
                out.append(text)
        return out

    def _table(self) -> dict:
        scene = self.app.scene
        session = self.app.session
        data: dict = {
            "cards_out": sum(
                len(z) for z in (scene.pile, *scene.hands, *scene.spreads, *scene.table_melds)
            ),
            "glows": sum(1 for n in scene.cards if n.glowing and not n.np.isHidden()),
        }
        view = self._tutorial_view()
        inp = getattr(session, "input", None) if session is not None else None
        if inp is None and view is not None:
            inp = view.input
        if inp is not None:
            data["hand"] = [
                {
                    "card": str(n.card) if n.card is not None else "??",
                    "at": self._point(inp.picker.visible_point(n)),
                }
                for n in scene.hands[0]
            ]
            data["selected"] = str(inp.selected) if inp.selected is not None else None
            data["stock"] = self._point(inp.stock_point())
            data["pile"] = self._point(inp.pile_point())
            if inp.pad.shown:  # the score pad on the felt: its lines and where to click it
                data["pad"] = {
                    "lines": [list(cells) for cells in inp.pad.lines],
                    "at": self._point(inp.picker.screen_point(inp.pad.np, Point3(0, 0, 0.05))),
                }
        data["pile_top"] = str(scene.pile[-1].card) if scene.pile and scene.pile[-1].card else None
        if session is None:
            return data
        hud = getattr(session, "hud", None)
        if hud is not None:
            data["prompt"] = (
                _plain(hud.prompt.textNode.getText()) if not hud.prompt.isHidden() else ""
            )
        game = getattr(session, "game", None)
        if game is not None:
            data["phase"] = game.hand.phase
            data["turn"] = game.turn
            data["hands"] = len(game.hands)
            data["scores"] = list(game.totals())
        return data

    def _tutorial_view(self):
        tut = getattr(self.app.screens, "tutorial", None)
        return getattr(tut, "view", None) if tut is not None else None

    def _tutorial(self) -> dict | None:
        view = self._tutorial_view()
        if view is None:
            return None
        out: dict = {"panel": self._pixels(view.panel.frame)}
        if not view.arrow.isHidden():
            out["arrow"] = self._point(view.picker.screen_point(view.arrow))
            box = view.pointer.screen_box()
            if box is not None:  # the whole arrow through its bob
                a, b = self._point(box[:2]), self._point(box[2:])
                out["arrow_box"] = [a[0], b[1], b[0], a[1]]
        return out

    def snapshot(self) -> dict:
        app = self.app
        snap = {
            "screen": app.screens.state or "",
            "window": [app.win.getXSize(), app.win.getYSize()],
            "busy": bool(app.queue.busy),
            "texts": self._texts(),
            "cut_off": self._cut_off(),
            "buttons": self._buttons(),
        }
        snap["crowded"] = self._crowded(snap["buttons"])
        snap["entries"] = self._entries()
        snap["audio"] = app.atmosphere.report()
        snap["looks"] = {"felt": app.scene.felt, "back": app.scene.factory.back_name}
        snap.update(self._table())
        tutorial = self._tutorial()
        if tutorial is not None:
            snap["tutorial"] = tutorial
        return snap

    # -- writing --------------------------------------------------------------------------
    def _write(self, record: dict) -> None:
        self.seq += 1
        record["seq"] = self.seq
        record["t"] = round(time.perf_counter() - self.app.launch_time, 3)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")

    def _frame(self, task):
        """The time between two frames drawn in a row (a still spell is not a slow frame)."""
        drew = self.cap is None or self.cap.drawing
        if drew and self._drew:
            self.frames.append(globalClock.getDt())  # noqa: F821 (Panda3D's builtin clock)
        self._drew = drew
        return task.cont

    def _drawn(self) -> dict:
        """The frames drawn so far, and whether the picture is still (none being drawn: the
        screen shows the newest status)."""
        if self.cap is None:
            return {"frame": globalClock.getFrameCount(), "still": False}  # noqa: F821
        return {"frame": self.cap.drawn, "still": self.cap.still, "woken": dict(self.cap.woken)}

    def metrics(self) -> dict:
        times = sorted(self.frames)
        gsg = self.app.win.getGsg()
        vbufs = gsg.getPreparedObjects().getNumPreparedVertexBuffers() if gsg else 0

        def pct(q: float) -> float:
            return (
                round(1000 * times[min(len(times) - 1, int(q * len(times)))], 2) if times else 0.0
            )

        return {
            "kind": "metrics",
            "frame_ms_p50": pct(0.5),
            "frame_ms_p99": pct(0.99),
            "rss_kib": rss_kib(),
            "vertex_buffers": vbufs,
            "cpu_s": round(time.process_time(), 3),
        }

    def _unchanged(self) -> bool:
        """Whether the screen is surely as last looked at: still, and no frame drawn since
        (whatever a player sees changing is drawn), so the look can be skipped."""
        drawn = self._drawn()
        if drawn["still"] and drawn["frame"] == self._looked_at:
            return True
        self._looked_at = drawn["frame"]
        return False

    def _look(self, task):
        try:
            if self._unchanged():
                self._write({"kind": "tick", **self._drawn()})
                return task.again
            snap = self.snapshot()
            text = json.dumps(snap, sort_keys=True, ensure_ascii=False)
            if text != self.last:
                self.last = text
                snap.update(self._drawn())
                self._write(snap)
            else:  # a heartbeat: the frames drawn since, for a screenshot to wait on
                self._write({"kind": "tick", **self._drawn()})
            now = time.perf_counter()
            hands = snap.get("hands", -1) if snap.get("phase") == "over" else -1
            if now >= self.next_metrics or (hands != -1 and hands != self.hands_seen):
                self.next_metrics = now + METRICS_PERIOD
                if hands != -1:
                    self.hands_seen = hands
                m = self.metrics()
                self.frames.clear()  # each metrics line covers the frames since the last
                m["hands"] = snap.get("hands")
                self._write(m)
                print(f"gin3d metrics: {json.dumps(m)}", flush=True)
        except Exception as err:  # a look must never stop the game it watches
            print(f"gin3d status line: {type(err).__name__}: {err}", flush=True)
        return task.again


def install(app, cap: FrameCap | None = None) -> StatusLine | None:
    """Start the status line when ``GIN3D_STATUS`` names a file (``cap``: the window's
    frames, when it draws only on change)."""
    path = os.environ.get(STATUS_ENV, "").strip()
    return StatusLine(app, path, cap) if path else None
