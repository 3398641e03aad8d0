class ServiceError(Exception):
    """A refusal a person can act on. `field` names the input at fault, when there is one."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class PermissionDenied(ServiceError):
    pass
