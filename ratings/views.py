from django.shortcuts import render


def rating_list(request):
    return render(request, "ratings/rating_list.html", {})
