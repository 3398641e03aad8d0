from django.urls import path

from . import views

app_name = "players"
urlpatterns = [
    path("", views.directory, name="directory"),
    path("me/", views.me, name="me"),
    path("me/profile/", views.profile, name="profile"),
    path("me/renew/", views.renew, name="renew"),
    path("join/", views.join, name="join"),
    path("joins/<int:pk>/approve/", views.join_approve, name="join_approve"),
    path("renewals/", views.renewals, name="renewals"),
    path("import/", views.members_import, name="members_import"),
    path("renewals/<int:pk>/paid/", views.renewal_paid, name="renewal_paid"),
    path("merge/", views.merge, name="merge"),
    path("me/claim/", views.claim, name="claim"),
    path("me/claim/<str:token>/", views.claim_confirm, name="claim_confirm"),
    path("<int:member_number>/", views.player_detail, name="detail"),
]
