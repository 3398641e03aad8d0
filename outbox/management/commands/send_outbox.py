from django.core.management.base import BaseCommand

from outbox import services


class Command(BaseCommand):
    help = "Sends the outbox's due messages (new ones whose task never ran, failed ones due for a retry)."

    def handle(self, *args, **options):
        sent = services.send_due()
        self.stdout.write(f"Sent {sent} message(s).")
