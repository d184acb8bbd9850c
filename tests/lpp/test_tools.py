"""The command-line tools, run as a user runs them: as subprocesses."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lpp.protocol.lines import transcript_utterances
from lpp.protocol.logs import read_log

ROOT = Path(__file__).resolve().parents[2]
LOG = "logfile.m_allan_linguo.2012-05-15--13-14-57.log"


def run(*args, stdin="", timeout=30):
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=timeout
    )


def start(*args):
    return subprocess.Popen(
        [sys.executable, "-m", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_replay_renders_a_real_log_as_a_transcript(data_dir):
    result = run("lpp.protocol.replay", str(data_dir / LOG))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "judge 3, program m_allan_linguo, round 1, left human" in out
    assert "-- left (human) --" in out and "-- right (program) --" in out
    assert "] judge: Greetings" in out
    assert "] human: no, so I m ight be a bit slow" in out
    assert "] m_allan_linguo: Hello there.What is your name?" in out
    assert "[00:04.4 typing 4.4s] judge: Hello.." in out


def test_replay_can_show_backspace_and_one_side(data_dir):
    out = run("lpp.protocol.replay", str(data_dir / LOG), "--backspace", "--side", "left").stdout
    assert "human: no, so I m ight be a bu~it slow" in out
    assert "m_allan_linguo:" not in out


@pytest.mark.parametrize("tool", ["lpp.protocol.replay", "lpp.protocol.judge", "lpp.entry"])
def test_every_tool_has_help(tool):
    result = run(tool, "--help")
    assert result.returncode == 0 and "usage: python -m " + tool in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, message",
    [
        (["lpp.protocol.replay", "/no/such.log"], "no such file"),
        (["lpp.protocol.judge", "/no/such/dir"], "not a directory"),
        (["lpp.entry", "{tmp}", "--engine", "no-such-engine"], "unknown engine 'no-such-engine'"),
        (["lpp.entry", "{tmp}", "--engine", "echo", "--jitter", "3"], "jitter must be between 0 and 1"),
        (["lpp.entry", "{tmp}", "--engine", "echo", "--setting", "nokey"], "KEY=VALUE"),
        (["lpp.entry", "{tmp}"], "--engine"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(tmp_path, args, message):
    result = run(*[a.format(tmp=tmp_path) for a in args])
    assert result.returncode == 2 and message in result.stderr


def test_replay_of_a_file_that_is_no_log_says_so(tmp_path):
    (tmp_path / "x.log").write_text("")
    result = run("lpp.protocol.replay", str(tmp_path / "x.log"))
    assert result.returncode == 1 and "no LPP session found" in result.stderr


@pytest.mark.slow
def test_entry_answers_the_judge_through_a_directory(tmp_path):
    comm = tmp_path / "comm"
    comm.mkdir()
    entry = start("lpp.entry", str(comm), "--engine", "echo", "--fast", "--max-replies", "2")
    try:
        judge = run(
            "lpp.protocol.judge",
            str(comm),
            "--log",
            str(tmp_path / "j.log"),
            "--program",
            "echo-bot",
            "--other-is",
            "program",
            "--linger",
            "2",
            stdin="Hello there, who are you?\nIs 2+2 = 4?\n",
        )
        entry_out, entry_err = entry.communicate(timeout=15)
    finally:
        entry.kill()
    assert judge.returncode == 0, judge.stderr
    assert entry.returncode == 0, entry_err
    assert "other: Hello there, who are you?" in judge.stdout
    assert "other: Is 2+2 = 4?" in judge.stdout
    assert "judge: Is 2+2 = 4?" in entry_out and "entry: Is 2+2 = 4?" in entry_out
    assert os.listdir(comm) == []  # each side deleted what it read
    [log] = read_log(tmp_path / "j.log")
    assert (log.program, log.left, log.problems) == ("echo-bot", "program", [])
    said = [(u.sender, u.text) for u in transcript_utterances(log)]
    assert said.count(("judge", "Is 2+2 = 4?")) == 1 and said.count(("other", "Is 2+2 = 4?")) == 1
    assert [k.stamp for k in log.keystrokes if k.sender == "other"] == sorted(
        k.stamp for k in log.keystrokes if k.sender == "other"
    )


@pytest.mark.slow
def test_entry_runs_an_engine_of_the_bots_registry(tmp_path):
    pytest.importorskip("bots.registry")
    entry = start("lpp.entry", str(tmp_path), "--engine", "simple", "--fast", "--max-replies", "1")
    try:
        judge = run("lpp.protocol.judge", str(tmp_path), "--linger", "2", stdin="Hello, what is your name?\n")
        entry.communicate(timeout=15)
    finally:
        entry.kill()
    replies = [line for line in judge.stdout.splitlines() if line.startswith("other: ")]
    assert len(replies) == 1 and len(replies[0]) > len("other: ")


def test_the_lpp_protocol_imports_no_django():
    modules = "keys stamps model lines logs transport cli judge replay entry".split()
    code = (
        "import sys; import lpp.protocol; "
        + "; ".join(f"import lpp.protocol.{m}" for m in modules)
        + "; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
        + "; print(sorted(m for m in sys.modules if m.split('.')[0] == 'bots'))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    django, bots = result.stdout.splitlines()
    assert django == "[]"
    assert bots == "['bots', 'bots.settings_spec', 'bots.typing_delay']"  # its one door into bots


def test_entry_answers_a_judge_who_never_presses_return_after_the_idle_timeout(tmp_path, capsys):
    from bots.typing_delay import TypingModel
    from lpp.entry import engine_reply
    from lpp.protocol.entry import Entry
    from lpp.protocol.transport import CommDir

    judge = CommDir(tmp_path, side="judge")
    judge.send_text("anybody there", end_with_return=False)
    echo = engine_reply("echo", {}, f"lpp:{tmp_path}")
    entry = Entry(CommDir(tmp_path, side="other"), echo, TypingModel.fast(), idle=0.3)
    entry.run(max_replies=1)
    assert "".join(k.char for k in judge.read()) == "anybody there\n"
    assert entry.history[0].ended_by == "idle"
