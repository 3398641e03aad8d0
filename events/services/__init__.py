"""Every write about events goes through these functions: pages, the API, the admin and tasks share them.

One module per use case: announcements (writing an event), copying (an event to start the next one), lifecycle,
directors, status (the registration clock), places, eligibility, entries (a member's own: mine), groups, waitinglist
and offers, payments, notify (emails), export, desk (the printed lists of entrants).
"""

from .announcements import (
    CATEGORY_FIELDS,
    EVENT_FIELDS,
    closing_date_warning,
    create_event,
    delete_category,
    event_problems,
    prize_description,
    render_texts,
    save_category,
    update_event,
)
from .common import EventError, RegistrationError
from .copying import copy_event, moved_date, moved_title
from .desk import desk_list
from .directors import account_for, add_director, remove_director, set_directors
from .eligibility import FACTS, categories_for, category_refusal, facts_needed, is_for_students
from .entries import (
    cancel_entry,
    entry_for_link,
    leave_waitlist,
    move_entry,
    register_entry,
    request_play_up,
    withdraw_entry,
    withdraw_entry_by_link,
)
from .export import entries_for_export, filter_entries
from .groups import group_total, register_group, replace_group_student
from .lifecycle import (
    before_event_refusal,
    cancel_event,
    close_registration,
    complete_event,
    complete_if_final,
    open_registration,
    play_started,
    publish_event,
    start_event,
)
from .mine import own_entries, upcoming_first
from .notify import AUDIENCES, email_entrants
from .payments import (
    PAYABLE_STATUSES,
    group_balances,
    group_money,
    record_group_payment,
    record_payment,
    reinstate_withdrawal,
)
from .places import (
    Places,
    places,
    player_ratings,
    shown_status,
    waitlist_position,
    waitlist_positions,
    with_shown_status,
)
from .status import (
    name_change_refusal,
    refresh_status,
    registration_refusal,
    sync_event_statuses,
    sync_status,
    withdrawal_refusal,
)
from .waitinglist import (
    accept_offer,
    expire_offers,
    lapse_unpaid_entries,
    lapse_unpaid_now,
    offer_free_places,
    remind_expiring_offers,
)

__all__ = [
    "AUDIENCES",
    "PAYABLE_STATUSES",
    "CATEGORY_FIELDS",
    "EVENT_FIELDS",
    "EventError",
    "Places",
    "RegistrationError",
    "accept_offer",
    "account_for",
    "add_director",
    "before_event_refusal",
    "cancel_entry",
    "cancel_event",
    "FACTS",
    "categories_for",
    "category_refusal",
    "facts_needed",
    "close_registration",
    "closing_date_warning",
    "complete_event",
    "complete_if_final",
    "copy_event",
    "moved_date",
    "moved_title",
    "create_event",
    "delete_category",
    "desk_list",
    "email_entrants",
    "entries_for_export",
    "event_problems",
    "filter_entries",
    "entry_for_link",
    "expire_offers",
    "group_balances",
    "group_money",
    "group_total",
    "is_for_students",
    "lapse_unpaid_entries",
    "lapse_unpaid_now",
    "leave_waitlist",
    "move_entry",
    "name_change_refusal",
    "offer_free_places",
    "open_registration",
    "own_entries",
    "upcoming_first",
    "places",
    "prize_description",
    "play_started",
    "player_ratings",
    "publish_event",
    "record_group_payment",
    "record_payment",
    "refresh_status",
    "reinstate_withdrawal",
    "register_entry",
    "request_play_up",
    "register_group",
    "remove_director",
    "registration_refusal",
    "remind_expiring_offers",
    "render_texts",
    "replace_group_student",
    "save_category",
    "set_directors",
    "shown_status",
    "with_shown_status",
    "start_event",
    "sync_event_statuses",
    "sync_status",
    "update_event",
    "waitlist_position",
    "waitlist_positions",
    "withdrawal_refusal",
    "withdraw_entry",
    "withdraw_entry_by_link",
]
