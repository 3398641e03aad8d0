from django.urls import path

from . import calculator, past_event_views, views

app_name = "ratings"
urlpatterns = [
    path("", views.rating_list, name="list"),
    path("calculator/", calculator.rating_calculator, name="calculator"),
    path("lists/<slug:slug>/", views.rating_list, name="list_detail"),
    path("lists/<slug:slug>/ratings.csv", views.rating_list_csv, name="list_csv"),
    path("lists/<slug:slug>/snapshots/", views.snapshot_index, name="snapshots"),
    path("lists/<slug:slug>/snapshots/<str:taken_on>/", views.snapshot_detail, name="snapshot"),
    path("lists/<slug:slug>/players/<int:member_number>/", views.player_history, name="player_history"),
    path("lists/<slug:slug>/players/<int:member_number>/chart.svg", views.player_chart, name="player_chart"),
    path("lists/<slug:slug>/rerate/", views.rerate, name="rerate"),
    path("lists/<slug:slug>/import/", views.import_upload, name="import"),
    path("lists/<slug:slug>/import-event/", past_event_views.import_past_event_page, name="import_event"),
    path("imports/<int:pk>/", views.import_review, name="import_review"),
    path("events/<slug:slug>/", views.event_report, name="event_report"),
    path("events/<slug:slug>/rate/", views.event_rate, name="event_rate"),
    path("runs/<int:pk>/", views.run_detail, name="run"),
    path("runs/<int:pk>/progress/", views.run_progress, name="run_progress"),
]
