from django.urls import path

from arena import entrant_views as views

urlpatterns = [
    path("", views.home, name="entrant_home"),
    path("signup/", views.signup, name="entrant_signup"),
    path("keys/", views.keys, name="entrant_keys"),
    path("keys/<int:key_id>/revoke/", views.key_revoke, name="entrant_key_revoke"),
    path("entries/<int:entry_id>/", views.entry_page, name="entrant_entry"),
    path("entries/<int:entry_id>/rehearse/", views.rehearse, name="entrant_rehearse"),
    path("rehearsals/<uuid:public_id>/", views.rehearsal_page, name="entrant_rehearsal"),
]
