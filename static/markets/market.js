/* The market pane shared by Turing Trade's consoles and the conversation markets' page: the price,
   its chart, the quotes, the trader's position, the trade buttons. Every text goes through textContent. */
"use strict";
window.Market = (function () {
  const $ = (id) => document.getElementById(id);

  // blocked: no trading from this page (a spectator in the conversation, a refusal)
  function render(state, history, blocked) {
    if (!state.market || !$("price")) return;
    $("price").textContent = state.market.price;
    const pts = [50].concat(history.map((h) => h.price));
    const step = 400 / Math.max(1, pts.length - 1);
    $("chart-line").setAttribute("points", pts.map((p, i) => (i * step).toFixed(1) + "," + (160 - p * 1.6).toFixed(1)).join(" "));
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
      b.disabled = state.status !== "running" || v === null || !!blocked;
    });
  }

  function key() { return (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).slice(0, 64); }

  // each trade button sends one trade frame with a fresh idempotency key
  function bind(socket) {
    document.querySelectorAll("button.trade").forEach((b) => b.addEventListener("click", () => {
      socket.send({ type: "trade", action: b.dataset.action, security: b.dataset.security, key: key() });
    }));
  }

  return { render, bind };
})();
