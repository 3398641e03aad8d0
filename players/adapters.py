from urllib.parse import quote

from allauth.account.adapter import DefaultAccountAdapter
from django.urls import reverse

from clubsite.kit.ip import client_ip
from clubsite.kit.mail import subject as mail_subject

from . import access
from .emails import absolute_url, site_context


class AccountAdapter(DefaultAccountAdapter):
    """Account mail (verification, password reset) is rendered here and written to the outbox in the current
    transaction; it is sent after commit, and a failure to send never breaks the page.

    Its links start with SITE_URL and it names the site by SITE_NAME, like every other email of the site,
    whichever host the request came in on.

    Who may log in is players.access.check_access, the rule the API applies too; failed passwords count per client
    address as clubsite.kit.ip.client_ip finds it (for every one of allauth's rate limits) and per account.
    """

    def pre_login(self, request, user, **kwargs):
        try:
            access.check_access(user, email=kwargs.get("email"))
        except access.EmailUnverified:
            # The page answers an unconfirmed address with allauth's verification stage, which comes next: it
            # mails a new link and says so.
            pass
        except access.AccessRefused:
            from allauth.account.internal.stagekit import clear_login

            clear_login(request)
            return self.respond_user_inactive(request, user)
        return super().pre_login(request, user, **kwargs)

    def get_client_ip(self, request):
        return client_ip(request)

    def _get_login_attempts_cache_key(self, request, **credentials):
        # allauth's own key is the login as typed, prefixed with the request's host name: one account would have a
        # counter per address, per user name and per port in the Host header.
        return access.lockout_key(credentials.get("email") or credentials.get("username") or "")

    def format_email_subject(self, subject):
        return mail_subject(subject)

    def get_email_confirmation_url(self, request, emailconfirmation):
        return absolute_url(reverse("account_confirm_email", args=[emailconfirmation.key]))

    def get_reset_password_from_key_url(self, key):
        path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
        return absolute_url(path.replace("UID-KEY", quote(key)))

    def send_mail(self, template_prefix, email, context):
        from outbox.services import queue_email

        msg = self.render_mail(template_prefix, email, {"email": email, **site_context(), **context})
        html = next((content for content, mime in getattr(msg, "alternatives", []) if mime == "text/html"), None)
        queue_email(list(msg.to), msg.subject, msg.body, html=html or "", from_email=msg.from_email)


def user_display(user) -> str:
    """How allauth names a person in its messages ("Signed in as …"): their name, never their login."""
    player = getattr(user, "player", None)
    if player is not None and player.name:
        return player.name
    return user.get_full_name() or user.email or user.get_username()
