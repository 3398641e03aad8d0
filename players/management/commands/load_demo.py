from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test.utils import override_settings

from players import demo


class Command(BaseCommand):
    help = "Loads demo data once (members, then each app's own demo data). Running it again changes nothing."

    def handle(self, *args, **options):
        # Demo entries and payments go through the real services; their emails are not worth printing.
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"), transaction.atomic():
            created = demo.load(self.stdout)
            if created:
                for config in apps.get_app_configs():
                    loader = getattr(config, "load_demo", None)
                    if loader:
                        loader(self.stdout)
        if not created:
            self.stdout.write("Demo data is already loaded.")
        self.stdout.write(f"\nDemo log-ins (password for all: {demo.DEMO_PASSWORD}):")
        for email, _name, flags in demo.ACCOUNTS:
            role = "staff" if flags.get("is_staff") else email.split("@")[0]
            self.stdout.write(f"  {role:10} {email}")
        self.stdout.write(f"Site: {settings.SITE_URL}/")
