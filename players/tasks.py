"""Mail is written to the outbox in the transaction that causes it and sent after commit (see outbox.services)."""

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from clubsite.kit.mail import subject as mail_subject
from outbox.services import queue_email
from outbox.tasks import WritesToOutbox

from .emails import render, url_for


@shared_task(base=WritesToOutbox)
def send_email(subject: str, body: str, to: list[str], html: str | None = None, from_email: str | None = None):
    """Writes one outbox message per recipient (`.delay` runs here: no broker needed); returns how many."""
    return len(queue_email(to, subject, body, html=html or "", from_email=from_email or ""))


@shared_task(base=WritesToOutbox)
def send_welcome_email(user_id: int) -> int:
    """Sent once the account's address is confirmed (before that, the account cannot log in)."""
    from .models import Player, User

    user = User.objects.filter(pk=user_id).first()
    if not user:
        return 0
    context = {
        "user": user,
        "player": Player.objects.filter(user=user).first(),
        "account_url": url_for("players:me"),
        "events_url": url_for("events:list"),
    }
    body = render("players/email/welcome.txt", context)
    return send_email(mail_subject("Welcome: your account is ready"), body, [user.email])


@shared_task
def send_renewal_reminders() -> int:
    """Remind members 30 days before expiry. Marks each under a lock: running twice sends once."""
    from .models import Membership
    from .services import memberships_due_reminder

    sent = 0
    for membership_id in list(memberships_due_reminder().values_list("pk", flat=True)):
        with transaction.atomic():
            m = Membership.objects.select_for_update().select_related("player").get(pk=membership_id)
            if m.reminder_sent_on or not m.player.email:
                continue
            m.reminder_sent_on = timezone.localdate()
            m.save(update_fields=["reminder_sent_on"])
            body = render("players/email/renewal.txt", {"membership": m, "renew_url": url_for("players:renew")})
            queue_email([m.player.email], mail_subject("Your membership is about to expire"), body)
            sent += 1
    return sent
