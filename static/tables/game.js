/* The game page: a websocket push (or the state sent on connect) says the game moved; the page then
   re-reads its live part, rendered and escaped by the server. No model text is ever put together here. */
"use strict";
(function () {
  const root = document.getElementById("tables-game");
  if (!root) return;
  const live = document.getElementById("live");
  const connection = document.getElementById("connection");
  let loading = false, again = false;
  function shown() {
    const part = live.querySelector(".tables-live");
    return part ? { turns: Number(part.dataset.turns), status: part.dataset.status } : { turns: -1, status: "" };
  }
  async function reload() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const response = await fetch(root.dataset.live, { headers: { "X-Requested-With": "fetch" } });
      if (response.ok) {
        live.innerHTML = await response.text();   // server-rendered, every text escaped
        if (window.Charts) Charts.scan(live);      // its charts are new figures: draw them
      }
    } catch (e) { console.error(e); }
    loading = false;
    if (again) { again = false; reload(); }
  }
  Arena.connect(root.dataset.ws, (payload) => {
    if (payload.type === "state") {
      const now = shown();
      if (payload.turns_played !== now.turns || payload.status !== now.status) reload();
    } else if (payload.type === "refresh") {
      reload();
    }
  }, (open) => { connection.textContent = open ? "live" : "reconnecting…"; });
})();
