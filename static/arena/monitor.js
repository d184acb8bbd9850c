"use strict";
(function () {
  const root = document.getElementById("monitor"), box = document.getElementById("interrogations");
  const cards = {};
  const status = document.getElementById("status");
  const socket = Arena.connect(root.dataset.ws, handle, (open) => { status.textContent = open ? "live" : "reconnecting…"; });

  const STATUS = { scheduled: "Scheduled", running: "Running", ended: "Ended, awaiting the verdict" };
  function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }

  function card(i) {
    let c = cards[i.id];
    if (!c) {
      const node = el("section", "card monitor-card");
      node.id = "interrogation-" + i.id;
      const head = el("h2"), meta = el("p", "meta"), convs = el("div", "panes"), verdict = el("p", "verdict-line");
      const facts = el("span"), ends = el("span", "ends"), left = el("span", "countdown");
      meta.append(facts, ends, left);
      node.append(head, meta, convs, verdict);
      box.prepend(node);
      c = cards[i.id] = { node, head, meta, facts, ends, convs, verdict, logs: {}, countdown: Arena.Countdown(left) };
    }
    c.head.textContent = i.title;
    c.facts.textContent = (i.kind_label || i.kind) + " · judge " + i.judge + " · " + (STATUS[i.status] || i.status);
    c.ends.textContent = "";
    if (i.deadline && i.status === "running") c.ends.append(" · ends at ", ArenaTime.element(i.deadline, "time"), " · left");
    c.countdown.set(i);
    c.meta.querySelector(".countdown").hidden = !(i.deadline && i.status === "running");
    return c;
  }
  function convo(c, side, witness, kind) {
    if (!c.logs[side]) {
      const p = el("section", "pane");
      p.append(el("h3", null, side + ": " + witness + " (" + kind + ")"));
      const log = el("div", "log");
      p.append(log);
      c.convs.append(p);
      c.logs[side] = { log, seen: new Set() };
    }
    return c.logs[side];
  }
  function msg(c, m) {
    const l = convo(c, m.side, m.witness, m.witness_kind);
    if (l.seen.has(m.seq)) return;
    l.seen.add(m.seq);
    Arena.line(l.log, m.from, m.text, m.from === "interrogator" ? "you" : "witness", m.seq, m.at);
  }
  function handle(p) {
    if (p.type === "state") {
      p.interrogations.forEach((i) => {
        const c = card(i);
        i.conversations.forEach((conv) => { convo(c, conv.side, conv.witness, conv.witness_kind); conv.messages.forEach((m) => msg(c, m));
          if (conv.messages.length) Arena.earlier(c.logs[conv.side].log, conv.earlier, conv.messages[0].seq); });
      });
    } else if (p.type === "status") card(p.interrogation);
    else if (p.type === "message") {
      if (!cards[p.interrogation]) { socket.send({ type: "state" }); return; }
      msg(cards[p.interrogation], p);
    } else if (p.type === "verdict") {
      const c = cards[p.interrogation];
      if (c) c.verdict.textContent = "Verdict: " + p.choice + " (" + p.confidence + "%) — " + (p.correct ? "correct" : "wrong") + ". " + p.reason;
    }
  }
})();
