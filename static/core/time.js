"use strict";
/* Times in the reader's own time zone: every <time datetime=… data-when="datetime|time|date|minute">
   (the `when` template filter) is rewritten with Intl.DateTimeFormat; the server's UTC text stays as the
   fallback without JavaScript, and the full UTC time is the element's title. Pages that add times
   later call ArenaTime.localize(node) or build one with ArenaTime.element(iso, style). */
window.ArenaTime = (function () {
  const STYLES = {
    datetime: { dateStyle: "medium", timeStyle: "medium" },
    minute: { dateStyle: "medium", timeStyle: "short" },
    time: { timeStyle: "medium" },
    date: { dateStyle: "medium" },
  };
  const formats = {};
  function format(style) {
    if (!formats[style]) {
      try { formats[style] = new Intl.DateTimeFormat(undefined, STYLES[style] || STYLES.datetime); }
      catch (e) { formats[style] = null; }
    }
    return formats[style];
  }
  const zone = (function () {
    try {
      const part = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" }).formatToParts(new Date())
        .find((p) => p.type === "timeZoneName");
      return part ? part.value : "";
    } catch (e) { return ""; }
  })();
  function text(date, style) {
    const f = format(style);
    if (!f) return null;
    return style === "date" ? f.format(date) : f.format(date) + (zone ? " " + zone : "");
  }
  function one(node) {
    const date = new Date(node.getAttribute("datetime"));
    if (isNaN(date)) return;
    const shown = text(date, node.dataset.when || "datetime");
    if (shown === null) return;
    if (!node.title) node.title = node.textContent.trim();
    node.textContent = shown;
    node.dataset.local = "1";
  }
  function localize(root) {
    (root || document).querySelectorAll("time[datetime]:not([data-local])").forEach(one);
  }
  function element(iso, style) {
    const node = document.createElement("time");
    node.setAttribute("datetime", iso);
    node.dataset.when = style || "datetime";
    node.textContent = iso;
    one(node);
    return node;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => localize());
  else localize();
  return { localize, element, text };
})();
