"""The results pages' filters (period, format, study), read from the query string and validated: a bad
value gets a message naming it, never a 500."""

from __future__ import annotations

import re
from datetime import date

from django import forms

from arena.results.sources import ResultsQuery, formats_registered

EARLIEST = date(2000, 1, 1)
LATEST = date(2099, 12, 31)
STUDY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\Z")


class _Day(forms.CharField):
    """A date as YYYY-MM-DD, from 2000-01-01 to 2099-12-31."""

    def __init__(self, label):
        super().__init__(
            required=False, max_length=10, label=label, error_messages={"max_length": "Give the date as YYYY-MM-DD."}
        )

    def clean(self, value):
        value = super().clean(value).strip()
        if not value:
            return None
        try:
            day = date.fromisoformat(value) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else None
        except ValueError:
            day = None
        if day is None:
            raise forms.ValidationError(f"{value!r} is not a date: give it as YYYY-MM-DD.")
        if not EARLIEST <= day <= LATEST:
            raise forms.ValidationError(f"Choose a date from {EARLIEST} to {LATEST}.")
        return day


class ResultsFilterForm(forms.Form):
    """?from=YYYY-MM-DD&to=YYYY-MM-DD&format=<id>&study=<id>, each optional."""

    def __init__(self, data=None):
        super().__init__(data)
        self.fields["from"] = _Day("From")
        self.fields["to"] = _Day("To")
        self.fields["format"] = forms.ChoiceField(
            required=False,
            label="Format",
            choices=[("", "all formats"), *formats_registered().items()],
            error_messages={"invalid_choice": "%(value)s is not a format of this platform."},
        )
        self.fields["study"] = forms.CharField(
            required=False,
            max_length=64,
            label="Study",
            strip=True,
            error_messages={"max_length": "A study id has at most 64 characters."},
        )

    def clean_study(self):
        study = self.cleaned_data["study"]
        if study and not STUDY.match(study):
            raise forms.ValidationError("A study id is letters, digits, '.', '_' and '-'.")
        return study or None

    def clean(self):
        data = super().clean()
        if data.get("from") and data.get("to") and data["from"] > data["to"]:
            self.add_error("to", "The period ends before it begins.")
        return data

    def query(self) -> ResultsQuery:
        """The validated query (call after is_valid())."""
        data = self.cleaned_data
        return ResultsQuery(
            date_from=data.get("from"),
            date_to=data.get("to"),
            format=data.get("format") or None,
            study=data.get("study"),
        )

    def messages(self) -> list[str]:
        return [
            f"{self.fields[name].label}: {message}" if name in self.fields else message
            for name, errors in self.errors.items()
            for message in errors
        ]


def results_filter(params) -> ResultsFilterForm:
    """The filter form bound to a request's GET parameters (validated)."""
    # a value is cut at 200 characters before anything reads it (still too long for every field, so
    # refused, but never echoed back at any length)
    form = ResultsFilterForm({key: str(params.get(key, ""))[:200] for key in ("from", "to", "format", "study")})
    form.is_valid()
    return form
