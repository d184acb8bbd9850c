"""The arena's reads, one module for each thing read: interrogations (the pages' full states, published
transcripts and their seals), entries (what an entry's owner sees), spectators (the delayed feed) and
results (the results pages over every registered source)."""
