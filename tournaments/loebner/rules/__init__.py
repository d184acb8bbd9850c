"""The Loebner formats as pure functions (no Django): schedules, Latin squares, scoring."""
