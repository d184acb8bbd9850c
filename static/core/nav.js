/* The top bar's menu on narrow screens: a disclosure button (aria-expanded) that shows and hides the
   links; Escape or a click elsewhere closes it. Without JavaScript the links simply wrap. */
"use strict";
document.documentElement.classList.add("js");
document.addEventListener("DOMContentLoaded", () => {
  const button = document.querySelector(".nav-toggle"), nav = document.getElementById("site-nav");
  if (!button || !nav) return;
  function set(open) { nav.classList.toggle("open", open); button.setAttribute("aria-expanded", String(open)); }
  button.addEventListener("click", () => set(!nav.classList.contains("open")));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && nav.classList.contains("open")) { set(false); button.focus(); }
  });
  document.addEventListener("click", (e) => {
    if (nav.classList.contains("open") && !nav.contains(e.target) && !button.contains(e.target)) set(false);
  });
});
