"""The entrants' REST API (DRF, token or session auth): entries, probes, pull mode, learner consent."""
