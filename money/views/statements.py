"""Bank statement pages, for association staff: upload the bank's CSV export, review each line matched to what
it pays for (a hundred lines a page, the totals of every outcome on top; a long statement is matched in the
background while the page shows its progress), assign the unmatched ones by hand, and confirm. Thin views over
money.services.statements and money.services.statement_matching."""

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST

from clubsite.kit.roles import is_association_staff
from clubsite.kit.ui import ServiceFormMixin, run_service

from ..association import association_model
from ..core.statements import PLAIN
from ..models import Statement
from ..services import statement_matching as matching
from ..services import statements as service

DBS_MAPPING = (
    "date=Transaction Date; credit=Credit Amount; debit=Debit Amount; "
    "description=Transaction Ref1,Transaction Ref2,Transaction Ref3; skip=6; date_format=%d %b %Y"
)

REVIEW_PAGE_SIZE = 100  # lines of a statement a page shows
ERRORS_SHOWN = 50  # lines that could not be read, listed on the review (the count says how many more)

BADGES = {
    service.PAID_IN_FULL: "text-bg-success",
    service.PARTLY_PAID: "text-bg-info",
    service.OVERPAID: "text-bg-warning",
    service.NOT_PAYABLE: "text-bg-warning",
    service.UNKNOWN: "text-bg-danger",
    service.ALREADY_IMPORTED: "text-bg-secondary",
    service.NOT_A_CREDIT: "text-bg-light border",
}


class UploadForm(ServiceFormMixin, forms.Form):
    file = forms.FileField(label="Bank statement (CSV)")
    association = forms.ModelChoiceField(queryset=None, empty_label=None)  # every association, set below
    mapping = forms.CharField(
        label="Column mapping",
        required=False,
        max_length=service.MAX_MAPPING,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=(
            "Leave empty for the plain format, a header date,amount,description. For a bank's own export, say where "
            f"its columns are; for a DBS/POSB export: {DBS_MAPPING}"
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["association"].queryset = association_model().objects.order_by("name")
        only = list(self.fields["association"].queryset[:2])
        if len(only) == 1:
            self.fields["association"].initial = only[0]

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > service.MAX_BYTES:
            raise forms.ValidationError(f"The file is larger than {service.MAX_BYTES // (1024 * 1024)} MB.")
        return upload


class AssignForm(forms.Form):
    line = forms.IntegerField(min_value=1)
    reference = forms.CharField(required=False, max_length=40)
    page = forms.IntegerField(required=False, min_value=1)  # the review's page it was sent from, to go back to
    outcome = forms.ChoiceField(required=False, choices=[(o, o) for o in service.OUTCOMES])


def _staff_only(request) -> None:
    if not is_association_staff(request.user):
        raise PermissionDenied("Only association staff can reconcile bank statements.")


@login_required
def statements(request):
    _staff_only(request)
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        statement = run_service(
            request,
            lambda: service.upload(
                request.user, form.cleaned_data["association"], upload.name, upload.read(), form.cleaned_data["mapping"]
            ),
            form=form,
        )
        if statement:
            return redirect("money:statement", pk=statement.pk)
    past = Statement.objects.select_related("association", "uploaded_by", "confirmed_by")[:50]
    return render(
        request,
        "money/statements/upload.html",
        {"form": form, "statements": past, "plain_columns": ",".join(PLAIN.columns), "dbs_mapping": DBS_MAPPING},
    )


def _review_query(outcome: str, page=None) -> str:
    return urlencode({k: v for k, v in (("outcome", outcome), ("page", page)) if v})


@login_required
@cache_control(private=True, no_store=True)  # the bank's lines: kept by no cache, as receipts are not
def statement(request, pk: int):
    _staff_only(request)
    found = get_object_or_404(Statement.objects.select_related("association", "uploaded_by", "confirmed_by"), pk=pk)
    context = {"statement": found}
    if found.confirmed_at:
        summary = found.summary or {}
        page = Paginator(summary.get("lines", []), REVIEW_PAGE_SIZE).get_page(request.GET.get("page"))
        context.update(
            summary=summary,
            summary_totals=[(t, BADGES.get(t["outcome"], "")) for t in summary.get("totals", [])],
            summary_lines=[(line, BADGES.get(line["outcome"].split(":")[0], "")) for line in page],
            page=page,
        )
        return render(request, "money/statements/review.html", context)
    review = matching.review_or_matching(found)
    if isinstance(review, matching.Matching):
        return render(request, "money/statements/review.html", {**context, "matching": review})
    outcome = request.GET.get("outcome", "")
    outcome = outcome if outcome in service.OUTCOMES else ""
    rows = [row for row in review.rows if row.outcome == outcome] if outcome else review.rows
    page = Paginator(rows, REVIEW_PAGE_SIZE).get_page(request.GET.get("page"))
    context.update(
        review=review,
        outcome=outcome,
        page=page,
        query=_review_query(outcome),
        rows=[(row, BADGES[row.outcome]) for row in page],
        totals=[(total, BADGES[total.outcome], _review_query(total.outcome)) for total in review.totals],
        errors_shown=review.errors[:ERRORS_SHOWN],
        errors_more=max(0, len(review.errors) - ERRORS_SHOWN),
    )
    return render(request, "money/statements/review.html", context)


@login_required
def matching_progress(request, pk: int):
    """How far the background matching of a long statement has got, for the review page's progress bar."""
    _staff_only(request)
    state = matching.progress(get_object_or_404(Statement, pk=pk))
    done = f"{state.done:,} of {state.total:,} references looked up" if state else "Matched"
    return JsonResponse(
        {
            "progress": state.progress if state else 100,
            "status_display": done,
            "error": state.error if state else "",
            "finished": state is None,
        }
    )


@login_required
@require_POST
def match_again(request, pk: int):
    _staff_only(request)
    found = get_object_or_404(Statement, pk=pk, confirmed_at__isnull=True)
    run_service(request, lambda: matching.match_again(request.user, found))
    return redirect("money:statement", pk=found.pk)


@login_required
@require_POST
def assign(request, pk: int):
    _staff_only(request)
    found = get_object_or_404(Statement, pk=pk)
    form = AssignForm(request.POST)
    page = reverse("money:statement", args=[found.pk])
    if not form.is_valid():
        for name, errors in form.errors.items():
            messages.error(request, f"{'Line' if name == 'line' else 'Reference'}: {' '.join(errors)}")
        return redirect(page)
    line, reference = form.cleaned_data["line"], form.cleaned_data["reference"].strip()
    changed = run_service(request, lambda: service.assign(request.user, found, line, reference))
    if changed:
        now = changed.assignments.get(str(line))
        messages.success(request, f"Line {line} is matched to {now}." if now else f"Line {line} is no longer assigned.")
    back = _review_query(form.cleaned_data["outcome"], form.cleaned_data["page"])
    return redirect(f"{page}{'?' + back if back else ''}#line-{line}")


@login_required
@require_POST
def confirm(request, pk: int):
    _staff_only(request)
    found = get_object_or_404(Statement, pk=pk)
    with_errors = request.POST.get("with_errors") == "on"
    result = run_service(request, lambda: matching.confirm(request.user, found, with_errors=with_errors))
    if result:
        counted = len(result.counted)
        messages.success(
            request, f"The statement is imported: {counted} payment{'s' if counted != 1 else ''} recorded."
        )
    return redirect("money:statement", pk=found.pk)


@login_required
@require_POST
def discard(request, pk: int):
    _staff_only(request)
    found = get_object_or_404(Statement, pk=pk)
    if run_service(request, lambda: service.discard(request.user, found)):
        messages.success(request, f"{found.filename} is discarded: nothing in it was counted.")
        return redirect("money:statements")
    return redirect("money:statement", pk=found.pk)


urls = [
    path("statements/", statements, name="statements"),
    path("statements/<int:pk>/", statement, name="statement"),
    path("statements/<int:pk>/matching/", matching_progress, name="statement-matching"),
    path("statements/<int:pk>/match-again/", match_again, name="statement-match-again"),
    path("statements/<int:pk>/assign/", assign, name="statement-assign"),
    path("statements/<int:pk>/confirm/", confirm, name="statement-confirm"),
    path("statements/<int:pk>/discard/", discard, name="statement-discard"),
]
