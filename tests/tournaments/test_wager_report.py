"""A reader follows the wager report's own words: its JSON links download every interview's transcript and
all of them together, its command verifies each file and the bundle offline, and one byte changed fails.
The links answer for whoever may read the report (organisers and the committee first, then the public)."""

import re
import shlex
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from core import hashchain
from tests.arena.test_seals import fresh_keys, offline_verify  # noqa: F401  autouse: each test reads its own signing key

from .wager_helpers import fooled_by, run_trial, wager_session


class ReportLinks(HTMLParser):
    """What a reader takes from the report: the interviews' JSON links, the bundle's and the keys' links, and
    the commands it names."""

    def __init__(self):
        super().__init__()
        self.transcripts, self.bundle, self.keys, self.commands = [], None, None, []
        self._command = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "a" and "transcript-json" in classes:
            self.transcripts.append(attrs["href"])
        elif tag == "a" and attrs.get("id") == "all-transcripts":
            self.bundle = attrs["href"]
        elif tag == "a" and attrs.get("id") == "public-keys":
            self.keys = attrs["href"]
        elif tag == "code" and "verify-command" in classes:
            self._command = ""

    def handle_data(self, data):
        if self._command is not None:
            self._command += data

    def handle_endtag(self, tag):
        if tag == "code" and self._command is not None:
            self.commands.append(self._command)
            self._command = None


def read_report(client, session) -> tuple[str, ReportLinks]:
    response = client.get(reverse("wager:report", args=[session.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    links = ReportLinks()
    links.feed(page)
    return page, links


def run_command(command: str, cwd, monkeypatch, capsys) -> tuple[int, str]:
    """The report's command, as a reader types it in the folder of the downloads."""
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "core.hashchain"]
    monkeypatch.chdir(cwd)
    try:
        code = hashchain.main(argv[3:])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def judged(cast):
    """A rehearsal of two trials: the first interviewed (a question and an answer in each) and judged, the
    second not started. Nothing published."""
    session = wager_session(cast, rehearsal=True, trials=2, minutes=5)
    first = session.trials.get(number=1)
    run_trial(first, say=True)
    fooled_by(first, [j.user for j in session.judges.all()], 2)
    return session


def test_a_reader_verifies_every_transcript_and_the_bundle_as_the_report_says(
    judged, cast, client, tmp_path, monkeypatch, capsys
):
    second = judged.trials.get(number=2)
    run_trial(second, say=True)
    fooled_by(second, [j.user for j in judged.judges.all()], 0)
    assert not judged.trials.filter(interviews__interrogation__published_at__isnull=False).exists()

    page, links = read_report(client, judged)  # the public's, now that every trial is judged
    assert len(links.transcripts) == 2 * 12  # two trials of three judges × four candidates
    one, bundle = links.commands
    assert one == "python -m core.hashchain verify transcript.json --key keys.json"
    assert bundle == "python -m core.hashchain verify transcripts.json --key keys.json"

    keys = client.get(links.keys)
    assert keys.status_code == 200
    (tmp_path / "keys.json").write_bytes(keys.content)
    for key_id in re.findall(r"key <code>([0-9a-f]{16})</code>", page):
        assert key_id in keys.content.decode()

    for number, href in enumerate(links.transcripts):
        response = client.get(href)
        assert response.status_code == 200, href
        (tmp_path / "transcript.json").write_bytes(response.content)
        code, output = run_command(one, tmp_path, monkeypatch, capsys)
        assert code == 0, output
        # the count and head it prints are the report's
        [(count, head)] = re.findall(r"sealed at its end \((\d+) messages, head ([0-9a-f]{16})…\)", output)
        assert re.search(rf"<td>{count}</td><td><code>{head}[0-9a-f]{{48}}</code>", page), output
        if number == 0:
            # one byte changed: the verifier says so
            tampered = response.content.replace(b"hello?", b"hello!", 1)
            assert tampered != response.content
            (tmp_path / "transcript.json").write_bytes(tampered)
            code, output = run_command(one, tmp_path, monkeypatch, capsys)
            assert code == 1 and "ALTERED" in output and "message #1" in output

    response = client.get(links.bundle)
    assert response.status_code == 200
    (tmp_path / "transcripts.json").write_bytes(response.content)
    code, output = run_command(bundle, tmp_path, monkeypatch, capsys)
    assert code == 0, output
    assert len(re.findall(r"OK: transcript \S+ sole conversation: ", output)) == 24 and "ALTERED" not in output
    assert len(re.findall(r"OK: transcript \S+ whole record: ", output)) == 24

    # the verifier alone, as the report says: Python and the cryptography package, no platform
    result = offline_verify(tmp_path, "transcripts.json", "--key", "keys.json")
    assert result.returncode == 0 and result.stdout.count("OK: ") == 2 * 24, result.stdout + result.stderr

    (tmp_path / "transcripts.json").write_bytes(response.content.replace(b"hi, judge", b"hi, judgE", 1))
    code, output = run_command(bundle, tmp_path, monkeypatch, capsys)
    assert code == 1 and output.count("ALTERED: transcript ") == 1 and output.count(" conversation: ") == 24


def test_the_links_answer_for_whoever_may_read_the_report(judged, cast, client):
    done = judged.trials.get(number=1).interviews.select_related("interrogation").first().interrogation
    waiting = judged.trials.get(number=2).interviews.select_related("interrogation").first().interrogation
    transcript, bundle = f"/transcripts/{done.public_id}.json", reverse("wager:transcripts_json", args=[judged.pk])

    # before every trial is judged: organisers and the committee only
    assert client.get(transcript).status_code == 404 and client.get(bundle).status_code == 404
    for outsider in (cast.oscar, cast.jude, cast.connie):  # a judge and a foil of the session included
        client.force_login(outsider)
        assert client.get(transcript).status_code == 404 and client.get(bundle).status_code == 404
    client.force_login(cast.olivia)
    _, links = read_report(client, judged)
    assert transcript in links.transcripts and len(links.transcripts) == 12  # the interviews that are over
    assert f"/transcripts/{waiting.public_id}.json" not in links.transcripts
    assert client.get(transcript).status_code == 200
    assert client.get(f"/transcripts/{waiting.public_id}.json").status_code == 404  # not held yet
    assert len(client.get(bundle).json()["transcripts"]) == 12

    # every trial judged: the report is public, and so are its transcripts, still anonymised
    second = judged.trials.get(number=2)
    run_trial(second)
    fooled_by(second, [j.user for j in judged.judges.all()], 0)
    client.logout()
    data = client.get(transcript).json()
    assert data["id"] == str(done.public_id) and data["judge"] is None
    assert all(c["witness"] is None and c["engine"] is None for c in data["conversations"])
    assert len(client.get(bundle).json()["transcripts"]) == 24
    assert str(done.public_id) not in client.get("/transcripts/").content.decode()  # listed once published
