"""Loebner Prize contests: entries, qualifying, Latin-square rounds, paired comparisons, scoring."""
