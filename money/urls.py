from .views import card, pay, statements, treasurer

app_name = "money"

urlpatterns = pay.urls + card.urls + statements.urls + treasurer.urls
