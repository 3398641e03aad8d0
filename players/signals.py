from allauth.account.signals import email_confirmed, user_signed_up
from django.db import transaction
from django.dispatch import Signal, receiver

# Staff imported members from a spreadsheet (players.memberimport), sent inside the import's transaction: `actor`,
# `rating_list` (the id of the list chosen for the file's ratings, or None), `ratings` ([(player id, rating)]) and
# `as_of` (the day the ratings hold from). The ratings app seeds the list; a receiver's ServiceError refuses the
# whole import.
members_imported = Signal()


@receiver(user_signed_up)
def give_new_user_a_player_record(request, user, **kwargs):
    from .models import ClaimStatus
    from .services import ensure_own_player

    if user.claims.filter(status=ClaimStatus.PENDING).exists():
        return  # the person has a record already, claimed at sign-up (services.sign_up_player): no second one
    ensure_own_player(user)


@receiver(email_confirmed)
def welcome_once_the_address_is_confirmed(request, email_address, **kwargs):
    """The welcome says "you can now enter events", so it waits until the account can log in.

    Only the account's first confirmed address brings one; confirming an address added later does not.
    """
    from allauth.account.models import EmailAddress

    from .services import approve_claims_by_address
    from .tasks import send_welcome_email

    approve_claims_by_address(email_address.user, email_address.email)
    user_id = email_address.user_id
    if EmailAddress.objects.filter(user_id=user_id, verified=True).exclude(pk=email_address.pk).exists():
        return
    transaction.on_commit(lambda: send_welcome_email.delay(user_id))
