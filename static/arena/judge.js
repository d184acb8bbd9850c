"use strict";
(function () {
  const root = document.getElementById("judge");
  const panes = {}, seen = {}, typingTimers = {}, pending = {};
  let state = null, keystrokeMode = false, resync = false;   // resync: the next state follows a reconnection
  let loaded = false;   // after the first state, a message not seen before is news (alerts, unread badges)
  const tabs = Arena.console.Tabs(document.getElementById("pane-tabs"), document.getElementById("panes"));
  const countdown = Arena.Countdown(document.getElementById("countdown"), () => socket.send({ type: "state" }));
  const socket = Arena.connect(root.dataset.ws, handle, (open, code) => {
    if (!open) { resync = true; Arena.notice(code === 4403 ? "You may not judge this interrogation." : "Reconnecting…"); }
    else Arena.notice("");
  });
  const label = { left: "Left witness", right: "Right witness", sole: "The witness" };

  function pane(side) {
    if (panes[side]) return panes[side];
    const node = document.getElementById("pane-template").content.firstElementChild.cloneNode(true);
    node.id = "pane-" + side;
    node.querySelector(".pane-title").textContent = label[side];
    const form = node.querySelector("form"), input = form.querySelector("input");
    input.setAttribute("aria-label", "Your question to " + { left: "the left witness", right: "the right witness", sole: "the witness" }[side]);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (keystrokeMode) return;
      const text = input.value.trim();
      // the text stays in the box until the server shows it back stored (a frozen or dying server
      // must not swallow it); addMessage clears it then
      // (and Enter again meanwhile sends nothing twice)
      if (!text || pending[side] === text) return;
      if (socket.send({ type: "message", side, text })) pending[side] = text;
    });
    input.addEventListener("input", Arena.throttle(() => { if (!keystrokeMode) socket.send({ type: "typing", side }); }, 1500));
    Arena.keys.capture(input, () => keystrokeMode, (keys) => socket.send({ type: "keys", side, keys }));
    document.getElementById("panes").appendChild(node);
    tabs.add(side, label[side], node);
    panes[side] = { node, log: node.querySelector(".log"), typing: node.querySelector(".typing"), input,
                    held: node.querySelector(".pane-held"), button: form.querySelector("button"),
                    composing: node.querySelector(".composing"), composingText: "" };
    seen[side] = new Set();
    return panes[side];
  }

  function addMessage(m, live) {
    const p = pane(m.side);
    if (m.from === "you" && pending[m.side] === m.text) {
      delete pending[m.side];
      if (p.input.value.trim() === m.text) p.input.value = "";
    }
    if (seen[m.side].has(m.seq)) return;
    seen[m.side].add(m.seq);
    Arena.line(p.log, m.from === "you" ? "You" : label[m.side], m.text, m.from, m.seq, m.at);
    Arena.settle();   // a turn was taken: a refusal about whose turn it was no longer holds
    if (m.from !== "witness") return;
    p.typing.hidden = true;
    if (live) { Arena.console.incoming(label[m.side], m.text); tabs.unread(m.side); }
  }

  function setComposing(side, text) {
    const p = pane(side);
    p.composingText = text;
    p.composing.textContent = text;
    p.composing.hidden = !text;
  }

  function applyClock(clock) {
    const running = clock.status === "running";
    if (!running) Arena.settle();   // nothing more is sent here: no refusal still holds
    // every side held: the round is paused (its far-off hold deadline is no countdown to show)
    const held = clock.held || [];
    const paused = running && held.length > 0 && state && held.length === state.sides.length;
    document.getElementById("status").textContent = paused ? "paused" : Arena.statusText(clock);
    document.getElementById("status").className = "status " + (paused ? "scheduled" : clock.status);
    document.getElementById("start").hidden = clock.status !== "scheduled";
    document.getElementById("end").hidden = !running;
    // a side the round holds for now (a sequential round's other half, a pause) takes no question yet
    document.getElementById("help-held").hidden = !(running && held.length === 1);
    Object.entries(panes).forEach(([side, p]) => {
      const waiting = running && held.includes(side);
      p.input.disabled = p.button.disabled = !running || waiting;
      p.held.hidden = !waiting;
      p.node.classList.toggle("held", waiting);
    });
    countdown.set(paused ? { ...clock, status: "paused" } : clock);
    const form = document.getElementById("verdict");
    form.hidden = !(clock.status === "ended" && state && !state.verdict && state.verdict_here !== false);
    if (clock.status === "ended" && state && state.verdict_here === false) Arena.notice("This interview is over: your verdict is given on the contest's page.");
    showEnd(clock.status === "ended");
  }

  // the end screen: no inputs left, and what happens now (the verdict to give, given, or given elsewhere)
  function showEnd(over) {
    const screen = document.getElementById("ended"), ending = over && loaded && screen.hidden;
    root.classList.toggle("over", over);
    screen.hidden = !over;
    document.getElementById("countdown").hidden = over;
    if (ending) Arena.reveal(screen);
    if (!over) return;
    const which = state && state.verdict_here === false ? "elsewhere"
      : state && state.verdict ? (state.reveal_later ? "later" : "recorded") : "verdict";
    screen.querySelectorAll("[data-end]").forEach((part) => { part.hidden = part.dataset.end !== which; });
    // once nothing is left to do here: a link to what the judge must do next (their next meeting, their ranks)
    const next = which !== "verdict" && state && state.next;
    document.getElementById("next-step").hidden = !next;
    if (next) {
      const link = document.getElementById("next-link");
      link.textContent = next.text;
      link.href = next.url;
      document.getElementById("next-when").textContent = next.when ? " (" + new Date(next.when).toLocaleString() + ")" : "";
    }
  }

  function buildChoices(kind, sides) {
    const box = document.getElementById("choices");
    if (box.childElementCount) return;
    const legend = document.createElement("legend");
    legend.textContent = kind === "three_party" ? "Which witness is the human?" : "Is the witness a human or a machine?";
    box.appendChild(legend);
    const options = kind === "three_party" ? sides.map((s) => [s, label[s] + " is the human"]) : [["human", "Human"], ["machine", "Machine"]];
    options.forEach(([value, text]) => {
      const l = document.createElement("label");
      const r = document.createElement("input");
      r.type = "radio"; r.name = "choice"; r.value = value; r.id = "choice-" + value;
      l.append(r, " " + text);
      box.appendChild(l);
    });
  }

  function showReveal(s) {
    const section = document.getElementById("reveal");
    if (!s.reveal) { section.hidden = true; return; }
    section.hidden = false;
    document.getElementById("reveal-result").textContent =
      (s.correct ? "You were right" : "You were wrong") + " (you said " + s.verdict.choice + ", " + s.verdict.confidence + "% sure).";
    const list = document.getElementById("reveal-list");
    list.textContent = "";
    Object.keys(s.reveal).sort().forEach((side) => {
      const li = document.createElement("li");
      li.textContent = label[side] + ": " + (s.reveal[side].kind === "human" ? s.reveal[side].name : "a machine (" + s.reveal[side].name + ")");
      li.id = "reveal-" + side;
      list.appendChild(li);
    });
  }

  function handle(p) {
    switch (p.type) {
      case "state":
        state = p;
        keystrokeMode = !!p.keystroke_mode;
        document.getElementById(p.kind === "three_party" ? "help-three" : "help-one").hidden = false;
        p.sides.forEach(pane);
        p.sides.forEach((side) => {
          const shown = p.messages[side] || [];
          shown.forEach((m) => addMessage(m, loaded));
          Arena.earlier(pane(side).log, (p.earlier || {})[side] || 0, shown.length ? shown[0].seq : undefined);
        });
        if (resync && Object.keys(pending).length) {   // reconnected, and the server never stored it: send it again
          Object.keys(pending).forEach((side) => delete pending[side]);
          Arena.notice("Your last message was not delivered: press Enter to send it again.");
        }
        resync = false;
        Object.entries(p.composing || {}).forEach(([side, text]) => setComposing(side, text));
        buildChoices(p.kind, p.sides);
        applyClock(p);
        showReveal(p);
        loaded = true;
        break;
      case "message": addMessage(p, true); break;
      case "keys": setComposing(p.side, Arena.keys.apply(pane(p.side).composingText, p.keys)); break;
      case "status":
        if (state) Object.assign(state, p);
        applyClock(p);
        break;
      case "typing": {
        const pp = pane(p.side);
        pp.typing.hidden = false;
        clearTimeout(typingTimers[p.side]);
        typingTimers[p.side] = setTimeout(() => { pp.typing.hidden = true; }, 6000);
        break;
      }
      case "error":   // a refused frame stores nothing: what was typed may be sent again
        Object.keys(pending).forEach((side) => delete pending[side]);
        Arena.refusal(p.message);
        break;
    }
  }

  document.getElementById("start").addEventListener("click", () => socket.send({ type: "start" }));
  document.getElementById("end").addEventListener("click", () => {
    if (confirm("End the conversations now and give your verdict?")) socket.send({ type: "end" });
  });
  const range = document.getElementById("confidence");
  document.getElementById("choices").addEventListener("change", () => Arena.settle());
  range.addEventListener("input", () => { document.getElementById("confidence-out").textContent = range.value; });
  document.getElementById("verdict").addEventListener("submit", (e) => {
    e.preventDefault();
    const chosen = document.querySelector("input[name=choice]:checked");
    if (!chosen) { Arena.refusal("Choose an answer first."); return; }
    Arena.notice("");
    socket.send({ type: "verdict", choice: chosen.value, confidence: Number(range.value), reason: document.getElementById("reason").value });
  });
})();
