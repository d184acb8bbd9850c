/* A spectator's page of a conversation market: the delayed transcript (the server releases each
   message only after the organiser's delay; this page shows what it is sent, nothing else), the market,
   trades. Every text goes through textContent. */
"use strict";
(function () {
  const root = document.getElementById("xm");
  const $ = (id) => document.getElementById(id);
  let state = JSON.parse($("xm-state").textContent), history = [];
  const seen = new Map();   // "side:seq" -> message (pushes and states may repeat or race)
  const countdown = Arena.Countdown($("countdown"), () => socket.send({ type: "state" }));
  const socket = Arena.connect(root.dataset.ws, handle, (open, code) => {
    Arena.notice(open ? "" : code === 4403 ? "This market is not open to you." : "Reconnecting…");
    Market.online(open);
  });
  render(state);
  setInterval(() => socket.send({ type: "state" }), 20000);   // status changes (start, end, reveal)

  function handle(p) {
    if (p.type === "error") return Arena.refusal(p.message);
    if (["state", "me", "status"].includes(p.type)) Arena.settle();   // what a refusal refused has changed
    if (p.type === "state") return render(p);
    if (p.type === "message") { remember(p); return renderTranscript(); }
    if (p.type === "status") { state.transcript.status = p.status; return; }
    if (p.type === "me") { state.me = p.me; return renderMarket(); }
    if (p.type === "price") { if (Market.price(state, history, p)) renderMarket(); return; }
  }

  function remember(m) { seen.set(m.side + ":" + m.seq, m); }

  function render(s) {
    state = s; history = s.market.history || [];
    Market.chart(s.market, history);
    s.transcript.messages.forEach(remember);
    $("status").textContent = s.status; $("status").className = "status " + s.status;
    countdown.set(s);
    const refusal = $("refusal");
    if (s.refusal) { refusal.hidden = false; refusal.firstChild.textContent = s.refusal + " "; } else refusal.hidden = true;
    const reveal = $("reveal");
    if (s.reveal) {
      reveal.hidden = false;
      const judge = s.reveal.judge ? " The judge picked " + s.reveal.judge.pick + (s.reveal.judge.confidence !== null ? " (" + s.reveal.judge.confidence + " % sure)" : "") + "." : "";
      reveal.textContent = "The " + (s.side === "left" ? "left witness" : "candidate") + " was " + (s.reveal.human ? "human" : "a machine") +
        ". The crowd's final price: " + s.reveal.final_price + "." + judge;
    }
    renderTranscript(); renderMarket();
  }

  function renderTranscript() {
    const log = $("transcript"); log.replaceChildren();
    const rows = Array.from(seen.values()).sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq);
    for (const m of rows) {
      const who = m.from === "judge" ? "Judge → " + m.witness : "Witness " + m.witness;
      Arena.line(log, who, m.text, m.from === "judge" ? "interrogator" : "witness");
    }
    if (!rows.length) Arena.line(log, "", "Nothing yet: messages appear " + Math.round(state.transcript.delay_s) + " s after they are sent.", "pending");
  }

  function renderMarket() { Market.render(state, history, state.refusal); }

  Market.bind(socket);
})();
