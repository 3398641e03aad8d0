from allauth.account.adapter import DefaultAccountAdapter


class AccountAdapter(DefaultAccountAdapter):
    """Account mail (verification, password reset) is rendered here and written to the outbox in the current
    transaction; it is sent after commit, and a failure to send never breaks the page."""

    def send_mail(self, template_prefix, email, context):
        from outbox.services import queue_email

        msg = self.render_mail(template_prefix, email, context)
        html = next((content for content, mime in getattr(msg, "alternatives", []) if mime == "text/html"), None)
        queue_email(list(msg.to), msg.subject, msg.body, html=html or "", from_email=msg.from_email)
