"use strict";
/* The organisers' live view. The page comes with its sections in order (running first, then the folded
   ended and scheduled ones) and a card for each interrogation; this script fills the cards from the
   socket, adds new ones, and moves a card to its section when its status changes. */
(function () {
  const root = document.getElementById("monitor");
  const cards = {};
  const status = document.getElementById("status");
  const sections = {};
  root.querySelectorAll(".monitor-section").forEach((s) => {
    sections[s.dataset.section] = { list: s.querySelector(".monitor-list"), count: s.querySelector(".count"), empty: s.querySelector(".empty") };
  });
  const socket = Arena.connect(root.dataset.ws, handle, (open) => { status.textContent = open ? "live" : "reconnecting…"; });

  function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }

  function recount() {
    Object.values(sections).forEach((s) => {
      const n = s.list.children.length;
      s.count.textContent = "(" + n + ")";
      s.empty.hidden = n > 0;
    });
  }
  function build(id) {  // the same card as the page's template
    const node = el("section", "card monitor-card");
    node.id = "interrogation-" + id;
    const meta = el("p", "meta"), left = el("span", "countdown");
    left.hidden = true;
    meta.append(el("span", "facts"), el("span", "ends"), left);
    node.append(el("h3"), meta, el("div", "panes"), el("p", "verdict-line"));
    return node;
  }
  function place(c, st) {  // a card in its status's section: a new one at the end, a moved one on top
    const section = sections[st];
    if (!section || c.node.parentNode === section.list) return;
    if (c.node.parentNode) section.list.prepend(c.node); else section.list.append(c.node);
    recount();
  }
  function card(i) {
    let c = cards[i.id];
    if (!c) {
      const node = document.getElementById("interrogation-" + i.id) || build(i.id);
      const left = node.querySelector(".countdown");
      c = cards[i.id] = {
        node, head: node.querySelector("h3"), facts: node.querySelector(".facts"), ends: node.querySelector(".ends"), left,
        convs: node.querySelector(".panes"), verdict: node.querySelector(".verdict-line"), logs: {}, countdown: Arena.Countdown(left),
      };
    }
    place(c, i.status);
    c.node.dataset.status = i.status;
    c.head.textContent = i.title;
    c.facts.textContent = (i.kind_label || i.kind) + " · judge " + i.judge + " · " + (i.status_label || i.status);
    c.ends.textContent = "";
    if (i.deadline && i.status === "running") c.ends.append(" · ends at ", ArenaTime.element(i.deadline, "time"), " · left");
    c.countdown.set(i);
    c.left.hidden = !(i.deadline && i.status === "running");
    return c;
  }
  function convo(c, side, witness, kind) {
    if (!c.logs[side]) {
      const p = el("section", "pane");
      p.append(el("h4", null, side + ": " + witness + " (" + kind + ")"));
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
