"""The Loebner formats as pure functions (no Django): schedules, Latin squares, scoring, qualifying.

formats.py (Format, FORMATS, format_get), squares.py (constructions), schedule.py (Meeting,
schedule_build, schedule_problems, excused, latin_square), scoring.py (Judgment, ScoringError,
contest_score), qualifying.py (answers_score, qualifying_rank, finalists)."""
