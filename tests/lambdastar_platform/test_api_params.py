"""The Λ* REST endpoints' numeric filters are whole numbers within bounds: anything else answers 400 naming
the parameter (ignoring it would make ``?experiment=abc`` list every experiment's runs). Good filters:
test_pages.py."""

import pytest


@pytest.mark.parametrize(
    "query",
    [
        "runs/?experiment=abc",
        "runs/?experiment=nan",
        "runs/?experiment=",
        "aggregates/?run=-1",
        "aggregates/?experiment=1e309",
        "episodes/?run=1.5",
        "episodes/?page_size=0",
        "episodes/?page_size=inf",
        "episodes/?page_size=5001",
    ],
)
def test_a_bad_numeric_filter_is_refused(client, researcher, query):
    client.force_login(researcher)
    answer = client.get(f"/api/lambdastar/{query}")
    name = query.split("?")[1].split("=")[0]
    assert answer.status_code == 400 and name in answer.json()
