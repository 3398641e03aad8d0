"""A tsh archive cut into the texts it holds: its config.tsh lines and each `.t` file, every text keeping the
archive's line numbers (blank lines stand for the rest), so an error in any of them names the archive's line.

Pure module: text in, text out.
"""

from __future__ import annotations

import re

from events.play.core import tsh

__all__ = ["MAX_FILES", "archive_texts"]

# More divisions than any event has; an archive of thousands of tiny blocks is refused, not read.
MAX_FILES = 100

_BEGIN = re.compile(r"#begin_file\s+name=(?P<name>\S+)\s*$")
_END = re.compile(r"#end_file(?:\s+name=\S+)?\s*$")


def archive_texts(text: str) -> tuple[str, dict[str, str]]:
    """The archive's config lines and its files' texts, in the archive's order, each on the archive's own
    lines. The archive is read first (`tsh.parse_archive`): a damaged one raises TshParseError naming its line,
    as does one of more than MAX_FILES files or with two files of one name."""
    tsh.parse_archive(text)
    if text.startswith("\ufeff"):
        text = text[1:]
    config: list[str] = []
    files: dict[str, str] = {}
    current: str | None = None
    body: list[str] = []
    begun_at = 0
    for line_no, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        stripped = line.strip()
        if current is None:
            begin = _BEGIN.match(stripped)
            if begin:
                current, body, begun_at = begin.group("name"), [], line_no
                if current in files:
                    raise tsh.TshParseError(line_no, f"a second file named {current}")
                if len(files) == MAX_FILES:
                    raise tsh.TshParseError(line_no, f"more than {MAX_FILES} files: is this a tsh archive?")
                config.append("")
            else:
                config.append(line)
        elif _END.match(stripped):
            files[current] = "\n" * begun_at + "\n".join(body) + "\n"
            current = None
            config.append("")
        else:
            body.append(line)
            config.append("")
    return "\n".join(config) + "\n", files
