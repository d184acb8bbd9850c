"""Public online Turing-test studies in the style of turingtest.live and Human or Not."""
