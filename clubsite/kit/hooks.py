"""Apps add sections to shared pages (home, player page, My account; the club list, a club's page and a club night's
page, as `club_list_context`, `club_page_context` and `club_night_context`) through AppConfig hooks.

A hook is a method on an app's AppConfig returning a dict; list values from several apps are joined.
"""

from django.apps import apps


def collect(hook_name: str, *args) -> dict:
    merged: dict = {}
    for config in apps.get_app_configs():
        hook = getattr(config, hook_name, None)
        if not hook:
            continue
        for key, value in hook(*args).items():
            if isinstance(value, list):
                merged.setdefault(key, []).extend(value)
            else:
                merged[key] = value
    return merged
