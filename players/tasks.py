"""Mail goes out from tasks queued after commit, so a rolled-back change sends nothing."""

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone


@shared_task
def send_email(subject: str, body: str, to: list[str], html: str | None = None, from_email: str | None = None):
    message = EmailMultiAlternatives(subject, body, from_email or settings.DEFAULT_FROM_EMAIL, to)
    if html:
        message.attach_alternative(html, "text/html")
    return message.send()


@shared_task
def send_welcome_email(user_id: int) -> int:
    from .models import User

    user = User.objects.filter(pk=user_id).first()
    if not user:
        return 0
    body = render_to_string("players/email/welcome.txt", {"user": user, "SITE_NAME": settings.SITE_NAME})
    return send_email(f"Welcome to {settings.SITE_NAME}", body, [user.email])


@shared_task
def send_renewal_reminders() -> int:
    """Remind members 30 days before expiry. Marks each under a lock: running twice sends once."""
    from .models import Membership
    from .services import memberships_due_reminder

    renew_url = settings.SITE_URL.rstrip("/") + reverse("players:renew")
    sent = 0
    for membership_id in list(memberships_due_reminder().values_list("pk", flat=True)):
        with transaction.atomic():
            m = Membership.objects.select_for_update().select_related("player").get(pk=membership_id)
            if m.reminder_sent_on or not m.player.email:
                continue
            m.reminder_sent_on = timezone.localdate()
            m.save(update_fields=["reminder_sent_on"])
            context = {"membership": m, "SITE_NAME": settings.SITE_NAME, "renew_url": renew_url}
            body = render_to_string("players/email/renewal.txt", context)
            to = [m.player.email]
            transaction.on_commit(lambda b=body, t=to: send_email.delay("Your membership is about to expire", b, t))
            sent += 1
    return sent
