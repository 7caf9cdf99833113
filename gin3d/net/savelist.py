"""The saved network matches in a folder, for the app's "Saved matches" list.

Each match keeps ``gin3d-match-<id>-<role>.json`` (see ``MatchSession.save``). ``list_saved``
reads every one into a ``SavedMatch`` summary (opponent, score, date, rules); a file that
cannot be read or does not replay is listed as unreadable with the reason, never deleted
and never raised: only ``delete_saved`` removes a file, when the player asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gin3d.engine import RuleSet
from gin3d.paths import FileFormatError, read_json

from .offer import rules_label
from .session import SAVE_FORMAT

PATTERN = "gin3d-match-*.json"
MAX_BYTES = 8 * 1024 * 1024  # a match of many games is well under this


@dataclass(frozen=True)
class SavedMatch:
    """One save file as the list shows it (``ok`` False: unreadable, ``error`` says why)."""

    path: Path
    ok: bool
    error: str = ""
    role: str = ""  # "host" (resume by hosting again) or "guest" (resume by joining)
    kind: str = ""  # "lan" / "online" ("" for saves from scripts)
    name: str = ""  # our name in the match
    opponent: str = ""
    scores: tuple[int, int] = (0, 0)  # (ours, theirs) in the game being played
    game_number: int = 0
    hands: int = 0  # finished hands of that game
    rules: RuleSet | None = None
    saved_at: str = ""  # ISO time, UTC (the file's time for older saves)
    address: str = ""  # guest: where the host was
    finished: bool = False  # its last game is over: kept for the record, nothing to resume

    @property
    def resumable(self) -> bool:
        return self.ok and not self.finished

    def summary(self) -> str:
        """One line: ``vs Bob   You 45 - 30   Oklahoma, game to 150   2026-11-29 22:10``."""
        if not self.ok:
            return f"{self.path.name}: unreadable ({self.error})"
        game = f" (game {self.game_number + 1})" if self.game_number else ""
        game += " (finished)" if self.finished else ""
        return (
            f"vs {self.opponent or 'unknown'}   {self.scores[0]} - {self.scores[1]}{game}"
            f"   {rules_label(self.rules)}   {self.saved_at.replace('T', ' ')[:16]}"
        )


def read_save(path: str | Path) -> dict:
    """A save file's data, checked to load and replay; ValueError says what is wrong."""
    from .savegame import load_match

    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ValueError("the file is too large to be a saved match")
        data = read_json(path)
    except OSError as exc:
        raise ValueError(f"cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ValueError("is not text") from None
    except FileFormatError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError("is not a gin3d network save")
    for key in ("match", "role", "identity", "peer_fingerprint", "code", "games"):
        if key not in data:
            raise ValueError(f"lacks {key!r}")
    if data["role"] not in ("host", "guest") or data.get("seat") != (
        1 if data["role"] == "guest" else 0
    ):
        raise ValueError("its role and seat do not agree")
    try:
        load_match(data, data["match"])
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"is damaged ({type(exc).__name__}: {exc})") from None
    except ValueError as exc:
        raise ValueError(f"does not replay ({exc})") from None
    return data


def summarize(path: Path) -> SavedMatch:
    """The list entry of one file; never raises."""
    try:
        data = read_save(path)
        seat = data["seat"]
        last = data["games"][-1]
        totals = last.get("totals") or [0, 0]
        rules = RuleSet.from_dict(data["rules"])
        when = str(data.get("saved_at", ""))
        if not when:
            from datetime import datetime, timezone

            when = datetime.fromtimestamp(path.stat().st_mtime, timezone.utc).strftime(
                "%Y-%m-%dT%H:%M:%SZ"
            )
        return SavedMatch(
            path,
            True,
            role=data["role"],
            kind=str(data.get("kind", "")),
            name=str(data.get("name", "")),
            opponent=str(data.get("peer_name", ""))[:40],
            scores=(int(totals[seat]), int(totals[1 - seat])),
            game_number=len(data["games"]) - 1,
            hands=len(last["hands"]),
            rules=rules,
            saved_at=when,
            address=str(data.get("address", "")),
            finished=bool(last.get("over")),
        )
    except ValueError as exc:
        return SavedMatch(path, False, error=str(exc))
    except Exception as exc:  # a list must show every file, whatever is wrong with it
        return SavedMatch(path, False, error=f"{type(exc).__name__}: {exc}")


def list_saved(folder: str | Path | None) -> list[SavedMatch]:
    """Every save in ``folder``, newest first (unreadable ones included, marked)."""
    if folder is None:
        return []
    folder = Path(folder)
    try:
        paths = [p for p in folder.glob(PATTERN) if p.is_file()]
    except OSError:
        return []

    def mtime(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    return [summarize(p) for p in sorted(paths, key=mtime, reverse=True)]


def delete_saved(path: str | Path) -> None:
    """Remove one save (the player confirmed); only files this list would show."""
    path = Path(path)
    if not path.match(PATTERN):
        raise ValueError(f"{path.name} is not a saved match file")
    path.unlink(missing_ok=True)


__all__ = ["SavedMatch", "delete_saved", "list_saved", "read_save", "summarize"]
