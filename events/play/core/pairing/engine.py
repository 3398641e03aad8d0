"""`pair_round`: one entry point for every pairing system (DOMAIN §3)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import replace

from events.play.core.results import Game, GameKind, PlayerId
from events.play.core.standings import Entrant, Standing, compute_standings, gibsonized, out_of_contention

from .chew import ChewRecord, chew_pairs, competition_ranks, default_prize_bands
from .core import History, PairingError, PairingOptions, PairingPlayer, PairingResult, count_repeats
from .firsts import assign_firsts
from .fontes import fontes_round, fontes_starts
from .ranked import choose_bye, closest_pairs, koth_pairs
from .schedules import Slot, berger_starts, repeat_of_last_round, round_robin_round
from .swiss import swiss_pairs

__all__ = ["SYSTEMS", "pair_round"]

# The one list of pairing systems, with the names people read (forms, pages, the API and the models use it).
SYSTEMS: dict[str, str] = {
    "koth": "King of the Hill",
    "swiss": "Swiss",
    "random": "Random",
    "round_robin": "Round robin",
    "double_round_robin": "Double round robin",
    "initial_fontes": "Initial Fontes",
    "chew": "Chew pairings (tsh cp)",
}


def pair_round(
    system: str, players: Sequence[PairingPlayer], history: Sequence[Game], options: PairingOptions
) -> PairingResult:
    """Pair round `options.round` of `system` for `players` (those playing this round).

    `history` holds the division's games; only rounds before this one count,
    pending (unscored) pairings included. Byes go, before pairing and only
    for an odd count, to the Gibsonized leader if there is one, else to the
    lowest-placed of the players with the fewest rounds without an opponent
    (as tsh counts byes); in a round robin meeting the phantom is the bye,
    and in initial Fontes the member of the odd group without a game that
    round. Pairs come in board order, by the higher-placed player of each
    pair (as tsh numbers boards), the player who starts listed first: by
    `firsts` (tsh's counts of starts and replies), in a round robin and an
    initial Fontes block's full groups of five or more rounds by tsh's
    Berger schedule of starts. Raises PairingError when the pairing
    breaks the repeat limit (with the least-repeat pairing attached) or the
    schedule has no such round.
    """
    if system not in SYSTEMS:
        raise ValueError(f"unknown pairing system {system!r}; expected one of {', '.join(SYSTEMS)}")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    past = History(history, options.round)
    seed = options.seed if options.seed is not None else secrets.randbits(31)
    standings = _standings(players, past, options)
    position = {s.player: s.position for s in standings}
    warnings: list[str] = []
    leader: PlayerId | None = None
    chew_gibsons: list[PlayerId] = []
    enforce = options.avoid_repeats and system in ("random", "koth", "swiss")
    replay = False  # a round robin's second game of a pair in a row: the other player starts
    scheduled = False  # a round robin's starts come from its schedule, not from the players' counts
    fixed_starts: dict[frozenset[PlayerId], PlayerId] = {}  # initial Fontes pairs whose schedule says who starts

    if system in ("round_robin", "double_round_robin"):
        cycles = 2 if system == "double_round_robin" else options.cycles
        index = options.round - options.start_round
        replay = repeat_of_last_round(index, cycles)
        in_seed_order = [p.id for _, p in sorted(enumerate(players), key=lambda ip: (ip[1].seed, ip[0]))]
        pairs, bye = _split_phantom(round_robin_round(in_seed_order, index, cycles))
        if options.assign_firsts:
            slots: list[Slot] = [*in_seed_order, *([None] if len(in_seed_order) % 2 else [])]
            flip = _berger_flip(slots, past, options, seed)
            pairs, _ = _split_phantom(berger_starts(slots, index // cycles, flip))
            scheduled = True
    elif system == "initial_fontes":
        by_rating = [p.id for _, p in sorted(enumerate(players), key=lambda ip: (-ip[1].rating, ip[1].seed, ip[0]))]
        index = options.round - options.start_round
        block = {"snaked": options.initial_snaked, "seed": seed}
        pairs, bye = fontes_round(by_rating, options.fontes_rounds, index, **block)
        fixed_starts = fontes_starts(by_rating, options.fontes_rounds, index, **block)
        # The groups must be those of the block's earlier rounds: the same field, grouping and seed.
        for k in range(index):
            earlier, _ = fontes_round(by_rating, options.fontes_rounds, k, **block)
            played = {frozenset((g.player_a, g.player_b)) for g in past.games if g.round == options.start_round + k}
            if not {frozenset(p) for p in earlier} <= played:
                warnings.append(
                    f"Round {options.start_round + k} was not paired from these initial Fontes groups: pair the "
                    "block with the seed of its first round, the same grouping and the same players."
                )
                break
    else:
        order = [s.player for s in standings]
        pairs = []
        # As tsh's SetupForPairings: Gibsonize first, then give a bye to an odd field, and an odd
        # field's bye goes to the Gibsonized leader (their result no longer matters).
        # Chew pairings Gibsonize by their own rule (tsh cp's), not by the site's option.
        if options.gibson and system not in ("random", "chew"):
            leader = _gibson_leader(standings, options)
        if len(order) % 2:
            bye = leader if leader is not None else choose_bye(order, past)
            order.remove(bye)
        else:
            bye = None
        if leader is not None and leader == bye:
            warnings.append(f"{leader} is Gibsonized and takes the bye")
        elif leader is not None:
            opponent, note = _gibson_opponent(leader, standings, bye, past, options)
            pairs.append((leader, opponent))
            warnings.append(note)
            order = [p for p in order if p not in (leader, opponent)]
        if system == "chew":
            chew_gibsons = _chew(order, standings, past, options, pairs, warnings)
            order = []
        max_repeats = options.max_repeats if enforce else None
        if system == "random":
            random.Random(seed).shuffle(order)
            pairs += closest_pairs(order, past, options.avoid_repeats, max_repeats)
        elif system == "koth":
            pairs += koth_pairs(order, past, options.avoid_repeats, max_repeats)
        elif system == "swiss":
            wins = {s.player: s.wins for s in standings}
            pairs += swiss_pairs(order, wins, past, max_repeats, options.assign_firsts)

    pairs.sort(key=lambda pair: min(position[pair[0]], position[pair[1]]))
    if options.assign_firsts:
        if not scheduled:
            pairs = assign_firsts(pairs, past, seed, options.round)
        if fixed_starts:
            pairs = [(a, b) if fixed_starts.get(frozenset((a, b)), a) == a else (b, a) for a, b in pairs]
        if replay:
            pairs = _swap_last_round_s_firsts(pairs, past, options.round)
    else:
        pairs = [(a, b) if position[a] < position[b] else (b, a) for a, b in pairs]
    repeated = [(a, b, past.met(a, b)) for a, b in pairs if past.met(a, b)]
    if repeated:
        warnings.append(f"{len(repeated)} pair(s) have met before: " + _listing(repeated))
    result = PairingResult(
        pairs=pairs,
        bye=bye,
        repeats=count_repeats(pairs, past),
        warnings=warnings,
        seed=seed,
        gibsonized=leader,
        chew_gibsons=chew_gibsons,
    )
    if enforce:
        over = [(a, b, m) for a, b, m in repeated if m > options.max_repeats]
        if over:
            raise PairingError(
                f"Round {options.round}: no pairing keeps every pair within "
                f"{options.max_repeats} earlier meeting(s). The pairing with the fewest "
                f"repeats has {len(over)} pair(s) over the limit: {_listing(over)}. "
                "Allow more repeats, or accept this pairing.",
                best=result,
            )
    return result


def _berger_flip(slots: Sequence[Slot], past: History, options: PairingOptions, seed: int) -> bool:
    """Which way round a round robin's schedule of starts runs (`schedules.berger_starts`), the same for
    every round of the block, as tsh fixes it once for its `rr` command.

    Once the block's first round has recorded starts, the way they ran. Before that, as tsh: if the first
    two seeds have met before, the way that starts seed 1 against seed 2 when seed 1 has started more of
    their games and seed 2 when seed 2 has (tsh's documentation means the opposite, but this is what its
    schedule does); else tsh draws, and the site draws from the round's seed.
    """
    if len(slots) < 2:
        return False
    first_round = {
        frozenset(g.players): g.first
        for g in past.games
        if g.round == options.start_round and g.kind is GameKind.NORMAL and g.first is not None
    }
    if first_round:
        pairs = [p for p in berger_starts(slots, 0, False) if p[0] is not None and p[1] is not None]
        recorded = [first_round.get(frozenset(p)) for p in pairs]
        kept = sum(1 for (a, _), r in zip(pairs, recorded, strict=True) if r == a)
        turned = sum(1 for (_, b), r in zip(pairs, recorded, strict=True) if r == b)
        if kept != turned:
            return turned > kept
    one, two = slots[0], slots[1]
    lead = sum(
        1 if g.first == one else -1
        for g in past.games
        if g.round < options.start_round
        and g.kind is GameKind.NORMAL
        and g.first is not None
        and set(g.players) == {one, two}
    )
    if lead:
        return lead > 0
    return random.Random(f"{seed}:round robin starts").random() < 0.5


def _swap_last_round_s_firsts(
    pairs: list[tuple[PlayerId, PlayerId]], past: History, round_number: int
) -> list[tuple[PlayerId, PlayerId]]:
    """Each pair that met last round with a recorded start: the one who went second starts now."""
    started = {frozenset(g.players): g.first for g in past.games if g.round == round_number - 1 and g.first is not None}
    return [(b, a) if started.get(frozenset((a, b))) == a else (a, b) for a, b in pairs]


def _listing(pairs: Sequence[tuple[PlayerId, PlayerId, int]]) -> str:
    return ", ".join(f"{a} v {b} (met {m} time{'s' if m > 1 else ''})" for a, b, m in pairs)


def _standings(players: Sequence[PairingPlayer], past: History, options: PairingOptions) -> list[Standing]:
    """Standings of the players to pair, after `options.standings_round`.

    Players absent from this round (withdrawn) still appear in the history;
    they are ranked as placeholders and then left out.
    """
    known = {p.id for p in players}
    others = [Entrant(pid, withdrawn=True) for pid in sorted(past.player_ids() - known)]
    everyone = list(players) + others
    ranked = compute_standings(everyone, past.games, options.standings, options.standings_round)
    active = [s for s in ranked if s.player in known]
    # Positions among the players of this round only.
    return [replace(s, position=k) for k, s in enumerate(active, start=1)]


def _chew(
    order: list[PlayerId],
    standings: Sequence[Standing],
    past: History,
    options: PairingOptions,
    pairs: list[tuple[PlayerId, PlayerId]],
    warnings: list[str],
) -> list[PlayerId]:
    """Chew pairings of `order` (the bye already out) into `pairs`; returns cp's Gibsons, also named in `warnings`.

    cp's Gibsons are its own (tsh's best-possible-finish rule), not the site's Gibson option, so the
    result's `gibsonized` stays for that option."""
    if options.total_rounds is None:
        raise ValueError("Chew pairings need the number of rounds: set the event's number of games")
    records = {s.player: ChewRecord(s.wins, s.losses, s.spread) for s in standings}
    # tsh ranks the whole division, the player with the bye included; its default bands count every player.
    ranks = competition_ranks([s.player for s in standings], records)
    bands = options.prize_bands or default_prize_bands(len(standings) + len(past.player_ids() - set(records)))
    found, gibsons = chew_pairs(
        order, records, ranks, past, options.round, options.total_rounds, bands, firsts=options.assign_firsts
    )
    pairs += found
    if gibsons:
        warnings.append("Gibsonized (no longer catchable for their place): " + ", ".join(map(str, gibsons)))
    return gibsons


def _split_phantom(slots: list[tuple[Slot, Slot]]) -> tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]:
    pairs: list[tuple[PlayerId, PlayerId]] = []
    bye: PlayerId | None = None
    for a, b in slots:
        if a is None or b is None:
            bye = b if a is None else a
        else:
            pairs.append((a, b))
    return pairs, bye


def _gibson_leader(standings: Sequence[Standing], options: PairingOptions) -> PlayerId | None:
    if options.total_rounds is None:
        raise ValueError("Gibsonization needs total_rounds")
    rounds_left = options.total_rounds - options.standings_round
    return gibsonized(standings, rounds_left, options.gibson_spread)


def _gibson_opponent(
    leader: PlayerId, standings: Sequence[Standing], bye: PlayerId | None, past: History, options: PairingOptions
) -> tuple[PlayerId, str]:
    """The Gibsonized leader's opponent, as tsh's PairOneGibson chooses (the tsh manual's words): of the
    players who have met the leader least often, the highest-placed one who can no longer finish in a
    prize place, or if none of them is out of contention, the lowest-placed of them."""
    rounds_left = (options.total_rounds or options.round) - options.standings_round
    out = set(out_of_contention(standings, rounds_left, options.prize_places, options.gibson_spread))
    candidates = [s.player for s in standings if s.player not in (leader, bye)]
    fewest = min(past.met(leader, p) for p in candidates)
    least_met = [p for p in candidates if past.met(leader, p) == fewest]
    hopeless = [p for p in least_met if p in out]
    if hopeless:
        return hopeless[0], f"{leader} is Gibsonized and plays {hopeless[0]}, who is out of prize contention"
    return (
        least_met[-1],
        f"{leader} is Gibsonized but every other player is still in prize contention; "
        f"paired with the lowest-placed player available, {least_met[-1]}",
    )
