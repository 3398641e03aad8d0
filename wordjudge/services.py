"""The word judge's use cases: importing a lexicon, opening and closing the judge for an event, and
ruling on a challenge. Views, the admin and tests all call these.

A process keeps each lexicon it has used in memory (a `WordList`, about 2 MB for 280,000 words),
keyed by the lexicon's id and version: an upload bumps the version, so every process loads the new
list on its next challenge and drops the old one.
"""

from __future__ import annotations

import secrets
import threading

from django.db import IntegrityError, transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.roles import is_association_staff
from events.permissions import can_direct_event

from .core import BadPlay, WordList, judge_play, pack, parse_word_list, split_play
from .models import Judgement, JudgeSession, Lexicon

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
MAX_BOARD = 999


class LexiconImportError(ServiceError):
    """A word list refused as a whole; `bad_lines` are (line number, text) of the first bad lines."""

    def __init__(self, message: str, bad_lines: list[tuple[int, str]] | None = None):
        super().__init__(message, field="file")
        self.bad_lines = bad_lines or []


# ---- lexicons ----------------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise LexiconImportError(f"The file is not UTF-8 text (line {line}); save it as plain text and upload again.")


def read_word_list(data: bytes) -> list[str]:
    """The sorted, unique words of an uploaded file, or a refusal naming its bad lines."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise LexiconImportError(f"The file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
    parsed = parse_word_list(_decode(data).splitlines())
    if parsed.bad_count:
        shown = ", ".join(f"line {b.number} (“{b.text}”)" for b in parsed.bad_lines)
        unshown = parsed.bad_count - len(parsed.bad_lines)
        more = f" and {unshown} more" if unshown else ""
        lines = "line is" if parsed.bad_count == 1 else "lines are"
        raise LexiconImportError(
            f"{parsed.bad_count} {lines} not a word of letters only: {shown}{more}. Nothing was imported.",
            [(b.number, b.text) for b in parsed.bad_lines],
        )
    if not parsed.words:
        raise LexiconImportError("The file has no words. Nothing was imported.")
    return parsed.words


def import_lexicon(user, name: str, data: bytes) -> Lexicon:
    """Replaces (or creates) the lexicon `name` with the words of `data`, one word a line.

    All or nothing: a file with any line that is not letters is refused and the lines are named."""
    if not is_association_staff(user):
        raise NotAllowed("Only association staff can upload a lexicon.")
    name = name.strip()
    if not name:
        raise ServiceError("Give the lexicon a name, as events name it (e.g. CSW).", field="name")
    words = read_word_list(data)
    with transaction.atomic():
        lexicon = Lexicon.objects.select_for_update().filter(name__iexact=name).first() or Lexicon(name=name)
        lexicon.words = pack(words)
        lexicon.word_count = len(words)
        lexicon.version += 1
        lexicon.uploaded_at = timezone.now()
        lexicon.uploaded_by = user if user and user.is_authenticated else None
        lexicon.save()
    return lexicon


def lexicon_named(name: str) -> Lexicon | None:
    """The lexicon an event names (case ignored), without its words."""
    name = (name or "").strip()
    if not name:
        return None
    return Lexicon.objects.defer("words").filter(name__iexact=name).first()


_lists: dict[int, tuple[int, WordList]] = {}
_lists_lock = threading.Lock()


def word_list(lexicon: Lexicon) -> WordList:
    """The lexicon's words, from this process's memory (loaded once per version)."""
    cached = _lists.get(lexicon.pk)
    if cached and cached[0] == lexicon.version:
        return cached[1]
    with _lists_lock:
        cached = _lists.get(lexicon.pk)
        if cached and cached[0] == lexicon.version:
            return cached[1]
        row = Lexicon.objects.filter(pk=lexicon.pk).values_list("version", "words").first()
        if row is None:
            raise ServiceError(f"The lexicon {lexicon.name} has just been removed.")
        version, blob = row
        loaded = WordList.unpack(bytes(blob))
        _lists[lexicon.pk] = (version, loaded)
        return loaded


def forget_cached_lists() -> None:
    """Empties this process's cache (tests)."""
    with _lists_lock:
        _lists.clear()


# ---- judge sessions ----------------------------------------------------------------------------


def open_session(event) -> JudgeSession | None:
    return JudgeSession.objects.filter(event=event, closed_at__isnull=True).first()


def open_judge(user, event) -> JudgeSession:
    """Opens the word judge for the event (or returns the one already open): its token is the tablet's URL."""
    if not can_direct_event(user, event):
        raise NotAllowed("Only the event's directors can open the word judge.")
    existing = open_session(event)
    if existing:
        return existing
    try:
        with transaction.atomic():
            return JudgeSession.objects.create(
                event=event, token=secrets.token_urlsafe(24), opened_at=timezone.now(), opened_by=user
            )
    except IntegrityError:  # opened at the same moment by another director
        return open_session(event)


def close_judge(user, event) -> JudgeSession:
    """Closes the open word judge: its URL stops working at once."""
    if not can_direct_event(user, event):
        raise NotAllowed("Only the event's directors can close the word judge.")
    with transaction.atomic():
        session = JudgeSession.objects.select_for_update().filter(event=event, closed_at__isnull=True).first()
        if session is None:
            raise ServiceError("The word judge is not open for this event.")
        session.closed_at = timezone.now()
        session.closed_by = user
        session.save(update_fields=["closed_at", "closed_by"])
    return session


def session_for_token(token: str) -> JudgeSession | None:
    """The open session the tablet's URL names, or None when it was closed or never existed."""
    return (
        JudgeSession.objects.select_related("event").filter(token=token, closed_at__isnull=True).first()
        if token
        else None
    )


def _board(board) -> int | None:
    if board in (None, ""):
        return None
    try:
        number = int(board)
    except (TypeError, ValueError):
        raise ServiceError("The board is a number; leave it empty if you do not know it.", field="board")
    if not 1 <= number <= MAX_BOARD:
        raise ServiceError(f"The board is a number from 1 to {MAX_BOARD}.", field="board")
    return number


def judge(token: str, words_text: str, board=None) -> Judgement:
    """Rules on a challenged play: ACCEPTABLE only when every word is in the event's lexicon.

    The verdict is on the play as a whole (seed 000 rule 11.4); every ruling is logged."""
    session = session_for_token(token)
    if session is None:
        raise ServiceError("This word judge has been closed. Ask the director.")
    event = session.event
    lexicon = lexicon_named(event.lexicon)
    if lexicon is None:
        raise ServiceError(no_lexicon_message(event))
    try:
        words = split_play(words_text or "")
    except BadPlay as error:
        raise ServiceError(str(error), field="words")
    board_number = _board(board)
    acceptable = judge_play(words, word_list(lexicon))
    return Judgement.objects.create(
        session=session,
        event=event,
        board=board_number,
        words=" ".join(words),
        acceptable=acceptable,
        lexicon_name=lexicon.name,
        lexicon_version=lexicon.version,
        judged_at=timezone.now(),
    )


def no_lexicon_message(event) -> str:
    if not (event.lexicon or "").strip():
        return "This event names no lexicon, so the word judge cannot rule. Ask the director."
    return (
        f"No word list named {event.lexicon} has been uploaded, so the word judge cannot rule. "
        "Ask the association's staff to upload it."
    )


def judgement_log(event):
    """Every ruling for the event, newest first."""
    return Judgement.objects.filter(event=event).order_by("-judged_at", "-pk")
