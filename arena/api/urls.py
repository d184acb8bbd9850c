from django.urls import path

from arena.api import views

urlpatterns = [
    path("", views.ApiRoot.as_view(), name="api_root"),
    path("entries/", views.EntryListCreate.as_view(), name="api_entries"),
    path("entries/<int:entry_id>/", views.EntryDetail.as_view(), name="api_entry"),
    path("entries/<int:entry_id>/probe/", views.EntryProbe.as_view(), name="api_entry_probe"),
    path("entries/<int:entry_id>/health/", views.EntryHealthView.as_view(), name="api_entry_health"),
    path("entries/<int:entry_id>/calls/", views.EntryCallsView.as_view(), name="api_entry_calls"),
    path("entries/<int:entry_id>/rehearse/", views.EntryRehearse.as_view(), name="api_entry_rehearse"),
    path(
        "entries/<int:entry_id>/rehearsals/<uuid:rehearsal_id>/", views.EntryRehearsal.as_view(), name="api_rehearsal"
    ),
    path("entries/<int:entry_id>/pending/", views.pending_long_poll, name="api_pull_pending"),
    path("entries/<int:entry_id>/replies/", views.PullReply.as_view(), name="api_pull_reply"),
    path("entries/<int:entry_id>/typing/", views.PullTyping.as_view(), name="api_pull_typing"),
    path("learner/consent/", views.LearnerConsentView.as_view(), name="api_learner_consent"),
]
