import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
application = get_wsgi_application()


def warm_up() -> None:
    """Does as the worker starts what its first requests would otherwise each pay for (about half a second of CPU
    in all): importing every view through the URLconf, compiling the URL patterns that reverse() uses, loading the
    template engines with their tag libraries, and importing the broker's transport. Nothing here touches the
    database or the broker."""
    from django.template import engines
    from django.urls import get_resolver

    def populate(resolver) -> None:
        resolver.reverse_dict  # noqa: B018 (compiles the patterns on first access)
        for _prefix, namespace in resolver.namespace_dict.values():
            populate(namespace)

    populate(get_resolver())
    engines.all()
    from clubsite.celery import app

    if not app.conf.task_always_eager:
        with app.connection_for_write() as connection:
            connection.transport  # noqa: B018 (imports the transport's module; connects to nothing)


warm_up()
# What the worker has loaded lives as long as it does: out of the collector's reach, a full collection (every few
# hundred requests) walks only what requests left behind, not some 200,000 objects (tens of ms on the request that
# triggers it).
gc.freeze()
