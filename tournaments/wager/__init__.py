"""Long Now wager sessions: committee, trials of long interviews, verdicts, ranks, verifiable report."""
