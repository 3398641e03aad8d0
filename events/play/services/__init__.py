"""Running a tournament, one module per use case: rounds (pairing, drafts, publishing), results (submit,
confirm, correct, fast entry), seating (divisions by rating, placements, late entrants, withdrawals),
finalise, reads (a division as the pure cores see it), prizes, tsh_io (tsh files).

The rules themselves are pure (events.play.core); these services load the division into plain objects,
call them, and save the outcome under a lock.
"""

from .common import PairingRefused, PlayError, require_director
from .finalise import finalise_division
from .reads import (
    GAME_FIELDS,
    DivisionRead,
    StandingRow,
    division_games,
    division_seats,
    pure_game,
    read_division,
    result_visible,
    scores_visible,
    standings,
    standings_options,
    table_seats,
)
from .results import confirm_result, dispute_result, enter_round_results, set_unplayed, submit_result
from .rounds import absent_for_next_round, delete_draft_round, pair_round, publish_round, seat_label, swap_players
from .seating import (
    AssignmentReport,
    add_late_entrant,
    assign_divisions,
    link_prize_table,
    place_entrant,
    publish_assignments,
    rating_day,
    ratings_on,
    save_division,
    withdraw_player,
)

__all__ = [
    "GAME_FIELDS",
    "absent_for_next_round",
    "seat_label",
    "AssignmentReport",
    "DivisionRead",
    "PairingRefused",
    "PlayError",
    "StandingRow",
    "add_late_entrant",
    "assign_divisions",
    "confirm_result",
    "delete_draft_round",
    "dispute_result",
    "division_games",
    "division_seats",
    "enter_round_results",
    "finalise_division",
    "pair_round",
    "link_prize_table",
    "place_entrant",
    "publish_assignments",
    "publish_round",
    "read_division",
    "result_visible",
    "scores_visible",
    "pure_game",
    "rating_day",
    "ratings_on",
    "request_play_up",
    "require_director",
    "save_division",
    "set_unplayed",
    "standings",
    "standings_options",
    "submit_result",
    "swap_players",
    "table_seats",
    "withdraw_player",
]
