import factory
from allauth.account.models import EmailAddress
from django.utils import timezone

from players import services as player_services
from players.models import Association, Club, Membership, Player, User


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.Sequence(lambda n: f"user{n}@example.org")
    password = factory.django.Password("a-good-passphrase-42")


def confirmed(user: User) -> User:
    """The account with its email address confirmed, as an account must be to log in or use an API token."""
    EmailAddress.objects.update_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
    return user


def api_token(user: User) -> str:
    """An API token for the account, its address confirmed."""
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=confirmed(user))[0].key


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
