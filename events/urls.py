from django.urls import include, path

from . import views

app_name = "events"
urlpatterns = [
    path("", views.event_list, name="list"),
    path("calendar.ics", views.calendar_feed, name="feed"),
    path("my-entries/", views.my_entries, name="my_entries"),
    path("mine/", views.my_events, name="mine"),
    path("new/", views.create_event, name="create"),
    path("entries/<int:pk>/accept/", views.accept_offer, name="accept_offer"),
    path("entries/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("entries/<int:pk>/leave-waiting-list/", views.leave_waitlist, name="leave_waitlist"),
    path("entries/<int:pk>/change-name/", views.replace_student, name="replace_student"),
    path("entries/<int:pk>/payment/", views.record_payment, name="record_payment"),
    path("entries/<int:pk>/move/", views.move_entry, name="move_entry"),
    path("entries/<int:pk>/cancel/", views.cancel_entry, name="cancel_entry"),
    path("entries/<int:pk>/reinstate/", views.reinstate_entry, name="reinstate_entry"),
    path("entries/withdraw/<str:token>/", views.withdraw_by_link, name="withdraw_by_link"),
    path("groups/<int:pk>/", views.group_entry, name="group_entry"),
    path("<slug:slug>/", views.event_detail, name="detail"),
    path("<slug:slug>/event.ics", views.event_ics, name="ics"),
    path("<slug:slug>/enter/", views.enter, name="enter"),
    path("<slug:slug>/enter-group/", views.enter_group, name="enter_group"),
    path("<slug:slug>/play/", include("events.play.urls")),
    path("<slug:slug>/edit/", views.edit_event, name="edit"),
    path("<slug:slug>/manage/", views.manage, name="manage"),
    path("<slug:slug>/manage/copy/", views.copy_event, name="copy"),
    path("<slug:slug>/manage/desk-list/", views.desk_list, name="desk_list"),
    path("<slug:slug>/manage/entries.csv", views.export_entries, name="export"),
    path("<slug:slug>/manage/email/", views.email_entrants, name="email"),
    path("<slug:slug>/manage/directors/", views.manage_directors, name="directors"),
    path("<slug:slug>/categories/new/", views.edit_category, name="category_add"),
    path("<slug:slug>/categories/<int:pk>/", views.edit_category, name="category_edit"),
    path("<slug:slug>/categories/<int:pk>/delete/", views.delete_category, name="category_delete"),
    path("<slug:slug>/status/<str:action>/", views.lifecycle, name="lifecycle"),
]
