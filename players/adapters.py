from allauth.account.adapter import DefaultAccountAdapter
from django.db import transaction


class AccountAdapter(DefaultAccountAdapter):
    """Account mail (verification, password reset) is rendered here and sent by Celery after commit."""

    def send_mail(self, template_prefix, email, context):
        from .tasks import send_email

        msg = self.render_mail(template_prefix, email, context)
        html = next((content for content, mime in getattr(msg, "alternatives", []) if mime == "text/html"), None)
        args = dict(subject=msg.subject, body=msg.body, to=list(msg.to), html=html, from_email=msg.from_email)
        transaction.on_commit(lambda: send_email.delay(**args))
