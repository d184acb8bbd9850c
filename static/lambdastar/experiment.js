/* Live progress of a Λ* experiment (done/total episodes, rate, time left) and its plots and results
   table, redrawn from results.json as chunks are stored (at most one request in flight). Plots are
   Vega-Lite: mean points with 95 % CI error bars (and a band along a numeric axis), full width, each
   exportable as PNG or SVG, its data as CSV. A change of status reloads the page once (its actions
   change). Every text goes through textContent or Vega's own escaping. */
"use strict";
(function () {
  const section = document.getElementById("progress");
  if (!section) return;
  const initial = section.dataset.status;
  const plots = document.getElementById("plots");
  const text = (id, value) => { const el = document.getElementById(id); if (el) el.textContent = value; };
  const views = {};
  let lastDone = null, inFlight = false, again = false;

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
    if (p.status !== initial) { location.reload(); return; }
    if (p.done !== lastDone) { lastDone = p.done; refresh(); }
  }

  // --- plots --------------------------------------------------------------------------------------
  function spec(figure) {
    const x = figure.categorical
      ? { field: "x", type: "nominal", title: figure.xlabel, sort: null, axis: { labelAngle: 0 } }
      : { field: "x", type: "quantitative", title: figure.xlabel, scale: { zero: false },
          axis: { tickMinStep: 1, format: "d" } };  // grid sizes, N and K(μ) are whole numbers
    const y = { field: "mean", type: "quantitative", title: figure.ylabel, scale: { zero: false } };
    // per type along a factor; the types plot pools every run in one series ("all runs"): no legend
    const color = { field: "series", type: "nominal", title: null, legend: figure.categorical ? null : {} };
    const tooltip = [
      { field: "series", title: "series" }, { field: "x", title: figure.xlabel },
      { field: "mean", format: ".4f" }, { field: "ci_low", title: "95 % CI low", format: ".4f" },
      { field: "ci_high", title: "95 % CI high", format: ".4f" }, { field: "n", title: "episodes" },
    ];
    const layer = [
      { mark: { type: "errorbar", ticks: { size: 10, aria: false }, rule: { aria: false }, thickness: 2, aria: false },
        encoding: { y: { field: "ci_low", type: "quantitative", title: figure.ylabel }, y2: { field: "ci_high" } } },
      { mark: { type: "point", filled: true, size: 70, opacity: 1, aria: false }, encoding: { y, tooltip } },
    ];
    if (!figure.categorical) {
      layer.unshift(
        { mark: { type: "errorband", opacity: 0.18, aria: false, band: { aria: false }, borders: false },
          encoding: { y: { field: "ci_low", type: "quantitative", title: figure.ylabel }, y2: { field: "ci_high" } } },
        { mark: { type: "line", strokeWidth: 2, aria: false }, encoding: { y } });
    }
    // the figure is named and its data is a table beside it: the marks are hidden from screen readers
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      width: "container", height: 300, autosize: { type: "fit-x", contains: "padding" },
      data: { name: "rows" }, encoding: { x, color }, layer,
      config: { aria: false, legend: { orient: "bottom", labelLimit: 240 }, axis: { labelFontSize: 12, titleFontSize: 12 } },
    };
  }

  function figureElement(figure) {
    const el = document.createElement("figure");
    el.className = "ls-figure";
    el.id = "plot-" + figure.name;
    const title = document.createElement("h3");
    title.textContent = figure.title;
    const chart = document.createElement("div");
    chart.className = "ls-chart";
    chart.setAttribute("role", "img");
    chart.setAttribute("aria-label", figure.title);
    const caption = document.createElement("figcaption");
    for (const format of ["png", "svg"]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "export-" + format;
      button.textContent = format.toUpperCase();
      button.setAttribute("aria-label", "Download " + figure.title + " as " + format.toUpperCase());
      button.addEventListener("click", () => save(figure.name, format));
      caption.append(button);
    }
    const csv = document.createElement("a");
    csv.href = plots.dataset.csv.replace("NAME", figure.name);
    csv.className = "export-csv";
    csv.textContent = "data (CSV)";
    caption.append(csv);
    el.append(title, chart, caption);
    document.getElementById("figures").append(el);
    return el;
  }

  function save(name, format) {
    const view = views[name];
    if (!view) return;
    view.toImageURL(format, format === "png" ? 2 : 1).then((url) => {
      const a = document.createElement("a");
      a.href = url;
      a.download = "lambdastar-" + name + "." + format;
      document.body.append(a);
      a.click();
      a.remove();
    });
  }

  function draw(figure) {
    const el = document.getElementById("plot-" + figure.name) || figureElement(figure);
    const rows = figure.rows.filter((r) => r.mean !== null);
    el.dataset.points = rows.length;
    if (views[figure.name]) return views[figure.name].data("rows", rows).runAsync();
    if (figure.name in views) return null;  // being embedded: the next refresh brings these rows
    views[figure.name] = null;
    return vegaEmbed(el.querySelector(".ls-chart"), spec(figure), { actions: false, renderer: "svg", ast: true })
      .then((result) => { views[figure.name] = result.view; return result.view.data("rows", rows).runAsync(); });
  }

  // --- results table ------------------------------------------------------------------------------
  const fixed = (v) => (v === null || v === undefined ? "–" : v.toFixed(4));

  function table(rows) {
    const body = document.getElementById("results-body");
    if (!body) return;
    const lines = rows.map((r) => {
      const tr = document.createElement("tr");
      const cells = [r.run, r.grid, r.iterations, r.agents, r.observation_range, r.complexity,
        r.coordination ? "yes" : "no", r.agent_type, r.n, fixed(r.mean), fixed(r.std), fixed(r.sem),
        "[" + fixed(r.ci_low) + ", " + fixed(r.ci_high) + "]"];
      cells.forEach((value, i) => {
        const td = document.createElement("td");
        td.textContent = value;
        if (i === cells.length - 1) td.className = "ci";
        tr.append(td);
      });
      return tr;
    });
    if (lines.length) body.replaceChildren(...lines);
  }

  function refresh() {
    if (!plots) return;
    if (inFlight) { again = true; return; }
    inFlight = true;
    fetch(plots.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error("results: HTTP " + r.status))))
      .then((data) => {
        table(data.table);
        // a plot appears with its first point: until a chunk is stored the progress above says how far it is
        const drawable = data.figures.filter((f) => f.rows.some((r) => r.mean !== null));
        if (!drawable.length) text("plots-note", "The plots appear when the first chunk is stored: see the progress above.");
        else if (section.dataset.status !== "finished") text("plots-note", "Results so far, from the chunks stored: they fill in as chunks finish.");
        return Promise.all(drawable.map(draw));
      })
      .catch((e) => console.warn(e))
      .finally(() => { inFlight = false; if (again) { again = false; refresh(); } });
  }

  refresh();
  Arena.connect(section.dataset.ws, render);
})();
