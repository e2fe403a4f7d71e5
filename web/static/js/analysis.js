// The match page's analysis (web/analyses.py, docs/analysis.md): the progress bar of an
// analysis being made, and, once made, the evaluation of the decision the replay viewer
// shows (its mark, its loss, the best answer and every answer's expected points).
// It reads the viewer's position from #viewer's data-step ("game-hand-trick-card", the
// viewer's own steps) and never draws inside the viewer itself.
(function () {
  "use strict";
  const panel = document.getElementById("analysis");
  if (!panel) return;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  // -- progress: poll until the analysis is made, then show it ---------------------------
  const status = panel.dataset.status;
  if (status === "queued" || status === "running") {
    const bar = document.getElementById("analysis-progress");
    const text = panel.querySelector("[data-progress-text]");
    const poll = async () => {
      try {
        const response = await fetch(panel.dataset.url, { headers: { Accept: "application/json" } });
        const body = await response.json();
        if (body.status === "done" || body.status === "failed") {
          window.location.reload();
          return;
        }
        if (bar) {
          bar.max = Math.max(1, body.total || 1);
          bar.value = body.done || 0;
        }
        if (text) text.textContent = `${body.done || 0} of ${body.total || "…"} decisions`;
      } catch (error) {
        if (text) text.textContent = `could not read the progress: ${error.message}`;
      }
      setTimeout(poll, 1000);
    };
    setTimeout(poll, 500);
    return;
  }

  // -- the decision the viewer shows -----------------------------------------------------
  const data = document.getElementById("analysis-data");
  const viewer = document.getElementById("viewer");
  if (!data || !viewer) return;
  const result = JSON.parse(data.textContent);
  const byStep = new Map();
  for (const d of result.decisions) {
    const t = d.trick === null ? 0 : d.trick + 1;
    const c = d.position === null ? 1 : d.position + 1;
    const key = `${d.game + 1}-${d.hand + 1}-${t}-${c}`;
    if (!byStep.has(key)) byStep.set(key, []);
    byStep.get(key).push(d);
  }
  const box = el("div", { id: "analysis-decision", class: "analysis-decision", "aria-live": "polite" });
  viewer.after(box);

  // The match's own seat labels (bot, owner, version) where the page gives them.
  const labels = new Map(JSON.parse(viewer.dataset.seats || "[]").map((s) => [s.seat, s.label]));
  const name = (d) => labels.get(d.entrant) || result.entrants[d.entrant] || `seat ${d.seat}`;
  const fixed = (x, digits) => Number(x).toFixed(digits);

  function drawDecision(d) {
    const verb = d.kind === "pass" ? "passed" : "played";
    const head = el("p", { class: "analysis-head" },
      el("strong", { text: `${name(d)} ${verb} ${d.chosen}` }), " — ");
    if (d.mark) head.append(el("span", { class: `badge mark ${d.mark}`, text: d.mark }), " ");
    head.append(d.loss > 0 ? `cost ${fixed(d.loss, 2)} points; best ${d.best}` : "the best answer found");
    const table = el("table", { class: "table analysis-answers" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", text: d.kind === "pass" ? "Pass" : "Card" }),
        el("th", { scope: "col", class: "num", text: "Expected vs table" }),
        el("th", { scope: "col", class: "num", text: "Own points" }),
        el("th", { scope: "col", class: "num", text: "Moon" }),
        el("th", { scope: "col", class: "num", text: "Loss" }))));
    const body = el("tbody");
    const best = d.answers[0].score;
    for (const a of d.answers) {
      const row = el("tr", { "data-answer": a.answer },
        el("td", { text: a.answer }),
        el("td", { class: "num", text: fixed(a.score, 2) }),
        el("td", { class: "num", text: fixed(a.points, 2) }),
        el("td", { class: "num", text: `${Math.round(a.moon * 100)}%` }),
        el("td", { class: "num", text: fixed(a.score - best, 2) }));
      if (a.answer === d.chosen) row.classList.add("chosen");
      if (a.answer === d.best) row.classList.add("best");
      body.append(row);
    }
    table.append(body);
    return el("div", { class: `analysis-one ${d.mark ? `mark-${d.mark}` : ""}`, "data-decision": `${d.game}-${d.hand}-${d.action}` }, head, table);
  }

  function show() {
    const found = byStep.get(viewer.dataset.step || "") || [];
    box.replaceChildren();
    if (!found.length) {
      box.append(el("p", { class: "hint", text: "Analysis: no judged decision at this step (step to a card played or to the pass)." }));
      return;
    }
    box.append(el("h3", { text: "Analysis of this decision" }));
    for (const d of found) box.append(drawDecision(d));
  }

  new MutationObserver(show).observe(viewer, { attributes: true, attributeFilter: ["data-step"] });
  show();
})();
