"""Pages for events. Thin: they read, show forms and call events.services for every write.

public (list, announcement, calendars), entering (entry and group entry, my entries), organiser (the
event form, categories, lifecycle, entries, payments, emails), questions (the organiser's questions, an entry's
answers).
"""

from .entering import (
    accept_offer,
    enter,
    enter_group,
    group_entry,
    leave_waitlist,
    my_entries,
    replace_student,
    withdraw,
    withdraw_by_link,
)
from .guests import (
    enter_as_guest,
    guest_change,
    guest_confirm,
    guest_entry,
    guest_lost_link,
    guest_pay,
    guest_withdraw,
)
from .organiser import (
    cancel_entry,
    copy_event,
    create_event,
    delete_category,
    desk_list,
    edit_category,
    edit_event,
    email_entrants,
    export_entries,
    lifecycle,
    manage,
    manage_directors,
    move_entry,
    my_events,
    record_payment,
    reinstate_entry,
)
from .prices import delete_discount_code, discount_codes, free_place
from .public import calendar_feed, event_detail, event_ics, event_list
from .questions import delete_question, entry_answers, questions

__all__ = [
    "enter_as_guest",
    "guest_change",
    "guest_confirm",
    "guest_entry",
    "guest_lost_link",
    "guest_pay",
    "guest_withdraw",
    "accept_offer",
    "calendar_feed",
    "cancel_entry",
    "copy_event",
    "create_event",
    "delete_category",
    "desk_list",
    "delete_question",
    "entry_answers",
    "questions",
    "delete_discount_code",
    "discount_codes",
    "free_place",
    "edit_category",
    "edit_event",
    "email_entrants",
    "enter",
    "enter_group",
    "group_entry",
    "event_detail",
    "event_ics",
    "event_list",
    "export_entries",
    "leave_waitlist",
    "lifecycle",
    "manage",
    "manage_directors",
    "move_entry",
    "my_entries",
    "my_events",
    "record_payment",
    "reinstate_entry",
    "replace_student",
    "withdraw",
    "withdraw_by_link",
]
