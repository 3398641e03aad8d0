"""Prizes of one division: places, rating classes, high game; and fund splits.

Order of awarding: place prizes by place, then class prizes in the order
given, then the high game prize. With `one_prize_per_player`, a player who
already holds a prize is passed over for later ones, which go to the next
eligible player.

Ties (seed 000: players level on wins and spread share a rank such as "=3")
are handled by one policy everywhere:

* Tied players are listed together on one award.
* By default each of them receives the prize of the highest position they
  share: two players "=3" both receive the 3rd prize, and the 4th prize,
  which their tie covers, is not awarded (it is reported with no players).
  This matches how shared ranks read: there is no 4th place, the next
  player is 5th.
* Players listed apart as withdrawn (unranked) receive no place or class
  prize; a winning score they made still counts for the high game.
* If the event splits ties (`TIE_SPLIT`, or the older `split_ties`), the
  cash of every prize the tie covers is pooled and divided equally (rounded
  down to the cent; the rounding remainder is reported in the note). The
  award lists the prizes pooled (`covers`) and their cash (`pooled`), so a
  page can show the sum. Non-cash prizes in a pool are listed in the
  description for the organisers to allocate.
* If the director decides (`TIE_DIRECTOR`), every prize a tie covers is
  reported separately with the tied players as `tied_with` and no winner,
  until `PrizeOptions.decisions` names one of the tied players for it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from events.play.core.results import Game, GameKind, PlayerId
from events.play.core.standings import Entrant, Standing

__all__ = [
    "PlacePrize",
    "ClassPrize",
    "HighGamePrize",
    "PrizeOptions",
    "TIE_SPLIT",
    "TIE_HIGHER",
    "TIE_DIRECTOR",
    "TIE_POLICIES",
    "FundShare",
    "explain_fund_split",
    "Award",
    "award_prizes",
    "split_prize_fund",
    "ordinal",
    "rating_band_text",
    "class_title",
]

CENT = Decimal("0.01")

# How tied players share the prizes their tie covers.
TIE_SPLIT = "split"  # pool the cash and divide it equally
TIE_HIGHER = "higher"  # each receives the highest prize of the tie
TIE_DIRECTOR = "director"  # the director assigns each prize to one of the tied players
TIE_POLICIES = (TIE_SPLIT, TIE_HIGHER, TIE_DIRECTOR)


@dataclass(frozen=True)
class PlacePrize:
    place: int  # 1 = first
    description: str  # e.g. "Shopping voucher S$100 + trophy"
    amount: Decimal | None = None  # cash value, if any


@dataclass(frozen=True)
class ClassPrize:
    """Best (or `place`-th best) player of a rating class.

    The class is either a label matched against `Entrant.rating_class`, or a
    band of pre-event ratings (`min_rating`/`max_rating` inclusive; None is
    open-ended), or both.
    """

    name: str  # e.g. "Class B"
    description: str
    amount: Decimal | None = None
    place: int = 1
    rating_class: str | None = None
    min_rating: int | None = None
    max_rating: int | None = None

    def admits(self, entrant: Entrant) -> bool:
        if self.rating_class is not None and entrant.rating_class != self.rating_class:
            return False
        if self.min_rating is not None and entrant.rating < self.min_rating:
            return False
        return self.max_rating is None or entrant.rating <= self.max_rating


@dataclass(frozen=True)
class HighGamePrize:
    """Highest winning score of the division (ties and byes do not count)."""

    description: str
    amount: Decimal | None = None


@dataclass(frozen=True)
class PrizeOptions:
    """`ties` is one of TIE_POLICIES; when None, `split_ties` chooses between split and higher.

    `decisions` are the director's: prize name (as in `Award.prize`) → the tied player who receives it,
    the latest first (a tied player receives one prize of the tie: the latest decision naming them counts).
    """

    one_prize_per_player: bool = False
    split_ties: bool = False
    ties: str | None = None
    decisions: Mapping[str, PlayerId] = field(default_factory=dict)

    @property
    def tie_policy(self) -> str:
        if self.ties is not None:
            if self.ties not in TIE_POLICIES:
                raise ValueError(f"unknown tie policy {self.ties!r}")
            return self.ties
        return TIE_SPLIT if self.split_ties else TIE_HIGHER


@dataclass(frozen=True)
class Award:
    """One prize and who receives it.

    `players` is empty for a prize not awarded (covered by a tie, or nobody
    eligible). `amount_each` is what each listed player receives in cash.
    """

    prize: str  # e.g. "3rd place", "Class B", "High game"
    description: str
    players: tuple[PlayerId, ...]
    amount_each: Decimal | None
    rank_label: str = ""  # e.g. "=3", or the winning score for the high game
    note: str = ""
    tied_with: tuple[PlayerId, ...] = ()  # the tie this award belongs to, if any
    covers: tuple[str, ...] = ()  # split ties: the prizes pooled, e.g. ("2nd place", "3rd place")
    pooled: tuple[Decimal, ...] = ()  # split ties: the cash of each pooled prize that has cash
    decided: bool = False  # the director chose the winner among the tied players


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rating_band_text(min_rating: int | None, max_rating: int | None) -> str:
    """'1500–1699', '1500 and up', 'up to 1499', or '' for no band."""
    if min_rating is not None and max_rating is not None:
        return f"{min_rating}–{max_rating}"
    if min_rating is not None:
        return f"{min_rating} and up"
    if max_rating is not None:
        return f"up to {max_rating}"
    return ""


def class_title(
    min_rating: int | None = None, max_rating: int | None = None, label: str | None = None, place: int = 1
) -> str:
    """How a class prize reads: 'Best in 1500–1699', 'Best rated up to 1499', '2nd best in class B'; '' for
    no class."""
    band = rating_band_text(min_rating, max_rating)
    if label:
        what = f"in class {label}" + (f" ({band})" if band else "")
    elif min_rating is not None and max_rating is not None:
        what = f"in {band}"
    elif band:
        what = f"rated {band}"
    else:
        return ""
    return f"Best {what}" if place <= 1 else f"{ordinal(place)} best {what}"


@dataclass(frozen=True)
class _Offer:
    """A prize at a position of some ordering, before the tie policy."""

    position: int
    prize: str
    description: str
    amount: Decimal | None


def _share(total: Decimal, ways: int) -> tuple[Decimal, Decimal]:
    each = (total / ways).quantize(CENT, rounding=ROUND_DOWN)
    return each, total - each * ways


def _award_groups(
    groups: Sequence[tuple[str, Sequence[PlayerId]]],
    offers: Sequence[_Offer],
    options: PrizeOptions,
    unfilled: str = "nobody eligible",
) -> list[Award]:
    """Apply the tie policy: `groups` are tied players in order, with their rank label.

    Offers at positions past the last player are reported with no players.
    """
    policy = options.tie_policy
    by_position = {o.position: o for o in offers}
    awards: list[Award] = []
    start = 1
    for label, players in groups:
        covered = [by_position[p] for p in range(start, start + len(players)) if p in by_position]
        tie = len(players) > 1
        tied_with = tuple(players) if tie else ()
        if covered and tie and policy == TIE_SPLIT:
            cash = tuple(o.amount for o in covered if o.amount is not None)
            each, rest = _share(sum(cash, Decimal(0)), len(players)) if cash else (None, Decimal(0))
            note = f"split between {len(players)} tied players"
            if rest:
                note += f"; {rest} left over from rounding"
            names = covered[0].prize if len(covered) == 1 else f"{covered[0].prize} to {covered[-1].prize}"
            awards.append(
                Award(
                    names,
                    "; ".join(o.description for o in covered),
                    tuple(players),
                    each,
                    label,
                    note,
                    tied_with,
                    tuple(o.prize for o in covered),
                    cash,
                )
            )
        elif covered and tie and policy == TIE_DIRECTOR:
            # Decisions in the order given (the latest first): a player receives one prize of the tie, so
            # a later decision for a player overrides an earlier one that gave them another of its prizes.
            names = {o.prize for o in covered}
            winner: dict[str, PlayerId] = {}
            for prize, chosen in options.decisions.items():
                if prize in names and prize not in winner and chosen in players and chosen not in winner.values():
                    winner[prize] = chosen
            for o in covered:
                chosen = winner.get(o.prize)
                if chosen is not None:
                    note = "decided by the director"
                    awards.append(
                        Award(o.prize, o.description, (chosen,), o.amount, label, note, tied_with, decided=True)
                    )
                else:
                    note = f"tied for {label}: the director decides"
                    awards.append(Award(o.prize, o.description, (), None, label, note, tied_with))
        elif covered:
            top = covered[0]
            if top.position == start:
                note = f"shared by {len(players)} tied players, each receives it" if tie else ""
                awards.append(Award(top.prize, top.description, tuple(players), top.amount, label, note, tied_with))
                covered = covered[1:]
            for o in covered:
                awards.append(
                    Award(o.prize, o.description, (), None, "", f"not awarded: covered by the tie for {label}")
                )
        start += len(players)
    awards.extend(Award(o.prize, o.description, (), None, "", unfilled) for o in offers if o.position >= start)
    return awards


def _tie_groups(standings: Sequence[Standing]) -> list[tuple[str, list[PlayerId]]]:
    groups: list[tuple[str, list[PlayerId]]] = []
    for s in standings:
        if groups and groups[-1][0] == s.rank_label and s.tied:
            groups[-1][1].append(s.player)
        else:
            groups.append((s.rank_label, [s.player]))
    return groups


def _winning_scores(games: Iterable[Game]) -> dict[PlayerId, tuple[int, int]]:
    """Each player's highest winning score, with the earliest round it was made."""
    best: dict[PlayerId, tuple[int, int]] = {}
    for g in games:
        if g.kind is not GameKind.NORMAL or g.pending or g.player_b is None:
            continue
        assert g.score_a is not None and g.score_b is not None
        if g.score_a == g.score_b:
            continue
        winner, score = (g.player_a, g.score_a) if g.score_a > g.score_b else (g.player_b, g.score_b)
        held = best.get(winner)
        if held is None or (score, -g.round) > (held[0], -held[1]):
            best[winner] = (score, g.round)
    return best


def award_prizes(
    standings: Sequence[Standing],
    entrants: Iterable[Entrant],
    games: Iterable[Game] = (),
    place_prizes: Sequence[PlacePrize] = (),
    class_prizes: Sequence[ClassPrize] = (),
    high_game: HighGamePrize | None = None,
    options: PrizeOptions = PrizeOptions(),
    eligible: Collection[PlayerId] | None = None,
) -> list[Award]:
    """Awards of one division from its final standings (best first).

    `eligible`: the players these prizes are for (the entrants of the category whose prize table this is), when
    the division also seats players of another category; they keep their places in the standings, and the
    prizes go down the standings to the next player who is eligible. None: everyone."""
    by_id = {e.id: e for e in entrants}
    ranked = [s for s in standings if s.rank is not None and (eligible is None or s.player in eligible)]
    awarded: set[PlayerId] = set()
    awards: list[Award] = []

    def record(new: list[Award]) -> None:
        awards.extend(new)
        for a in new:
            awarded.update(a.players)

    offers = [
        _Offer(p.place, f"{ordinal(p.place)} place", p.description, p.amount)
        for p in sorted(place_prizes, key=lambda p: p.place)
    ]
    record(_award_groups(_tie_groups(ranked), offers, options, "fewer players than prizes"))

    # Class prizes of one class are awarded together, so ties inside the
    # class follow the same policy as place prizes.
    classes: dict[tuple[str | None, int | None, int | None, str], list[ClassPrize]] = {}
    for prize in class_prizes:
        key = (prize.rating_class, prize.min_rating, prize.max_rating, prize.name)
        classes.setdefault(key, []).append(prize)
    for prizes in classes.values():
        in_class = [
            s
            for s in ranked
            if s.player in by_id
            and prizes[0].admits(by_id[s.player])
            and not (options.one_prize_per_player and s.player in awarded)
        ]
        class_offers = [
            _Offer(p.place, p.name if p.place == 1 else f"{p.name}, {ordinal(p.place)}", p.description, p.amount)
            for p in sorted(prizes, key=lambda p: p.place)
        ]
        record(_award_groups(_tie_groups(in_class), class_offers, options, "nobody eligible in the class"))

    if high_game is not None:
        scores = _winning_scores(games)
        # Best score first; equal scores in standings order.
        place = {s.player: s.position for s in standings}
        candidates = sorted(
            (
                (score, rnd, pid)
                for pid, (score, rnd) in scores.items()
                if not (options.one_prize_per_player and pid in awarded) and (eligible is None or pid in eligible)
            ),
            key=lambda t: (-t[0], place.get(t[2], len(place) + 1), t[2]),
        )
        offer = _Offer(1, "High game", high_game.description, high_game.amount)
        if not candidates:
            record([Award(offer.prize, offer.description, (), None, "", "no winning score recorded")])
        else:
            top = candidates[0][0]
            group = [(pid, rnd) for score, rnd, pid in candidates if score == top]
            new = _award_groups([(str(top), [pid for pid, _ in group])], [offer], options)
            rounds = ", ".join(f"{pid} in round {rnd}" for pid, rnd in group)
            record(
                [
                    Award(
                        a.prize,
                        a.description,
                        a.players,
                        a.amount_each,
                        a.rank_label,
                        "; ".join(filter(None, [f"score {top}: {rounds}", a.note])),
                        a.tied_with,
                        a.covers,
                        a.pooled,
                        a.decided,
                    )
                    for a in new
                ]
            )
    return awards


def split_prize_fund(
    total: Decimal, fees_by_division: Mapping[str, Decimal], quantum: Decimal = CENT
) -> dict[str, Decimal]:
    """Share a prize fund between divisions in proportion to the fees their players paid.

    (APSP rules, appendix 8.) Amounts are rounded down to `quantum`; the
    units left over go one each to the divisions with the largest remainders
    (ties to the earlier division), so the parts add up to `total` exactly.
    """
    fees = dict(fees_by_division)
    if any(f < 0 for f in fees.values()):
        raise ValueError("fees cannot be negative")
    paid = sum(fees.values(), Decimal(0))
    if paid == 0:
        raise ValueError("no fees paid: nothing to divide the fund by")
    exact = {d: total * f / paid for d, f in fees.items()}
    parts = {d: v.quantize(quantum, rounding=ROUND_DOWN) for d, v in exact.items()}
    left = int((total - sum(parts.values(), Decimal(0))) / quantum)
    order = sorted(fees, key=lambda d: -(exact[d] - parts[d]))
    for d in order[:left]:
        parts[d] += quantum
    return parts


@dataclass(frozen=True)
class FundShare:
    """One division's part of a prize fund split by fees, with the arithmetic behind it."""

    division: str
    players: int
    paid: Decimal  # fees the division's players paid
    percent: Decimal  # of all fees paid, to two decimal places (for showing only)
    exact: Decimal  # fund × paid ÷ all fees, unrounded
    amount: Decimal  # the division's fund: `exact` rounded down to the cent, plus any cent of the remainder
    extra: Decimal  # what the remainder added (0 or one cent)


def explain_fund_split(
    total: Decimal, divisions: Sequence[tuple[str, int, Decimal]], quantum: Decimal = CENT
) -> tuple[list[FundShare], Decimal]:
    """`divisions`: (name, players, fees paid) in the order to show. Returns each division's share and
    the remainder that rounding down left (shared out a cent at a time, see `split_prize_fund`)."""
    fees = {name: paid for name, _, paid in divisions}
    if len(fees) != len(divisions):
        raise ValueError("each division may appear only once")
    parts = split_prize_fund(total, fees, quantum)
    all_paid = sum(fees.values(), Decimal(0))
    floors = {name: (total * paid / all_paid).quantize(quantum, rounding=ROUND_DOWN) for name, paid in fees.items()}
    remainder = total - sum(floors.values(), Decimal(0))
    shares = [
        FundShare(
            division=name,
            players=players,
            paid=paid,
            percent=(paid * 100 / all_paid).quantize(CENT),
            exact=total * paid / all_paid,
            amount=parts[name],
            extra=parts[name] - floors[name],
        )
        for name, players, paid in divisions
    ]
    return shares, remainder
