"""A first run for a real association: the association, its rating list(s) and an admin account, no demo data.

It lives in ratings, the lowest app of those it sets up (members, then ratings): apps import only those above."""

import secrets

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.text import slugify

from clubsite.kit.roles import ORGANISERS_GROUP
from players.models import Association, User
from ratings.models import RatingList, RatingSystem


class Command(BaseCommand):
    help = (
        "Sets up the association for a real site (no demo data): the association, a rating list per lexicon and an "
        "admin account. Running it again changes nothing that exists already."
    )

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="e.g. 'Scrabble Association (Singapore)'")
        parser.add_argument("--admin-email", required=True, help="the first staff account's log-in")
        parser.add_argument("--short-name", default="", help="e.g. SA (default: the initials of the name)")
        parser.add_argument("--slug", default="", help="default: from the short name")
        parser.add_argument("--country", default="SG", help="ISO 3166 code (default SG)")
        parser.add_argument(
            "--lexicon",
            action="append",
            dest="lexicons",
            help="a rating list per lexicon, e.g. --lexicon CSW24 --lexicon NWL23 (default CSW24)",
        )
        parser.add_argument(
            "--admin-password",
            default="",
            help="the admin's password; without it a random one is printed once (change it after logging in)",
        )

    def handle(self, *args, name, admin_email, short_name, slug, country, lexicons, admin_password, **options):
        name = name.strip()
        if not name:
            raise CommandError("--name must not be empty.")
        try:
            validate_email(admin_email)
        except ValidationError:
            raise CommandError(f"{admin_email!r} is not an email address.")
        short_name = short_name.strip() or "".join(word[0] for word in name.split() if word[:1].isalpha()).upper()
        slug = slugify(slug or short_name or name)[:50]
        lexicons = lexicons or ["CSW24"]

        with transaction.atomic():
            association, created = Association.objects.get_or_create(
                slug=slug, defaults={"name": name, "short_name": short_name, "country": country.upper()}
            )
            self.stdout.write(f"{'Created' if created else 'Kept'} the association {association.name} ({slug}).")
            for position, lexicon in enumerate(lexicons):
                rating_list, created = RatingList.objects.get_or_create(
                    slug=slugify(f"{slug}-{lexicon.rstrip('0123456789') or lexicon}"),
                    defaults={
                        "association": association,
                        "name": f"{association.short_name or association.name} Ratings ({lexicon})",
                        "lexicon": lexicon,
                        "system": RatingSystem.NASPA,
                        "provisional_games": 20,
                        "position": position,
                    },
                )
                self.stdout.write(f"{'Created' if created else 'Kept'} the rating list {rating_list.name}.")
            Group.objects.get_or_create(name=ORGANISERS_GROUP)
            password = self._admin(admin_email, admin_password)

        if password:
            self.stdout.write(
                f"\nLog in at /accounts/login/ as {admin_email} with this password (shown once; change it after "
                f"logging in):\n\n    {password}\n"
            )

    def _admin(self, email: str, password: str) -> str | None:
        """Creates the admin account once; returns the password to show, or None when the account existed."""
        user = User.objects.filter(email__iexact=email).first()
        if user:
            if not (user.is_staff and user.is_superuser):
                user.is_staff = user.is_superuser = True
                user.save(update_fields=["is_staff", "is_superuser"])
            self.stdout.write(f"Kept the account {user.email} (staff; its password is unchanged).")
            return None
        username = email.split("@")[0]
        if User.objects.filter(username=username).exists():
            username = email
        shown = None if password else secrets.token_urlsafe(12)
        user = User.objects.create_user(
            username=username, email=email, password=password or shown, is_staff=True, is_superuser=True
        )
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        self.stdout.write(f"Created the admin account {email}.")
        return shown
