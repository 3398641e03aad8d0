"""Mail goes out from tasks queued after commit, so a rolled-back change sends nothing."""

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone

from .emails import render, url_for


@shared_task
def send_email(
    subject: str,
    body: str,
    to: list[str],
    html: str | None = None,
    from_email: str | None = None,
    reply_to: list[str] | None = None,
):
    message = EmailMultiAlternatives(subject, body, from_email or settings.DEFAULT_FROM_EMAIL, to, reply_to=reply_to)
    if html:
        message.attach_alternative(html, "text/html")
    return message.send()


@shared_task
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
    return send_email(f"Welcome to {settings.SITE_NAME}", body, [user.email])


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
            to = [m.player.email]
            subject = f"Your {settings.SITE_NAME} membership is about to expire"
            transaction.on_commit(lambda b=body, t=to, s=subject: send_email.delay(s, b, t))
            sent += 1
    return sent
