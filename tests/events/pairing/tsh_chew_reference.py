"""tsh's ChewPair (`cp`), written out step by step as tsh's Perl runs it, to hold the site's Chew pairings against.

It shares nothing with the site's pairing but `History`, and the reference Swiss (`tsh_swiss`): players are
records with tsh's scratch fields (xw, xs, xleft, xfw, xfs, maxrank), lists are shifted, popped and unshifted
as tsh does, and every pairing search is tsh's depth-first search (`resolve_pairings`), which tries each
chooser's preferences in order, backs up on a dead end and remembers sets of players found impossible.
"""

from __future__ import annotations

from events.play.core.pairing.core import History

from .tsh_reference import tsh_swiss

MAX_SPREAD = 500
BYE_SPREAD = 50


def flight_cap(rounds_left):
    cap = 2 if rounds_left <= 1 else 12 if rounds_left >= 4 else (rounds_left - 1) * 4
    return cap + 1 if cap % 2 else cap


def resolve_pairings(n, pref):
    """tsh's ResolvePairings over 0..n-1 with preference lists; {player: opponent} or None."""
    if n == 0:
        return {}
    order = list(range(n))
    if n > 12:
        order = sorted(order, key=lambda i: (len(pref[i]), i))
    if any(not pref[i] for i in order):
        return None
    dead = set()

    def search(unpaired):
        if not unpaired:
            return {}
        key = frozenset(unpaired)
        if key in dead:
            return None
        chooser = next(i for i in order if i in key)
        for opp in pref[chooser]:
            if opp in key:
                rest = search(unpaired - {chooser, opp})
                if rest is not None:
                    rest[chooser], rest[opp] = opp, chooser
                    return rest
        dead.add(key)
        return None

    return search(frozenset(range(n)))


class TshChew:
    def __init__(self, order, records, history: History, round_number, total_rounds, bands, track_firsts=False):
        # records: id -> (wins, losses, spread)
        self.track_firsts = track_firsts
        self.h = history
        self.records = records
        self.round0 = round_number - 1
        self.max_rounds = total_rounds
        self.bands = list(bands)
        self.pairs = []
        self.gibsons = []
        self.p = {i: {"id": i, "maxrank": 0} for i in records}
        # tsh's ComputeRanks: a new rank wherever wins, losses or spread change down the standings.
        last, rank = None, 0
        for k, i in enumerate(records, start=1):
            if records[i] != last:
                last, rank = records[i], k
            self.p[i]["rank"] = rank
        self.order = list(order)

    # ---- best possible finishes (TSH::PairingCommand) ----
    def bpf_init(self, psp):
        nrounds = 0
        for pid in psp:
            p = self.p[pid]
            p["xw"] = self.records[pid][0]
            p["xs"] = self.records[pid][2]
            p["xleft"] = self.max_rounds - self.round0
            p["xms"] = MAX_SPREAD
            nrounds = max(nrounds, p["xleft"])
        return nrounds

    def calculate_bpfs(self, psp):
        toprank = self.p[psp[0]]["rank"]
        for i in range(len(psp)):
            self.p[psp[i]]["maxrank"] = self.calculate_bpf(psp, i) + toprank - 1

    def calculate_bpf(self, psp, index):
        if len(psp) == 1:
            return 1
        me = self.p[psp[index]]
        nrounds = self.bpf_init(psp)
        if nrounds == 0:
            return 1 + index
        ps = [self.p[i] for i in psp]

        def sort(lst):
            # Perl's stable sort: wins down, spread down, me ahead of anyone level with me.
            return sorted(lst, key=lambda q: (-q["xw"], -q["xs"], 0 if q is me else 1))

        for r in range(1, nrounds + 1):
            me["xfw"] = me["xw"] + me["xleft"]
            me["xfs"] = me["xs"] + me["xleft"] * me["xms"]
            rounds_left = nrounds - r + 1
            cap0 = flight_cap(rounds_left) - 1
            if cap0 > len(ps) - 1:
                cap0 = len(ps) - 1
            myrank, hw, lw, hl, ll = None, [], [], [], []
            for i, q in enumerate(sort(ps)):
                if q is me:
                    myrank = i
                    continue
                c = _cmp(q["xw"], me["xfw"] - 1) or _cmp(q["xs"], me["xfs"])
                if c < 0:
                    (hw if i <= cap0 else lw).insert(0, q)
                else:
                    c = _cmp(q["xw"], me["xfw"]) or _cmp(q["xs"], me["xfs"])
                    if c > 0:
                        (hw if i <= cap0 else lw).insert(0, q)
                    else:
                        (hl if i <= cap0 else ll).append(q)
            opp = None
            for g in (hl, hw, ll, lw) if myrank <= cap0 else (ll, lw, hl, hw):
                if g:
                    opp = g.pop(0)
                    break
            if opp is not None:
                me["xw"] += 1
                me["xs"] += me["xms"]
                me["xleft"] -= 1
                opp["xleft"] -= 1
                opp["xs"] -= opp["xms"]
            else:
                me["xw"] += 1
                me["xleft"] -= 1
                me["xs"] += BYE_SPREAD
                me["xfs"] += BYE_SPREAD - me["xms"]
            self.bpf_pair_group(hw, [hl, hw, lw, ll], 0, me)
            self.bpf_pair_group(hl, [hw, hl, ll, lw], 1, me)
            self.bpf_pair_group(lw, [ll, lw, hl, hw], 0, me)
            self.bpf_pair_group(ll, [lw, ll, hw, hl], 1, me)
        ranked = sort(ps)
        return next(k for k, q in enumerate(ranked, start=1) if q is me)

    @staticmethod
    def bpf_pair_group(tbps, groups, direction, me):
        while tbps:
            p = tbps.pop(0) if direction else tbps.pop()
            opp = None
            for g in groups:
                if g:
                    opp = g.pop(0)
                    break
            if opp is None:
                p["xw"] += 1
                p["xleft"] -= 1
                p["xs"] += BYE_SPREAD
                continue
            if (_cmp(p["xw"], opp["xw"]) or _cmp(p["xs"], opp["xs"])) < 0:
                p, opp = opp, p
            if opp["xw"] > me["xfw"]:
                opp["xw"] += 1
                opp["xs"] += opp["xms"]
                p["xs"] -= p["xms"]
            elif p["xw"] > me["xfw"] or opp["xw"] == me["xfw"]:
                p["xw"] += 1
                p["xs"] += p["xms"]
                opp["xs"] -= opp["xms"]
            elif opp["xw"] == me["xfw"] - 1:
                if opp["xs"] >= me["xfs"]:
                    if p["xs"] > opp["xs"]:
                        p["xw"] += 1
                        p["xs"] += p["xms"]
                        opp["xs"] -= opp["xms"]
                    else:
                        opp["xw"] += 1
                        opp["xs"] += opp["xms"]
                        p["xs"] -= p["xms"]
                else:
                    spread = me["xfs"] - opp["xs"]
                    opp["xw"] += 1
                    opp["xs"] += spread
                    p["xs"] -= spread
            elif p["xw"] == me["xfw"]:
                delta = p["xs"] - me["xfs"]
                if 0 < delta <= p["xms"] * p["xleft"]:
                    opp["xw"] += 1
                    opp["xs"] += opp["xms"]
                    p["xs"] -= p["xms"]
                else:
                    p["xw"] += 1
                    p["xs"] += p["xms"]
                    opp["xs"] -= opp["xms"]
            else:
                if opp["xw"] < p["xw"]:
                    if opp["xw"] < p["xw"] - 1:
                        spread = p["xms"]
                    elif opp["xs"] > p["xs"]:
                        spread = 1
                    else:
                        spread = int((1 + p["xs"] - opp["xs"]) / 2)
                        spread = p["xms"] if p["xms"] < spread else spread
                else:
                    spread = int((1 + p["xs"] - opp["xs"]) / 2)
                    spread = p["xms"] if p["xms"] < spread else spread
                opp["xw"] += 1
                opp["xs"] += spread
                p["xs"] -= spread
            opp["xleft"] -= 1
            p["xleft"] -= 1

    # ---- pairing helpers (TSH::Player) ----
    def can_be_paired(self, repeats, psp, must_catchup):
        if not psp:
            return True
        pref = []
        for i in range(len(psp)):
            row = []
            for j in range(len(psp)):
                if j == i:
                    continue
                a, b = self.p[psp[i]], self.p[psp[j]]
                ok = self.h.met(psp[i], psp[j]) <= repeats
                if ok and must_catchup:
                    p1, p2 = (b, a) if a["rank"] > b["rank"] else (a, b)
                    ok = p1["rank"] >= p2["maxrank"]
                if ok:
                    row.append(j)
            pref.append(row)
        return resolve_pairings(len(psp), pref) is not None

    def pair_grt(self, psp, key, allowed):
        pref = []
        for i in range(len(psp)):
            cand = [j for j in range(len(psp)) if j != i and allowed(psp, i, j)]
            pref.append(sorted(cand, key=lambda j, i=i: key(psp, i, j)))
        found = resolve_pairings(len(psp), pref)
        if found is None:
            return None
        return [(psp[i], psp[j]) for i, j in found.items() if i < j]

    def swiss(self, psp, repeats):
        found = tsh_swiss(psp, {i: self.records[i][0] for i in psp}, self.h, repeats, self.track_firsts)
        assert found is not None, "tsh's Swiss failed here (tsh leaves these players unpaired)"
        self.pairs += found

    # ---- ChewPair ----
    def run(self):
        tobepaired = list(self.order)
        self.pair_all_gibsons(tobepaired)
        full = list(tobepaired)
        for pid in tobepaired:
            self.p[pid]["maxrank"] = 0
        rounds_left = self.max_rounds - self.round0
        self.rounds_left = rounds_left
        last_prize_rank = self.bands[-1]
        if not tobepaired:
            return self.pairs, self.gibsons
        faint = flight_cap(rounds_left - 1)
        if rounds_left <= 4:
            faint = last_prize_rank
            faint_wins = self.records[tobepaired[min(last_prize_rank, len(tobepaired)) - 1]][0] - 1
            while faint + 1 < len(tobepaired) and self.records[tobepaired[faint + 1]][0] >= faint_wins:
                faint += 1
            faint += 1
            if faint > len(tobepaired):
                faint = len(tobepaired)
        while tobepaired:
            self.pair_contenders(tobepaired, faint)
            if not tobepaired:
                break
            p0 = self.p[tobepaired[0]]
            toprank = p0["rank"]
            if not p0["maxrank"]:
                self.calculate_bpfs(full)
            if toprank > last_prize_rank:
                pass
            elif p0["maxrank"] and p0["maxrank"] < toprank:
                pass
            else:
                self.pair_all_gibsons(tobepaired)
        return self.pairs, self.gibsons

    def get_prize_band(self, tobepaired):
        rank = self.p[tobepaired[0]]["rank"]
        splits = [0, *self.bands, self.p[tobepaired[-1]]["rank"]]
        for i in range(1, len(splits)):
            if splits[i - 1] + 1 <= rank <= splits[i]:
                return splits[i - 1] + 1, splits[i]
        raise AssertionError(rank)

    def count_contenders(self, minrank, maxrank, psp):
        cap = flight_cap(self.rounds_left)
        sr0 = self.round0 - 1
        capped = bpf = psp
        if sr0 >= 0 and len(capped) > cap:
            capped = psp[:cap]
            bpf = psp[: cap + 2]
        self.calculate_bpfs(bpf)
        mfs = 0
        for i in range(len(capped)):
            if self.p[capped[i]]["maxrank"] <= maxrank:
                mfs = i
        mfs += 1
        was_odd = mfs % 2
        mfs += was_odd
        if minrank == 1 and mfs > cap and sr0 >= 0:
            mfs = cap
        return mfs

    def pair_contenders(self, tobepaired, faint):
        minrank, maxrank = self.get_prize_band(tobepaired)
        at_bottom = maxrank == self.p[tobepaired[-1]]["rank"]
        if at_bottom:
            n = faint - self.p[tobepaired[0]]["rank"]
            if n % 2:
                n += 1
            if n < 0:
                n = 0
            cap = flight_cap(self.rounds_left)
            if n > cap:
                n = cap
            if not n:
                n = len(tobepaired)
        else:
            n = self.count_contenders(minrank, maxrank, tobepaired)
        if n > len(tobepaired):
            n = len(tobepaired)
        non = len(tobepaired) - n
        if n > 2 * non and non <= 6:
            rest = tobepaired[n:]
            if not self.can_be_paired(0, rest, False):
                n += len(rest)
                if not self.p[tobepaired[-1]]["maxrank"]:
                    self.calculate_bpfs(tobepaired)
        minrep = 0
        flight = tobepaired[:n]
        while not self.can_be_paired(minrep, flight, not at_bottom):
            minrep += 1
            if minrep > self.round0:
                if not at_bottom:
                    minrep = 0
                    while not self.can_be_paired(minrep, flight, False):
                        minrep += 1
                        if minrep > self.round0:
                            break
                break
        if n == len(tobepaired):
            self.swiss(flight, minrep)
        else:
            split = 2 if len(flight) >= 4 else 0
            while True:
                split += 2
                if split >= len(flight):
                    break
                if not self.can_be_paired(minrep, flight[:split], True):
                    continue
                if self.can_be_paired(minrep, flight[split:], True):
                    break
            self.pair_leaders(flight[:split], minrep)
            if split < len(flight):
                self.swiss(flight[split:], minrep)
        del tobepaired[:n]

    def pair_leaders(self, psp, repeats):
        if not psp:
            return
        p, h = self.p, self.h

        def key1(ps, i, j):
            can = int((p[ps[j]]["maxrank"] or 1e6) > p[ps[i]]["rank"])
            return (can, h.met(ps[i], ps[j]), int(h.met_last_round(ps[i], ps[j])), 999999 - j, j)

        def filter1(ps, i, j):
            hi, lo = (i, j) if i < j else (j, i)
            ketchup = (p[ps[lo]]["maxrank"] or 1e6) <= p[ps[hi]]["rank"]
            return h.met(ps[i], ps[j]) <= repeats and ketchup

        found = self.pair_grt(psp, key1, filter1)
        if found is None:
            found = self.pair_grt(
                psp,
                lambda ps, i, j: (h.met(ps[i], ps[j]), int(h.met_last_round(ps[i], ps[j])), 999999 - j, j),
                lambda ps, i, j: h.met(ps[i], ps[j]) <= repeats,
            )
        assert found is not None, "tsh could not pair the leaders here"
        self.pairs += found

    def pair_all_gibsons(self, tobepaired):
        lpr = self.bands[-1]
        while True:
            possible = tobepaired
            if len(possible) > lpr + 3:
                possible = possible[: lpr + 3]
            if not tobepaired:
                break
            self.calculate_bpfs(possible)
            n = self.count_gibsons(tobepaired)
            if not n:
                break
            if n % 2 == 0:
                self.pair_even_gibsons(tobepaired, n)
            else:
                self.pair_even_gibsons(tobepaired, n - 1)
                self.pair_one_gibson(tobepaired, lpr)

    def count_gibsons(self, psp):
        top = self.p[psp[0]]["rank"]
        cursor = ngibsons = 0
        while cursor <= len(psp) - 2:
            if self.p[psp[cursor + 1]]["maxrank"] == cursor + top + 1:
                cursor += 1
                ngibsons = cursor
            else:
                break
        return ngibsons

    def pair_even_gibsons(self, psp, n):
        if not n or not psp:
            return
        h = self.h

        def svr(a, b):  # tsh's pairsvr, when track_firsts: 2 - |(p1 - p2 <=> 0) - (o1 - o2 <=> 0)|
            if not self.track_firsts:
                return 0
            return 2 - abs(_cmp(h.firsts[a] - h.seconds[a], 0) - _cmp(h.firsts[b] - h.seconds[b], 0))

        found = self.pair_grt(
            psp[:n],
            lambda ps, i, j: (
                h.met(ps[i], ps[j]),
                int(h.met_last_round(ps[i], ps[j])),
                svr(ps[i], ps[j]),
                abs(i - j),
                j,
            ),
            lambda ps, i, j: True,
        )
        self.pairs += found
        self.gibsons += psp[:n]
        del psp[:n]

    def pair_one_gibson(self, psp, lpr):
        gibson = psp[0]
        self.calculate_bpfs(psp)
        victim = minrep = hopeless = None
        for i in range(len(psp) - 1, 0, -1):
            rep = self.h.met(psp[i], gibson)
            is_hopeless = self.p[psp[i]]["maxrank"] > lpr
            if minrep is None:
                minrep, victim = rep, i
                if is_hopeless:
                    hopeless = victim
            elif minrep > rep:
                minrep, victim = rep, i
                if is_hopeless:
                    hopeless = victim
            elif is_hopeless and minrep == rep:
                hopeless = i
        if hopeless is not None:
            victim = hopeless
        if victim is None:
            victim = len(psp) - 1
        self.pairs.append((gibson, psp[victim]))
        self.gibsons.append(gibson)
        del psp[victim]
        del psp[0]


def _cmp(a, b):
    return (a > b) - (a < b)


def tsh_chew(order, records, history, round_number, total_rounds, bands, track_firsts=False):
    """tsh's cp for `order` (standings order, even); `records` id -> (wins, losses, spread) in standings order.
    `track_firsts`: as tsh runs when `assign_firsts` is set (its Swiss and its even Gibsons use starts)."""
    return TshChew(order, records, history, round_number, total_rounds, bands, track_firsts).run()
