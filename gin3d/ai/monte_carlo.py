"""A Monte Carlo yardstick for the arena: every choice priced by playing the hand out.

The published Gin Rummy bots that are simplest to describe and hard to beat sample what they
cannot see and play it out. This one (our own code): at each draw and each throw it deals
the opponent's hidden cards at random from the cards it has not seen (the pile cards the
opponent took stay in their hand) and the rest as the stock in a random order, the same
``rollouts`` deals for every option, plays each option out to the hand's end with the fast
greedy play of ``rollout.play_out`` (both sides take the pile's card only into a meld and
throw what leaves the least; the opponent knocks at its first chance), and picks the option
worth the most points on average. A knock is priced on the same deals against the
opponent's deadwood (no layoffs counted). Layoffs are the greedy plan's.

``mc`` plays 32 rollouts an option; ``mc:N`` plays N.
"""

from __future__ import annotations

from ..engine import Action, BigGin, Discard, Knock, PlayerView, deadwood_of_mask, mask_of
from .greedy import next_layoff
from .knowledge import Knowledge, completers
from .player import DRAW_DISCARD, DRAW_STOCK, PASS, ComputerPlayer
from .rollout import RolloutRules, best_throw, play_out

ROLLOUTS = 32
NAME = "mc"
ALWAYS = 99  # the rollouts' own knock: at the first chance, whatever is left of the stock


def bits(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class MonteCarloPlayer(ComputerPlayer):
    """Prices every option on ``rollouts`` sampled deals played out (see the module)."""

    level = NAME

    def __init__(self, rollouts: int = ROLLOUTS, seed: int | str | None = None) -> None:
        super().__init__(seed=seed, name=f"Monte Carlo ({rollouts})")
        if rollouts < 1:
            raise ValueError(f"a Monte Carlo player needs at least one rollout, not {rollouts}")
        self.rollouts = rollouts
        self.level = f"{NAME}:{rollouts}"

    def decide(self, view: PlayerView) -> Action:
        if view.phase == "layoff":
            return next_layoff(view)
        if view.phase == "last_chance":
            return DRAW_DISCARD if DRAW_DISCARD in view.legal else PASS
        know = Knowledge.of(view)
        deals = self._deals(know)
        rules = RolloutRules(
            view.knock_limit, view.rules.gin_bonus, view.rules.undercut_bonus, 10, ALWAYS
        )
        if view.phase in ("upcard", "draw"):
            return self._draw(view, know, deals, rules)
        return self._throw(view, know, deals, rules)

    def _deals(self, know: Knowledge) -> list[tuple[int, list[int]]]:
        """``rollouts`` deals: the opponent's hand (its known cards and hidden ones drawn from
        the unseen) and the stock in drawing order (its end drawn first)."""
        pool = bits(know.unseen_mask & ~know.opp_known)
        out = []
        for _ in range(self.rollouts):
            self.rng.shuffle(pool)
            hidden = pool[: know.opp_hidden]
            theirs = know.opp_known | mask_of(hidden)
            out.append((theirs, pool[know.opp_hidden :]))
        return out

    def _draw(self, view: PlayerView, know: Knowledge, deals, rules) -> Action:
        """Take the pile's card (then the best throw) or draw (then the best throw of what
        comes): whichever plays out better."""
        mine, top = know.mine, view.top
        stock_action = PASS if PASS in view.legal else DRAW_STOCK
        if DRAW_DISCARD not in view.legal or top is None:
            return stock_action
        if not completers(mine) >> int(top) & 1:
            return stock_action  # a card that melds with nothing is worth no look
        taken = mine | 1 << int(top)
        _, throw = best_throw(taken, keep=int(top))
        take = 0.0
        draw = 0.0
        for theirs, stock in deals:
            take += play_out(taken & ~(1 << throw), theirs, throw, list(stock), rules)
            rest = list(stock)
            drawn = mine | 1 << rest.pop()
            _, out = best_throw(drawn)
            draw += play_out(drawn & ~(1 << out), theirs, out, rest, rules)
        return DRAW_DISCARD if take > draw else stock_action

    def _throw(self, view: PlayerView, know: Knowledge, deals, rules) -> Action:
        """The throw (or knock) worth the most points over the deals."""
        if BigGin() in view.legal:
            return BigGin()
        mine = know.mine
        best: tuple[float, Action] | None = None
        for action in view.legal:
            if type(action) not in (Discard, Knock):
                continue
            c = int(action.card)
            rest = mine & ~(1 << c)
            total = 0.0
            if type(action) is Knock:
                mine_dw = deadwood_of_mask(rest)
                for theirs, _stock in deals:
                    total += _knock_points(mine_dw, deadwood_of_mask(theirs), rules)
            else:
                for theirs, stock in deals:
                    total += play_out(rest, theirs, c, list(stock), rules)
            if best is None or total > best[0]:
                best = (total, action)
        assert best is not None
        return best[1]


def _knock_points(mine: int, theirs: int, rules: RolloutRules) -> int:
    """Our points for knocking with ``mine`` deadwood against ``theirs`` (no layoffs)."""
    if mine == 0:
        return theirs + rules.gin_bonus
    if mine < theirs:
        return theirs - mine
    return -(mine - theirs + rules.undercut_bonus)


def make_monte_carlo(name: str, seed: int | str | None = None) -> MonteCarloPlayer:
    """``mc`` (32 rollouts an option) or ``mc:N``."""
    if name == NAME:
        return MonteCarloPlayer(seed=seed)
    count = name[len(NAME) + 1 :]
    if not name.startswith(NAME + ":") or not count.isdigit():
        raise ValueError(f"a Monte Carlo player is named mc or mc:N, not {name!r}")
    return MonteCarloPlayer(int(count), seed=seed)
