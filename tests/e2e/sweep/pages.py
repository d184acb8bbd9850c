"""The pages the sweep opens: every role's main page, as the cast member who would open it.

``path`` takes the placeholders of tests/hardening/matrix.py (built by ``build_world``); ``user`` is a
cast member's username (None: not logged in; "player": a fresh visitor walked through /play/ to ``path``'s
step). OWNED_ELSEWHERE names the pages whose violations another piece of work is mending (their xfails)."""

from dataclasses import dataclass

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    user: str | None = None
    axe: bool = True  # False: a third-party page the platform serves as it comes (its markup is not ours)


PAGES = [
    # the public
    Page("home", "/"),
    Page("login", "/accounts/login/"),
    Page("signup", "/entrant/signup/"),
    Page("play-consent", "consent", "player"),
    Page("play-survey", "survey", "player"),
    Page("play-lobby", "lobby", "player"),
    Page("play-game", "game", "player"),
    Page("transcripts", "/transcripts/"),
    Page("transcript", "/transcripts/{published}/"),
    Page("results", "/results/"),
    Page("results-entry", "/results/entries/{entry}/"),
    Page("contests", "/contests/"),
    Page("contest-results", "/contests/{contest}/results/"),
    Page("tables", "/tables/"),
    Page("tables-game", "/tables/{tables_game}/"),
    Page("trade-games", "/markets/"),
    Page("trade-leaderboard", "/markets/leaderboard/"),
    Page("trade-watch", "/markets/{game}/watch/"),
    Page("trade-log", "/markets/{finished_game}/log/"),
    Page("api-docs", "/api/docs/", axe=False),  # Swagger UI: checked for fit and the policy, not axe
    Page("trade-bettor-profile", "/markets/bettors/betty/"),
    Page("crowd-markets", "/markets/conversations/"),
    Page("crowd-market", "/markets/conversations/{xmarket}/"),
    Page("crowd-market-results", "/markets/conversations/results/"),
    Page("play-watch", "/play/watch/"),
    # entrants
    Page("entrant", "/entrant/", "ada"),
    Page("entrant-keys", "/entrant/keys/", "ada"),
    Page("entrant-entry", "/entrant/entries/{entry}/", "ada"),
    Page("entrant-rehearsal", "/entrant/rehearsals/{rehearsal}/", "ada"),
    Page("lambdastar", "/lambdastar/experiments/", "ada"),
    Page("lambdastar-experiment", "/lambdastar/experiments/{experiment}/", "ada"),
    # judges, confederates, bettors
    Page("judge-console", "/judge/{interrogation}/", "jude"),
    Page("confederate-console", "/witness/{conversation}/", "connie"),
    Page("wager", "/wager/", "jude"),
    Page("wager-session", "/wager/sessions/{wager_session}/", "jude"),
    Page("wager-report", "/wager/sessions/{wager_session}/report/", "olivia"),
    Page("contest-rank", "/contests/{contest}/rank/", "jude"),
    Page("trade-bettor", "/markets/{game}/", "betty"),
    Page("trade-target", "/markets/{game}/target/", "connie"),
    # organisers
    Page("monitor", "/monitor/", "olivia"),
    Page("admin", "/admin/", "olivia"),
    Page("admin-interrogations", "/admin/arena/interrogation/", "olivia"),
    Page("contest-control", "/admin/loebner/contest/{contest}/control/", "olivia"),
    Page("wager-control", "/admin/wager/session/{wager_session}/control/", "olivia"),
    Page("study-control", "/admin/studies/study/{study}/control/", "olivia"),
    Page("wager-organiser", "/wager/", "olivia"),
    Page("wager-report", "/wager/sessions/{wager_session}/report/", "olivia"),
    Page("contests-organiser", "/contests/", "olivia"),
    Page("contest-board", "/contests/{contest}/board/", "olivia"),
    Page("contest-qualifying", "/contests/{contest}/qualifying/", "olivia"),
    Page("studies", "/studies/", "olivia"),
    Page("study", "/studies/{study}/", "olivia"),
    Page("results-judges", "/results/judges/", "olivia"),
    Page("tables-new", "/tables/new/", "olivia"),
]

# Pages other helpers are reworking: their violations are theirs to mend (page name -> owner: what).
# A "name@size" key holds for that size only.
OWNED_ELSEWHERE = {}
