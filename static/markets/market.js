/* The market pane shared by Turing Trade's consoles and the conversation markets' page: the price,
   its chart (core.charts), the quotes, the trader's position, the trade buttons. Every text goes through textContent. */
"use strict";
window.Market = (function () {
  const $ = (id) => document.getElementById(id);
  let connected = false;   // trade buttons stay disabled until the page's socket is open (a click would be lost)

  // blocked: no trading from this page (a spectator in the conversation, a refusal)
  function render(state, history, blocked) {  // eslint-disable-line no-unused-vars
    if (!state.market || !$("price")) return;
    $("price").textContent = state.market.price;
    document.querySelectorAll("[data-q]").forEach((el) => {
      const [sec, side] = el.dataset.q.split("-"); const v = state.market.quotes[sec][side];
      el.textContent = v === null ? "—" : v;
    });
    if (state.me) {
      $("points").textContent = state.me.points;
      $("holding").textContent = state.me.quantity ? state.me.quantity + " " + (state.me.security === "H" ? "human" : "computer") : "nothing";
    }
    document.querySelectorAll("button.trade").forEach((b) => {
      const v = state.market.quotes[b.dataset.security][b.dataset.action === "buy" ? "ask" : "bid"];
      b.disabled = !connected || state.status !== "running" || v === null || !!blocked;
    });
  }

  // the price chart (core.charts, uPlot): the opening price, then a point after every trade
  function chart(market, history) {
    const c = window.Charts && Charts.get("price-chart");
    if (c && market) c.set(market.opened && (!history.length || history[0].seq === 1) ? [market.opened].concat(history) : history);
  }
  function point(p) {
    const c = window.Charts && Charts.get("price-chart");
    if (c) c.append(p);
  }
  // a trade's price push: into the history (the last 1,000), the chart and the state; false when the
  // page has it already (a push racing a state read)
  function price(state, history, p) {
    if (history.length && p.point.seq <= history[history.length - 1].seq) return false;
    history.push(p.point); if (history.length > 1000) history.shift();
    point(p.point);
    state.market.price = p.point.price; state.market.quotes = p.quotes;
    return true;
  }

  function key() { return (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).slice(0, 64); }

  // each trade button sends one trade frame with a fresh idempotency key
  function bind(socket) {
    document.querySelectorAll("button.trade").forEach((b) => b.addEventListener("click", () => {
      const sent = socket.send({ type: "trade", action: b.dataset.action, security: b.dataset.security, key: key() });
      if (!sent) Arena.refusal("Not connected: the trade was not sent. Try again in a moment.");
    }));
  }

  // the socket opened (the server's state follows and enables the buttons) or closed (they are disabled)
  function online(open) {
    connected = open;
    if (!open) document.querySelectorAll("button.trade").forEach((b) => { b.disabled = true; });
  }

  return { render, bind, chart, point, price, online };
})();
