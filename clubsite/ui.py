"""The interface toolkit: how pages show a service's refusal (every app's views and forms use these)."""

from django import forms
from django.contrib import messages

from clubsite.errors import ServiceError


class ServiceFormMixin:
    """Shows a ServiceError on the field it names (or on the whole form)."""

    def add_service_error(self, error: ServiceError) -> None:
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.messages)


def run_service(request, call, success: str = "", *, form=None):
    """Calls a service. A refusal goes onto `form` (or becomes an error message) and the answer is None;
    otherwise `success` becomes a message and the service's result (True for None) is returned."""
    try:
        result = call()
    except ServiceError as error:
        if form is not None:
            form.add_service_error(error)
        else:
            messages.error(request, error.message)
        return None
    if success:
        messages.success(request, success)
    return True if result is None else result


def date_input(**attrs) -> forms.DateInput:
    """A browser date picker; its value must be ISO (YYYY-MM-DD) or the browser shows it blank."""
    return forms.DateInput(attrs={"type": "date", **attrs}, format="%Y-%m-%d")


def datetime_input(**attrs) -> forms.DateTimeInput:
    return forms.DateTimeInput(attrs={"type": "datetime-local", **attrs}, format="%Y-%m-%dT%H:%M")
