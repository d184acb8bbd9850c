"""The contest's steps that cannot be undone are guarded on the server: publishing waits for the whole
final (every round finished, every meeting judged, every judge's ranks), closing with no compliant entry
rolls the prize over only when confirmed, compliance set on the contest's page follows the entries'
rules, and every such admin action asks first."""

import html
from html.parser import HTMLParser

import pytest

from core.errors import Closed
from tests.tournaments.loebner.helpers import contest_make, entered, entrant_make, finals_make, rounds_play
from tournaments.loebner import selectors, services
from tournaments.loebner.models import Contest, ContestEntry, Participant, QualifyingSubject, Question, QuestionSet

pytest.importorskip("tournaments.loebner.rules.scoring")
pytestmark = pytest.mark.django_db

CONTESTS = "/admin/loebner/contest/"


def text(response) -> str:
    return html.unescape(response.content.decode())


def act(client, action, contest, **extra):
    """Choose an admin action for one contest in the contest list, as the organiser's browser posts it."""
    return client.post(CONTESTS, {"action": action, "_selected_action": [contest.pk], **extra}, follow=True)


class _FormFields(HTMLParser):
    """The fields a browser submits, unchanged, from the admin's change form (``<form id="…_form">``)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.data: dict[str, str] = {}
        self._in_form = False
        self._select = self._textarea = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._in_form = (a.get("id") or "").endswith("_form")
        if not self._in_form or ("name" not in a and tag != "option"):
            return
        if tag == "input" and a.get("type", "text") not in ("submit", "button", "file", "reset", "image"):
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.data[a["name"]] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = a["name"]
            self.data[self._textarea] = ""

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "textarea" and self._textarea:
            self.data[self._textarea] = self.data[self._textarea].removeprefix("\n")
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "form":
            self._in_form = False


def change_form(client, url) -> dict[str, str]:
    parser = _FormFields()
    parser.feed(client.get(url).content.decode())
    return parser.data


# --- publishing ----------------------------------------------------------------------------------


def test_publishing_is_refused_while_a_round_talks_or_is_paused(cast):
    contest = finals_make(cast)
    first = contest.rounds.get(number=1)
    services.round_start(round_id=first.pk)
    with pytest.raises(
        Closed, match=r"rounds not finished: round 1 \(talk under way\); rounds 2, 3, 4 \(not started\)"
    ):
        services.contest_publish(contest_id=contest.pk)
    services.round_pause(round_id=first.pk)
    with pytest.raises(Closed, match=r"round 1 \(paused\)"):
        services.contest_publish(contest_id=contest.pk)
    contest.refresh_from_db()
    assert contest.status == Contest.Status.FINALS
    with pytest.raises(Closed, match="nothing to publish"):
        services.contest_publish(contest_id=contest_make("Still open").pk)


def test_publishing_in_round_one_is_refused_in_the_admin_naming_what_is_missing(cast, client):
    from arena.services import verdict_submit

    contest = finals_make(cast)
    first = contest.rounds.get(number=1)
    services.round_start(round_id=first.pk)
    services.round_finish(round_id=first.pk)
    j1 = first.meetings.select_related("judge__user").get(judge__label="J1")
    verdict_submit(interrogation_id=j1.interrogation_id, judge=cast.jude, choice="left", confidence=60)
    client.force_login(cast.olivia)

    page = text(act(client, "publish", contest))
    assert 'id="irreversible-confirm"' not in page  # nothing to confirm: it is refused at once
    assert (
        "Finals aisb: not done: rounds not finished: rounds 2, 3, 4 (not started); "
        "meetings without a verdict: round 1: 3 of 4 (J2 june, J3 judge3, J4 judge4); "
        "judges' ranks missing: J1 jude (none given), J2 june (none given), J3 judge3 (none given), "
        "J4 judge4 (none given)." in page
    )
    forged = text(act(client, "publish", contest, post="yes"))  # a confirmation posted anyway
    assert "Finals aisb: not done: rounds not finished" in forged
    with pytest.raises(Closed, match=r"meetings without a verdict: round 1: 3 of 4"):
        services.contest_publish(contest_id=contest.pk)

    contest.refresh_from_db()
    assert contest.status == Contest.Status.FINALS
    assert client.get(f"/contests/{contest.pk}/transcripts.json").json()["transcripts"] == []
    met = [p.label for p in selectors.judge_entries(contest=contest, judge=contest.participants.get(label="J1"))]
    services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={label: i for i, label in enumerate(met, 1)})


@pytest.mark.slow
def test_publishing_waits_for_every_judges_ranks_then_asks_and_publishes_the_whole_final(cast, client):
    contest = finals_make(cast)
    rounds_play(contest)
    judges = sorted(contest.participants.filter(kind=Participant.Kind.JUDGE), key=lambda p: int(p.label[1:]))
    with pytest.raises(Closed, match=r"judges' ranks missing: J1 jude \(none given\), J2 june \(none given\)"):
        services.contest_publish(contest_id=contest.pk)

    rankable = {
        j.label: [p.label for p in selectors.judge_rankable(contest=contest, judge=j, ranking="mean-rank")[0]]
        for j in judges
    }
    for judge in judges:
        labels = rankable[judge.label][:-1] if judge.label == "J2" else rankable[judge.label]
        services.ranks_submit(
            contest_id=contest.pk, judge=judge.user, ranks={label: i for i, label in enumerate(labels, 1)}
        )
    client.force_login(cast.olivia)
    page = text(act(client, "publish", contest))
    assert f"judges' ranks missing: J2 june (not {rankable['J2'][-1]})." in page
    services.ranks_submit(
        contest_id=contest.pk, judge=cast.june, ranks={label: i for i, label in enumerate(rankable["J2"], 1)}
    )

    asked = client.post(CONTESTS, {"action": "publish", "_selected_action": [contest.pk]})
    page = text(asked)
    assert asked.status_code == 200 and 'id="irreversible-confirm"' in page
    assert "Every meeting's transcript becomes public, naming its judge, entry and confederate" in page
    assert "This cannot be undone." in page and f'href="{CONTESTS}" class="button cancel-link">Cancel' in page
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.FINALS  # asking changed nothing

    meetings = sum(r.meetings.count() for r in contest.rounds.all())
    assert f"Finals aisb: published, with {meetings} transcripts" in text(act(client, "publish", contest, post="yes"))
    contest.refresh_from_db()
    assert contest.status == Contest.Status.DONE
    assert set(contest.rounds.values_list("status", flat=True)) == {"ended"}
    assert len(client.get(f"/contests/{contest.pk}/transcripts.json").json()["transcripts"]) == meetings


# --- closing entries -----------------------------------------------------------------------------


def test_closing_with_no_compliant_entry_rolls_the_prize_over_only_once_confirmed(cast, client):
    next_year = contest_make("2010 Prize", status="draft")
    contest = contest_make("2009 Prize", rolls_into=next_year)
    entered(contest, entrant_make("ada"), "Broken", compliant=False)
    client.force_login(cast.olivia)

    asked = client.post(CONTESTS, {"action": "close_entries", "_selected_action": [contest.pk]})
    page = text(asked)
    assert asked.status_code == 200 and 'id="irreversible-confirm"' in page
    assert (
        "No entry is marked compliant: closing now rolls the prize over into 2010 Prize and ends this "
        "contest's entry period; this cannot be undone." in page
    )
    assert f'name="confirmed" value="rollover:{contest.pk}"' in page
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.OPEN

    unwarned = text(act(client, "close_entries", contest, post="yes"))  # a confirmation without the warning
    assert "2009 Prize: Not closed. No entry is marked compliant" in unwarned
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.OPEN

    done = text(act(client, "close_entries", contest, post="yes", confirmed=f"rollover:{contest.pk}"))
    assert "2009 Prize: entries closed: no compliant entry: prize rolled over" in done
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.ROLLED_OVER


def test_closing_with_compliant_entries_asks_once_and_proceeds(cast, client):
    contest = contest_make(finalists=1)  # more entries than finalist places: qualifying
    ada = entrant_make("ada")
    for i in range(2):
        entered(contest, ada, f"Good {i}", minutes=i)
    client.force_login(cast.olivia)
    page = text(client.post(CONTESTS, {"action": "close_entries", "_selected_action": [contest.pk]}))
    assert "Closing ends the contest's entry period" in page and "This cannot be undone." in page
    assert "No entry is marked compliant" not in page and 'name="confirmed"' not in page
    assert "Test Prize: entries closed: qualifying" in text(act(client, "close_entries", contest, post="yes"))
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.QUALIFYING


# --- compliance on the contest's page ------------------------------------------------------------


def test_compliance_set_on_the_contests_page_follows_the_entries_rules(cast, client):
    contest = contest_make()
    ada = entrant_make("ada")
    no_rights = entered(contest, ada, "No rights", rights_statement=False, compliant=None)
    fine = entered(contest, ada, "Fine", minutes=1, compliant=None)
    other = entered(contest, ada, "Other", minutes=2, compliant=None)
    client.force_login(cast.olivia)
    url = f"/admin/loebner/contest/{contest.pk}/change/"
    data = change_form(client, url)
    row = {int(v): k.split("-")[1] for k, v in data.items() if k.startswith("entries-") and k.endswith("-id") and v}

    data[f"entries-{row[no_rights.pk]}-compliance"] = "compliant"
    refused = client.post(url, data)
    assert refused.status_code == 200 and "No rights cannot be compliant without the rights statement." in text(refused)
    data[f"entries-{row[no_rights.pk]}-compliance"] = "pending"

    data[f"entries-{row[other.pk]}-people"] = '["Fine author"]'  # already affiliated with "Fine"
    data[f"entries-{row[other.pk]}-compliance"] = "compliant"
    refused = client.post(url, data)
    assert refused.status_code == 200 and "Other: a person is affiliated with another entry." in text(refused)
    data[f"entries-{row[other.pk]}-people"] = '["Other author"]'
    data[f"entries-{row[other.pk]}-compliance"] = "pending"

    data[f"entries-{row[fine.pk]}-compliance"] = "compliant"
    data[f"entries-{row[fine.pk]}-compliance_note"] = "statements read by hand"
    assert client.post(url, data).status_code == 302
    states = dict(ContestEntry.objects.filter(contest=contest).values_list("entry__display_name", "compliance"))
    assert states == {"No rights": "pending", "Fine": "compliant", "Other": "pending"}
    assert ContestEntry.objects.get(pk=fine.pk).compliance_note == "statements read by hand"

    data = change_form(client, url)
    data[f"entries-{row[fine.pk]}-compliance"] = "pending"
    refused = client.post(url, data)
    assert refused.status_code == 200 and "A checked entry cannot go back to “not checked yet”." in text(refused)
    assert ContestEntry.objects.get(pk=fine.pk).compliant


# --- the other steps that cannot be undone -------------------------------------------------------


def test_picking_finalists_and_building_the_schedule_ask_first(cast, client):
    question_set = QuestionSet.objects.create(name="one question")
    Question.objects.create(question_set=question_set, order=1, text="Q one?", category="memory")
    qualifying = contest_make("Qualifying Prize", question_set=question_set, finalists=2)
    for i in range(2):
        entered(qualifying, entrant_make(f"q{i}"), f"Qualifier {i}", minutes=i)
    services.contest_close(contest_id=qualifying.pk)
    for item in qualifying.entries.all():
        subject = QualifyingSubject.objects.create(contest=qualifying, contest_entry=item)
        services.qualifying_ask(subject_id=subject.pk)
    client.force_login(cast.olivia)

    page = text(client.post(CONTESTS, {"action": "pick_finalists", "_selected_action": [qualifying.pk]}))
    assert "become the finalists E1, E2, … in rank order" in page and "This cannot be undone." in page
    assert Contest.objects.get(pk=qualifying.pk).status == Contest.Status.QUALIFYING
    assert "Qualifying Prize: finalists picked" in text(act(client, "pick_finalists", qualifying, post="yes"))
    assert Contest.objects.get(pk=qualifying.pk).status == Contest.Status.FINALS

    finals = finals_make(cast, schedule=False)
    page = text(client.post(CONTESTS, {"action": "build_schedule", "_selected_action": [finals.pk]}))
    assert "the judges and confederates are seated for good" in page and "This cannot be undone." in page
    assert not finals.rounds.exists()
    assert "Finals aisb: schedule built" in text(act(client, "build_schedule", finals, post="yes"))
    assert finals.rounds.count() == selectors.contest_format(contest=finals).rounds
