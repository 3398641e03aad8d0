from django.shortcuts import render

from .hooks import collect


def home(request):
    return render(request, "home.html", collect("home_page_context", request))
