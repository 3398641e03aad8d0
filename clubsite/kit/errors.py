class ServiceError(Exception):
    """A refusal a person can act on. `field` names the input at fault, when there is one."""

    def __init__(
        self,
        message: str,
        field: str | None = None,
        *,
        messages: list[str] | None = None,
        problems: list[tuple[str | None, str]] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.messages = messages or [message]  # several problems found at once, each shown on its own
        self._problems = problems

    @property
    def problems(self) -> list[tuple[str | None, str]]:
        """Several problems of several inputs, each (field or None, message): a form shows each beside its input.
        Without problems of their own, the messages under `field` as it is now (a view may move a refusal to the
        input that was used, e.g. a pasted record rather than a file)."""
        return self._problems or [(self.field, m) for m in self.messages]


class NotAllowed(ServiceError):
    """The person may not do this (a 403 in the API). Named apart from Django's and DRF's PermissionDenied,
    which views and the API raise for their own checks."""
