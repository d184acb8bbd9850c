app_name = "wager"

urlpatterns = []
