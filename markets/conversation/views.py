"""Thin views of conversation markets: the list, a spectator's page (live parts on a websocket), its
JSON state, a trade over HTTP, the results, the exports and a bettor's record."""

import io
import json

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_POST

from core import csvsafe
from core.errors import ArenaError, Closed, InvalidInput, NotAllowed
from core.payloads import error
from markets import payloads, services
from markets.charts import price_chart
from markets.conversation import results, selectors

STATUS = {NotAllowed: 403, Closed: 409, InvalidInput: 400}
MAX_BODY = 2048


def _cm(public_id):
    try:
        return selectors.xmarket_by_public_id(public_id=public_id)
    except NotAllowed:
        raise Http404("No such market.") from None


def xmarket_list(request):
    return render(request, "markets/conversation/list.html", selectors.xmarkets_listed(user=request.user))


def xmarket_watch(request, public_id):
    cm = _cm(public_id)
    try:
        state = selectors.xmarket_state(cm=cm, user=request.user)
    except NotAllowed as exc:
        return render(
            request,
            "markets/conversation/list.html",
            {**selectors.xmarkets_listed(user=request.user), "error": str(exc)},
            status=403,
        )
    chart = price_chart(opened=state["market"]["opened"], history=state["market"]["history"])
    return render(request, "markets/conversation/watch.html", {"cm": cm, "state": state, "price_chart": chart})


def xmarket_state_api(request, public_id):
    try:
        return JsonResponse(selectors.xmarket_state(cm=_cm(public_id), user=request.user))
    except NotAllowed as exc:
        return JsonResponse(error(exc.code, str(exc)), status=403)


@require_POST
def xmarket_trade_api(request, public_id):
    """POST {"action": "buy"|"sell", "security": "H"|"C", "key": "..."} (JSON or a form)."""
    cm = _cm(public_id)
    if len(request.body) > MAX_BODY:
        return JsonResponse(error("too_long", "The request is too large."), status=400)
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            return JsonResponse(error("bad_json", "The body is not valid JSON."), status=400)
        if not isinstance(body, dict):
            return JsonResponse(error("bad_json", "The body must be a JSON object."), status=400)
    else:
        body = request.POST
    try:
        trade = services.xmarket_trade(
            market_id=cm.pk,
            user=request.user,
            action=body.get("action"),
            security=body.get("security"),
            key=body.get("key"),
        )
    except ArenaError as exc:
        return JsonResponse(
            error(exc.code, str(exc)), status=next((s for k, s in STATUS.items() if isinstance(exc, k)), 409)
        )
    participant = trade.participant
    return JsonResponse({"trade": payloads.trade(trade), **payloads.me_event(participant, participant.account.balance)})


def xmarket_results(request):
    data = results.comparison()
    forecasters = [
        ("Judges", data["judges"]),
        ("Crowds (same conversations)", data["crowds"]),
        ("Crowds (every settled market)", data["crowds_all"]),
    ]
    calibration = list(zip(data["judges"]["calibration"], data["crowds"]["calibration"]))
    return render(
        request, "markets/conversation/results.html", {**data, "forecasters": forecasters, "calibration": calibration}
    )


def xmarket_results_json(request):
    return JsonResponse(results.comparison(), json_dumps_params={"indent": 2})


def _csv(rows: list[dict], columns: tuple, filename: str) -> HttpResponse:
    out = io.StringIO()
    writer = csvsafe.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def xmarket_results_csv(request):
    return _csv(results.comparison_rows(), results.ROW_COLUMNS, "conversation-markets.csv")


def xmarket_trades_csv(request):
    return _csv(results.trades_export(), results.TRADE_COLUMNS, "conversation-market-trades.csv")


def bettor_profile(request, username):
    try:
        record = results.bettor_record(username=username, viewer=request.user)
    except NotAllowed:
        raise Http404("No such bettor.") from None
    return render(request, "markets/bettor_profile.html", record)
