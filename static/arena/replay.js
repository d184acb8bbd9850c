"use strict";
/* A transcript replayed as it was typed (arena/replay.py gives the data): key by key where keystrokes
   were stored, else message by message at their times; play/pause, speed, a position slider. Without
   JavaScript the page is the static transcript; the replay shows and hides its rows (the same nodes, so
   the end of a replay is the static transcript) and adds one "typing" row per role while a line is
   being composed. */
(function () {
  const root = document.getElementById("replay"), source = document.getElementById("replay-data");
  if (!root || !source) return;
  const data = JSON.parse(source.textContent);
  if (!data.duration_ms) return; // nothing happened over time (or nothing at all): the static page says it all
  const WHO = { i: "interrogator", w: "witness" };
  const play = root.querySelector(".replay-play"), speed = root.querySelector(".replay-speed");
  const slider = root.querySelector(".replay-position"), clock = root.querySelector(".replay-clock");
  const duration = data.duration_ms;

  const tracks = data.conversations.map((c) => {
    const log = document.querySelector('.log[data-side="' + c.side + '"]');
    if (!log) return null;
    const rows = Array.from(log.querySelectorAll(":scope > .msg"));
    if (rows.length !== c.messages.length) return null; // the page and the data disagree: leave it static
    const events = c.keys.map((k) => ({ ms: k[0], order: 0, role: k[1], text: k[2] }))
      .concat(c.messages.map((m) => ({ ms: m[0], order: 1, role: m[1] })));
    events.sort((a, b) => a.ms - b.ms || a.order - b.order);
    const composing = {};
    ["i", "w"].forEach((role) => {
      const row = document.createElement("div");
      row.className = "msg composing " + WHO[role];
      row.hidden = true;
      row.dataset.role = role;
      const who = document.createElement("span"); who.className = "who"; who.textContent = WHO[role];
      const text = document.createElement("span"); text.className = "text";
      row.append(who, " ", text);
      log.append(row);
      composing[role] = { row, text };
    });
    return { log, rows, events, composing, next: 0, shown: 0, buffers: { i: "", w: "" } };
  }).filter(Boolean);
  if (!tracks.length) return;

  let position = duration, playing = false, last = null;

  function reset(track) {
    track.next = 0; track.shown = 0; track.buffers = { i: "", w: "" };
  }
  function advance(track, t) {
    while (track.next < track.events.length && track.events[track.next].ms <= t) {
      const e = track.events[track.next++];
      if (e.order === 1) { track.shown++; track.buffers[e.role] = ""; }
      else if (e.text === "\b") track.buffers[e.role] = track.buffers[e.role].slice(0, -1);
      else if (e.text === "\n") track.buffers[e.role] = "";
      else track.buffers[e.role] += e.text;
    }
  }
  function draw(track, follow) {
    track.rows.forEach((row, i) => { row.hidden = i >= track.shown; });
    ["i", "w"].forEach((role) => {
      const c = track.composing[role], text = track.buffers[role];
      c.row.hidden = !text;
      c.text.textContent = text;
    });
    if (follow) track.log.scrollTop = track.log.scrollHeight; // the latest line in view
  }
  function mmss(ms) {
    const s = Math.floor(ms / 1000);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function seek(t, follow) {
    t = Math.max(0, Math.min(duration, t));
    tracks.forEach((track) => {
      if (t < position || track.next === 0) reset(track);
      advance(track, t);
      draw(track, follow);
    });
    position = t;
    slider.value = String(Math.round(t));
    clock.textContent = mmss(t) + " / " + mmss(duration);
    root.dataset.position = String(Math.round(t));
  }
  function setPlaying(on) {
    playing = on;
    play.textContent = on ? "Pause" : "Play";
    play.setAttribute("aria-pressed", String(on));
    root.dataset.playing = String(on);
    last = null;
    if (on) requestAnimationFrame(frame);
  }
  function frame(now) {
    if (!playing) return;
    if (last !== null) seek(position + (now - last) * Number(speed.value), true);
    last = now;
    if (position >= duration) { setPlaying(false); return; }
    requestAnimationFrame(frame);
  }

  play.addEventListener("click", () => {
    if (playing) { setPlaying(false); return; }
    if (position >= duration) { tracks.forEach(reset); position = 0; seek(0, true); }
    setPlaying(true);
  });
  slider.addEventListener("input", () => seek(Number(slider.value), true));
  tracks.forEach((track) => { advance(track, duration); draw(track, false); });
  seek(duration);
  root.hidden = false;
})();
