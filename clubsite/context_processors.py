from django.conf import settings

from clubsite.kit.roles import is_organiser


def site(request):
    return {
        "SITE_NAME": settings.SITE_NAME,
        "CURRENCY": settings.CURRENCY,
        # Asked only by the pages that show the menu (a template calls it), once a request (roles caches it).
        "nav_organiser": lambda: is_organiser(getattr(request, "user", None)),
    }
