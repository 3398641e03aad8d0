from django.shortcuts import render

from clubsite.kit.hooks import collect


def home(request):
    return render(request, "home.html", collect("home_page_context", request))
