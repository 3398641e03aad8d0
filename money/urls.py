from .views import card, invoices, pay, statements, treasurer

app_name = "money"

urlpatterns = pay.urls + invoices.urls + card.urls + statements.urls + treasurer.urls
