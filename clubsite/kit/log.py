"""Log records as one line each, so a log collector keeps an event (and its traceback) together."""

import logging


class OneLineFormatter(logging.Formatter):
    """The usual format, with the line breaks of a message or a traceback written as a literal \\n."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r\n", "\n").replace("\n", "\\n")
