"""The wager rules as pure functions (no Django): slot plans, the two tests, aggregation."""
