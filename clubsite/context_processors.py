from django.conf import settings

from clubsite.kit.roles import offers_my_events


def site(request):
    return {
        "SITE_NAME": settings.SITE_NAME,
        "CURRENCY": settings.CURRENCY,
        # Asked only by the pages that show the menu (a template calls it), from the cache (roles).
        "nav_organiser": lambda: offers_my_events(getattr(request, "user", None)),
    }
