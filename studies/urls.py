app_name = "studies"

urlpatterns = []
