from allauth.account.signals import user_signed_up
from django.db import transaction
from django.dispatch import receiver


@receiver(user_signed_up)
def welcome_new_user(request, user, **kwargs):
    from .services import ensure_own_player
    from .tasks import send_welcome_email

    ensure_own_player(user)
    transaction.on_commit(lambda: send_welcome_email.delay(user.pk))
