/* What the chat consoles (judge.js, witness.js) share beyond live.js: telling their user about a new
   message (a screen reader's live region; in a background tab, a "(2) …" title and a favicon badge, and a
   sound when the user has turned it on), and the judge's witnesses as tabs with unread badges on a phone. */
"use strict";
window.Arena.console = (function () {
  const SOUND_KEY = "arena.sound";
  const baseTitle = document.title;
  const icon = document.querySelector("link[rel=icon]");
  const iconHref = icon ? icon.href : null;
  let unseen = 0, audio = null, iconImage = null;

  function hidden() { return document.visibilityState === "hidden"; }

  // one child per announcement: a live region announces what is added, a burst of messages included
  function announce(text) {
    const region = document.getElementById("announcer");
    if (!region) return;
    const item = document.createElement("p");
    item.textContent = text;
    region.appendChild(item);
    while (region.childElementCount > 5) region.firstElementChild.remove();
  }

  function drawIcon(count) {
    if (!icon) return;
    if (!count) { icon.href = iconHref; return; }
    const draw = () => {
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 64;
      const g = canvas.getContext("2d");
      try { g.drawImage(iconImage, 0, 0, 64, 64); } catch (e) { /* the badge alone */ }
      g.fillStyle = "#d93025";
      g.beginPath(); g.arc(44, 20, 20, 0, 2 * Math.PI); g.fill();
      g.fillStyle = "#fff"; g.font = "bold 26px sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
      g.fillText(count > 9 ? "9+" : String(count), 44, 21);
      if (unseen === count) icon.href = canvas.toDataURL("image/png");
    };
    if (iconImage && iconImage.complete) return draw();
    if (!iconImage) { iconImage = new Image(); iconImage.src = iconHref; }
    iconImage.addEventListener("load", draw, { once: true });
    iconImage.addEventListener("error", draw, { once: true });
  }

  function showUnseen() {
    document.title = unseen ? "(" + unseen + ") " + baseTitle : baseTitle;
    drawIcon(unseen);
  }
  document.addEventListener("visibilitychange", () => { if (!hidden() && unseen) { unseen = 0; showUnseen(); } });

  function soundOn() {
    try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }
  function unlockAudio() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }
  function beep() {
    if (!audio) return;
    try {
      const now = audio.currentTime, osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(now); osc.stop(now + 0.35);
    } catch (e) { /* no sound, no harm */ }
  }
  // the sound checkbox: off unless this browser turned it on; browsers let a page play sound only after a
  // user's gesture, so the first click or key on the page wakes it
  const box = document.getElementById("sound");
  if (box) {
    box.checked = soundOn();
    box.addEventListener("change", () => {
      try { localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
      if (box.checked) { unlockAudio(); beep(); }
    });
    ["pointerdown", "keydown"].forEach((type) =>
      document.addEventListener(type, () => { if (box.checked) unlockAudio(); }, { once: true }));
  }

  // a message from the other side, arrived while the page is open
  function incoming(who, text) {
    announce(who + ": " + text);
    if (!hidden()) return;
    unseen += 1;
    showUnseen();
    if (box && box.checked) beep();
  }

  // Panes as tabs (shown by console.css on a phone, once there are two): arrow keys move between them;
  // a message for a pane not shown counts on its tab until it is opened.
  function Tabs(list, panes) {
    const tabs = {}, narrow = window.matchMedia("(max-width: 760px)");
    let current = null;
    function select(side, focus) {
      current = side;
      Object.entries(tabs).forEach(([s, t]) => {
        const on = s === side;
        t.button.setAttribute("aria-selected", String(on));
        t.button.tabIndex = on ? 0 : -1;
        t.node.classList.toggle("current", on);
        if (on) { t.unread = 0; t.badge.hidden = true; }
      });
      const log = tabs[side].node.querySelector(".log");
      if (log) log.scrollTop = log.scrollHeight;
      if (focus) tabs[side].button.focus();
    }
    function add(side, label, node) {
      const button = document.createElement("button");
      button.type = "button"; button.id = "tab-" + side; button.setAttribute("role", "tab");
      button.setAttribute("aria-controls", node.id);
      const name = document.createElement("span");
      name.textContent = label;
      const badge = document.createElement("span");
      badge.className = "badge count"; badge.hidden = true;
      button.append(name, badge);
      node.setAttribute("role", "tabpanel");
      node.setAttribute("aria-labelledby", button.id);
      button.addEventListener("click", () => select(side));
      button.addEventListener("keydown", (e) => {
        const order = Object.keys(tabs), i = order.indexOf(side);
        const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: order.length - 1 }[e.key];
        if (to === undefined) return;
        e.preventDefault();
        select(order[(to + order.length) % order.length], true);
      });
      list.appendChild(button);
      tabs[side] = { button, badge, node, unread: 0 };
      const many = Object.keys(tabs).length > 1;
      list.hidden = !many;
      panes.classList.toggle("tabbed", many);
      select(current === null ? side : current);
    }
    function unread(side) {
      const t = tabs[side];
      if (!t || side === current || !narrow.matches) return;
      t.unread += 1;
      t.badge.textContent = String(t.unread);
      const sr = document.createElement("span");
      sr.className = "sr-only"; sr.textContent = " new";
      t.badge.appendChild(sr);
      t.badge.hidden = false;
    }
    return { add, select, unread };
  }

  return { announce, incoming, Tabs };
})();
