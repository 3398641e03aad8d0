from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "outbox"
    verbose_name = "Outgoing mail"

    def ready(self):
        from django.core.signals import request_finished, request_started

        from . import services

        request_started.connect(services.request_started, dispatch_uid="outbox-request-started")
        request_finished.connect(services.request_finished, dispatch_uid="outbox-request-finished")

    def health_info(self):
        """For /healthz, information only (never a failure): mail waiting to go out and mail that failed."""
        from .models import Message, MessageStatus

        return {
            "outbox": {
                "waiting": Message.objects.filter(status=MessageStatus.PENDING).count(),
                "failed": Message.objects.filter(status=MessageStatus.FAILED).count(),
            }
        }
