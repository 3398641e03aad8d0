"""The site's pairing systems as tsh's pairing commands name them, both ways.

A director who moves a division between tsh and the site reads a round's pairing as a tsh command:
`koth 1 3 A` is King of the Hill allowing one repeat, from the standings after round 3. The
`config.tsh` export writes each round as tsh's `autopair` line, and an imported `config.tsh`
says, through its `autopair` lines, how each imported round was paired.

tsh's commands and their arguments:
- `koth REPEATS SR DIV` King of the Hill, `ns REPEATS SR DIV` Swiss (tsh's NewSwiss),
  `rp REPEATS SR DIV` random pairing: one round each, from the standings after round SR,
  with pairs that have met more than REPEATS times avoided;
- `rr [COUNT] DIV` a whole round robin (COUNT 2: each pair meets twice, in a row), paired at once;
- `if N DIV` initial Fontes: the N rounds of the groups' round robins, paired at once;
- `cp SR DIV` Chew pairings (tsh's ChewPair): one round from the standings after round SR; it chooses
  its own repeats, so it takes no REPEATS.
tsh has no "no limit" for repeats: the site writes the number of rounds of the event, which no pair
can exceed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .engine import SYSTEMS

__all__ = ["TSH_COMMANDS", "PairedRound", "extend_schedule", "from_tsh_command", "system_label", "tsh_command"]

# Site system -> tsh command (the short name tsh's manual uses).
TSH_COMMANDS: dict[str, str] = {
    "koth": "koth",
    "swiss": "ns",
    "random": "rp",
    "round_robin": "rr",
    "double_round_robin": "rr",
    "initial_fontes": "if",
    "chew": "cp",
}
# tsh command, short or long, as typed -> site system.
_SYSTEM_OF: dict[str, str] = {
    "koth": "koth",
    "kingofthehill": "koth",
    "ns": "swiss",
    "newswiss": "swiss",
    "rp": "random",
    "randompair": "random",
    "rr": "round_robin",
    "roundrobin": "round_robin",
    "if": "initial_fontes",
    "initfontes": "initial_fontes",
    "cp": "chew",
    "chewpair": "chew",
}
# Systems paired one round at a time, with tsh's REPEATS SR DIV arguments.
_ROUND_BY_ROUND = ("koth", "swiss", "random")


def system_label(system: str) -> str:
    """The system's name with tsh's command, as the pairing options show it: "King of the Hill (tsh koth)"."""
    command = TSH_COMMANDS.get(system)
    label = SYSTEMS.get(system, system)
    if system == "double_round_robin":
        return f"{label} (tsh rr 2)"
    if "(tsh " in label:  # the name already says it ("Chew pairings (tsh cp)")
        return label
    return f"{label} (tsh {command})" if command else label


@dataclass(frozen=True)
class PairedRound:
    """How one round was (or is to be) paired, in the site's terms."""

    round: int
    system: str
    based_on_round: int | None = None  # None: the round before
    max_repeats: int | None = 0  # None: no limit
    fontes_rounds: int = 3

    @property
    def source_round(self) -> int:
        return self.round - 1 if self.based_on_round is None else self.based_on_round


def tsh_command(paired: PairedRound, division: str, rounds_in_event: int) -> tuple[int, str, tuple[str, ...]] | None:
    """(SR, command, arguments) of tsh's `autopair` for this round, or None when tsh has no command for it.

    Round robin and initial Fontes are paired whole by one command at their first round (round 1: the site's
    schedules count from round 1); their later rounds need no line, and such a schedule started later has
    no tsh equivalent.
    """
    command = TSH_COMMANDS.get(paired.system)
    if command is None:
        return None
    if paired.system in _ROUND_BY_ROUND:
        repeats = rounds_in_event if paired.max_repeats is None else paired.max_repeats
        source = paired.source_round
        return source, command, (str(repeats), str(source), division)
    if paired.system == "chew":
        return paired.source_round, command, (str(paired.source_round), division)
    if paired.round != 1:
        return None
    if paired.system == "double_round_robin":
        return 0, command, ("2", division)
    if paired.system == "initial_fontes":
        return 0, command, (str(paired.fontes_rounds), division)
    return 0, command, (division,)


def from_tsh_command(command: str, args: Sequence[str], round_number: int) -> list[PairedRound]:
    """The rounds one `autopair` line pairs, from round `round_number` on; ValueError naming what is wrong.

    A round robin's line stands for all of its rounds, but how many depends on the field: the caller
    extends it (see `extend_schedule`)."""
    system = _SYSTEM_OF.get(command.lower())
    if system is None:
        known = ", ".join(sorted({c for c in _SYSTEM_OF if len(c) <= 4}))
        raise ValueError(f"the site does not pair with tsh's {command!r} (it pairs with {known})")
    numbers = [a for a in args if a.isdigit()]
    if system in _ROUND_BY_ROUND:
        if len(numbers) < 2:
            raise ValueError(f"tsh's {command} takes REPEATS BASED-ON-ROUND DIVISION")
        repeats, source = int(numbers[0]), int(numbers[1])
        if source >= round_number:
            raise ValueError(f"round {round_number} cannot be paired from the standings after round {source}")
        based_on = None if source == round_number - 1 else source
        return [PairedRound(round_number, system, based_on_round=based_on, max_repeats=repeats)]
    if system == "chew":
        if not numbers:
            raise ValueError(f"tsh's {command} takes BASED-ON-ROUND DIVISION")
        source = int(numbers[0])
        if source >= round_number:
            raise ValueError(f"round {round_number} cannot be paired from the standings after round {source}")
        based_on = None if source == round_number - 1 else source
        return [PairedRound(round_number, system, based_on_round=based_on, max_repeats=None)]
    if system == "initial_fontes":
        if not numbers or int(numbers[0]) % 2 == 0:
            raise ValueError("tsh's if takes an odd number of rounds, then the division")
        n = int(numbers[0])
        return [PairedRound(round_number + k, system, fontes_rounds=n) for k in range(n)]
    count = int(numbers[0]) if numbers else 1
    if count not in (1, 2):
        raise ValueError("the site pairs single and double round robins (tsh's rr or rr 2)")
    return [PairedRound(round_number, "double_round_robin" if count == 2 else "round_robin")]


def extend_schedule(first: PairedRound, rounds: int) -> list[PairedRound]:
    """A round robin's line, as the `rounds` rounds it pairs."""
    return [PairedRound(first.round + k, first.system) for k in range(rounds)]
