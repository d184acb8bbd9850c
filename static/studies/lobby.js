/* The lobby: its state comes from the server (the database is the truth); when a game is formed for
   this player, the page goes to it. The page shows nothing about who else is waiting, and asks for its
   state on one steady beat while waiting, whoever the partner will be. Texts are set with textContent
   only. */
"use strict";
(function () {
  const root = document.getElementById("lobby");
  const status = document.getElementById("lobby-status");
  const play = document.getElementById("play"), leave = document.getElementById("leave");
  const POLL_S = 5;
  let state = null;
  const socket = Arena.connect(root.dataset.ws, handle, (open, code) => {
    Arena.notice(open ? "" : code === 4403 ? "Join the study first: reload the page." : "Reconnecting…");
  });

  function render() {
    if (!state) return;
    play.hidden = !(state.study_open && !state.waiting && !state.game && state.left > 0);
    leave.hidden = !state.waiting;
    if (state.game) {
      status.textContent = "Your game is ready…";
      location.href = state.game.url;
    } else if (!state.study_open) {
      status.textContent = "The study is closed. Thank you for taking part!";
    } else if (state.left === 0) {
      status.textContent = "You have played all your games. Thank you!";
    } else if (state.waiting) {
      const waited = Math.max(0, Math.round((Date.now() - Date.parse(state.waiting_since)) / 1000));
      status.textContent = "Looking for a partner… (" + waited + " s)";
    } else {
      status.textContent = "Press Play when you are ready.";
    }
  }

  function handle(p) {
    if (p.type === "state") { Arena.settle(); state = p; render(); }
    else if (p.type === "matched") { status.textContent = "Your game is ready…"; location.href = p.game.url; }
    else if (p.type === "error") Arena.refusal(p.message);
  }

  play.addEventListener("click", () => { Arena.notice(""); socket.send({ type: "join" }); });
  leave.addEventListener("click", () => socket.send({ type: "leave" }));
  // while waiting: tick the clock, and ask the server again every POLL_S seconds (a lost timer then
  // costs a few seconds: the state request starts whatever is due)
  setInterval(() => {
    if (!state || !state.waiting) return;
    render();
    const waited = Math.round((Date.now() - Date.parse(state.waiting_since)) / 1000);
    if (waited > 0 && waited % POLL_S === 0) socket.send({ type: "state" });
  }, 1000);
})();
