"""The arena with the expert's weights changed: a measurement, never a level.

    python bench/bench_weights.py --set potential=2.0 --set danger=7 expert eager \\
        --games 2000 --seed 11

Each ``--set NAME=VALUE`` replaces one of the expert's weights (``ExpertWeights`` in
``gin3d/ai/expert.py``; ``deal.NAME`` one of the deal weights, ``DealWeights``) for this run
only; the rest of the line is the arena's (``python -m gin3d.arena --help``), on the same
decks as an arena run of the same seed. So a variant of the evaluation is measured against
the kept code without editing it, and the figures in docs/ai.md come with their command.
The changed weights live in this process, so the arena runs in one (``--jobs 1``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from gin3d import arena  # noqa: E402
from gin3d.ai.expert import ExpertPlayer, ExpertWeights  # noqa: E402


def parse_value(name: str, old: object, text: str) -> object:
    """``text`` as a value of the type of ``old``, the weight ``name``'s value now."""
    if isinstance(old, bool):
        if text.lower() not in ("true", "false", "1", "0"):
            raise ValueError(f"{name} is true or false, not {text!r}")
        return text.lower() in ("true", "1")
    try:
        return int(text) if isinstance(old, int) else float(text)
    except ValueError:
        kind = "a whole number" if isinstance(old, int) else "a number"
        raise ValueError(f"{name} is {kind}, not {text!r}") from None


def changed(weights: ExpertWeights, settings: list[str]) -> ExpertWeights:
    """``weights`` with each ``NAME=VALUE`` (or ``deal.NAME=VALUE``) of ``settings`` set."""
    for setting in settings:
        name, sep, text = setting.partition("=")
        if not sep:
            raise ValueError(f"{setting!r} is not NAME=VALUE")
        outer, _, inner = name.rpartition(".")
        if outer not in ("", "deal"):
            raise ValueError(f"unknown weight {name!r}")
        group = weights.deal if outer else weights
        fields = {f.name for f in dataclasses.fields(group)}
        if inner not in fields:
            raise ValueError(f"unknown weight {name!r}")
        if dataclasses.is_dataclass(getattr(group, inner)):
            raise ValueError(f"{name!r} is a group of weights: set its fields ({name}.NAME)")
        value = parse_value(name, getattr(group, inner), text)
        group = dataclasses.replace(group, **{inner: value})
        weights = dataclasses.replace(weights, deal=group) if outer else group
    return weights


def differences(old: ExpertWeights, new: ExpertWeights) -> list[str]:
    """``NAME old -> new`` for each weight that differs, the deal weights as ``deal.NAME``."""
    out = []
    for prefix, a, b in (("", old, new), ("deal.", old.deal, new.deal)):
        for f in dataclasses.fields(a):
            x, y = getattr(a, f.name), getattr(b, f.name)
            if x != y and not dataclasses.is_dataclass(x):
                out.append(f"{prefix}{f.name} {x} -> {y}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], usage="%(prog)s [--set NAME=VALUE ...] ARENA ARGS"
    )
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args, rest = parser.parse_known_args(argv)
    jobs = argparse.ArgumentParser(add_help=False)
    jobs.add_argument("--jobs", type=int, default=1)
    jobs.add_argument("--round-robin", action="store_true")
    known, _ = jobs.parse_known_args(rest)
    if known.round_robin:
        parser.error("a round robin is not measured here: name the two players")
    if known.jobs != 1:
        parser.error("the changed weights live in this process: run it with --jobs 1")
    with expert_weights(args.set, parser):
        return arena.main(rest)


@contextlib.contextmanager
def expert_weights(settings: list[str], parser: argparse.ArgumentParser):
    """The expert's weights changed by ``settings`` (``NAME=VALUE``) inside the block, the
    change said on the first line; a bad setting is the parser's error, before any game."""
    kept = ExpertPlayer.weights
    try:
        weights = changed(kept, settings)
    except ValueError as err:
        parser.error(str(err))
    print("expert weights:", ", ".join(differences(kept, weights)) or "unchanged", flush=True)
    ExpertPlayer.weights = weights
    try:
        yield weights
    finally:
        ExpertPlayer.weights = kept


if __name__ == "__main__":
    sys.exit(main())
