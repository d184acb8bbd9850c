"""bench/tracing's LPP2 helpers: a line's text found in what the clients and daphne exchange, and where the
slowest lines' time goes (pure functions, no daphne)."""

import json

from bench.tracing import lpp2_content, slowest

LINE = json.dumps({"to": "ai0", "content": "judge0 to ai0: line 3", "id": "judge0", "secret": "s"})


def test_a_lines_text_is_found_in_its_payload_and_in_socket_io_frames_of_either_generation():
    assert lpp2_content(LINE) == "judge0 to ai0: line 3"
    frame = "42" + json.dumps(["message", LINE])
    assert lpp2_content(frame) == lpp2_content(frame.encode()) == "judge0 to ai0: line 3"
    assert lpp2_content("42" + json.dumps(["control", json.dumps({"status": "register"})])) is None
    assert lpp2_content("3probe") is None and lpp2_content(None) is None and lpp2_content("{not json") is None


def test_the_slowest_lines_are_set_apart_stage_by_stage():
    stamps = {
        f"line {k}": {
            "client_sent": k,
            "lpp2_sql": k + 0.001,
            "lpp2_stored": k + 0.002 + (0.010 if k == 7 else 0),
            "client_arrived": k + 0.003 + (0.010 if k == 7 else 0),
        }
        for k in range(10)
    }
    server = {text: {name: t for name, t in s.items() if name.startswith("lpp2")} for text, s in stamps.items()}
    client = {text: {name: t for name, t in s.items() if name.startswith("client")} for text, s in stamps.items()}
    lines = slowest(server, client, share=0.1)
    assert "10 of 10 messages with every stamp; the slowest 1 against the other 9" in lines[0]
    sql = next(line for line in lines if "lpp2_sql -> lpp2_stored" in line)
    assert "slowest  11.000" in sql and "others   1.000" in sql  # the slow line's time went to its statement
    sent = next(line for line in lines if "client_sent -> lpp2_sql" in line)
    assert "slowest   1.000" in sent
