/* Shared by the live consoles: a reconnecting websocket, a server-synchronised countdown, and safe
   text rendering (every user or bot text goes through textContent, never innerHTML). */
"use strict";
window.Arena = (function () {
  function connect(path, onPayload, onOpenChange) {
    let socket = null, delay = 500, closedByPage = false;
    function open() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + path);
      socket.onopen = () => { delay = 500; onOpenChange && onOpenChange(true); };
      socket.onmessage = (event) => { try { onPayload(JSON.parse(event.data)); } catch (e) { console.error(e); } };
      socket.onclose = (event) => {
        onOpenChange && onOpenChange(false, event.code);
        if (closedByPage || event.code === 4403) return;
        setTimeout(open, delay); delay = Math.min(delay * 2, 8000);   // reconnect; the server resends the full state
      };
    }
    open();
    return {
      send(frame) {
        if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(frame)); return true; }
        return false;
      },
      close() { closedByPage = true; socket && socket.close(); },
    };
  }

  function Countdown(element, onZero) {
    let deadline = null, offset = 0, timer = null, fired = false;
    function tick() {
      if (deadline === null) { element.textContent = "--:--"; return; }
      const left = Math.max(0, deadline - (Date.now() + offset));
      const s = Math.ceil(left / 1000);
      element.textContent = String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
      element.classList.toggle("urgent", s <= 30);
      if (left === 0 && !fired) { fired = true; onZero && onZero(); }
    }
    return {
      set(clock) {
        offset = clock.now ? Date.parse(clock.now) - Date.now() : 0;
        deadline = clock.status === "running" && clock.deadline ? Date.parse(clock.deadline) : null;
        fired = false;
        clearInterval(timer);
        if (deadline !== null) timer = setInterval(tick, 250);
        tick();
      },
    };
  }

  // A message's time as people read it: hh:mm in the viewer's time zone, the full date and time (with
  // the zone) in its tooltip; null for a missing or unreadable timestamp.
  const hhmm = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
  const full = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });
  function stamp(iso) {
    const when = iso ? new Date(iso) : null;
    if (!when || isNaN(when.getTime())) return null;
    const element = document.createElement("time");
    element.dateTime = iso;
    element.textContent = hhmm.format(when);
    element.title = full.format(when);
    return element;
  }

  // seq (optional): the message's place in its conversation; a row that arrives after a later one
  // (two pushes racing) still lands in order. at (optional): its ISO time, shown as stamp() says.
  // The log follows new rows only while its reader is at the bottom (not while reading back).
  function line(log, who, text, cls, seq, at) {
    const row = document.createElement("div");
    row.className = "msg " + cls;
    if (seq !== undefined) row.dataset.seq = seq;
    const label = document.createElement("span");
    label.className = "who";
    label.textContent = who;
    const body = document.createElement("span");
    body.className = "text";
    body.textContent = text;
    row.append(label, " ", body);
    const time = stamp(at);
    if (time) row.append(time);
    const later = seq === undefined ? null
      : Array.from(log.children).find((other) => other.dataset.seq !== undefined && Number(other.dataset.seq) > seq);
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
    log.insertBefore(row, later || null);
    if (atBottom || cls === "you") log.scrollTop = log.scrollHeight;
    return row;
  }

  // A state carries a conversation's most recent messages only (the first at seq `first`): the log's
  // first row says how many earlier ones it does not show (a page that was open before a reconnection
  // still shows those it had); none: no row.
  function earlier(log, count, first) {
    let row = log.querySelector(".earlier");
    if (count && first !== undefined)
      count -= Array.from(log.children).filter((r) => r.dataset.seq !== undefined && Number(r.dataset.seq) < first).length;
    if (!count) { if (row) row.remove(); return; }
    if (!row) {
      row = document.createElement("div");
      row.className = "earlier";
      log.insertBefore(row, log.firstChild);
    }
    row.textContent = count + " earlier message" + (count === 1 ? "" : "s") + " — see the transcript";
  }

  // An end screen comes into view when the conversation ends while the page is open (not on a reload
  // of an ended one): whoever was reading back in the log sees it at once.
  function reveal(element) {
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({ block: "start", behavior: reduced ? "auto" : "smooth" });
  }

  // The page's one notice line. A refusal (the server's answer to a refused frame) holds only while it
  // is true: the console calls settle() when what was refused has changed (a new message, a trade, the
  // end), and the refusal goes; other notices (reconnecting, "not delivered") stay until replaced.
  let refusalShown = false;
  function notice(text) {
    const el = document.getElementById("notice");
    refusalShown = false;
    if (el) el.textContent = text || "";
  }
  function refusal(text) { notice(text); refusalShown = true; }
  function settle() { if (refusalShown) notice(""); }

  function statusText(clock) {
    if (clock.status === "ended") return clock.end_reason === "time" ? "time is up" : "ended";
    return clock.status;
  }

  function throttle(fn, ms) {
    let last = 0;
    return function (...args) { const now = Date.now(); if (now - last > ms) { last = now; fn(...args); } };
  }

  return { connect, Countdown, stamp, line, earlier, reveal, notice, refusal, settle, statusText, throttle };
})();

/* Keystroke mode (LPP-style): every key goes to the server as it is typed; the other side's line being
   typed is shown live. */
window.Arena.keys = (function () {
  function apply(text, keys) {
    for (const k of keys) {
      if (k === "Return") text = "";
      else if (k === "BackSpace") text = text.slice(0, -1);
      else text += k;
    }
    return text;
  }
  function capture(input, enabled, send) {
    input.addEventListener("keydown", (e) => {
      if (!enabled() || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      let key = null;
      if (e.key === "Enter") key = "Return";
      else if (e.key === "Backspace") key = "BackSpace";
      else if (e.key.length === 1) key = e.key;
      else if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "Delete"].includes(e.key)) { e.preventDefault(); return; }
      else return;
      e.preventDefault();
      if (!send([key])) return;
      input.value = key === "Return" ? "" : apply(input.value, [key]);
    });
    input.addEventListener("paste", (e) => { if (enabled()) e.preventDefault(); });   // LPP had no paste: every character is typed
  }
  return { apply, capture };
})();
