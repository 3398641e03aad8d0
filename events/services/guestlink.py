"""The signed link of an entry made without an account: emailed to the guest, it confirms the entry and is then how
the guest manages it (pay, withdraw, change). The token names the guest entry and its email, nothing else; it is not
the entry's number, and no one can make one without the site's secret key."""

from datetime import timedelta

from django.core import signing

SALT = "events.guest-entry"
# Long enough to manage an entry from the announcement to the event; a lost or expired link is sent again on asking.
MAX_AGE = timedelta(days=400)


def make_guest_token(guest) -> str:
    return signing.dumps({"g": guest.pk, "m": guest.email.casefold()}, salt=SALT, compress=True)


def read_guest_token(token: str) -> tuple[int, str] | None:
    """(guest entry id, email) from a genuine, unexpired token; None for anything else."""
    try:
        data = signing.loads(token or "", salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # also SignatureExpired
        return None
    if not isinstance(data, dict) or not isinstance(data.get("g"), int) or not isinstance(data.get("m"), str):
        return None
    return data["g"], data["m"]
