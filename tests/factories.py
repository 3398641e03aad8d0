import factory
from django.utils import timezone

from players import services as player_services
from players.models import Association, Club, Membership, Player, User


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.Sequence(lambda n: f"user{n}@example.org")
    password = factory.django.Password("a-good-passphrase-42")


class AssociationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Association
        django_get_or_create = ["slug"]

    name = "Scrabble Association (Singapore)"
    short_name = "SA"
    slug = "sa"


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    association = factory.SubFactory(AssociationFactory)
    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    full_name = factory.Sequence(lambda n: f"Player Number{n}")
    member_number = factory.LazyFunction(player_services.allocate_member_number)
    email = factory.Sequence(lambda n: f"player{n}@example.org")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    player = factory.SubFactory(PlayerFactory)
    association = factory.SubFactory(AssociationFactory)
    starts_on = factory.LazyFunction(lambda: timezone.localdate() - timezone.timedelta(days=100))
    expires_on = factory.LazyFunction(lambda: timezone.localdate() + timezone.timedelta(days=265))
    fee = 20
