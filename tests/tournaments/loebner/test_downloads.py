"""A contest's downloads from its results page: the results as CSV and JSON, the transcripts as JSON and as
JComm logs in one zip. Public once the results are published, organisers only before; people named only
by the contest's labels; no CSV cell a spreadsheet would run as a formula."""

import csv
import io
import json
import re
import zipfile

import pytest
from django.contrib.auth import get_user_model

from arena.models import Entry, Message
from arena.services import message_post, verdict_submit
from lpp.protocol.logs import parse_log
from tests.tournaments.loebner.helpers import finals_make, judge_round
from tournaments.loebner import selectors, services
from tournaments.loebner.models import Meeting

pytest.importorskip("tournaments.loebner.rules.scoring")
pytestmark = pytest.mark.django_db

DOWNLOADS = ("results.csv", "results.json", "transcripts-jcomm.zip")
UNHASHED = {"hash", "prev_hash", "head", "signature", "public_key", "key_id"}  # hex and base64: no words


def _played(cast):
    """A 2012-format contest: round 1 played (jude talks with his confederate, every judge picks the
    confederate as human but E2's judge, who picks E2), the later rounds played and judged, not published."""
    contest = finals_make(cast, fmt="2012")
    first = contest.rounds.get(number=1)
    services.round_start(round_id=first.pk)
    meeting = first.meetings.select_related("interrogation").get(judge__label="J1")
    human = meeting.interrogation.conversations.get(witness_human__isnull=False)
    ask, answer = Message.Role.INTERROGATOR, Message.Role.WITNESS
    message_post(conversation_id=human.pk, sender_role=ask, text="Hi, who are you?", user=cast.jude)
    message_post(conversation_id=human.pk, sender_role=answer, text="Just me.", user=human.witness_human)
    services.round_finish(round_id=first.pk)
    for m in first.meetings.select_related("judge__user", "entry"):
        entry_side = "left" if m.left == "entry" else "right"
        human_side = entry_side if m.entry.label == "E2" else ("right" if entry_side == "left" else "left")
        verdict_submit(interrogation_id=m.interrogation_id, judge=m.judge.user, choice=human_side, confidence=60)
    for later in contest.rounds.exclude(pk=first.pk).order_by("number"):
        judge_round(later, lambda m: False)  # every judge picks the confederate
    return contest


def _published(cast):
    contest = _played(cast)
    services.contest_publish(contest_id=contest.pk)
    return contest


def _usernames() -> re.Pattern:
    names = get_user_model().objects.values_list("username", flat=True)
    return re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")\b")


def _texts(value, key=None):
    """Every string in a JSON document, but hashes, keys and signatures."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v, key)
    elif isinstance(value, str) and key not in UNHASHED:
        yield value


def test_the_results_download_as_csv_with_each_entrys_rank_and_totals(cast, client):
    contest = _published(cast)
    response = client.get(f"/contests/{contest.pk}/results.csv")
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="contest-{contest.pk}-results.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == [
        *("rank", "label", "name", "judged_human", "n"),
        *("rate", "ci_low", "ci_high", "mean_rank", "points"),
    ]
    assert [(r["rank"], r["label"], r["name"], r["judged_human"]) for r in rows] == [
        ("1", "E2", "Finalist 2", "1"),
        ("2", "E1", "Finalist 1", "0"),
        ("2", "E3", "Finalist 3", "0"),
        ("2", "E4", "Finalist 4", "0"),
    ]
    page = {e["label"]: e for e in selectors.contest_results(contest=contest)["entries"]}
    for row in rows:  # the figures of the results page
        assert int(row["n"]) == page[row["label"]]["n"] and float(row["rate"]) == page[row["label"]]["rate"]
        assert float(row["ci_low"]) == pytest.approx(page[row["label"]]["ci_low"])
        assert row["mean_rank"] == "" and row["points"] == ""  # the 2012 rules rank by no ranks


def test_the_results_download_as_json_with_the_winner_and_each_judges_meetings(cast, client):
    contest = _published(cast)
    response = client.get(f"/contests/{contest.pk}/results.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="contest-{contest.pk}-results.json"'
    data = json.loads(response.content)
    assert data["contest"] == contest.name and data["published"] is True
    assert data["winner"] == "E2" and data["winner_name"] == "Finalist 2" and data["not_scored"] is None
    assert [(e["rank"], e["label"], e["judged_human"]) for e in data["entries"]][:2] == [(1, "E2", 1), (2, "E1", 0)]
    judges = {j["label"] for j in data["judges"]}
    assert judges == {p.label for p in contest.participants.filter(kind="judge")}
    meeting = data["judges"][0]["meetings"][0]
    assert set(meeting) == {"round", "entry", "confederate", "left", "human", "rank"}
    assert re.fullmatch(r"E\d", meeting["entry"]) and re.fullmatch(r"C\d", meeting["confederate"])
    assert not any(_usernames().search(text) for text in _texts(data))


def test_the_transcripts_json_names_people_only_by_their_labels(cast, client):
    contest = _published(cast)
    response = client.get(f"/contests/{contest.pk}/transcripts.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    assert len(data["transcripts"]) == Meeting.objects.filter(round__contest=contest).count()
    for transcript in data["transcripts"]:
        assert re.fullmatch(r"J\d", transcript["judge"]) and transcript["round"] in {1, 2, 3, 4}
        witnesses = {c["witness_kind"]: c["witness"] for c in transcript["conversations"]}
        assert witnesses == {"machine": transcript["entry"], "human": transcript["confederate"]}
    j1 = next(t for t in data["transcripts"] if t["judge"] == "J1" and t["round"] == 1)
    texts = [m["text"] for c in j1["conversations"] for m in c["messages"]]
    assert texts == ["Hi, who are you?", "Just me."]
    assert all(c["seal"] for c in j1["conversations"])  # the hash chains and seals as published
    assert not any(_usernames().search(text) for text in _texts(data))


def test_each_published_transcripts_page_and_json_name_people_only_by_their_labels(cast, client):
    """The transcript a results page links (/transcripts/<id>/ and its JSON): the judge J1, the confederate
    C1…, the entry E1…, never a user name."""
    contest = _published(cast)
    meeting = Meeting.objects.select_related("interrogation", "judge", "entry", "confederate").get(
        round__contest=contest, round__number=1, judge__label="J1"
    )
    public_id = meeting.interrogation.public_id
    data = client.get(f"/transcripts/{public_id}.json").json()
    assert data["judge"] == "J1"
    witnesses = {c["witness_kind"]: c["witness"] for c in data["conversations"]}
    assert witnesses == {"machine": meeting.entry.label, "human": meeting.confederate.label}
    assert not any(_usernames().search(text) for text in _texts(data))
    page = client.get(f"/transcripts/{public_id}/").content.decode()
    assert "judge J1" in page and f"human ({meeting.confederate.label})" in page
    assert "Hi, who are you?" in page and not _usernames().search(re.sub(r"<[^>]+>", " ", page))


def test_the_transcripts_download_as_jcomm_logs_in_one_zip(cast, client):
    contest = _published(cast)
    response = client.get(f"/contests/{contest.pk}/transcripts-jcomm.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="contest-{contest.pk}-jcomm-logs.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    meetings = Meeting.objects.filter(round__contest=contest).select_related("round", "judge", "entry", "confederate")
    assert sorted(archive.namelist()) == sorted(
        f"R{m.round.number}-{m.judge.label}-{m.entry.label}-{m.confederate.label}.log" for m in meetings
    )
    names = _usernames()
    for name in archive.namelist():
        text = archive.read(name).decode()
        assert not names.search(text), name
        [transcript] = parse_log(text, source=name)
        round_, judge, entry = name.split("-")[:3]
        assert transcript.judge == judge.removeprefix("J") and transcript.program == entry
        assert transcript.round == round_.removeprefix("R")
    j1 = next(n for n in archive.namelist() if n.startswith("R1-J1-"))
    typed = "".join(k.key for k in parse_log(archive.read(j1).decode(), source=j1)[0].keystrokes if len(k.key) == 1)
    assert "Hiwhoareyou" in typed and "Justme" in typed


def test_an_organisers_zip_before_publication_says_why_it_holds_no_log(cast, client):
    contest = _played(cast)
    client.force_login(cast.olivia)
    response = client.get(f"/contests/{contest.pk}/transcripts-jcomm.zip")
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert archive.namelist() == ["README.txt"]
    assert "once the contest's results are published" in archive.read("README.txt").decode()


@pytest.mark.parametrize("download", DOWNLOADS)
def test_before_publication_only_organisers_download(cast, client, download):
    contest = _played(cast)
    url = f"/contests/{contest.pk}/{download}"
    response = client.get(url)
    assert response.status_code == 403 and "not published yet" in response.content.decode()
    for user in (cast.oscar, cast.jude, cast.connie):  # the contest's own judge and confederate too
        client.force_login(user)
        assert client.get(url).status_code == 403
    client.force_login(cast.olivia)
    assert client.get(url).status_code == 200
    client.logout()
    services.contest_publish(contest_id=contest.pk)
    assert client.get(url).status_code == 200  # published: anyone
    assert client.get(f"/contests/{contest.pk + 1000}/{download}").status_code == 404


def test_the_results_page_offers_the_downloads_to_whoever_may_have_them(cast, client):
    contest = _played(cast)
    page = client.get(f"/contests/{contest.pk}/results/").content.decode()
    assert "results.csv" not in page and "transcripts-jcomm.zip" not in page
    client.force_login(cast.olivia)
    page = client.get(f"/contests/{contest.pk}/results/").content.decode()
    assert f'href="/contests/{contest.pk}/results.csv"' in page and "Only organisers may download" in page
    client.logout()
    services.contest_publish(contest_id=contest.pk)
    page = client.get(f"/contests/{contest.pk}/results/").content.decode()
    for download in (*DOWNLOADS, "transcripts.json"):
        assert f'href="/contests/{contest.pk}/{download}"' in page
    assert "Only organisers" not in page
    assert "<th>Place</th>" in page and "<tr><td>1</td><td>E2 · Finalist 2</td>" in page


def test_a_name_a_spreadsheet_would_run_is_defused_in_the_csv(cast, client):
    contest = _published(cast)
    names = {"E1": '=HYPERLINK("http://x")', "E2": "+1+1", "E3": "-2", "E4": "@SUM(A1)"}
    for label, name in names.items():
        Entry.objects.filter(pk=contest.participants.get(label=label).contest_entry.entry_id).update(display_name=name)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/contests/{contest.pk}/results.csv").content.decode())))
    assert {r["label"]: r["name"] for r in rows} == {label: "'" + name for label, name in names.items()}
    data = client.get(f"/contests/{contest.pk}/results.json").json()
    assert {e["label"]: e["name"] for e in data["entries"]} == names  # JSON keeps the names as they are
