"""Admin-run contest formats on top of the arena: Loebner Prize contests (`tournaments.loebner`) and
Long Now wager sessions (`tournaments.wager`), each its own Django app."""
