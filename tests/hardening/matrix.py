"""Who may open what: every page, API endpoint and websocket of the platform × every role, in one table.

Read a row as "METHOD path | what each role gets". Placeholders in paths are objects the test builds
(tests/hardening/test_permissions.py, ``build_world``):

  {interrogation}   jude's running three-party interrogation: connie (human) and ada's pull entry
  {conversation}    connie's conversation in it;  {entry}  ada's pull entry (its machine witness)
  {pull_conversation}  that entry's conversation (a judge message awaits its answer)
  {published}       an ended, judged and published interrogation of jude's
  {game}            a running Turing Trade game: betty is its bettor, connie its (human) target
  {finished_game}   a settled game;  {open_game}  a game open for bettors, with a machine target
  {tables_game}     a finished Turing the Tables game (the demo's)
  {experiment}      ada's Λ* experiment (launched, one run, one aggregate), {run} and {aggregate} of it
  {rehearsal}       a running rehearsal of {entry}, ada judging it herself (so rehearsing again is refused)
  {apikey}          one of ada's API keys
  {wager_session}   a wager rehearsal session judged by jude, connie its foil; {wager_trial} its one trial
  {contest}         a Loebner contest open for entries (format 2009-rules), jude its judge J1
  {xmarket}         the crowd market on {interrogation} ("the left witness is human"), trading

Roles (columns): anon = not logged in; outsider = oscar (no role); judge = jude (this interrogation's);
judge2 = june (a judge, not of this interrogation); confed = connie (the witness, and the game's
target); bettor = betty (bettor of {game}); entrant = ada (owns {entry} and {experiment}); entrant2 =
bob (an entrant with an entry of his own); organiser = olivia (staff, organiser role).
Pages are visited with a session, the API with the user's DRF token, websockets with a session cookie.

The API answers 401 (with WWW-Authenticate: Token) to a request without a token.
Cells: a status code; ``login`` = 302 to the login page; ``admin`` = 302 to the admin's login page;
``ws`` = websocket accepted (and its state frame arrives); ``4403`` = websocket closed with 4403.
"""

from dataclasses import dataclass

ROLES = ("anon", "outsider", "judge", "judge2", "confed", "bettor", "entrant", "entrant2", "organiser")

TABLE = """
request                                              | anon  | outsider | judge | judge2 | confed | bettor | entrant | entrant2 | organiser
# --- arena pages ------------------------------------------------------------------------------------------------------------------------
GET  /                                               | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /judge/{interrogation}/                         | login | 404      | 200   | 404    | 404    | 404    | 404     | 404      | 404
GET  /witness/{conversation}/                        | login | 404      | 404   | 404    | 200    | 404    | 404     | 404      | 404
GET  /witness/{pull_conversation}/                   | login | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 404
GET  /monitor/                                       | admin | admin    | admin | admin  | admin  | admin  | admin   | admin    | 200
GET  /transcripts/                                   | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /transcripts/{published}/                       | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /transcripts/{interrogation}/                   | 404   | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 404
GET  /transcripts/{published}.json                   | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /transcripts/{interrogation}.json               | 404   | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 404
GET  /transcripts/keys.json                           | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/                                       | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/results.json                           | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/ratings.csv                            | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/rates.csv                              | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/matrix.csv                             | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/entries/{entry}/                       | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/entries/{entry}/entry.json             | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/entries/{entry}/rates.csv              | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /results/judges/                                | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /results/judges/judges.json                     | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /results/judges/judges.csv                      | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /healthz                                        | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /metrics                                        | 404   | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 404
GET  /favicon.ico                                    | 302   | 302      | 302   | 302    | 302    | 302    | 302     | 302      | 302
GET  /accounts/login/                                | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
POST /accounts/logout/                               | 302   | 302      | 302   | 302    | 302    | 302    | 302     | 302      | 302
# --- the entrant's pages ----------------------------------------------------------------------------------------------------------------
GET  /entrant/                                       | login | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /entrant/signup/                                | 200   | 302      | 302   | 302    | 302    | 302    | 302     | 302      | 302
GET  /entrant/keys/                                  | login | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
POST /entrant/keys/{apikey}/revoke/                  | login | 404      | 404   | 404    | 404    | 404    | 302     | 404      | 404
GET  /entrant/entries/{entry}/                       | login | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 200
POST /entrant/entries/{entry}/rehearse/              | login | 404      | 404   | 404    | 404    | 404    | 302     | 404      | 302
GET  /entrant/rehearsals/{rehearsal}/                | login | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 200
# --- the admin, as a group: its index and one changelist --------------------------------------------------------------------------------
GET  /admin/                                         | admin | admin    | admin | admin  | admin  | admin  | admin   | admin    | 200
GET  /admin/arena/interrogation/                     | admin | admin    | admin | admin  | admin  | admin  | admin   | admin    | 200
GET  /admin/markets/game/end/                        | admin | admin    | admin | admin  | admin  | admin  | admin   | admin    | 200
GET  /admin/loebner/contest/{contest}/control/       | admin | admin    | admin | admin  | admin  | admin  | admin   | admin    | 200
POST /admin/loebner/contest/{contest}/control/       | admin | admin    | admin | admin  | admin  | admin  | admin   | admin    | 302
GET  /admin/wager/session/{wager_session}/control/   | admin | admin    | admin | admin  | admin  | admin  | admin   | admin    | 200
# --- Turing Trade pages -----------------------------------------------------------------------------------------------------------------
GET  /markets/                                       | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/leaderboard/                           | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/{open_game}/join/                      | 405   | 405      | 405   | 405    | 405    | 405    | 405     | 405      | 405
POST /markets/{open_game}/join/                      | login | 409      | 409   | 409    | 409    | 302    | 409     | 409      | 409
GET  /markets/{game}/                                | login | 404      | 404   | 404    | 404    | 200    | 404     | 404      | 404
GET  /markets/{game}/target/                         | login | 404      | 404   | 404    | 200    | 404    | 404     | 404      | 404
GET  /markets/{game}/watch/                          | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/{game}/state.json                      | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/{game}/log/                            | 404   | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 404
GET  /markets/{finished_game}/log/                   | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
# conversation markets: public pages, except to {interrogation}'s witness and its entry's owner while it runs (they
# would read the other side); trading refused to everyone in it (its judge too) and to organisers, with one 403
GET  /markets/conversations/                         | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/conversations/results/                 | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/conversations/results.json             | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/conversations/results.csv              | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/conversations/trades.csv               | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /markets/conversations/{xmarket}/               | 200   | 200      | 403   | 200    | 403    | 200    | 403     | 200      | 200
GET  /markets/conversations/{xmarket}/state.json     | 200   | 200      | 403   | 200    | 403    | 200    | 403     | 200      | 200
GET  /markets/conversations/{xmarket}/trade/         | 405   | 405      | 405   | 405    | 405    | 405    | 405     | 405      | 405
POST /markets/conversations/{xmarket}/trade/         | 403   | 200      | 403   | 200    | 403    | 200    | 403     | 200      | 403
GET  /markets/bettors/betty/                         | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
# --- Long Now wager sessions (the report is public once every trial's verdicts are in; organisers and the committee before) ----------
GET  /wager/                                         | login | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /wager/sessions/{wager_session}/                | login | 404      | 200   | 404    | 404    | 404    | 404     | 404      | 200
GET  /wager/sessions/{wager_session}/report/         | 404   | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 200
GET  /wager/sessions/{wager_session}/transcripts.json | 404  | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 200
POST /wager/trials/{wager_trial}/verdicts/           | login | 302      | 302   | 302    | 302    | 302    | 302     | 302      | 302
# --- Turing the Tables pages -----------------------------------------------------------------------------------------------------------
GET  /tables/                                        | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /tables/new/                                    | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /tables/{tables_game}/                          | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /tables/{tables_game}/live/                     | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /tables/{tables_game}/export.jsonl              | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
# --- Λ* pages and downloads -------------------------------------------------------------------------------------------------------------
GET  /lambdastar/                                    | 302   | 302      | 302   | 302    | 302    | 302    | 302     | 302      | 302
GET  /lambdastar/experiments/                        | login | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /lambdastar/experiments/{experiment}/           | login | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 200
GET  /lambdastar/experiments/{experiment}/results.json | login | 404   | 404   | 404    | 404    | 404    | 200     | 404      | 200
GET  /lambdastar/experiments/{experiment}/launch/    | login | 404      | 404   | 404    | 404    | 404    | 409     | 404      | 409
POST /lambdastar/experiments/{experiment}/launch/    | login | 404      | 404   | 404    | 404    | 404    | 409     | 404      | 409
GET  /lambdastar/experiments/{experiment}/plots/types.svg | login | 404 | 404   | 404    | 404    | 404    | 200     | 404      | 200
GET  /lambdastar/experiments/{experiment}/plots/types.csv | login | 404 | 404   | 404    | 404    | 404    | 200     | 404      | 200
GET  /lambdastar/experiments/{experiment}/episodes.csv    | login | 404 | 404   | 404    | 404    | 404    | 200     | 404      | 200
GET  /lambdastar/experiments/{experiment}/episodes.jsonl  | login | 404 | 404   | 404    | 404    | 404    | 200     | 404      | 200
# --- studies: /play/ is public (a session is the player: no role opens another's game); results are organisers' ---
GET  /play/                                          | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /play/watch/                                    | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /play/consent/                                  | 405   | 405      | 405   | 405    | 405    | 405    | 405     | 405      | 405
POST /play/consent/                                  | 400   | 400      | 400   | 400    | 400    | 400    | 400     | 400      | 400
POST /play/answers/demographics/                     | 302   | 302      | 302   | 302    | 302    | 302    | 302     | 302      | 302
GET  /play/game/{study_game}/                        | 404   | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 404
GET  /play/transcripts/                              | 302   | 302      | 302   | 302    | 302    | 302    | 302     | 302      | 302
POST /play/transcripts/{study_game}/                 | 302   | 302      | 302   | 302    | 302    | 302    | 302     | 302      | 302
GET  /studies/                                       | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /studies/{study}/                               | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /studies/{study}/export/games.csv               | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
# --- the entrants' API (/api/v1/, token) ------------------------------------------------------------------------------------------------
GET  /api/v1/schema/                                 | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /api/schema/                                    | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /api/docs/                                      | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /api/v1/                                        | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /api/v1/entries/                                | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
POST /api/v1/entries/                                | 401   | 403      | 403   | 403    | 403    | 403    | 201     | 201      | 403
GET  /api/v1/entries/{entry}/                        | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 404
POST /api/v1/entries/{entry}/probe/                  | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 404
GET  /api/v1/entries/{entry}/pending/                | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 404
POST /api/v1/entries/{entry}/typing/                 | 401   | 404      | 404   | 404    | 404    | 404    | 204     | 404      | 404
POST /api/v1/entries/{entry}/replies/                | 401   | 404      | 404   | 404    | 404    | 404    | 202     | 404      | 404
GET  /api/v1/entries/{entry}/health/                 | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 404
GET  /api/v1/entries/{entry}/calls/                  | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 404
POST /api/v1/entries/{entry}/rehearse/               | 401   | 404      | 404   | 404    | 404    | 404    | 409     | 404      | 404
GET  /api/v1/entries/{entry}/rehearsals/{rehearsal}/ | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 404
GET  /api/v1/learner/consent/                        | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
PUT  /api/v1/learner/consent/                        | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
DELETE /api/v1/learner/consent/                      | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
# --- the Λ* API (/api/lambdastar/, token): lists are filtered to one's own, details of others' are 404 -------------------------------------
GET  /api/lambdastar/                                | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /api/lambdastar/experiments/                    | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /api/lambdastar/experiments/{experiment}/       | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 200
GET  /api/lambdastar/runs/                           | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /api/lambdastar/runs/{run}/                     | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 200
GET  /api/lambdastar/aggregates/                     | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /api/lambdastar/aggregates/{aggregate}/         | 401   | 404      | 404   | 404    | 404    | 404    | 200     | 404      | 200
GET  /api/lambdastar/episodes/                       | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
# --- Loebner contests (/contests/): {contest} is open for entries, jude its judge J1 -----------------------------------------------------
GET  /contests/                                      | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /contests/{contest}/results/                    | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /contests/{contest}/transcripts.json            | 200   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
GET  /contests/{contest}/results.json                | 403   | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /contests/{contest}/results.csv                 | 403   | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /contests/{contest}/transcripts-jcomm.zip       | 403   | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /contests/{contest}/board/                      | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /contests/{contest}/board.json                  | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /contests/{contest}/qualifying/                 | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 200
GET  /contests/{contest}/vote/1/                     | login | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 404
GET  /contests/{contest}/rank/                       | login | 404      | 200   | 404    | 404    | 404    | 404     | 404      | 404
GET  /contests/lpp2/rank/not-a-signed-address/      | 404   | 404      | 404   | 404    | 404    | 404    | 404     | 404      | 404
POST /contests/{contest}/tie/                        | login | 403      | 403   | 403    | 403    | 403    | 403     | 403      | 302
GET  /contests/api/{contest}/entries/                | 401   | 200      | 200   | 200    | 200    | 200    | 200     | 200      | 200
POST /contests/api/{contest}/entries/                | 401   | 403      | 403   | 403    | 403    | 403    | 201     | 403      | 403
# --- websockets -------------------------------------------------------------------------------------------------------------------------
WS   /ws/judge/{interrogation}/                      | 4403  | 4403     | ws    | 4403   | 4403   | 4403   | 4403    | 4403     | 4403
WS   /ws/witness/{conversation}/                     | 4403  | 4403     | 4403  | 4403   | ws     | 4403   | 4403    | 4403     | 4403
WS   /ws/witness/{pull_conversation}/                | 4403  | 4403     | 4403  | 4403   | 4403   | 4403   | 4403    | 4403     | 4403
WS   /ws/monitor/                                    | 4403  | 4403     | 4403  | 4403   | 4403   | 4403   | 4403    | 4403     | ws
WS   /ws/markets/{game}/bettor/                      | 4403  | 4403     | 4403  | 4403   | 4403   | ws     | 4403    | 4403     | 4403
WS   /ws/markets/{game}/target/                      | 4403  | 4403     | 4403  | 4403   | ws     | 4403   | 4403    | 4403     | 4403
WS   /ws/markets/{game}/watch/                       | ws    | ws       | ws    | ws     | ws     | ws     | ws      | ws       | ws
WS   /ws/markets/conversations/{xmarket}/            | ws    | ws       | 4403  | ws     | 4403   | ws     | 4403    | ws       | ws
WS   /ws/tables/{tables_game}/                       | ws    | ws       | ws    | ws     | ws     | ws     | ws      | ws       | ws
WS   /ws/play/{study}/lobby/                         | 4403  | 4403     | 4403  | 4403   | 4403   | 4403   | 4403    | 4403     | 4403
WS   /ws/play/judge/{study_game}/                    | 4403  | 4403     | 4403  | 4403   | 4403   | 4403   | 4403    | 4403     | 4403
WS   /ws/play/witness/{study_game}/                  | 4403  | 4403     | 4403  | 4403   | 4403   | 4403   | 4403    | 4403     | 4403
WS   /ws/lambdastar/experiments/{experiment}/        | 4403  | 4403     | 4403  | 4403   | 4403   | 4403   | ws      | 4403     | ws
"""  # noqa: E501  one row per request, one column per role: the table is read as a table, wider than a line

# Lists answer 200 to everyone logged in; what they list is checked here: the text that shows one of
# ada's objects, and the roles whose answer may contain it (no other role's may).
LISTS = {
    "GET /entrant/": ("Ada-program", {"entrant"}),
    "GET /entrant/keys/": ("<td>matrix</td>", {"entrant"}),
    "GET /api/v1/entries/": ("Ada-program", {"entrant"}),
    "GET /lambdastar/experiments/": ("Ada-experiment", {"entrant", "organiser"}),
    "GET /api/lambdastar/experiments/": ("Ada-experiment", {"entrant", "organiser"}),
    "GET /api/lambdastar/runs/": ('"experiment":{experiment},', {"entrant", "organiser"}),
    "GET /api/lambdastar/aggregates/": ('"run":{run},', {"entrant", "organiser"}),
}

# JSON bodies of the requests that need one ({role}: the column's name).
BODIES = {
    "POST /api/v1/entries/": {"display_name": "Matrix entry of {role}", "engine": "simple", "settings": {}},
    "POST /api/v1/entries/{entry}/probe/": {"message": "hello?"},
    "POST /api/v1/entries/{entry}/typing/": {"conversation": "{pull_conversation}"},
    "POST /api/v1/entries/{entry}/replies/": {"conversation": "{pull_conversation}", "text": "I am here."},
    "POST /api/v1/entries/{entry}/rehearse/": {"judge": "self"},
    "POST /markets/conversations/{xmarket}/trade/": {"action": "buy", "security": "H", "key": "matrix-{role}"},
    "POST /contests/api/{contest}/entries/": {"entry": "{entry}", "people": ["{role}"], "rights_statement": True},
}
QUERIES = {"GET /api/v1/entries/{entry}/pending/": {"wait": "0"}}


@dataclass(frozen=True)
class Row:
    method: str
    path: str  # with {placeholders}
    expected: dict  # role -> cell

    @property
    def request(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def websocket(self) -> bool:
        return self.method == "WS"


def rows() -> list[Row]:
    lines = [line for line in TABLE.strip().splitlines() if line.strip() and not line.startswith("#")]
    header, *body = ([cell.strip() for cell in line.split("|")] for line in lines)
    assert tuple(header[1:]) == ROLES, header
    parsed = []
    for cells in body:
        method, path = cells[0].split()
        assert len(cells) == len(ROLES) + 1, cells
        parsed.append(Row(method, path, dict(zip(ROLES, cells[1:]))))
    return parsed
