"""The entrant's pages: sign-up, API keys, their entries (register, health, call log, transcripts) and
rehearsals. Thin: forms parse, services write, arena.selectors.entries read."""

import json

from django import forms
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from arena.models import Entry, Message
from arena.selectors import entries
from arena.selectors.entrant_engines import entrant_engines
from arena.services.apikeys import apikey_create, apikey_revoke
from arena.services.entrants import USERNAME_UNAVAILABLE, entrant_signup, entrant_status, username_available
from arena.services.entries import entry_register, settings_masked
from arena.services.logins import client_address, signup_refusal
from arena.services.rehearsals import JUDGES, rehearsal_start
from core.errors import ArenaError

CALLS_PER_PAGE = 25


class SignupForm(UserCreationForm):
    about = forms.CharField(
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Optional: what you will bring (for the organisers).",
    )

    def clean_username(self):
        """A taken username gets the words a reserved one gets (arena.services.entrants)."""
        username = self.cleaned_data.get("username")
        if username and not username_available(username=username):
            raise forms.ValidationError(USERNAME_UNAVAILABLE, code="unavailable")
        return username


def signup(request):
    if request.user.is_authenticated:
        return redirect("entrant_home")
    refusal = signup_refusal(address=client_address(request)) if request.method == "POST" else None
    # a refused attempt is not read at all: past the limit, nothing (a taken username) is told
    form = SignupForm(request.POST if request.method == "POST" and refusal is None else None)
    if request.method == "POST" and refusal is None and form.is_valid():
        user, _ = entrant_signup(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            about=form.cleaned_data["about"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("entrant_home")
    return render(
        request,
        "arena/entrant/signup.html",
        {"form": form, "refusal": refusal, "approval": settings.ARENA_ENTRANT_APPROVAL},
    )


class EntryForm(forms.Form):
    display_name = forms.CharField(max_length=100)
    engine = forms.ChoiceField()
    settings = forms.CharField(
        required=False,
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text='A JSON object, e.g. {"url": "https://…", "secret": "…"} for a webhook.',
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.offers = entrant_engines()
        self.fields["engine"].choices = [(offer.name, offer.label) for offer in self.offers]

    def clean_settings(self):
        text = self.cleaned_data["settings"].strip() or "{}"
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise forms.ValidationError(f"Not JSON: {exc}") from None
        if not isinstance(value, dict):
            raise forms.ValidationError("Settings must be a JSON object.")
        return value


@login_required
def home(request):
    """The entrant's own page: status, entries, the form to register one."""
    status = entrant_status(user=request.user)
    form = EntryForm(request.POST or None) if status == "entrant" else None
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            entry = entry_register(owner=request.user, **form.cleaned_data)
        except ArenaError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("entrant_entry", entry.pk)
    entries = Entry.objects.filter(owner=request.user).select_related("health")
    return render(request, "arena/entrant/home.html", {"status": status, "form": form, "entries": entries})


@login_required
def keys(request):
    """API keys: create (named; the key is shown this once), list, revoke."""
    created, error = None, ""
    if request.method == "POST":
        try:
            created = apikey_create(user=request.user, name=request.POST.get("name", ""))
        except ArenaError as exc:
            error = str(exc)
    listed = request.user.api_keys.all()
    return render(request, "arena/entrant/keys.html", {"created": created, "error": error, "keys": listed})


@login_required
@require_POST
def key_revoke(request, key_id):
    if not apikey_revoke(user=request.user, key_id=key_id):
        raise Http404("No such active key of yours.")
    return redirect("entrant_keys")


def _entry_or_404(request, entry_id) -> Entry:
    entry = entries.entry_for_viewer(entry_id=entry_id, user=request.user)
    if entry is None:
        raise Http404("No such entry of yours.")
    return entry


@login_required
def entry_page(request, entry_id):
    """Health, the call log (paginated), rehearsals and published transcripts of one entry."""
    entry = _entry_or_404(request, entry_id)
    calls = Paginator(entries.entry_calls(entry=entry), CALLS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "arena/entrant/entry.html",
        {
            "entry": entry,
            "settings_shown": json.dumps(settings_masked(entry.engine, entry.settings), indent=2),
            "health": entries.entry_health_report(entry=entry),
            "calls": calls,
            "rehearsals": entries.entry_rehearsals(entry=entry)[:20],
            "transcripts": entries.entry_transcripts(entry=entry)[:50],
        },
    )


@login_required
@require_POST
def rehearse(request, entry_id):
    entry = _entry_or_404(request, entry_id)
    judge = request.POST.get("judge", "bot")
    if judge not in JUDGES:
        judge = "bot"
    try:
        interrogation = rehearsal_start(entry=entry, user=request.user, judge=judge)
    except ArenaError as exc:
        return _with_error(request, entry, str(exc))
    if judge == "self":
        return redirect("judge_console", interrogation.public_id)
    return redirect("entrant_rehearsal", interrogation.public_id)


def _with_error(request, entry, message):
    from django.contrib import messages

    messages.warning(request, message)
    return redirect("entrant_entry", entry.pk)


@login_required
def rehearsal_page(request, public_id):
    """A rehearsal as its judge sees it, refreshed while it runs."""
    interrogation = entries.rehearsal_for_viewer(public_id=public_id, user=request.user)
    if interrogation is None:
        raise Http404("No such rehearsal of yours.")
    conversation = interrogation.sole
    return render(
        request,
        "arena/entrant/rehearsal.html",
        {
            "interrogation": interrogation,
            "entry": conversation.witness_entry,
            "messages_shown": conversation.messages.order_by("seq"),
            "judge_role": Message.Role.INTERROGATOR,
        },
    )
