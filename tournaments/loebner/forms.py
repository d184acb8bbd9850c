"""The organisers' forms for contest entries (admin): an entry's people as rows (name, e-mail, affiliation)
instead of raw JSON, checked when the entry is saved by the same rules as entering and the compliance
check (``services.people_rows``, ``services.entry_people_clashes``), each problem shown on its row and box.
Thin: the rules are the services'."""

import json

from django import forms
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

from tournaments.loebner import services
from tournaments.loebner.models import ContestEntry

PERSON_BOXES = (
    ("name", "Name", "text", "Ada Lovelace"),
    ("email", "E-mail", "email", "ada@example.org"),
    ("affiliation", "Affiliation", "text", "University of London"),
)
MEDIA = forms.Media(css={"all": ["loebner/admin.css"]})


class PeopleWidget(forms.Widget):
    """An entry's people (a JSON list) as rows of three boxes: the rows given, then ``extra`` empty ones (save
    and edit again for more). A row left empty is dropped. The errors the form found for a row's box are
    shown on it (``row_errors``: ``{(row, field): [message]}``, field None for the row as a whole). A
    request that posts the field itself (a JSON list, as before rows) is read as that list."""

    template_name = "admin/loebner/people_widget.html"
    extra = 2

    def __init__(self, attrs=None):
        super().__init__(attrs)
        self.row_errors: dict[tuple[int, str | None], list[str]] = {}

    @property
    def media(self):
        return MEDIA

    def format_value(self, value):
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                return []
        if not isinstance(value, list):
            return []
        rows = []
        for person in value:
            person = {"name": person} if isinstance(person, str) else person
            if isinstance(person, dict):
                rows.append({field: str(person.get(field) or "") for field, *_ in PERSON_BOXES})
        return rows

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        rows = self.format_value(value)
        rows += [{}] * max(0, min(self.extra, services.entries.MAX_PEOPLE - len(rows)))
        base = (attrs or {}).get("id") or f"id_{name}"
        context["widget"]["rows"] = [
            {
                "number": i + 1,
                "errors": self.row_errors.get((i, None), []),
                "boxes": [
                    {
                        "name": f"{name}-{i}-{field}",
                        "id": f"{base}-{i}-{field}",
                        "label": label,
                        "type": kind,
                        "value": row.get(field, ""),
                        "placeholder": example if i == 0 and not any(row.values()) else "",
                        "errors": self.row_errors.get((i, field), []),
                    }
                    for field, label, kind, example in PERSON_BOXES
                ],
            }
            for i, row in enumerate(rows)
        ]
        context["widget"]["count"] = len(rows)
        context["widget"]["base_id"] = base
        return context

    def id_for_label(self, id_):
        return f"{id_}-0-name" if id_ else id_  # the field's label names the first person's name

    def _render(self, template_name, context, renderer=None):
        return mark_safe(render_to_string(template_name, context))  # the project's templates/

    def value_from_datadict(self, data, files, name):
        if name in data:  # the list itself, as JSON
            try:
                return json.loads(data[name])
            except ValueError:
                return data[name]
        try:
            count = min(int(data.get(f"{name}-rows", 0)), services.entries.MAX_PEOPLE + self.extra)
        except ValueError:
            count = 0
        rows = []
        for i in range(max(0, count)):
            row = {field: data.get(f"{name}-{i}-{field}", "") for field, *_ in PERSON_BOXES}
            if any(str(v).strip() for v in row.values()):
                rows.append(row)
        return rows

    def value_omitted_from_data(self, data, files, name):
        return name not in data and f"{name}-rows" not in data


class PeopleField(forms.Field):
    """The rows, cleaned by the entries' rules (``services.people_rows``): every problem named by person and
    box, and shown on that box."""

    widget = PeopleWidget

    def clean(self, value):
        rows, problems = services.people_rows(value if value not in (None, "") else [])
        self.widget.row_errors = {}
        for row, field, message in problems:
            if row is not None:
                self.widget.row_errors.setdefault((row, field), []).append(message)
        if problems:
            raise ValidationError([_said(row, message) for row, _, message in problems])
        return rows


def _said(row: int | None, message: str) -> str:
    return f"Person {row + 1}: {message}." if row is not None else f"{message[:1].upper()}{message[1:]}."


class EntryForm(forms.ModelForm):
    """A contest entry in the admin (its own page, or a row of its contest's page): its people as rows, and,
    when it is saved, the contest's rule that a person is affiliated with one entry only, each clash shown
    on the person's name or e-mail. The receipt time is the server's (read-only)."""

    people = PeopleField(
        label="People",
        help_text="One row per person affiliated with the entry: a name, and an e-mail and affiliation when "
        "known. A person may be affiliated with one entry of the contest only. Empty rows are dropped; save "
        "and edit again for more rows.",
    )

    class Meta:
        model = ContestEntry
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance._state.adding:
            self.instance.received_at = None  # not received yet: stamped when saved (``save``)

    def save(self, commit=True):
        if self.instance.received_at is None:
            self.instance.received_at = timezone.now()  # the server's clock, as the entry arrives
        return super().save(commit)

    def _post_clean(self):
        """After ``clean()`` (a subclass's too: the compliance check reads the rows as typed), each person
        whose name or e-mail is already another entry's of the contest is an error on that box."""
        super()._post_clean()
        people = self.cleaned_data.get("people")
        contest_id = self.cleaned_data["contest"].pk if self.cleaned_data.get("contest") else self.instance.contest_id
        if not people or not contest_id:
            return
        widget = self.fields["people"].widget
        messages = []
        for row, field, other in services.entry_people_clashes(
            contest_id=contest_id, people=people, exclude_pk=self.instance.pk
        ):
            said = f"{people[row][field]} is already affiliated with {other}"
            widget.row_errors.setdefault((row, field), []).append(said)
            messages.append(_said(row, said))
        if messages:
            self.add_error("people", messages)
