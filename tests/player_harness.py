"""The player's-eye harness: the installed game in a real X window, real input, real screen.

An ``XServer`` (Xvfb, on a display number it picks itself) holds the window; ``Player``
starts the game the way the README does (the ``gin3d`` console script, default settings, a
fresh home folder) and plays it only through the X server: pointer moves, clicks, drags and
key presses sent with the XTEST extension (the same events a mouse and a keyboard make),
screenshots read back from the window, and the status line the game writes when
``GIN3D_STATUS`` asks for it (``gin3d/scene/window/status_line.py``: the screen, texts, buttons
and card positions a player sees). Nothing here calls into the game's objects.

Waiting is always for something the player would see, with a deadline; never a fixed sleep.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
SCREEN = (1280, 800)
WINDOW = "1280x720"
TRACEBACK_MARKS = (
    "Traceback (most recent call last)",
    "gin3d status line:",
    "AlreadyInTransition",
    "Exception ignored",
)


def _xlib():
    try:
        from Xlib import XK, X, display
        from Xlib.ext import xtest
    except ImportError:
        return None
    return X, XK, display, xtest


def write_png(path: Path, rgb: np.ndarray) -> None:
    """An RGB array as a PNG file (so screenshots need no imaging library)."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\0" + rgb[y].astype(np.uint8).tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )
    path.write_bytes(png)


def end(proc: subprocess.Popen | None, grace: float) -> None:
    """Stop a process this harness started: SIGTERM, then SIGKILL after ``grace`` seconds."""
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class XServer:
    """A private Xvfb display, started on a free number and stopped by its own process id."""

    def __init__(self, size: tuple[int, int] = SCREEN) -> None:
        self.proc: subprocess.Popen | None = None
        self.size = size
        self.display = ""

    def start(self) -> XServer:
        xvfb = shutil.which("Xvfb")
        if xvfb is None or _xlib() is None:
            pytest.skip(
                "no X server here: Xvfb or python-xlib is missing "
                "(.ci/run installs xvfb; pip install python-xlib)"
            )
        # a high display number of its own: on :0 the offscreen scene tests of the same run
        # would find it and render through it instead of their own buffer
        number = next(
            (
                n
                for n in range(90 + os.getpid() % 100, 400)
                if not Path(f"/tmp/.X{n}-lock").exists()
                and not Path(f"/tmp/.X11-unix/X{n}").exists()
            ),
            None,
        )
        if number is None:
            pytest.skip("no free X display number")
        read, write = os.pipe()
        w, h = self.size
        self.proc = subprocess.Popen(
            [
                xvfb,
                f":{number}",
                "-displayfd",
                str(write),
                "-screen",
                "0",
                f"{w}x{h}x24",
                "-nolisten",
                "tcp",
                "-noreset",
                "+extension",
                "XTEST",
            ],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        digits = b""
        deadline = time.monotonic() + 30
        with os.fdopen(read, "rb") as pipe:
            while not digits.endswith(b"\n") and time.monotonic() < deadline:
                ch = pipe.read(1)
                if not ch:
                    break
                digits += ch
        if not digits.strip():
            self.stop()
            pytest.skip("Xvfb did not start")
        self.display = ":" + digits.decode().strip()
        return self

    def stop(self) -> None:
        end(self.proc, 10)
        self.proc = None


class GameExited(AssertionError):
    """The game's process ended while the test still played it."""


class Player:
    """One run of the installed game, played through the X server like a person."""

    def __init__(
        self,
        x: XServer,
        home: Path,
        shots: Path,
        args: tuple[str, ...] = (),
        size: str = WINDOW,
        prefix: tuple[str, ...] = (),
        upnp: bool = False,
        exe: Path | None = None,
    ) -> None:
        """``prefix``: a command the game runs under (``ip netns exec NS``: a private network
        of the test's own); ``upnp``: let the game ask the router for a port (only where no
        router can be reached: in such a private network); ``exe``: the game's program (a
        packaged build's), instead of the installed ``gin3d`` script."""
        self.x = x
        self.exe = exe
        self.prefix = prefix
        self.upnp = upnp
        self.home = home
        self.shots = shots
        self.args = args
        self.size = size
        self.proc: subprocess.Popen | None = None
        self.status_path = home / "status.jsonl"
        self.log_path = home / "game.log"
        self._read_at = 0
        self.last: dict = {}
        self.metrics: list[dict] = []
        self.frame = 0  # the frames the game has drawn, from its status line
        self.still = False  # whether it draws none now (its picture is the newest)
        self.woken: dict = {}  # what ended its still spells, by name, so far
        self._display = None
        self._window = None

    # -- the process ----------------------------------------------------------------------
    def start(self, wait: bool = True) -> Player:
        # the script beside this Python first (the README's .venv/bin/gin3d), then the PATH's
        exe = (
            str(self.exe)
            if self.exe is not None
            else shutil.which("gin3d", path=str(Path(sys.executable).parent))
            or shutil.which("gin3d")
        )
        assert exe, "the gin3d console script is not installed (pip install -e .)"
        self.home.mkdir(parents=True, exist_ok=True)
        self.shots.mkdir(parents=True, exist_ok=True)
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("XDG_", "GIN3D_", "PANDA_", "WAYLAND"))
        }
        env["GIN3D_TEST_LOOPBACK_ONLY"] = "1"  # a game under test never meets at a public server
        # the console script runs this checkout's code (whichever tree it was installed from)
        path = os.pathsep.join(x for x in (str(ROOT), env.get("PYTHONPATH", "")) if x)
        env.update(
            PYTHONPATH=path,
            HOME=str(self.home),
            DISPLAY=self.x.display,
            GIN3D_STATUS=str(self.status_path),
            PYTHONUNBUFFERED="1",
            # the game's audio really plays (OpenAL Soft), into its silent null output: no
            # sound card here, and none heard from a test where there is one
            ALSOFT_DRIVERS=os.environ.get("ALSOFT_DRIVERS", "null"),
        )
        self.status_path.write_text("")
        self._read_at = 0
        self.last = {}
        log = self.log_path.open("a")
        self.proc = subprocess.Popen(
            [
                *self.prefix,
                exe,
                "--size",
                self.size,
                "--no-lan-discovery",
                *(() if self.upnp else ("--no-upnp",)),
                *self.args,
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        self.started = time.monotonic()
        if wait:
            self.wait(lambda s: s.get("screen"), 90, "the first screen")
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        """End the game's process (it is ours: its id, its session)."""
        end(self.proc, 15)
        self.proc = None
        self._window = None
        if self._display is not None:
            self._display.close()
            self._display = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def problems(self) -> list[str]:
        """Lines of the game's log that say something went wrong (tracebacks)."""
        return [
            line
            for line in self.log().splitlines()
            if any(mark in line for mark in TRACEBACK_MARKS)
        ]

    def cpu_seconds(self) -> float:
        """CPU time the game's process has used so far (user + system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    # -- reading the screen ---------------------------------------------------------------
    def status(self) -> dict:
        """The newest screen snapshot (metrics lines are kept aside in ``self.metrics``)."""
        if self.status_path.exists():
            with self.status_path.open("rb") as f:
                f.seek(self._read_at)
                data = f.read()
            end = data.rfind(b"\n")
            if end >= 0:
                self._read_at += end + 1
                for line in data[:end].splitlines():
                    rec = json.loads(line)
                    kind = rec.get("kind")
                    if kind == "metrics":
                        self.metrics.append(rec)
                    elif kind == "tick":
                        self.frame, self.still = rec["frame"], rec.get("still", False)
                        self.woken = rec.get("woken", self.woken)
                    else:
                        self.last = rec
                        self.frame = rec.get("frame", self.frame)
                        self.still = rec.get("still", False)
                        self.woken = rec.get("woken", self.woken)
        return self.last

    def wait(self, pred: Callable[[dict], object], timeout: float, what: str) -> dict:
        """Wait until the screen shows ``what`` (``pred`` of the status), or fail saying so."""
        deadline = time.monotonic() + timeout
        while True:
            snap = self.status()
            if snap and pred(snap):
                return snap
            if not self.alive():
                raise GameExited(
                    f"the game exited while waiting for {what}:\n" + self.log()[-3000:]
                )
            if time.monotonic() > deadline:
                shot = self.shots / f"timeout-{what[:40].replace(' ', '_')}.png"
                write_png(shot, self.grab())
                raise AssertionError(
                    f"no {what} within {timeout:.0f} s (screenshot {shot}); last screen: "
                    f"{json.dumps(snap)[:2500]}\nlog:\n{self.log()[-2000:]}"
                )
            self._settle(0.05)

    def _settle(self, seconds: float) -> None:
        """Let the game run (waiting on the X connection, not sleeping on a guess)."""
        d = self.xdisplay()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            d.sync()
            time.sleep(0.01)  # the poll interval of a wait with a deadline

    def texts(self) -> str:
        return "\n".join(self.status().get("texts", []))

    def button(self, label: str, snap: dict | None = None) -> dict | None:
        """The on-screen button whose label is (or starts with) ``label``."""
        snap = snap or self.status()
        buttons = snap.get("buttons", [])
        for b in buttons:
            if b["text"] == label:
                return b
        for b in buttons:
            if b["text"].startswith(label):
                return b
        return None

    def has_button(self, label: str):
        return lambda s: self.button(label, s) is not None

    def shows(self, text: str):
        return lambda s: any(text in t for t in s.get("texts", []))

    # -- the X side -----------------------------------------------------------------------
    def xdisplay(self):
        if self._display is None:
            _, _, display, _ = _xlib()
            self._display = display.Display(self.x.display)
        return self._display

    def window(self):
        """The game's top-level window (found by its title, like any tool would)."""
        if self._window is None:
            d = self.xdisplay()
            deadline = time.monotonic() + 30
            while self._window is None:
                for w in d.screen().root.query_tree().children:
                    try:
                        name = w.get_wm_name()
                    except Exception:  # a window that went away meanwhile
                        continue
                    if name and "gin3d" in name:
                        self._window = w
                        break
                if self._window is None:
                    assert time.monotonic() < deadline, "the game's window never appeared"
                    self._settle(0.1)
        return self._window

    def origin(self) -> tuple[int, int]:
        d = self.xdisplay()
        t = self.window().translate_coords(d.screen().root, 0, 0)
        return -t.x, -t.y

    def move(self, x: int, y: int) -> None:
        X, _, _, xtest = _xlib()
        ox, oy = self.origin()
        d = self.xdisplay()
        xtest.fake_input(d, X.MotionNotify, x=int(ox + x), y=int(oy + y))
        d.sync()

    def click(self, x: int, y: int, button: int = 1) -> None:
        """Move there and click, like a hand on a mouse (a few frames between each)."""
        X, _, _, xtest = _xlib()
        d = self.xdisplay()
        self.move(x, y)
        self._frames(2)
        xtest.fake_input(d, X.ButtonPress, button)
        d.sync()
        self._frames(2)
        xtest.fake_input(d, X.ButtonRelease, button)
        d.sync()
        self._frames(2)

    def click_button(self, label: str, timeout: float = 20) -> None:
        snap = self.wait(self.has_button(label), timeout, f"a '{label}' button")
        b = self.button(label, snap)
        x0, y0, x1, y1 = b["box"]
        self.click((x0 + x1) // 2, (y0 + y1) // 2)

    def drag(self, start: tuple[int, int], end: tuple[int, int], steps: int = 12) -> None:
        X, _, _, xtest = _xlib()
        d = self.xdisplay()
        self.move(*start)
        self._frames(2)
        xtest.fake_input(d, X.ButtonPress, 1)
        d.sync()
        for i in range(1, steps + 1):
            f = i / steps
            self.move(
                round(start[0] + (end[0] - start[0]) * f), round(start[1] + (end[1] - start[1]) * f)
            )
            self._frames(1)
        xtest.fake_input(d, X.ButtonRelease, 1)
        d.sync()
        self._frames(2)

    def key(self, name: str) -> None:
        """Press and release a key (X keysym names: 'Escape', 'Return', 's', 'F1'...; or one
        printable character, ':' or 'A', typed with Shift held where the keyboard needs it)."""
        X, XK, _, xtest = _xlib()
        d = self.xdisplay()
        sym = ord(name) if len(name) == 1 and name.isprintable() else XK.string_to_keysym(name)
        code = d.keysym_to_keycode(sym)
        assert code, f"no key {name!r}"
        shift = d.keycode_to_keysym(code, 0) != sym and d.keycode_to_keysym(code, 1) == sym
        shift_code = d.keysym_to_keycode(XK.string_to_keysym("Shift_L"))
        w = self.window()
        d.set_input_focus(w, X.RevertToParent, X.CurrentTime)
        if shift:
            xtest.fake_input(d, X.KeyPress, shift_code)
        xtest.fake_input(d, X.KeyPress, code)
        d.sync()
        self._frames(2)
        xtest.fake_input(d, X.KeyRelease, code)
        if shift:
            xtest.fake_input(d, X.KeyRelease, shift_code)
        d.sync()
        self._frames(2)

    def entry(self, key: str, snap: dict | None = None) -> dict | None:
        """The panel's text field ``key`` (its text, box and focus), or None."""
        snap = snap or self.status()
        return next((e for e in snap.get("entries", []) if e["key"] == key), None)

    def type_into(self, key: str, text: str, timeout: float = 20) -> dict:
        """Click into the text field ``key``, clear it and type ``text`` with key presses;
        returns the screen once the field shows what was typed."""
        snap = self.wait(lambda s: self.entry(key, s), timeout, f"the {key} field")
        x0, y0, x1, y1 = self.entry(key, snap)["box"]
        self.click(x1 - 4, (y0 + y1) // 2)  # the end of the field: the cursor lands after
        self.wait(lambda s: self.entry(key, s)["focus"], timeout, f"the {key} field focused")
        for _ in range(len(self.entry(key)["text"])):
            self.key("BackSpace")
        for ch in text:
            self.key(ch)
        return self.wait(
            lambda s: self.entry(key, s)["text"] == text, timeout, f"{text!r} in the {key} field"
        )

    def _frames(self, n: int) -> None:
        """Give the game time for about ``n`` of its frames (it reads input once a frame)."""
        self._settle(0.03 * n)

    def screenshot(self, name: str) -> Path:
        """The window as the player sees it, saved as ``shots/NAME.png``; returns the path.
        Taken once two more frames are drawn after the newest status, so the picture shows
        that status (the status is written as a change is made, the frame after it)."""
        self.status()
        seen = self.frame
        if self.alive():
            deadline = time.monotonic() + 5  # a stalled game: the picture shows it as it is
            while not self.drawn_since(seen) and time.monotonic() < deadline and self.alive():
                self._settle(0.05)
                self.status()
        arr = self.grab()
        path = self.shots / f"{name}.png"
        write_png(path, arr)
        return path

    def drawn_since(self, seen: int) -> bool:
        """Whether the picture shows what the status said at frame ``seen``: two frames drawn
        since, or one and the game now still (it draws nothing while nothing changes)."""
        return self.frame >= seen + 2 or (self.still and self.frame > seen)

    def grab(self, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """The window's pixels (or a box of them) as an RGB array."""
        X, _, _, _ = _xlib()
        w = self.window()
        try:
            geo = w.get_geometry()
        except Exception:  # the game reopened its window (a new framebuffer): find it again
            self._window = None
            w = self.window()
            geo = w.get_geometry()
        x0, y0, x1, y1 = box or (0, 0, geo.width, geo.height)
        img = w.get_image(x0, y0, x1 - x0, y1 - y0, X.ZPixmap, 0xFFFFFFFF)
        arr = np.frombuffer(img.data, dtype=np.uint8).reshape(y1 - y0, x1 - x0, 4)
        return arr[:, :, 2::-1].copy()  # BGRX -> RGB


# -- a player's brain: reads the prompt and its own cards, answers with the mouse -----------
def _deadwood_after(hand: list, extra=None) -> tuple[int, object]:
    """The least deadwood after one discard from ``hand`` (+ ``extra``), and that discard."""
    from gin3d.engine import best_melds

    cards = list(hand) + ([extra] if extra is not None else [])
    best = None
    for c in cards:
        if c is extra:
            continue
        rest = [x for x in cards if x != c]
        dw = best_melds(rest).deadwood_points
        if best is None or dw < best[0] or (dw == best[0] and c.rank > best[1].rank):
            best = (dw, c)
    return best


def my_cards(snap: dict) -> list:
    from gin3d.engine import parse_cards

    return parse_cards(" ".join(h["card"] for h in snap.get("hand", []) if h["card"] != "??"))


def card_at(snap: dict, card) -> tuple[int, int] | None:
    for h in snap.get("hand", []):
        if h["card"] == str(card) and h["at"]:
            return tuple(h["at"])
    return None


def my_move(snap: dict) -> bool:
    """Whether the table waits for the local player (a prompt asks for a move)."""
    prompt = snap.get("prompt", "")
    return (
        snap.get("screen") == "Table"
        and not snap.get("busy")
        and bool(prompt)
        and "thinking" not in prompt
        and prompt != "Hand over"
        # a three-player hand you sit out, a partner's hand you watch: nothing of yours
        and not prompt.startswith(("You sit out", "Watching "))
    )


def play_move(p: Player, snap: dict, knock: bool = True) -> str:
    """Make the move the prompt asks for, with the mouse, and say which it was."""
    from gin3d.engine import best_melds, parse_cards

    prompt = snap["prompt"]
    hand = my_cards(snap)
    top = parse_cards(snap["pile_top"])[0] if snap.get("pile_top") else None
    now = best_melds(hand).deadwood_points if len(hand) == 10 else 999
    seq = snap["seq"]

    def changed(s: dict) -> bool:
        return s["seq"] > seq and (
            s.get("prompt") != prompt or s.get("busy") or s.get("screen") != "Table"
        )

    if prompt.startswith(("Take the", "Last chance", "You cannot knock")):
        want = top is not None and _deadwood_after(hand, top)[0] < now
        label = "Take" if want and p.button("Take", snap) else "Pass"
        p.click_button(label)
        p.wait(changed, 20, f"the table to answer {label}")
        return label.lower()
    if prompt.startswith("Draw from the stock"):
        take = top is not None and "take the" in prompt and _deadwood_after(hand, top)[0] < now - 4
        target = snap["pile"] if take else snap["stock"]
        p.click(*target)
        p.wait(changed, 20, "the draw")
        return "take" if take else "stock"
    if "Gin" in prompt and p.button("Gin!", snap):
        p.click_button("Gin!")
        p.wait(changed, 20, "gin")
        return "gin"
    if prompt.startswith(("Discard", "You can go gin")):
        _, card = _deadwood_after(hand)
        sel = snap
        if snap.get("selected") != str(card):  # a drawn card comes up already lifted
            p.click(*card_at(snap, card))
            sel = p.wait(
                lambda s: s["seq"] > seq and s.get("selected") == str(card),
                20,
                f"the {card} lifted",
            )
        # the lift changed the prompt ("Discard the 7♦: click it again..."): what follows is
        # judged against the lifted state, or the lift alone would pass for the discard
        seq, prompt = sel["seq"], sel.get("prompt", prompt)
        if knock and p.button("Knock", sel):
            p.click_button("Knock")
            p.wait(changed, 20, "the knock")
            return "knock"
        p.click(*sel["pile"])

        def discarded(s: dict) -> bool:  # the card left the hand (a new prompt is not enough)
            return s["seq"] > seq and (len(my_cards(s)) < len(hand) or s.get("screen") != "Table")

        p.wait(discarded, 20, f"the discard of {card}")
        return "discard"
    if prompt.startswith("Lay off") and p.button("Best layoff", snap):
        p.click_button("Best layoff")
        p.wait(changed, 20, "the layoffs")
        return "layoff"
    if p.button("Done", snap):
        p.click_button("Done")
        p.wait(changed, 20, "done")
        return "done"
    raise AssertionError(f"no move for the prompt {prompt!r}")


def play_until(
    p: Player, done: Callable[[dict], bool], timeout: float, what: str, knock: bool = True
) -> dict:
    """Play the local seat's moves until ``done`` holds for the screen."""
    deadline = time.monotonic() + timeout
    while True:
        snap = p.wait(lambda s: done(s) or my_move(s), max(1.0, deadline - time.monotonic()), what)
        if done(snap):
            return snap
        play_move(p, snap, knock=knock)


# -- what the scenario files share: their X server, their players, their screenshots --------
SHOTS = Path(
    os.environ.get("GIN3D_SHOTS", Path(__file__).resolve().parent.parent / "out" / "player")
)


def on(screen: str):
    """A status test: the game shows ``screen``."""
    return lambda s: s.get("screen") == screen


LEVEL_LABELS = {
    "beginner": "Rosie (beginner)",
    "simple": "Walt (steady)",
    "hard": "Margo (sharp)",
    "expert": "Professor Vance (expert)",
}


def _level_shown(snap: dict) -> str | None:
    """The opponent the setup screen names now."""
    return next((b["text"] for b in snap["buttons"] if b["text"] in LEVEL_LABELS.values()), None)


def choose_level(p: Player, level: str) -> None:
    """On the setup screen, click the Opponent button until it names ``level``: one click at
    a time, each waited for until the name changes (a status only newer than the click can
    still name the opponent before it, and a second click then went one too far)."""
    want = LEVEL_LABELS[level]
    for _ in range(len(LEVEL_LABELS) + 1):
        snap = p.status()
        if p.button(want, snap) is not None:
            return
        shown = _level_shown(snap)
        current = next(b for b in snap["buttons"] if b["text"] == shown)
        x0, y0, x1, y1 = current["box"]
        p.click((x0 + x1) // 2, (y0 + y1) // 2)
        p.wait(lambda s, shown=shown: _level_shown(s) not in (None, shown), 10, "a new opponent")
    raise AssertionError(f"no opponent {want} on the setup screen")


def play_game(p: Player, timeout: float) -> dict:
    """Play the hands of a game to its end (Next hand on each result)."""
    deadline = time.monotonic() + timeout
    while True:
        snap = play_until(
            p,
            lambda s: s.get("screen") in ("HandResult", "GameOver"),
            deadline - time.monotonic(),
            "the hand's end",
        )
        if snap["screen"] == "GameOver":
            return snap
        p.click_button("Next hand")
        p.wait(on("Table"), 30, "the next hand")
