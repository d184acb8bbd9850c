app_name = "loebner"

urlpatterns = []
