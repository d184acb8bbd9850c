/* Live progress of a Λ* experiment: done/total episodes, rate, time left. When the experiment
   finishes while the page is open, the page reloads once to show the plots rendered by the server. */
"use strict";
(function () {
  const section = document.getElementById("progress");
  if (!section) return;
  const initial = section.dataset.status;
  const text = (id, value) => { document.getElementById(id).textContent = value; };

  function duration(s) {
    if (s === null || s === undefined) return "–";
    s = Math.round(s);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? h + " h " : "") + (h || m ? m + " min " : "") + sec + " s";
  }

  function render(p) {
    if (p.type !== "progress") return;
    text("status", p.status);
    text("done", p.done);
    text("total", p.total);
    text("rate", p.rate ? p.rate.toFixed(1) + " episodes/s" : "–");
    text("eta", p.status === "running" || p.status === "queued" ? duration(p.eta_s) : "–");
    text("error", p.error || "");
    const bar = document.getElementById("bar");
    bar.max = Math.max(1, p.total);
    bar.value = p.done;
    if (p.status === "finished" && initial !== "finished") location.reload();
  }

  Arena.connect(section.dataset.ws, render);
})();
