"""Crowd markets on any arena interrogation ("conversation markets"): opening, syncing, trading and
settling them (`services`), a spectator's page state and the lists (`selectors`), judges against crowds
and the exports (`results`), their pages (`views`) and the demo's two markets (`demo`)."""
