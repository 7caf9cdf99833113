"""Read the tutorial in a terminal: ``python -m gin3d.tutorial [--preset P] [--chapter N]``.

Plays chapters in Watch mode and prints every step's narration, the cards in focus, the
hands, and each claim with ✓ or ✗, so a lesson author can check an edit without the 3D table.
Exits with status 1 if any claim fails.
"""

from __future__ import annotations

import argparse
import sys

from gin3d.engine import PRESETS, RuleSet, best_melds

from .lesson import LessonError, load_chapters
from .runner import TutorialRunner


def _hand_line(runner: TutorialRunner, seat: int) -> str:
    hand = runner.table.hand
    if hand is None:
        return ""
    return f"{'you ' if seat == 0 else 'them'}: {best_melds(hand.hands[seat])}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic", choices=list(PRESETS))
    parser.add_argument("--chapter", type=int, default=0, help="one chapter (default: all)")
    parser.add_argument("--quiet", action="store_true", help="print failed claims only")
    args = parser.parse_args(argv)
    rules = RuleSet.preset(args.preset)
    failed = 0
    try:
        chapters = load_chapters()
    except LessonError as exc:
        print(f"broken lesson: {exc}", file=sys.stderr)
        return 2
    for chapter in chapters:
        if args.chapter and chapter.number != args.chapter:
            continue
        runner = TutorialRunner(chapter, rules)
        if not args.quiet:
            print(f"\n=== {chapter.number}. {chapter.title} ({args.preset})")
        while True:
            frame = runner.frame()
            results = runner.check()
            failed += sum(not r.ok for r in results)
            if not args.quiet:
                print(
                    f"\n[{frame.index + 1}/{frame.count}] camera={frame.camera} "
                    f"focus={' '.join(c.pretty for c in frame.focus_cards)} "
                    f"{' '.join(frame.focus_places)}"
                )
                print("  " + frame.text)
                if frame.show:
                    for row in frame.show:
                        print("  show: " + " | ".join(" ".join(c.pretty for c in g) for g in row))
                for seat in (0, 1):
                    line = _hand_line(runner, seat)
                    if line:
                        print("  " + line)
            for r in results:
                if not args.quiet or not r.ok:
                    mark = "\u2713" if r.ok else "\u2717"
                    print(
                        f"  {mark} {r.claim} {r.error}".rstrip()
                        + (
                            ""
                            if not args.quiet
                            else f"  (ch {chapter.number} step {frame.index + 1})"
                        )
                    )
            runner.next()
            if runner.finished:
                break
    print(f"\n{failed} claim(s) failed" if failed else "\nevery claim holds")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
