/* Turing Trade consoles (bettor, target, spectator). Every text goes through textContent.
   The server decides what may be shown: an answer without text is shown as a pending signal. */
"use strict";
(function () {
  const root = document.getElementById("tt");
  const role = root.dataset.role;
  const $ = (id) => document.getElementById(id);
  let state = null, history = [];
  const countdown = Arena.Countdown($("countdown"), () => socket.send({ type: "state" }));
  const socket = Arena.connect(root.dataset.ws, handle, (open, code) => {
    Arena.notice(open ? "" : code === 4403 ? "You may not open this console." : "Reconnecting…");
    Market.online(open);
  });

  function handle(p) {
    if (p.type === "error") return Arena.refusal(p.message);
    // a refusal holds until what it refused changes: a new state, question, answer or position
    if (["state", "question", "queued", "answer", "me"].includes(p.type)) Arena.settle();
    if (p.type === "state") return render(p);
    if (!state) return;
    if (p.type === "question") {
      state.current = p.question;
      if (state.queue) state.queue = state.queue.filter((q) => q.id !== p.question.id);
      renderQueue(); return renderQA();
    }
    if (p.type === "queued") { (state.queue = state.queue || []).push(p.question); return renderQueue(); }
    if (p.type === "answer") return onAnswer(p.answer);
    if (p.type === "me") { state.me = p.me; return renderMarket(); }
    if (p.type === "price") { if (Market.price(state, history, p)) renderMarket(); return; }
  }

  function onAnswer(a) {
    let item = state.answered.find((q) => q.id === a.question);
    if (!item) {
      item = state.current && state.current.id === a.question ? state.current : { id: a.question, number: a.number, asker: a.asker, text: "" };
      state.answered.push(item);
      if (state.current && state.current.id === a.question) state.current = null;
      if (state.queue) state.queue = state.queue.filter((q) => q.id !== a.question);
    }
    if (!item.answer || item.answer.text === null) item.answer = a;   // never overwrite a known text with a signal
    renderQA(); renderQueue();
    if (a.text === null) setTimeout(() => socket.send({ type: "state" }), Math.max(0, Date.parse(a.public_at) - Date.now()) + 300);
  }

  function render(s) {
    state = s; history = (s.market && s.market.history) || [];
    Market.chart(s.market, history);
    $("status").textContent = s.status; $("status").className = "status " + s.status;
    countdown.set(s);
    renderQA(); renderQueue(); renderMarket();
    const reveal = $("reveal");
    if (reveal && s.reveal) { reveal.hidden = false; reveal.textContent = "The target was " + s.reveal.name + " (" + s.reveal.kind + ")."; }
    renderSettlement(s.settlement);
    const running = s.status === "running";
    document.querySelectorAll("#ask button, #ask input, #answer button, #answer input").forEach((el) => { el.disabled = !running; });
    if ($("answer")) $("answer").querySelector("button").disabled = !running || !s.current;
  }

  function renderQA() {
    const log = $("qa"); log.replaceChildren();
    if (!state.answered.length && !state.current) {
      const empty = document.createElement("p"); empty.className = "empty"; empty.textContent = "No question yet.";
      log.append(empty);
    }
    for (const q of state.answered) {
      Arena.line(log, "Bettor " + q.asker + " asked", q.text, "interrogator");
      const a = q.answer;
      const row = Arena.line(log, "Target", a && a.text !== null ? a.text : "answered: the text appears shortly…", "witness");
      if (!a || a.text === null) row.classList.add("pending");
    }
    if (state.current) Arena.line(log, "Current question (bettor " + state.current.asker + ")", state.current.text, "current");
    if ($("answer")) $("answer").querySelector("button").disabled = state.status !== "running" || !state.current;
  }

  const signed = (n) => (n > 0 ? "+" + n : String(n));

  function renderSettlement(result) {
    const box = $("settlement"); if (!box) return;
    box.hidden = !result; if (!result) return;
    const total = $("settlement-total"); total.replaceChildren();
    const strong = (text) => { const b = document.createElement("strong"); b.textContent = text; return b; };
    total.append("Payout at the reveal: ", strong(result.payout), " points. Profit: ", strong(signed(result.profit)),
      " points (you started with " + result.starting_points + " and end with " + result.points + ").");
    $("settlement-rows").replaceChildren(...result.securities.map((r) => {
      const tr = document.createElement("tr"); tr.dataset.security = r.security;
      const th = document.createElement("th"); th.scope = "row"; th.textContent = r.name; tr.append(th);
      for (const v of [r.bought, r.sold, r.spent, r.received, r.held, r.payout, signed(r.profit)]) {
        const td = document.createElement("td"); td.textContent = v; tr.append(td);
      }
      return tr;
    }));
  }

  function renderQueue() {
    const list = $("queue"); if (!list) return;
    list.replaceChildren(...(state.queue || []).map((q) => { const li = document.createElement("li"); li.textContent = q.text; return li; }));
  }

  function renderMarket() { Market.render(state, history, false); }

  Market.bind(socket);
  const ask = $("ask");
  if (ask) ask.addEventListener("submit", (e) => {
    e.preventDefault(); const input = $("ask-text"); const text = input.value.trim();
    if (text && socket.send({ type: "ask", text })) input.value = "";
  });
  const answer = $("answer");
  if (answer) answer.addEventListener("submit", (e) => {
    e.preventDefault(); const input = $("answer-text"); const text = input.value.trim();
    if (text && state && state.current && socket.send({ type: "answer", question: state.current.id, text })) input.value = "";
  });
})();
