"use strict";
(function () {
  const root = document.getElementById("witness");
  const log = document.getElementById("log"), typing = document.getElementById("typing");
  const input = document.getElementById("text"), seen = new Set();
  let typingTimer = null, keystrokeMode = false;
  const composing = document.getElementById("composing");
  function setComposing(text) { composing.textContent = text; composing.hidden = !text; }
  const countdown = Arena.Countdown(document.getElementById("countdown"), () => socket.send({ type: "state" }));
  const socket = Arena.connect(root.dataset.ws, handle, (open, code) => {
    Arena.notice(open ? "" : code === 4403 ? "This is not your conversation." : "Reconnecting…");
  });

  function add(m) {
    if (seen.has(m.seq)) return;
    seen.add(m.seq);
    Arena.line(log, m.from === "you" ? "You" : "Judge", m.text, m.from === "you" ? "you" : "judge", m.seq);
    if (m.from === "judge") typing.hidden = true;
  }
  function clock(c) {
    const el = document.getElementById("status");
    el.textContent = c.status === "scheduled" ? "waiting for the judge to start" : Arena.statusText(c);
    el.className = "status " + c.status;
    input.disabled = c.status !== "running";
    countdown.set(c);
  }
  function handle(p) {
    if (p.type === "state") { keystrokeMode = !!p.keystroke_mode; p.messages.forEach(add); setComposing(p.composing || ""); clock(p); }
    else if (p.type === "keys") setComposing(Arena.keys.apply(composing.textContent, p.keys));
    else if (p.type === "message") add(p);
    else if (p.type === "status") clock(p);
    else if (p.type === "typing") {
      typing.hidden = false; clearTimeout(typingTimer);
      typingTimer = setTimeout(() => { typing.hidden = true; }, 6000);
    } else if (p.type === "error") Arena.notice(p.message);
  }
  document.getElementById("send").addEventListener("submit", (e) => {
    e.preventDefault();
    if (keystrokeMode) return;
    const text = input.value.trim();
    if (text && socket.send({ type: "message", text })) input.value = "";
  });
  input.addEventListener("input", Arena.throttle(() => { if (!keystrokeMode) socket.send({ type: "typing" }); }, 1500));
  Arena.keys.capture(input, () => keystrokeMode, (keys) => socket.send({ type: "keys", keys }));
})();
