"""Rule set ``reference-2016``: the original C++ Λ* program (2016), quirks included."""
