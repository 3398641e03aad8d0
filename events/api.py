"""The events API: announcements (public read), my entries, and the organiser's entries. Writes call events.services."""

from django.db.models import Prefetch, Q
from django.utils.encoding import smart_str
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from clubsite.kit.api import ApiView, Id, IdFilter, ModelSerializer
from clubsite.kit.prepared import Prepared
from clubsite.kit.roles import is_association_staff
from money.core.references import ENTRY, GROUP, make_reference
from money.serializers import PAYNOW_PAYLOAD_HELP, paynow_payload, simple_due

from . import answers as rules
from . import services
from .models import BY_HAND_PAYMENT_METHODS, Answer, Category, Entry, Event, EventStatus, Fee, Prize
from .payables import entry_pay_by
from .services.payments import PAYABLE_STATUSES, entry_reference


class FeeSerializer(ModelSerializer):
    class Meta:
        model = Fee
        fields = ["id", "name", "amount", "note", "is_concession", "proof_label", "audience", "until"]


class PrizeSerializer(ModelSerializer):
    ranks = serializers.CharField(source="ranks_text", read_only=True)

    class Meta:
        model = Prize
        fields = ["id", "kind", "rank_from", "rank_to", "ranks", "description", "amount"]


class CategorySerializer(ModelSerializer):
    fees = FeeSerializer(many=True, read_only=True)
    prizes = PrizeSerializer(many=True, read_only=True)
    eligibility = serializers.CharField(source="eligibility_text", read_only=True)
    places_left = serializers.SerializerMethodField()

    class Meta:
        model = Category
        fields = [
            "id",
            "name",
            "position",
            "quota",
            "places_left",
            "eligibility",
            "school_level",
            "min_age",
            "max_age",
            "min_rating",
            "max_rating",
            "fees",
            "prizes",
        ]

    def get_places_left(self, category) -> int | None:
        places = self.context.get("places")
        return places.left_in(category.event, category) if places else None


EVENT_STATUSES = ", ".join(EventStatus.values)


class EventSerializer(ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    # Plain text in the schema: the entries' "status" enum would otherwise collide with this one by name.
    status = serializers.CharField(read_only=True, help_text=EVENT_STATUSES)
    url = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = Event
        fields = [
            "slug",
            "url",
            "title",
            "organisers",
            "kind",
            "status",
            "club",
            "venue",
            "address",
            "starts_on",
            "ends_on",
            "time_zone",
            "registration_opens_at",
            "registration_closes_at",
            "rated",
        ]


class EventDetailSerializer(EventSerializer):
    categories = serializers.SerializerMethodField()
    rule_book = serializers.SerializerMethodField(
        help_text="The rule book and version the event follows, in words; entrants agree to it (null: none)"
    )
    rule_book_url = serializers.SerializerMethodField(help_text="The page of that version of the rule book")

    class Meta(EventSerializer.Meta):
        fields = EventSerializer.Meta.fields + [
            "reporting_time",
            "reporting_until",
            "start_time",
            "estimated_end_time",
            "prize_presentation_time",
            "eligibility",
            "attire",
            "number_of_games",
            "pairing_system",
            "time_control_minutes",
            "lexicon",
            "rules_reference",
            "contact",
            "description",
            "third_rated",
            "max_entrants",
            "keeps_waiting_list",
            "payment_hold_hours",
            "offer_hold_hours",
            "max_group_size",
            "payment_methods",
            "payment_instructions",
            "rule_book_version",
            "rule_book",
            "rule_book_url",
            "rule_amendments",
            "rules_agreement",
            "refund_policy",
            "categories",
        ]

    def get_rule_book(self, event) -> str | None:
        return str(event.rule_book_version) if event.rule_book_version_id else None

    def get_rule_book_url(self, event) -> str | None:
        return event.rule_book_version.get_absolute_url() if event.rule_book_version_id else None

    def get_categories(self, event) -> list[dict]:
        categories = list(event.categories.all())
        for category in categories:
            category.event = event
        context = {**self.context, "places": services.places(event)}
        return CategorySerializer(categories, many=True, context=context).data


class EventFilter(filters.FilterSet):
    club = filters.CharFilter(field_name="club__slug")
    starts_after = filters.DateFilter(field_name="starts_on", lookup_expr="gte")
    starts_before = filters.DateFilter(field_name="starts_on", lookup_expr="lte")
    status = filters.CharFilter(help_text=EVENT_STATUSES)

    class Meta:
        model = Event
        fields = ["club", "kind", "status", "starts_after", "starts_before"]


class EventCopySerializer(serializers.Serializer):
    title = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=Event._meta.get_field("title").max_length,
        help_text="The copy's title; left out, the event's own with a year in it moved on",
    )


class EventViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """Published events with their categories, fees and prizes."""

    lookup_field = "slug"
    filterset_class = EventFilter

    def get_queryset(self):
        if self.action == "copy" and not getattr(self, "swagger_fake_view", False):
            # A draft is found only by those who may copy it (its owner, staff); others are told of no such event.
            user = self.request.user
            events = Event.objects.select_related("club")
            return events if is_association_staff(user) else events.filter(~Q(status=EventStatus.DRAFT) | Q(owner=user))
        return (
            Event.objects.exclude(status=EventStatus.DRAFT)
            .select_related("club", "rule_book_version__book")
            .prefetch_related(
                Prefetch("categories", queryset=Category.objects.prefetch_related("fees", "prizes")),
            )
            .order_by("starts_on", "title")
        )

    def get_serializer_class(self):
        return EventDetailSerializer if self.action in ("retrieve", "copy") else EventSerializer

    @extend_schema(request=EventCopySerializer, responses={201: EventDetailSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def copy(self, request, slug=None):
        """Copies the event you organise (any, for association staff) as a draft you own, to edit and publish as the
        next one: its settings, categories, fees and prizes, every date moved on a year, a year in the title too
        (or the title given). Entries, groups, rounds and money are not copied."""
        data = EventCopySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        copy = services.copy_event(request.user, self.get_object(), title=data.validated_data.get("title") or None)
        copy = Event.objects.prefetch_related(
            Prefetch("categories", queryset=Category.objects.prefetch_related("fees", "prizes"))
        ).get(pk=copy.pk)
        return Response(EventDetailSerializer(copy, context=self.get_serializer_context()).data, status=201)


class AnswerSerializer(serializers.Serializer):
    question = serializers.IntegerField(help_text="The question's id")
    label = serializers.CharField(help_text="The question as the form asks it")
    answer = serializers.CharField()


# The entries' answers, each with its question, read in one query for a page of entries.
ANSWERS = Prefetch("answers", queryset=Answer.objects.select_related("question"))


def validate_answers(value: dict) -> dict:
    """The answers a request gives, bounded before the service judges each: a question's id (as text), and text, a
    number, yes/no (true/false) or a list of choices."""
    if len(value) > rules.MAX_QUESTIONS:
        raise serializers.ValidationError(f"Give at most {rules.MAX_QUESTIONS} answers.")
    for key, answer in value.items():
        if not (str(key).isascii() and str(key).isdigit() and len(str(key)) < 12):
            raise serializers.ValidationError(f"Name each question by its id (a number), not “{str(key)[:40]}”.")
        items = answer if isinstance(answer, list) else [answer]
        if len(items) > rules.MAX_CHOICES or not all(
            item is None or isinstance(item, str | int | float | bool) for item in items
        ):
            raise serializers.ValidationError(
                f"Question {key}: give text, a number, true or false, or a list of choices."
            )
    return value


def answers_field(**kwargs) -> serializers.DictField:
    return serializers.DictField(
        child=serializers.JSONField(),
        validators=[validate_answers],
        help_text="The answers to the organiser's questions, by question id: text, a number, true or false for yes "
        "or no, a date as 2014-03-25, a list for several choices",
        **kwargs,
    )


class AnswersSerializer(serializers.Serializer):
    answers = answers_field()


class EntrySerializer(ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    category_name = serializers.CharField(source="category.name", read_only=True)
    member_number = serializers.IntegerField(source="player.member_number", read_only=True)
    player_name = serializers.CharField(source="player.full_name", read_only=True)
    balance = serializers.DecimalField(
        max_digits=8,
        decimal_places=2,
        read_only=True,
        source="owed",
        help_text="What is still to pay (nothing once an entry has ended)",
    )
    waitlist_position = serializers.SerializerMethodField()
    payment_reference = serializers.SerializerMethodField(help_text="What to quote when paying for this entry")
    group_payment_reference = serializers.SerializerMethodField(
        help_text="For an entry in a group entry: the one reference that pays for the whole group"
    )
    paynow_payload = serializers.SerializerMethodField(help_text=PAYNOW_PAYLOAD_HELP)
    rules_agreed = serializers.SerializerMethodField(
        help_text="The rule book version the entrant agreed to, in words (null: the event named none)"
    )
    answers = serializers.SerializerMethodField(
        help_text="The answers to the organiser's questions, in the form's order: each question's id, its wording "
        "and the answer as the pages show it (several choices joined by '; ')"
    )
    discount_code = serializers.SerializerMethodField(help_text="The discount code the entry used, if any")

    class Meta:
        model = Entry
        fields = [
            "id",
            "event",
            "category",
            "category_name",
            "member_number",
            "player_name",
            "status",
            "accepted_at",
            "fee",
            "amount_due",
            "discount",
            "discount_code",
            "free_place",
            "amount_paid",
            "balance",
            "payment_reference",
            "group_payment_reference",
            "paynow_payload",
            "concession_proof",
            "payment_due_at",
            "offer_expires_at",
            "waitlist_position",
            "rules_accepted_at",
            "rules_version",
            "rules_agreed",
            "answers",
        ]
        read_only_fields = fields

    def get_rules_agreed(self, entry) -> str | None:
        return str(entry.rules_version) if entry.rules_version_id else None

    def get_waitlist_position(self, entry) -> int | None:
        known = getattr(entry, "known_waitlist_position", None)  # read by register_entry already
        return known if known is not None else services.waitlist_position(entry)

    @extend_schema_field(AnswerSerializer(many=True))
    def get_answers(self, entry) -> list[dict]:
        # A page of entries has its answers prefetched (ANSWERS); an entry just made has them from register_entry; one
        # changed reads its own.
        known = getattr(entry, "known_answers", None)
        answers = known if known is not None else entry.answers.all()
        answers = sorted(answers, key=lambda a: (a.question.position, a.question_id))
        return [{"question": a.question_id, "label": a.question.label, "answer": a.shown} for a in answers]

    def get_discount_code(self, entry) -> str | None:
        return entry.discount_code.code if entry.discount_code_id else None

    def get_payment_reference(self, entry) -> str:
        return entry_reference(entry)

    def get_group_payment_reference(self, entry) -> str | None:
        return make_reference(GROUP, entry.group_id) if entry.group_id else None

    def get_paynow_payload(self, entry) -> str | None:
        payable = entry.status in PAYABLE_STATUSES
        paid, pay_by = entry.amount_paid, entry_pay_by(entry)
        due = simple_due(ENTRY, entry.pk, entry.event.association_id, entry.amount_due, paid, payable, pay_by)
        return paynow_payload(due, self.context)


# Every registration reads its event by slug first: compiled once per connection.
EVENT_BY_SLUG = Prepared(lambda slug: Event.objects.filter(slug=slug).order_by(), str)


class EventSlugField(serializers.SlugRelatedField):
    """An event by its slug, with SlugRelatedField's errors; the query prepared."""

    def to_internal_value(self, data):
        try:
            return EVENT_BY_SLUG.get(data)
        except Event.DoesNotExist:
            self.fail("does_not_exist", slug_name=self.slug_field, value=smart_str(data))
        except (TypeError, ValueError):
            self.fail("invalid")


class EntryCreateSerializer(serializers.Serializer):
    event = EventSlugField(slug_field="slug", queryset=Event.objects.all())
    category = Id()
    fee = Id(required=False, allow_null=True)
    concession_proof = serializers.CharField(required=False, allow_blank=True, default="")
    accept_rules = serializers.BooleanField(
        required=False,
        default=False,
        help_text="You agree to the rules the event asks you to: its rule book version (the event's rule_book, "
        "with its amendments) and its rules_agreement",
    )
    agreed_version = Id(
        required=False,
        allow_null=True,
        default=None,
        help_text="The rule_book_version you read and agree to: refused if the event has moved to another since",
    )
    phone = serializers.CharField(required=False, allow_blank=True, default="")
    answers = answers_field(required=False, default=dict)
    discount_code = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=40, help_text="A code the organisers gave out"
    )


class WaitlistPositions:
    """A page of entries reads its waiting-list positions in one query (the serializer would ask each)."""

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        if page is not None:
            positions = services.waitlist_positions(page)
            for entry in page:
                entry.known_waitlist_position = positions.get(entry.pk)
        return page


class MyEntryViewSet(
    ApiView, WaitlistPositions, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Entries you made: for yourself, or for students in a group entry."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = EntrySerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        user = self.request.user
        return (
            services.own_entries(user)
            .select_related("event", "category", "player", "rules_version__book", "discount_code")
            .prefetch_related(ANSWERS)
            .order_by("-accepted_at", "-pk")
        )

    @extend_schema(request=EntryCreateSerializer, responses={201: EntrySerializer})
    def create(self, request):
        """Enters you in a category of an event, with the fee you choose and, for a concession fee, its proof.
        The entry is confirmed, held until paid, or put on the waiting list when the category is full."""
        data = EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        entry = services.register_entry(request.user, values.pop("event"), **values)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    def _act(self, call):
        return Response(EntrySerializer(call(self.request.user, self.get_object())).data)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """Withdraws the entry, while the event still takes withdrawals; its place goes to the waiting list."""
        return self._act(services.withdraw_entry)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"], url_path="accept-offer")
    def accept_offer(self, request, pk=None):
        """Takes the place a waiting-list entry was offered, before the offer runs out."""
        return self._act(services.accept_offer)

    @extend_schema(request=AnswersSerializer, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def answers(self, request, pk=None):
        """Changes the entry's answers to the organiser's questions, until the closing date: every question asked
        of the entry is answered anew (one left out is unanswered), all saved or none."""
        data = AnswersSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.change_answers(request.user, self.get_object(), data.validated_data["answers"])
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"], url_path="leave-waiting-list")
    def leave_waiting_list(self, request, pk=None):
        """Takes the entry off the waiting list."""
        return self._act(services.leave_waitlist)


class PaymentSerializer(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=8, decimal_places=2)
    method = serializers.ChoiceField(choices=BY_HAND_PAYMENT_METHODS)
    reference = serializers.CharField(required=False, allow_blank=True, default="")
    note = serializers.CharField(required=False, allow_blank=True, default="")


class OrganiserEntryFilter(filters.FilterSet):
    event = filters.CharFilter(field_name="event__slug")
    category = IdFilter(field_name="category_id")

    class Meta:
        model = Entry
        fields = ["event", "status", "category"]


class OrganiserEntryViewSet(
    ApiView, WaitlistPositions, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Entries in the events you organise (all events for association staff)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = EntrySerializer
    filterset_class = OrganiserEntryFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        entries = (
            Entry.objects.select_related("event", "category", "player", "rules_version__book", "discount_code")
            .prefetch_related(ANSWERS)
            .order_by("event", "accepted_at", "pk")
        )
        if is_association_staff(self.request.user):
            return entries
        return entries.filter(event__owner=self.request.user)

    @extend_schema(request=PaymentSerializer, responses=EntrySerializer)
    @action(detail=True, methods=["post"], url_path="record-payment")
    def record_payment(self, request, pk=None):
        """Records money received for the entry (in person, by cheque, by transfer), with its receipt; once paid in
        full the entry is confirmed. The method `waived` waives what is due (organisers of the event, staff)."""
        entry = self.get_object()
        data = PaymentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.record_payment(request.user, entry, **data.validated_data)
        entry.refresh_from_db()
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def reinstate(self, request, pk=None):
        """Undoes a withdrawal while its place is still free (events.services.reinstate_withdrawal)."""
        entry = services.reinstate_withdrawal(request.user, self.get_object())
        return Response(EntrySerializer(entry).data)


def register(router) -> None:
    """Adds this app's API routes to the site's router."""
    router.register("events", EventViewSet, basename="event")
    router.register("my/entries", MyEntryViewSet, basename="my-entry")
    router.register("organiser/entries", OrganiserEntryViewSet, basename="organiser-entry")
