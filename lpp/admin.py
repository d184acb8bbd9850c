from django.contrib import admin

from lpp.models import BridgeLink, BridgeStatus, ImportedTranscript


@admin.register(ImportedTranscript)
class ImportedTranscriptAdmin(admin.ModelAdmin):
    list_display = ["file_name", "index", "interrogation", "imported_at"]
    search_fields = ["file_name", "sha256"]
    readonly_fields = ["interrogation", "file_name", "sha256", "index", "problems", "imported_at"]


@admin.register(BridgeStatus)
class BridgeStatusAdmin(admin.ModelAdmin):
    list_display = ["entry", "state", "last_seen", "last_output_at", "last_error_at", "last_error"]
    list_filter = ["state"]
    readonly_fields = ["entry", "state", "last_error", "last_error_at", "last_seen", "last_output_at", "command"]


@admin.register(BridgeLink)
class BridgeLinkAdmin(admin.ModelAdmin):
    list_display = ["conversation", "judge_seq", "posted_keystroke_seq", "updated_at"]
    raw_id_fields = ["conversation"]
