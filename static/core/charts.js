/* The charts every page shares. {% chart %} (core/chart_tags.py) renders a <figure data-chart> holding the
   chart's configuration (JSON) and its data as a table; this draws it: "series" with uPlot (a live time
   series: a real time axis, or a numeric one, resizing with its container, points appended by the page), "plot" with
   Vega-Lite through vega-embed (rates with CIs, ratings, heat maps, bars). Each chart gets downloads: PNG,
   SVG (plots), and CSV, which is its data table (the data shown, raw values). Without the libraries (a
   checkout without `manage.py vendor fetch`) the open table is the chart.

   Charts.get(id) → {append(row), set(rows), xLabels(), png(), svg(), csv()}; Charts.scan(root) draws the
   figures under root (a page calls it after replacing part of itself). Texts go through textContent. */
"use strict";
window.Charts = (function () {
  const charts = new Map();
  const pad = (n) => String(n).padStart(2, "0");

  function cssVar(name, fallback) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
  }

  function fileName(fig, ext) {
    return (fig.id || "chart").replace(/[^A-Za-z0-9_-]+/g, "-") + "." + ext;
  }

  function download(name, href) {
    const a = document.createElement("a");
    a.href = href; a.download = name; a.hidden = true;
    document.body.append(a); a.click(); a.remove();
    if (href.startsWith("blob:")) setTimeout(() => URL.revokeObjectURL(href), 10000);
  }

  // --- the data table: the accessible alternative, the fallback and the CSV -------------------------
  function csvField(s) {
    if (/^[=+\-@\t\r]/.test(s) && isNaN(Number(s))) s = "'" + s;   // no formulas from names in a spreadsheet
    return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  function tableCsv(fig) {
    const table = fig.querySelector("table.chart-table");
    const lines = [[...table.tHead.rows[0].cells].map((th) => csvField(th.textContent.trim()))];
    for (const tr of table.tBodies[0].rows) {
      lines.push([...tr.cells].map((td) => csvField(td.dataset.value !== undefined ? td.dataset.value : td.textContent.trim())));
    }
    return lines.map((l) => l.join(",")).join("\r\n") + "\r\n";
  }

  function cellText(column, value) {
    if (value === null || value === undefined || value === "") return "–";
    if (column.format === "text") return String(value);
    if (column.format === "time") {
      const d = new Date(value);
      return d.toISOString().slice(0, 19).replace("T", " ") + " UTC";
    }
    if (column.format === "percent") return (Number(value) * 100).toFixed(column.digits) + " %";
    return Number(value).toFixed(column.digits);
  }

  function tableAppend(fig, columns, row, keep) {
    const body = fig.querySelector("table.chart-table").tBodies[0];
    const tr = document.createElement("tr");
    for (const c of columns) {
      const td = document.createElement("td"), v = row[c.key];
      td.dataset.value = v === null || v === undefined ? "" : String(v);
      if (c.format === "time" && v) {
        const t = document.createElement("time"); t.dateTime = v; t.textContent = cellText(c, v); td.append(t);
      } else td.textContent = cellText(c, v);
      tr.append(td);
    }
    body.append(tr);
    while (keep && body.rows.length > keep) body.deleteRow(0);
  }

  function tableSet(fig, columns, rows, keep) {
    fig.querySelector("table.chart-table").tBodies[0].replaceChildren();
    (keep ? rows.slice(-keep) : rows).forEach((r) => tableAppend(fig, columns, r));
  }

  function tools(fig, title, exports) {
    const bar = fig.querySelector(".chart-tools");
    bar.replaceChildren();
    for (const [label, run] of Object.entries(exports)) {
      const b = document.createElement("button");
      b.type = "button"; b.className = "chart-download"; b.dataset.format = label.toLowerCase();
      b.textContent = label; b.setAttribute("aria-label", "Download " + title + " as " + label);
      b.addEventListener("click", async () => {
        try { download(fileName(fig, label.toLowerCase()), await run()); } catch (e) { console.error(e); }
      });
      bar.append(b);
    }
  }

  const csvUrl = (fig) => URL.createObjectURL(new Blob([tableCsv(fig)], { type: "text/csv" }));

  function fallback(fig, cfg, why) {
    fig.dataset.fallback = "";
    const area = fig.querySelector(".chart-area");
    if (area) area.remove();
    fig.querySelector("details.chart-data").open = true;
    if (why) console.warn("chart " + cfg.id + " shown as a table: " + why);
    tools(fig, cfg.title, { CSV: () => csvUrl(fig) });
    return { append(row) { tableAppend(fig, cfg.columns, row); }, set(rows) { tableSet(fig, cfg.columns, rows); },
             csv: () => tableCsv(fig), fallback: true };
  }

  // --- time series: uPlot -------------------------------------------------------------------------
  function timeLabel(seconds, step, span) {
    const d = new Date(seconds * 1000);
    const hm = pad(d.getHours()) + ":" + pad(d.getMinutes());
    const time = step < 60 ? hm + ":" + pad(d.getSeconds()) : hm;
    return span > 86400 ? d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + " " + time : time;
  }

  // whole seconds and up: labels never repeat a second
  const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200,
    86400, 2 * 86400, 7 * 86400, 14 * 86400, 30 * 86400, 91 * 86400, 182 * 86400, 365 * 86400];

  function series(fig, cfg) {
    const area = fig.querySelector(".chart-area");
    const byKey = Object.fromEntries(cfg.columns.map((c) => [c.key, c]));
    const keep = cfg.max_points || 1000;
    let data = [[], ...cfg.y.map(() => [])], xLabels = [];
    const timeX = byKey[cfg.x].format === "time";   // else a number (episodes, steps)
    const push = (row) => {
      data[0].push(timeX ? Date.parse(row[cfg.x]) / 1000 : Number(row[cfg.x]));
      cfg.y.forEach((k, i) => data[i + 1].push(row[k] === null || row[k] === undefined ? null : Number(row[k])));
      if (data[0].length > keep) data = data.map((s) => s.slice(-keep));
    };
    cfg.rows.forEach(push);
    const fg = cssVar("--fg", "#1d2330"), line = cssVar("--line", "#d9dee7");
    const palette = [cssVar("--accent", "#2a5db0"), "#b3261e", "#1b7f3b", "#8a4fbf"];
    const font = "12px system-ui, sans-serif";
    const axis = { stroke: fg, font, labelFont: "bold " + font, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
    const width = () => Math.max(200, area.clientWidth);
    const u = new uPlot({
      width: width(), height: cfg.height,
      scales: {
        // at least a minute, from the data itself: labels even for a burst of trades (uPlot widens a
        // single point's range to about three years before this function sees it)
        x: timeX ? { time: true, range: (self) => {
          const xs = self.data[0];
          const min = xs.length ? xs[0] : Date.now() / 1000, max = xs.length ? xs[xs.length - 1] : min;
          return [min, Math.max(max, min + 60)];
        } } : { time: false },
        y: cfg.y_range ? { range: () => cfg.y_range } : {},
      },
      axes: [
        timeX ? { ...axis, space: 70, incrs: TIME_STEPS, values: (self, splits, i, space, incr) => {
          const span = splits.length ? splits[splits.length - 1] - splits[0] : 0;
          xLabels = splits.map((s) => timeLabel(s, incr, span));
          return xLabels;
        } } : { ...axis, label: byKey[cfg.x].label, values: (self, splits) => (xLabels = splits.map(String)) },
        { ...axis, label: cfg.y_label || undefined, size: 52 },
      ],
      series: [
        { label: byKey[cfg.x].label, value: (self, v) => (v === null ? "–" : timeX ? timeLabel(v, 1, 0) : String(v)) },
        ...cfg.y.map((k, i) => ({
          label: byKey[k].label, stroke: palette[i % palette.length], width: 2,
          value: (self, v) => (v === null || v === undefined ? "–" : v.toFixed(byKey[k].digits)),
          paths: cfg.stepped ? uPlot.paths.stepped({ align: 1 }) : undefined,
          points: { show: (self) => self.data[0].length < 60 },
        })),
      ],
      legend: { show: true },
    }, data, area);
    new ResizeObserver(() => { if (width() !== u.width) u.setSize({ width: width(), height: cfg.height }); }).observe(area);
    const png = () => {
      const src = u.ctx.canvas, c = document.createElement("canvas");
      c.width = src.width; c.height = src.height;
      const g = c.getContext("2d");
      g.fillStyle = "#fff"; g.fillRect(0, 0, c.width, c.height); g.drawImage(src, 0, 0);
      return c.toDataURL("image/png");
    };
    tools(fig, cfg.title, { PNG: png, CSV: () => csvUrl(fig) });
    return {
      uplot: u,
      append(row) { push(row); u.setData(data); tableAppend(fig, cfg.columns, row, keep); },
      set(rows) {
        data = [[], ...cfg.y.map(() => [])]; rows.forEach(push); u.setData(data);
        tableSet(fig, cfg.columns, rows, keep);
      },
      xLabels: () => xLabels.slice(),
      png, csv: () => tableCsv(fig),
      destroy() { u.destroy(); },
    };
  }

  // --- statistical plots: Vega-Lite ---------------------------------------------------------------
  function plot(fig, cfg) {
    if (!cfg.rows.length) return fallback(fig, cfg, "");   // nothing to plot yet: its (empty) table says so
    const area = fig.querySelector(".chart-area");
    const spec = Object.assign({}, cfg.spec, { data: { values: cfg.rows } });
    const chart = { csv: () => tableCsv(fig), view: null };
    chart.ready = vegaEmbed(area, spec, { actions: false, renderer: "svg", ast: true }).then((result) => {
      chart.view = result.view;
      fig.dataset.drawn = "";
      return result.view;
    }).catch((e) => { Object.assign(chart, fallback(fig, cfg, e.message)); });
    chart.png = () => chart.ready.then((view) => view.toImageURL("png", 2));
    chart.svg = () => chart.ready.then((view) => view.toImageURL("svg"));
    chart.destroy = () => chart.view && chart.view.finalize();
    tools(fig, cfg.title, { PNG: chart.png, SVG: chart.svg, CSV: () => csvUrl(fig) });
    return chart;
  }

  function draw(fig) {
    const cfg = JSON.parse(document.getElementById(fig.id + "-config").textContent);
    if (!fig.querySelector(".chart-area")) return fallback(fig, cfg, "");
    try {
      if (cfg.kind === "series") return window.uPlot ? series(fig, cfg) : fallback(fig, cfg, "uPlot is not loaded");
      if (cfg.kind === "plot") return window.vegaEmbed ? plot(fig, cfg) : fallback(fig, cfg, "vega-embed is not loaded");
    } catch (e) {
      return fallback(fig, cfg, e.message);
    }
    return fallback(fig, cfg, "unknown kind " + cfg.kind);
  }

  function scan(root) {
    for (const [id, chart] of charts) {
      if (!chart.figure.isConnected) { if (chart.destroy) chart.destroy(); charts.delete(id); }
    }
    for (const fig of (root || document).querySelectorAll("figure[data-chart]")) {
      if (fig.dataset.ready !== undefined) continue;
      fig.dataset.ready = "";
      const chart = draw(fig);
      chart.figure = fig;
      charts.set(fig.id, chart);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => scan());
  else scan();
  return { get: (id) => charts.get(id), scan, csv: tableCsv };
})();
