from django.shortcuts import render


def home(request):
    from django.apps import apps

    context = {}
    for config in apps.get_app_configs():
        hook = getattr(config, "home_page_context", None)
        if hook:
            context.update(hook(request))
    return render(request, "home.html", context)
