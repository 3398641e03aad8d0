"""Log records as one line each, so a log collector keeps an event (and its traceback) together."""

import logging


class OneLineFormatter(logging.Formatter):
    """The usual format, with the line breaks of a message or a traceback written as a literal \\n."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r\n", "\n").replace("\n", "\\n")


class ClientErrorsWithoutTraceback(logging.Filter):
    """A 403 or 404 is the site answering as it should (someone followed an old link, or may not do this): Django
    logs it with the exception that made it, and its traceback buried the errors that need someone. Such a record
    keeps one line naming the path and why it was refused; a 5xx keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if record.exc_info and isinstance(status, int) and status < 500:
            error = record.exc_info[1]
            reason = str(error) if error is not None else ""
            if reason:
                record.msg = f"{record.getMessage()} ({reason})"
                record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True
