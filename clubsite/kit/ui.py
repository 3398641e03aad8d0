"""The interface toolkit: how pages show a service's refusal (every app's views and forms use these)."""

from django import forms
from django.contrib import messages
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.core.validators import MaxValueValidator, MinValueValidator
from django.forms.utils import flatatt
from django.utils.html import conditional_escape, escape, format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe

from clubsite.kit.errors import NotAllowed, ServiceError


class ServiceFormMixin:
    """Shows a ServiceError on the field it names (or on the whole form), each of its problems beside its own."""

    def add_service_error(self, error: ServiceError) -> None:
        for field, message in error.problems:
            self.add_error(field if field in self.fields else None, message)


def run_service(request, call, success: str = "", *, form=None):
    """Calls a service. A refusal goes onto `form` (or becomes an error message) and the answer is None;
    otherwise `success` becomes a message and the service's result (True for None) is returned.

    A refusal because the person may not do this at all (NotAllowed: someone else's entry, a director's action)
    is a 403 with its message, as the API answers it: not a message on the page they came from."""
    try:
        result = call()
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        if form is not None:
            form.add_service_error(error)
        else:
            messages.error(request, error.message)
        return None
    if success:
        messages.success(request, success)
    return True if result is None else result


def model_bounds(form: forms.ModelForm) -> None:
    """Each number field of a model form takes its bounds from its model field's validators, the one rule the
    service's check applies too: a PositiveIntegerField bounded from 1 otherwise refused -3 as "greater than or equal
    to 0" on the form, then 0 as "greater than or equal to 1" in the service. The browser is told the same bounds."""
    for name, field in form.fields.items():
        if not isinstance(field, forms.IntegerField | forms.DecimalField):
            continue
        try:
            validators = form._meta.model._meta.get_field(name).validators
        except FieldDoesNotExist:
            continue
        lows = [v.limit_value for v in validators if isinstance(v, MinValueValidator)]
        highs = [v.limit_value for v in validators if isinstance(v, MaxValueValidator)]
        kept = [v for v in field.validators if not isinstance(v, MinValueValidator | MaxValueValidator)]
        if lows:
            field.min_value = max(lows)
            kept.append(MinValueValidator(field.min_value))
            field.widget.attrs["min"] = field.min_value
        if highs:
            field.max_value = min(highs)
            kept.append(MaxValueValidator(field.max_value))
            field.widget.attrs["max"] = field.max_value
        field.validators = kept


def safe_next(request, value: str | None) -> str | None:
    """`value` when it is a path on this site to go on to after a form (a `next` parameter), else None: never
    another site, a scheme-relative address or a script."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return None
    if not url_has_allowed_host_and_scheme(
        value, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    return value


def date_input(**attrs) -> forms.DateInput:
    """A browser date picker; its value must be ISO (YYYY-MM-DD) or the browser shows it blank."""
    return forms.DateInput(attrs={"type": "date", **attrs}, format="%Y-%m-%d")


def datetime_input(**attrs) -> forms.DateTimeInput:
    return forms.DateTimeInput(attrs={"type": "datetime-local", **attrs}, format="%Y-%m-%dT%H:%M")


class QuickSelect(forms.Select):
    """A select whose options are written in Python: Django renders each option through its own template,
    which for a list of a hundred clubs costs a page with a club to choose (rating list, event list, profile)
    about 6 ms. The HTML is the same as the template's, every text escaped."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        parts = []
        for group_name, options, _index in widget["optgroups"]:
            if group_name:
                parts.append(format_html('<optgroup label="{}">', group_name))
            parts.extend(
                f'<option value="{escape(o["value"])}"{flatatt(o["attrs"]) if o["attrs"] else ""}>'
                f"{conditional_escape(o['label'])}</option>"
                for o in options
            )
            if group_name:
                parts.append("</optgroup>")
        return format_html(
            '<select name="{}"{}>{}</select>', widget["name"], flatatt(widget["attrs"]), mark_safe("".join(parts))
        )
