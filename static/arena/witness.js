"use strict";
(function () {
  const root = document.getElementById("witness");
  const log = document.getElementById("log"), typing = document.getElementById("typing");
  const input = document.getElementById("text"), seen = new Set();
  let pending = null;   // sent, not yet shown back stored: it stays in the box until then
  let typingTimer = null, keystrokeMode = false, resync = false;   // resync: the next state follows a reconnection
  let loaded = false;   // after the first state, a message not seen before is news (alerts)
  const composing = document.getElementById("composing");
  function setComposing(text) { composing.textContent = text; composing.hidden = !text; }
  const countdown = Arena.Countdown(document.getElementById("countdown"), () => socket.send({ type: "state" }));
  const socket = Arena.connect(root.dataset.ws, handle, (open, code) => {
    if (!open) resync = true;
    Arena.notice(open ? "" : code === 4403 ? "This is not your conversation." : "Reconnecting…");
  });

  function add(m, live) {
    if (m.from === "you" && pending === m.text) {
      pending = null;
      if (input.value.trim() === m.text) input.value = "";
    }
    if (seen.has(m.seq)) return;
    seen.add(m.seq);
    Arena.line(log, m.from === "you" ? "You" : "Judge", m.text, m.from === "you" ? "you" : "judge", m.seq, m.at);
    Arena.settle();   // a turn was taken: a refusal about whose turn it was no longer holds
    if (m.from !== "judge") return;
    typing.hidden = true;
    if (live) Arena.console.incoming("The judge", m.text);
  }
  function clock(c) {
    const el = document.getElementById("status");
    const waiting = c.status === "running" && c.held;   // the judge questions the other witness first (or a pause)
    el.textContent = c.status === "scheduled" ? "waiting for the judge to start"
      : waiting ? "waiting: the judge is not talking to you yet" : Arena.statusText(c);
    el.className = "status " + (waiting ? "scheduled" : c.status);
    input.disabled = c.status !== "running" || waiting;
    if (c.status !== "running") Arena.settle();   // nothing more is sent here: no refusal still holds
    countdown.set(c);
    // the end screen: the thanks and what happens next instead of a dead input
    const over = c.status === "ended", screen = document.getElementById("ended"), ending = over && loaded && screen.hidden;
    root.classList.toggle("over", over);
    screen.hidden = !over;
    document.getElementById("countdown").hidden = over;
    if (ending) Arena.reveal(screen);
  }
  function handle(p) {
    if (p.type === "state") {
      keystrokeMode = !!p.keystroke_mode; p.messages.forEach((m) => add(m, loaded));
      Arena.earlier(log, p.earlier || 0, p.messages.length ? p.messages[0].seq : undefined);
      setComposing(p.composing || ""); clock(p);
      if (resync && pending !== null) {   // reconnected, and the server never stored it: send it again
        pending = null;
        Arena.notice("Your last message was not delivered: press Enter to send it again.");
      }
      resync = false;
      loaded = true;
    }
    else if (p.type === "keys") setComposing(Arena.keys.apply(composing.textContent, p.keys));
    else if (p.type === "message") add(p, true);
    else if (p.type === "status") clock(p);
    else if (p.type === "typing") {
      typing.hidden = false; clearTimeout(typingTimer);
      typingTimer = setTimeout(() => { typing.hidden = true; }, 6000);
    } else if (p.type === "error") { pending = null; Arena.refusal(p.message); }   // refused: nothing stored
  }
  document.getElementById("send").addEventListener("submit", (e) => {
    e.preventDefault();
    if (keystrokeMode) return;
    const text = input.value.trim();
    if (!text || pending === text) return;   // sent already, not yet shown back: nothing twice
    if (socket.send({ type: "message", text })) pending = text;
  });
  input.addEventListener("input", Arena.throttle(() => { if (!keystrokeMode) socket.send({ type: "typing" }); }, 1500));
  Arena.keys.capture(input, () => keystrokeMode, (keys) => socket.send({ type: "keys", keys }));
})();
