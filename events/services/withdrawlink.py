"""The signed link in the email a member gets when someone else enters them: it lets them withdraw
that entry in one click, without logging in. The token names the entry and the player, nothing else."""

from datetime import timedelta

from django.core import signing

SALT = "events.withdraw-entry"
MAX_AGE = timedelta(days=120)


def make_token(entry) -> str:
    return signing.dumps({"e": entry.pk, "p": entry.player_id}, salt=SALT, compress=True)


def read_token(token: str) -> tuple[int, int] | None:
    """(entry id, player id) from a genuine, unexpired token; None for anything else."""
    try:
        data = signing.loads(token or "", salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # also SignatureExpired
        return None
    if not isinstance(data, dict) or not isinstance(data.get("e"), int) or not isinstance(data.get("p"), int):
        return None
    return data["e"], data["p"]
