"""How a division's rounds were paired, as config.tsh's `autopair` lines say it: read at import, written at export."""

from __future__ import annotations

import re

from events.models import Event
from events.play.core import tsh
from events.play.core.pairing import tsh_commands
from events.play.models import Division, Round

_CONFIG_WORD = re.compile(r"[^\w.-]+")


def tsh_division_name(name: str) -> str:
    """A division name as config.tsh and a file name can carry it: one word, no line breaks (tsh reads
    `division NAME FILE` by whitespace)."""
    return _CONFIG_WORD.sub("_", name.strip()).strip("_") or "division"


def unquote_setting(value: str) -> str:
    return value.strip().strip("'\"").strip()


def paired_by(
    config: tsh.TshConfig | None, division_name: str, rounds: int, notes: list[str]
) -> dict[int, tsh_commands.PairedRound]:
    """How config.tsh's `autopair` lines for this division paired each round (rounds without a line: not known).

    A round robin's line stands for its rounds up to the next line's round. A line the site cannot read as
    one of its systems is noted and leaves its round's pairing unknown: the games are what matter."""
    if config is None:
        return {}
    lines = sorted(
        (a for a in config.autopairs() if a.division.casefold() == tsh_division_name(division_name).casefold()),
        key=lambda a: a.round,
    )
    found: dict[int, tsh_commands.PairedRound] = {}
    for k, line in enumerate(lines):
        try:
            paired = tsh_commands.from_tsh_command(line.command, line.args, line.round)
        except ValueError as error:
            notes.append(f"config.tsh, {line.line!r}: {error}; round {line.round}'s pairing is not recorded.")
            continue
        if paired[0].system in ("round_robin", "double_round_robin"):
            end = lines[k + 1].round if k + 1 < len(lines) else rounds + 1
            paired = tsh_commands.extend_schedule(paired[0], end - line.round)
        found.update((p.round, p) for p in paired if p.round <= rounds)
    return found


def autopair_lines(event: Event, divisions: list[Division]) -> tuple[list[str], dict[str, str]]:
    """Each division's rounds as tsh's `autopair` lines (one query), and the tsh settings they need: `gibson`
    when a round was Gibsonized, `initial_snaked` when initial Fontes groups were snaked.

    A round paired here is written as it was paired; the rounds still to pair, by the event's pairing
    system from the standings of the round before, without repeats. A round tsh has no command for (a
    round robin or initial Fontes that did not start at round 1, a round imported without its pairing)
    gets no line: tsh then waits for the director."""
    rounds_in_event = event.number_of_games or 0
    paired: dict[int, dict[int, tsh_commands.PairedRound]] = {d.pk: {} for d in divisions}
    settings: dict[str, str] = {}
    for division_id, number, system, based_on, repeats, gibsonized, snaked in Round.objects.filter(
        division__in=divisions
    ).values_list(
        "division_id", "number", "pairing_system", "based_on_round", "max_repeats", "gibson", "initial_snaked"
    ):
        paired[division_id][number] = tsh_commands.PairedRound(number, system, based_on, repeats)
        if gibsonized:
            settings["gibson"] = "1"
        if snaked:
            settings["initial_snaked"] = "1"
    lines = []
    for division in divisions:
        done = paired[division.pk]
        plan = [
            done.get(r) or tsh_commands.PairedRound(r, event.pairing_system)
            for r in range(1, max([rounds_in_event, *done]) + 1)
        ]
        name = tsh_division_name(division.name)
        for round_plan in plan:
            command = tsh_commands.tsh_command(round_plan, name, max(rounds_in_event, len(plan)))
            if command is not None:
                source, verb, args = command
                lines.append(tsh.Autopair(name, source, round_plan.round, verb, args).line)
    return lines, settings
