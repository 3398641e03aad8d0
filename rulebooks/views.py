"""The rule books' pages: the list, a book's current version, any past version with what changed, the page that
publishes a new version (staff, or a club's director for the club's book) and the page where a club publishes its own
book."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.ui import run_service
from players.models import Club

from . import services
from .forms import ClubBookForm, PublishVersionForm
from .models import RuleBook, RuleBookVersion

BOOKS_PAGE_SIZE = 50
VERSIONS_PAGE_SIZE = 20


def book_list(request):
    books = services.latest_versions().select_related("club").order_by("position", "title", "pk")
    page = BoundedPaginator(books, BOOKS_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "rulebooks/book_list.html", {"page": page})


def _version_page(request, book: RuleBook, version: RuleBookVersion | None):
    # The list of versions shows only their numbers, dates and notes: the texts stay in the database.
    versions = book.versions.defer("text", "text_html", "diff").order_by("-number")
    page = BoundedPaginator(versions, VERSIONS_PAGE_SIZE).get_page(request.GET.get("page"))
    current = versions.only("number").first()
    context = {
        "book": book,
        "version": version,
        "is_current": version is not None and current is not None and version.number == current.number,
        "current": current,
        "page": page,
        "can_publish": services.can_publish(request.user, book),
    }
    return render(request, "rulebooks/book.html", context)


def book(request, slug: str):
    """The rule book as it stands: its latest version."""
    book = get_object_or_404(RuleBook.objects.select_related("club", "based_on"), slug=slug)
    return _version_page(request, book, services.current_version(book))


def version(request, slug: str, version: int):
    """A version of the rule book, current or past, with what changed since the one before."""
    book = get_object_or_404(RuleBook.objects.select_related("club", "based_on"), slug=slug)
    if version > 2**31:
        raise Http404("No such version.")
    found = get_object_or_404(book.versions, number=version)
    return _version_page(request, book, found)


@login_required
def publish(request, slug: str):
    """Publish a new version, starting from the current text."""
    book = get_object_or_404(RuleBook.objects.select_related("club"), slug=slug)
    if not services.can_publish(request.user, book):
        raise PermissionDenied(services.REFUSED)
    current = services.current_version(book)
    initial = {"effective_on": timezone.localdate(), "text": current.text if current else ""}
    form = PublishVersionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        published = run_service(
            request, lambda: services.publish_version(request.user, book, **form.cleaned_data), form=form
        )
        if published:
            messages.success(request, f"Version {published.number} of {book.title} is published.")
            return redirect(published.get_absolute_url())
    return render(request, "rulebooks/publish.html", {"book": book, "current": current, "form": form})


@login_required
def club_book_new(request, club_slug: str):
    """A club's director publishes the club's own rule book, with its first version; a club that has one is sent to
    publish a new version of it."""
    club = get_object_or_404(Club.objects.select_related("association"), slug=club_slug)
    if not services.can_publish(request.user, club=club):
        raise PermissionDenied(services.REFUSED)
    existing = services.club_book(club)
    if existing is not None:
        return redirect("rulebooks:publish", existing.slug)
    form = ClubBookForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        published = run_service(
            request, lambda: services.publish_club_book(request.user, club, **form.cleaned_data), form=form
        )
        if published:
            messages.success(request, f"{published.book.title} is published.")
            return redirect(published.get_absolute_url())
    return render(request, "rulebooks/club_book_new.html", {"club": club, "form": form})
