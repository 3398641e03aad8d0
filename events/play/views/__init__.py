"""Pages for running a tournament. Thin, as every page of the site: they read, show forms and call
events.play.services for every write. Each page runs a fixed number of queries whatever the size of the
division.

hub (the hub, divisions by rating), rounds (pairing, drafts, fast entry, late entrants, withdrawals),
results (the director's result form, the player's phone page), tables (standings, cross-table,
scorecards, prizes, finalising), downloads (tsh files).
"""

from .downloads import download_archive, download_config, download_t
from .hub import (
    assign,
    divisions,
    hub,
    link_prizes,
    my_division_context,
    place,
    play_up,
    publish_assignments,
    save_band,
)
from .results import confirm, director_confirm, dispute, game_result, my_game, submit
from .rounds import delete_draft, division, fast_entry, late_entrant, pair, publish, round_page, swap, withdraw
from .tables import cross_table, finalise, prizes, scorecard, scorecards, standings

__all__ = [
    "assign",
    "confirm",
    "cross_table",
    "delete_draft",
    "director_confirm",
    "dispute",
    "divisions",
    "division",
    "download_archive",
    "download_config",
    "download_t",
    "fast_entry",
    "finalise",
    "game_result",
    "hub",
    "late_entrant",
    "link_prizes",
    "my_division_context",
    "my_game",
    "pair",
    "place",
    "play_up",
    "prizes",
    "publish",
    "publish_assignments",
    "round_page",
    "save_band",
    "scorecard",
    "scorecards",
    "standings",
    "submit",
    "swap",
    "withdraw",
]
