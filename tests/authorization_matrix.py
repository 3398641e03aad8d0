"""Who may do what, page by page: every URL pattern of the site × every role → the answer it should give.

Written from the rules (clubsite.kit.roles), not from what the site answered: players touch only their own entries,
results and payments; organisers only the events they own; directors their events' play (not their entries or
money); association staff everything, the admin included. tests/test_authorization_matrix.py checks each answer
against the site and fails for a URL pattern without a row here, so a new page needs its row.

A row is six answers, one per role, in this order (the roles of tests/site_world.py):

    anonymous  player  teacher  organiser  director  staff

for GET and, where the view writes, for POST (or PATCH); `body` is what is sent with it (JSON for the API; "@name"
is the primary key of the world's object of that name, "@name.attribute" one of its attributes). The answers:

    200, 204, 400     the page or the API's answer (400: the form or body refused, the person allowed)
    login             a redirect to the log-in page (the admin's log-in page for the admin)
    302               any other redirect: after a write, or a refusal shown as a message on the next page
    403, 404, 405     not allowed; not there (or not for this person to know of); not this method

The objects named (tests/site_world.py): the open event walker-open, owned by the organiser, with the player's unpaid
entry, a rival's entry and the teacher's group of two students; the event under way walker-weekender, owned by the
organiser and directed by the director, the player seated in division A with a game of round 1 to report (round 2 is
a draft); the player's receipt, credit note and quotation; a rating list; a bank statement.
"""

ROLES = ("anonymous", "player", "teacher", "organiser", "director", "staff")


def row(get: str, post: str | None = None, *, patch: str | None = None, body: dict | None = None) -> dict:
    answers = {"get": get.split()}
    if post:
        answers["post"] = post.split()
    if patch:
        answers["patch"] = patch.split()
    if body is not None:
        answers["body"] = body
    return answers


EVERYONE = "200 200 200 200 200 200"
SIGNED_IN = "login 200 200 200 200 200"
POST_ONLY = "login 405 405 405 405 405"
STAFF = "login 403 403 403 403 200"
OWNER = "login 403 403 200 403 200"  # the open event's organiser (its owner) and staff
DIRECTORS = "login 403 403 200 200 200"  # the event under way: its owner, its director and staff
OWNER_WRITES = "login 403 403 302 403 302"
DIRECTORS_WRITE = "login 403 403 302 302 302"
STAFF_WRITES = "login 403 403 403 403 302"
API_PUBLIC = "200 200 200 200 200 200"
API_SIGNED_IN = "403 200 200 200 200 200"
API_NO_WRITE = "403 405 405 405 405 405"
API_POST_ONLY = "403 405 405 405 405 405"  # the anonymous are refused before the method is
CLUB_DIRECTOR = "login 403 403 403 200 200"  # Walker Club's director and staff
CLUB_DIRECTOR_WRITES = "login 403 403 403 302 302"
PLAY_POST_ONLY = "405 405 405 405 405 405"  # play's API lets the anonymous read, so the method is refused first

MATRIX = {
    # --- the site and accounts (allauth's pages: signed-in people are sent on from log-in and sign-up) ---
    "home": row(EVERYONE),
    "healthz": row(EVERYONE),
    "help": row(EVERYONE),
    "account_login": row("200 302 302 302 302 302", "200 302 302 302 302 302"),
    "account_logout": row("302 200 200 200 200 200", "302 302 302 302 302 302"),
    "account_inactive": row(EVERYONE),
    "account_signup": row("200 302 302 302 302 302", "200 302 302 302 302 302"),
    "account_reauthenticate": row(SIGNED_IN, SIGNED_IN),
    "account_email": row(SIGNED_IN, "login 302 302 302 302 302"),
    "account_email_verification_sent": row(EVERYONE),
    "account_change_password": row(SIGNED_IN, SIGNED_IN),
    "account_set_password": row("login 302 302 302 302 302"),  # every account has a password: sent to change it
    "account_reset_password": row(EVERYONE, EVERYONE),
    "account_confirm_login_code": row("login 302 302 302 302 302"),
    "account_confirm_email": row(EVERYONE),  # a key that is no key: the page says so
    "account_reset_password_from_key_done": row(EVERYONE),
    "account_reset_password_from_key": row(EVERYONE),
    "account_reset_password_done": row(EVERYONE),
    # --- members ---
    "players:directory": row(EVERYONE),
    "players:me": row(SIGNED_IN),
    "players:profile": row(SIGNED_IN, SIGNED_IN),  # each person's own profile
    # Each person's own renewal; someone who never was a member is sent to join.
    "players:renew": row("login 200 302 302 302 302", "login 302 302 302 302 302"),
    # Joining: the player, a member, is sent to renew; the others see the form (sent empty: refused on the page).
    "players:join": row("200 302 200 200 200 200", "login 302 200 200 200 200"),
    "players:join_approve": row(POST_ONLY, STAFF_WRITES),
    "players:renewals": row(STAFF, STAFF),
    "players:renewal_paid": row(POST_ONLY, STAFF_WRITES),
    # A POST without a file is the upload form again, with its refusal.
    "players:members_import": row(STAFF, STAFF),
    # Without two records named, the page asks which two (a POST without them merges nothing: the same page).
    "players:merge": row(STAFF, STAFF),
    "players:claim": row(POST_ONLY, SIGNED_IN),
    # The teacher's claim: the link confirms it for the teacher; for anyone else it is a link that does not work.
    "players:claim_confirm": row("login 302 302 302 302 302"),
    "players:detail": row(EVERYONE),
    "history:games": row(EVERYONE),
    "history:head_to_head": row(EVERYONE),
    "history:versus": row(EVERYONE),
    "history:records": row(EVERYONE),
    # --- rule books: public to read; association staff publish a version ---
    "rulebooks:list": row(EVERYONE),
    "rulebooks:book": row(EVERYONE),
    "rulebooks:version": row(EVERYONE),
    "rulebooks:publish": row(STAFF, STAFF),  # staff's empty form is refused beside its fields (200)
    # Walker Club's director publishes its own rule book (the world's club has none yet): an empty form is refused.
    "rulebooks:club_new": row(CLUB_DIRECTOR, CLUB_DIRECTOR),
    # --- events: the public pages, entering, the entrant's actions ---
    "events:list": row(EVERYONE),
    "events:feed": row(EVERYONE),
    "events:my_entries": row(SIGNED_IN),
    "events:mine": row(SIGNED_IN),
    "events:create": row("login 403 403 200 403 200", "login 403 403 200 403 200"),  # organisers and staff
    # The player's own unpaid entry: the player and the event's managers act on it (refused by its state here, with
    # a message); nobody else may.
    "events:accept_offer": row(POST_ONLY, "login 302 403 302 403 302"),
    "events:withdraw": row(POST_ONLY, "login 302 403 302 403 302"),
    "events:leave_waitlist": row(POST_ONLY, "login 302 403 302 403 302"),
    # A student of the teacher's group: the teacher and the event's managers; the rest are told of no such entry.
    "events:replace_student": row("login 404 200 200 404 200", "login 404 200 200 404 200"),
    "events:record_payment": row(OWNER, OWNER),
    "events:move_entry": row(OWNER, OWNER),
    "events:cancel_entry": row(POST_ONLY, OWNER_WRITES),
    # Undoing a withdrawal: the event's organiser and staff (the player's entry is not withdrawn: refused, a message).
    "events:reinstate_entry": row(POST_ONLY, OWNER_WRITES),
    # Free places and discount codes: the event's organiser and staff.
    "events:free_place": row(POST_ONLY, OWNER_WRITES),
    "events:discount_codes": row(OWNER, OWNER),
    "events:discount_code_edit": row(OWNER, OWNER),
    "events:discount_code_delete": row(POST_ONLY, OWNER_WRITES),
    "events:withdraw_by_link": row(EVERYONE, EVERYONE),  # the emailed link is the proof: no log-in
    "events:group_entry": row("login 404 200 200 404 200", "login 404 200 200 404 200"),
    # The player's own entry's answers: the player and the event's managers (nothing sent: the form again).
    "events:entry_answers": row("login 200 404 200 404 200", "login 200 404 200 404 200"),
    "events:detail": row(EVERYONE),
    "events:ics": row(EVERYONE),
    "events:enter": row(SIGNED_IN, SIGNED_IN),
    # Entering without an account: no log-in anywhere; the emailed link is the proof (a POST without the form's
    # fields is the form again, with its refusals).
    "events:enter_guest": row(EVERYONE, EVERYONE),
    "events:guest_lost_link": row(EVERYONE, EVERYONE),
    "events:guest_entry": row(EVERYONE),
    "events:guest_confirm": row("405 405 405 405 405 405", "302 302 302 302 302 302"),
    "events:guest_withdraw": row("405 405 405 405 405 405", "302 302 302 302 302 302"),
    "events:guest_change": row(EVERYONE, EVERYONE),
    "events:guest_pay": row(EVERYONE),
    "events:enter_group": row(SIGNED_IN, SIGNED_IN),
    # --- events: the organiser's pages (the open event) ---
    "events:edit": row(OWNER, OWNER),
    "events:manage": row(OWNER),
    "events:export": row(OWNER),
    "events:desk_list": row(OWNER),
    "events:copy": row(OWNER, OWNER_WRITES, body={"title": "Walker Open next year"}),
    "events:email": row(OWNER, OWNER),
    "events:directors": row("login 403 403 302 403 302", OWNER),
    "events:category_add": row(OWNER, OWNER),
    "events:category_edit": row(OWNER, OWNER),
    "events:category_delete": row(POST_ONLY, OWNER_WRITES),
    "events:questions": row(OWNER, OWNER),  # nothing sent: the form again, with its refusal
    "events:question_edit": row(OWNER, OWNER),
    # The question has the player's answer: refused with a message, never deleted.
    "events:question_delete": row(POST_ONLY, OWNER_WRITES),
    "events:lifecycle": row(POST_ONLY, OWNER_WRITES),
    # --- play (the event under way) ---
    "events:play_hub": row(EVERYONE),
    "events:play_my_game": row(SIGNED_IN),
    "events:play_game": row(EVERYONE),
    # A game's record: its players and the event's directors attach or remove it.
    "events:play_game_record": row(POST_ONLY, "login 302 403 302 302 302", body={"remove": "1"}),
    "events:play_submit": row(POST_ONLY, "login 200 403 403 403 403"),  # the player's own game (the form again)
    # Nothing is submitted yet: the player and the directors are told so; others may not.
    "events:play_confirm": row(POST_ONLY, "login 302 403 302 302 302"),
    "events:play_dispute": row(POST_ONLY, "login 302 403 403 403 403"),  # only a player disputes
    "events:play_game_result": row(DIRECTORS, DIRECTORS),
    "events:play_director_confirm": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_divisions": row(EVERYONE),
    "events:play_assign": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_save_band": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_place": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_publish_assignments": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_play_up": row(POST_ONLY, "login 302 403 403 403 403"),  # an entrant asks
    "events:play_link_prizes": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_division": row(EVERYONE),
    "events:play_pair": row(POST_ONLY, DIRECTORS),
    "events:play_round": row(EVERYONE),
    "events:play_swap": row(POST_ONLY, DIRECTORS),
    "events:play_publish": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_delete_draft": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_fast_entry": row(POST_ONLY, DIRECTORS),
    "events:play_standings": row(EVERYONE),
    "events:play_cross_table": row(EVERYONE),
    "events:play_scorecards": row(EVERYONE),
    "events:play_scorecard": row(EVERYONE),
    "events:play_prizes": row(EVERYONE, DIRECTORS_WRITE),
    "events:play_finalise": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_withdraw": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_late_entrant": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_download_t": row(DIRECTORS),
    "events:play_check_in": row(DIRECTORS),
    "events:play_my_check_in": row(SIGNED_IN),
    "events:play_check_in_mark": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_withdraw_no_shows": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_fill_places": row(POST_ONLY, DIRECTORS_WRITE),
    "events:play_wall_version": row(EVERYONE),
    "events:play_event_wall_version": row(EVERYONE),  # the hall's screens need no log-in
    "events:play_event_wall": row(EVERYONE),
    "events:play_wall": row(EVERYONE),
    "events:play_print_latest": row("302 302 302 302 302 302"),  # to the latest round's printout
    "events:play_print": row(EVERYONE),
    "events:play_lucky_draw": row(EVERYONE, DIRECTORS),  # the directors draw (the form again when empty)
    "events:play_download_config": row(DIRECTORS),
    "events:play_download_archive": row(DIRECTORS),
    "events:play_import_tsh": row(DIRECTORS, "login 403 403 200 200 200"),  # no file sent: the form again
    # --- ratings ---
    "ratings:list": row(EVERYONE),
    "ratings:calculator": row(EVERYONE),
    "ratings:list_detail": row(EVERYONE),
    "ratings:list_csv": row(EVERYONE),
    "ratings:snapshots": row(EVERYONE),
    "ratings:snapshot": row(EVERYONE),
    "ratings:player_history": row(EVERYONE),
    "ratings:player_chart": row(EVERYONE),
    "ratings:rerate": row(STAFF, STAFF),
    "ratings:import": row(STAFF, STAFF),
    "ratings:import_event": row(STAFF, STAFF),  # no file sent: the form again
    "ratings:import_review": row(STAFF, STAFF),
    "ratings:event_report": row(EVERYONE),
    "ratings:event_rate": row(POST_ONLY, DIRECTORS_WRITE),  # the event's directors and staff rate it
    "ratings:run": row(EVERYONE),
    "ratings:run_progress": row(EVERYONE),
    # --- the word judge ---
    "wordjudge:lexicons": row(STAFF, STAFF),
    "wordjudge:director": row(DIRECTORS),
    "wordjudge:open": row(POST_ONLY, DIRECTORS_WRITE),
    "wordjudge:close": row(POST_ONLY, DIRECTORS_WRITE),
    "wordjudge:tablet": row(EVERYONE, EVERYONE),  # the address the director opened is the proof: no log-in
    # --- club play: the club night, its table and the rival's game the player is to confirm; the director also
    # directs the club (its club director), which neither the organiser nor the teacher does ---
    "clubs:night_play": row(EVERYONE, "login 200 200 200 200 200"),  # an empty game form is refused on the page
    "clubs:table_new": row(CLUB_DIRECTOR, CLUB_DIRECTOR),
    "clubs:table_sheet": row(EVERYONE),
    "clubs:game_confirm": row(POST_ONLY, "login 302 403 403 302 302"),  # the opponent, or the club director
    "clubs:game_dispute": row(POST_ONLY, "login 302 403 403 403 403"),  # only the opponent disputes
    "clubs:game_remove": row(POST_ONLY, CLUB_DIRECTOR_WRITES),
    "clubs:table_remove": row(POST_ONLY, CLUB_DIRECTOR_WRITES),
    "clubs:ladder": row(EVERYONE),
    "clubs:play_rules": row(CLUB_DIRECTOR, CLUB_DIRECTOR),
    "clubs:tournament_new": row(CLUB_DIRECTOR, CLUB_DIRECTOR),
    # --- money: the player's unpaid entry's reference, their receipt and credit note ---
    "money:pay": row("login 200 404 200 404 200"),  # anyone else: as if the reference did not exist
    "money:receipt": row("login 200 403 200 403 200"),  # the payer, the event's organiser, staff
    "money:receipt_pdf": row("login 200 403 200 403 200"),
    "money:credit_note": row("login 200 403 200 403 200"),
    "money:credit_note_pdf": row("login 200 403 200 403 200"),
    "money:ask_invoice": row("login 200 404 200 404 200", "login 200 404 200 404 200"),  # as the payment page
    "money:invoice": row("login 200 403 200 403 200"),  # the player's quotation: theirs, the organiser's, staff's
    "money:invoice_pdf": row("login 200 403 200 403 200"),
    "money:my_payments": row(SIGNED_IN),
    "money:card_checkout": row("405 405 405 405 405 405", "404 404 404 404 404 404"),  # no card payments here
    "money:stripe_webhook": row("405 405 405 405 405 405", "404 404 404 404 404 404"),
    "money:statements": row(STAFF, STAFF),
    "money:statement": row(STAFF),
    "money:statement-matching": row(STAFF),
    "money:statement-match-again": row(POST_ONLY, STAFF_WRITES),
    "money:statement-assign": row(POST_ONLY, STAFF_WRITES),
    "money:statement-confirm": row(POST_ONLY, STAFF_WRITES),
    "money:statement-discard": row(POST_ONLY, STAFF_WRITES),
    "money:refund": row(OWNER, OWNER),  # the payment for the event under way: its owner, not its director
    "money:reinstate": row(POST_ONLY, OWNER_WRITES),
    "money:event_money": row(OWNER),
    "money:refund_all": row(POST_ONLY, OWNER_WRITES),
    "money:treasurer": row(STAFF),
    "money:treasurer_csv": row(STAFF),
    # --- club life (tests/site_world_clubs.py): the director is Walker Club's club director; the player its member,
    # checked in at tonight's night with the session fee to pay. The others hold no office there.
    "clubs:list": row(EVERYONE),
    "clubs:detail": row(EVERYONE),
    "clubs:night": row(EVERYONE),
    "clubs:edit": row(CLUB_DIRECTOR, "login 403 403 403 302 302"),
    "clubs:manage": row(CLUB_DIRECTOR, CLUB_DIRECTOR),  # nothing sent: the form is shown again with what is missing
    "clubs:takings": row(CLUB_DIRECTOR),
    "clubs:officers": row(CLUB_DIRECTOR, CLUB_DIRECTOR),  # nothing sent: the form asks for the member number
    # The club director cannot give up the office while the only one (told so); staff may.
    "clubs:officer_remove": row(POST_ONLY, CLUB_DIRECTOR_WRITES),
    "clubs:door": row(CLUB_DIRECTOR),
    "clubs:night_off": row(POST_ONLY, CLUB_DIRECTOR_WRITES),
    "clubs:check_in": row(POST_ONLY, CLUB_DIRECTOR_WRITES),
    "clubs:guest": row(POST_ONLY, "login 403 403 403 400 400"),
    "clubs:fee": row(POST_ONLY, CLUB_DIRECTOR_WRITES),
    # Saying one is coming: members of the club with a record (the player, the club director) and nobody else.
    "clubs:rsvp": row(POST_ONLY, "login 302 403 403 302 403", body={"guests": "0", "answer": "yes"}),
    # --- the API (signed in by session; DRF answers the anonymous 403 where one must be signed in) ---
    "api-root": row(API_PUBLIC),
    "schema": row(API_PUBLIC),
    "api-docs": row(API_PUBLIC),
    "api-token": row("405 405 405 405 405 405", "400 400 400 400 400 400"),  # anyone may ask for a token
    "api-me": row(API_SIGNED_IN, patch="403 200 200 200 200 200", body={"phone": "6000 0000"}),
    "player-list": row(API_PUBLIC),
    "player-detail": row(API_PUBLIC),
    "club-list": row(API_PUBLIC),
    "club-detail": row(API_PUBLIC),
    "my-renewal-list": row(API_SIGNED_IN),
    "my-renewal-detail": row("403 200 404 404 404 404"),  # "my": the player's own, nobody else's
    # Joining: anyone signed in but the player, a member already (who renews instead).
    "my-renewal-join": row(
        API_POST_ONLY, "403 400 201 201 201 201", body={"offer": "@offer", "full_name": "Jo Newcomer"}
    ),
    "membership-type-list": row(API_PUBLIC),
    "membership-type-detail": row(API_PUBLIC),
    "event-list": row(API_PUBLIC),
    "event-detail": row(API_PUBLIC),
    # Its organiser and staff copy the open event as a draft; anyone else may not.
    "event-copy": row(API_POST_ONLY, "403 403 403 201 403 201", body={"title": "Walker Open next year"}),
    # Entering the open event: the player is entered already; anyone else signed in may enter.
    "my-entry-list": row(
        API_SIGNED_IN,
        "403 400 201 201 201 201",
        body={"event": "@open_event.slug", "category": "@category", "fee": "@standard_fee", "accept_rules": True},
    ),
    "my-entry-detail": row("403 200 404 404 404 404"),
    "my-entry-accept-offer": row(API_POST_ONLY, "403 400 404 404 404 404"),  # not offered: refused by its state
    "my-entry-leave-waiting-list": row(API_POST_ONLY, "403 400 404 404 404 404"),
    "my-entry-withdraw": row(API_POST_ONLY, "403 200 404 404 404 404"),
    "my-entry-answers": row(API_POST_ONLY, "403 200 404 404 404 404", body={"answers": {}}),
    "organiser-entry-list": row(API_SIGNED_IN),  # each person's own events' entries
    "organiser-entry-detail": row("403 404 404 200 404 200"),
    "organiser-entry-record-payment": row(
        API_POST_ONLY, "403 404 404 200 404 200", body={"amount": "1.00", "method": "in_person"}
    ),
    # The rival's entry is not withdrawn: its managers are told so; nobody else knows of it.
    "organiser-entry-reinstate": row(API_POST_ONLY, "403 404 404 400 404 400"),
    "play-division-list": row(API_PUBLIC),
    "play-division-detail": row(API_PUBLIC),
    "play-division-export": row("403 403 403 200 200 200"),
    "play-division-live-ratings": row(API_PUBLIC),
    "play-division-lucky-draws": row(API_PUBLIC, "403 403 403 201 201 201", body={"winners": 1}),
    # A draft round is waiting: the directors are told so; nobody else may pair.
    "play-tsh-import-list": row(  # the preview: nothing saved
        API_POST_ONLY,
        "403 403 403 200 200 200",
        body={"event": "@playing.slug", "file": "One, A 1500\nTwo, B 1400\n", "division": "Imported"},
    ),
    "play-division-pair": row(PLAY_POST_ONLY, "403 403 403 400 400 400", body={"system": "random"}),
    "play-division-prize-decisions": row(
        PLAY_POST_ONLY, "403 403 403 400 400 400", body={"prize": "nothing", "seat": 1, "reason": "walk"}
    ),
    "play-division-prizes": row(API_PUBLIC),
    "play-division-rounds": row(API_PUBLIC),
    "play-division-standings": row(API_PUBLIC),
    "play-round-list": row(API_PUBLIC),
    "play-round-detail": row(API_PUBLIC),
    "play-round-games": row(API_PUBLIC),
    "play-round-publish": row(PLAY_POST_ONLY, "403 404 404 200 200 200"),  # a draft: only directors see it
    "play-round-delete-draft": row(PLAY_POST_ONLY, "403 404 404 204 204 204"),
    "play-round-results": row(PLAY_POST_ONLY, "403 403 403 400 400 400", body={"text": "1 400 300"}),
    "play-round-swap": row(PLAY_POST_ONLY, "403 404 404 200 200 200", body={"player_x": "@me", "player_y": "@rival"}),
    "play-game-list": row(API_PUBLIC),
    "play-game-detail": row(API_PUBLIC),
    "play-game-changes": row("403 403 403 200 200 200"),
    # The other game, confirmed by the director: nothing for its players to confirm or dispute; none of ours.
    "play-game-confirm": row(PLAY_POST_ONLY, "403 403 403 400 400 400"),
    "play-game-dispute": row(PLAY_POST_ONLY, "403 403 403 403 403 403", body={"reason": "walk"}),
    "play-game-submit": row(PLAY_POST_ONLY, "403 200 403 200 200 200", body={"score_a": 400, "score_b": 300}),
    "play-game-unplayed": row(
        PLAY_POST_ONLY, "403 403 403 200 200 200", body={"kind": "forfeit", "forfeited_by": "a", "reason": "walk"}
    ),
    "play-event-check-in": row(
        "403 403 403 200 200 200", "403 403 403 200 200 200", body={"entry": "@rival_playing_entry"}
    ),
    "play-event-fill-places": row(PLAY_POST_ONLY, "403 403 403 400 400 400", body={}),
    "play-event-undo-check-in": row(PLAY_POST_ONLY, "403 403 403 204 204 204", body={"entry": "@rival_playing_entry"}),
    "play-event-withdraw-no-shows": row(
        PLAY_POST_ONLY, "403 403 403 400 400 400", body={"entries": ["@rival_playing_entry"]}
    ),
    "rating-list-list": row(API_PUBLIC),
    "rating-list-detail": row(API_PUBLIC),
    "rating-list-history": row(API_PUBLIC),
    "rating-list": row(API_PUBLIC),
    "rating-report-detail": row(API_PUBLIC),
    # A re-rate of the list from a date: association staff only.
    "rating-run-list": row(
        API_PUBLIC, "403 403 403 403 403 202", body={"rating_list": "@rating_list.slug", "from_date": "2026-01-01"}
    ),
    "rating-run-detail": row(API_PUBLIC),
    "money-due-detail": row("403 200 404 200 404 200"),  # as the payment page: others are told of no such reference
    "money-payment-list": row(API_SIGNED_IN),  # each person's own
    "money-payment-detail": row("403 200 403 200 403 200"),
    "money-payment-refund": row(API_POST_ONLY, "403 403 403 201 403 201", body={"amount": "1.00", "reason": "walk"}),
    "money-refund-list": row(API_SIGNED_IN),
    "money-refund-detail": row("403 200 403 200 403 200"),
}

# The admin: association staff only. Every other account is sent to the admin's log-in page. Each model registered
# with it is listed, with what staff may do there: "edit" (add, change, delete), "read" (records that change only
# through the services: the list and each record, no adding or deleting) or a word for anything between.
ADMIN_MODELS = {
    "auth.group": "edit",
    "account.emailaddress": "edit",
    "authtoken.tokenproxy": "edit",
    "kit.counter": "read",
    "players.user": "edit",
    "players.association": "edit",
    "players.club": "edit",
    "players.player": "edit",
    "players.membership": "edit",
    "players.renewalrequest": "read",
    "players.playerclaim": "edit",
    "players.playermerge": "read",  # written only by the merge
    "rulebooks.rulebook": "edit",
    "rulebooks.rulebookversion": "publish",  # added (published), then never changed or deleted
    "events.event": "edit",
    "events.category": "edit",
    "events.entry": "change",  # entries are made by registering, not in the admin
    "events.groupentry": "edit",
    "events.question": "edit",
    "events.discountcode": "edit",
    "events.guestentry": "read",  # confirmed, changed and withdrawn from the emailed link (events.services.guests)
    "events.playuprequest": "read",
    "play.division": "edit",
    "play.divisionplayer": "read",
    "play.checkin": "read",
    "play.prizedecision": "read",
    "play.luckydraw": "read",
    "play.round": "read",
    "play.game": "read",
    "play.gamechange": "read",
    "play.gcgrecord": "read",
    "ratings.ratinglist": "edit",
    "ratings.playerrating": "read",
    "ratings.ratingchange": "read",
    "ratings.ratingrun": "read",
    "ratings.ratingsnapshot": "read",
    "ratings.ratingimport": "read",
    "ratings.ratedevent": "read",
    "ratings.snapshotentry": "read",
    "ratings.ratingimportline": "read",
    "outbox.message": "read",
    "wordjudge.lexicon": "edit",
    "wordjudge.judgesession": "read",
    "wordjudge.judgement": "read",
    "money.paymentsettings": "edit",
    "money.payment": "read",
    "money.refund": "read",
    "money.moneylog": "read",
    "money.statement": "read",
    "money.invoice": "read",
    "clubs.officer": "edit",  # through the club's service: a change gives up the old office and takes the new
    "clubs.clubpage": "read",
    "clubs.nightseries": "read",
    "clubs.nightexception": "read",
    "clubs.clubnight": "read",
    "clubs.attendance": "read",
    "clubs.clubplayrules": "read",  # play at club nights changes only through its services (clubs.services.play)
    "clubs.clubgame": "read",
    "clubs.clubtable": "read",
    "clubs.tableseat": "read",
    "clubs.clubrating": "read",
}
# What staff get on each page of a model's admin, by GET and (adding or changing) by POST; everyone else gets the
# admin's log-in page.
ADMIN_PAGES = {
    "edit": {"changelist": 200, "add": 200, "change": 200, "history": 200, "delete": 200, "": 302},
    "change": {"changelist": 200, "add": 403, "change": 200, "history": 200, "delete": 200, "": 302},
    "read": {"changelist": 200, "add": 403, "change": 200, "history": 200, "delete": 403, "": 302},
    "publish": {"changelist": 200, "add": 200, "change": 200, "history": 200, "delete": 403, "": 302},
}
ADMIN_WRITES = {
    "edit": {"add": 200, "change": 200},
    "change": {"add": 403, "change": 200},
    "read": {"add": 403, "change": 403},
    "publish": {"add": 200, "change": 403},
}
# The admin's own pages, by name.
ADMIN_SITE = {
    "admin:index": row("login login login login login 200"),
    # The site's own log-in for the anonymous; an account that is not staff is told it may not use the admin.
    "admin:login": row("login 200 200 200 200 302"),
    "admin:logout": row("302 302 302 302 302 405"),  # Django's: by POST only
    "admin:password_change": row("login login login login login 200"),
    "admin:password_change_done": row("login login login login login 200"),
    "admin:autocomplete": row("login login login login login 403"),
    "admin:jsi18n": row("login login login login login 200"),
    "admin:view_on_site": row("login login login login login 302"),
    "admin:app_list": row("login login login login login 200"),
    "admin:auth_user_password_change": row("login login login login login 200"),
    "admin/(?P<url>.*)$": row("login login login login login 404"),
}
