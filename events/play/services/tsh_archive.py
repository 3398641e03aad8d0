"""A tsh archive (config.tsh and every division's `.t` file in one text, as tsh's archive command and other
programs write it) into one event, all or nothing."""

from __future__ import annotations

import itertools
import re
from pathlib import PurePosixPath

from django.db import transaction

from events.models import Event
from events.play.core import tsh

from .common import PlayError
from .tsh_io import ImportReport, import_tsh

# More divisions than any event has. Each embedded file is kept on the archive's line numbers (blank lines before
# it), so an archive of thousands of tiny blocks would cost their number times its length: it is refused unread.
MAX_FILES = 100


def check_file_count(text: str, field: str) -> None:
    """Refuses, unread, an archive of more than MAX_FILES embedded files, naming the line of the one too many."""
    blocks = re.finditer(r"^[ \t]*#begin_file", text, re.MULTILINE)
    too_many = next(itertools.islice(blocks, MAX_FILES, None), None)
    if too_many is not None:
        line = text.count("\n", 0, too_many.start()) + 1
        raise PlayError(f"Line {line}: more than {MAX_FILES} files in one archive: is it a tsh archive?", field=field)


@transaction.atomic
def import_archive(
    actor, text: str, *, event: Event | None = None, event_slug: str | None = None, title: str | None = None
) -> list[ImportReport]:
    """Every division of the archive into the event (created when missing), each as `import_tsh` imports a
    `.t` file with the archive's config lines. A refusal names the archive's line and saves nothing, not even
    the divisions before the one refused."""
    if len(text) > tsh.MAX_FILE_BYTES:
        raise PlayError(
            f"The archive is over {tsh.MAX_FILE_BYTES // 1_000_000} MB: an event's tsh files are far smaller. "
            "Is it the right file?",
            field="file",
        )
    check_file_count(text, "file")
    try:
        config_text, files = tsh.split_archive(text)
        config = tsh.parse_config(config_text)
    except tsh.TshParseError as error:
        raise PlayError(f"Line {error.line}: {error.reason}", field="file") from None
    if not files:
        raise PlayError("The archive holds no .t file (#begin_file name=... lines).", field="file")
    division_of = {file: name for name, file in config.divisions.items()}
    reports = []
    for file, body in files.items():
        name = division_of.get(file) or PurePosixPath(file).stem
        reports.append(
            import_tsh(
                actor,
                body,
                config_text=config_text,
                event=event,
                event_slug=event_slug,
                division_name=name,
                title=title,
            )  # fmt: skip
        )
        event = reports[-1].event
    return reports
