"""Rating services: every write to ratings goes through one of these functions.

- rating events and re-rating a list: `rate_event`, `rerate_from`, `queue_rating_run`, `queue_rating_if_complete`,
  `queue_rerate`, `result_corrected`, `execute_run` (the task's body), `sweep_stale_runs`;
- reading ratings at a point in time: `ratings_as_of`;
- a division's ratings if its event ended now, from the results confirmed so far: `live_ratings`;
- seeding a list from a ratings file: `import_refusal` (whether the list can take one), `prepare_rating_import`,
  `apply_rating_import`, `cancel_rating_import`; the ratings a members import gives: `lists_open_to_seeding`,
  `seed_from_members_import`;
- reading lists and taking snapshots: `rated_players` (paged by `RatingPages`), `player_history`, `event_report`,
  `take_snapshot`, `take_monthly_snapshots`.
"""

from .checks import RatingError, unconfirmed_games
from .imports import (
    NEW_PLAYER,
    ImportFileError,
    apply_rating_import,
    cancel_rating_import,
    import_refusal,
    lists_open_to_seeding,
    parse_rating_file,
    prepare_rating_import,
    seed_from_members_import,
)
from .lists import (
    RatingPages,
    active_since,
    counts_key,
    default_list,
    event_report,
    months_before,
    player_history,
    rank_map,
    rank_players,
    rated_players,
    snapshot_entries,
    take_monthly_snapshots,
    take_snapshot,
)
from .live import LiveRating, LiveRatings, live_ratings
from .reads import ratings_as_of
from .runs import (
    execute_run,
    queue_rating_if_complete,
    queue_rating_run,
    queue_rerate,
    rate_event,
    rerate_from,
    result_corrected,
    sweep_stale_runs,
)

__all__ = [
    "NEW_PLAYER",
    "ImportFileError",
    "LiveRating",
    "LiveRatings",
    "RatingError",
    "RatingPages",
    "counts_key",
    "active_since",
    "apply_rating_import",
    "cancel_rating_import",
    "default_list",
    "live_ratings",
    "event_report",
    "execute_run",
    "import_refusal",
    "lists_open_to_seeding",
    "seed_from_members_import",
    "months_before",
    "parse_rating_file",
    "player_history",
    "prepare_rating_import",
    "queue_rating_if_complete",
    "queue_rating_run",
    "queue_rerate",
    "rate_event",
    "rank_map",
    "rank_players",
    "rated_players",
    "ratings_as_of",
    "rerate_from",
    "result_corrected",
    "snapshot_entries",
    "sweep_stale_runs",
    "take_monthly_snapshots",
    "take_snapshot",
    "unconfirmed_games",
]
