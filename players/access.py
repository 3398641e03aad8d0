"""Who may get in, by every door: the log-in page (allauth, through players.adapters), the API's token endpoint
(players.api.TokenView) and every API request that presents a token (clubsite.kit.authentication, which calls
check_access through settings.ACCESS_POLICY).

An account gets in when it is active and, as accounts are verified before their first log-in
(ACCOUNT_EMAIL_VERIFICATION = "mandatory"), has a confirmed email address. A wrong password counts toward the
lockout (ACCOUNT_RATE_LIMITS["login_failed"], kept in the shared cache): per client address (clubsite.kit.ip) and
per account, whichever of its email addresses or its user name is tried, on whichever host name the site is reached.
"""

from allauth.account import app_settings as account_settings
from allauth.account.models import EmailAddress
from allauth.account.utils import has_verified_email
from django.core.exceptions import ValidationError
from django.db.models import Q

from clubsite.kit.prepared import Prepared

from .models import User
from .services import MemberError

INACTIVE = "This account is inactive."
UNVERIFIED = (
    "Confirm your email address first: follow the link in the email we sent you. "
    "Logging in on the site sends a new link."
)
LOCKED = "Too many failed log-in attempts. Wait a few minutes, then try again."
WRONG_PASSWORD = "Unable to log in with the email and password given."

# Every API request with a token asks: compiled once per connection.
VERIFIED_ADDRESS = Prepared(
    lambda user_id: EmailAddress.objects.filter(user_id=user_id, verified=True).values_list("pk", flat=True)[:1], int
)


class AccessRefused(MemberError):
    pass


class AccountInactive(AccessRefused):
    pass


class EmailUnverified(AccessRefused):
    pass


class LoginLocked(AccessRefused):
    pass


def check_access(user, email: str | None = None) -> None:
    """Raise AccessRefused unless the account may get in: it is active and, when verification is mandatory, the
    address it logs in with (any of its addresses when none is named) is confirmed."""
    if not user.is_active:
        raise AccountInactive(INACTIVE)
    if account_settings.EMAIL_VERIFICATION != account_settings.EmailVerificationMethod.MANDATORY:
        return
    verified = has_verified_email(user, email) if email else VERIFIED_ADDRESS.first(user.pk) is not None
    if not verified:
        raise EmailUnverified(UNVERIFIED)


def lockout_key(login: str) -> str:
    """What failed passwords for this login count against: its account, by whichever of its email addresses or its
    user name; a login no account has counts on its own."""
    login = (login or "").strip()
    if "@" in login:
        found = Q(email__iexact=login) | Q(emailaddress__email__iexact=login)
    else:
        found = Q(username=login)
    user_id = User.objects.filter(found).order_by("pk").values_list("pk", flat=True).first()
    return f"account:{user_id}" if user_id else f"login:{login.lower()}"


def password_login(request, login: str, password: str):
    """A password log-in outside the log-in page (the API token), by email address or user name: the same lockout
    and the same check_access as the page. Raises LoginLocked, AccessRefused or MemberError."""
    from allauth.account.adapter import get_adapter

    login = (login or "").strip()
    if "@" not in login:
        # allauth logs in by email (ACCOUNT_LOGIN_METHODS): a user name stands for its account's address.
        login = User.objects.filter(username=login).values_list("email", flat=True).first() or login
    credentials = {"email": login} if "@" in login else {"username": login}
    try:
        user = get_adapter(request).authenticate(request, password=password or "", **credentials)
    except ValidationError:
        raise LoginLocked(LOCKED) from None
    if user is None:
        raise MemberError(WRONG_PASSWORD)
    check_access(user, email=credentials.get("email"))
    return user
