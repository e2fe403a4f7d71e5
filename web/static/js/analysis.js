// The match page's analysis (web/analyses.py, docs/analysis.md): the progress bar of an
// analysis being made, and, once made, the evaluation of the decision the replay viewer
// shows (its mark, its loss, the best answer and every answer's expected points), with a
// switch to its hindsight (every hand known), a view of its own.
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
  // Two views, never mixed: the fair one (what the seat knew: the marks, the loss) and, for
  // a finished match analysed with it, the hindsight (every hand known). The server hands
  // both with each decision's words and the viewer step that shows it (`label`,
  // web/analysis_labels.py): this script keeps no table of kinds or phases of its own.
  const data = document.getElementById("analysis-data");
  const viewer = document.getElementById("viewer");
  if (!data || !viewer) return;
  const result = JSON.parse(data.textContent);
  const knownData = document.getElementById("analysis-hindsight");
  const known = knownData ? JSON.parse(knownData.textContent) : null;

  function byKey(decisions) {
    const map = new Map();
    for (const d of decisions) {
      if (!map.has(d.label.key)) map.set(d.label.key, []);
      map.get(d.label.key).push(d);
    }
    return map;
  }
  const fair = byKey(result.decisions);
  const hindsight = known ? byKey(known.decisions) : new Map();
  let mode = "fair";

  const box = el("div", { id: "analysis-decision", class: "analysis-decision", "aria-live": "polite", "data-mode": mode });
  const content = el("div");
  viewer.after(box);

  // The match's own seat labels (bot, owner, version) where the page gives them.
  const labels = new Map(JSON.parse(viewer.dataset.seats || "[]").map((s) => [s.seat, s.label]));
  const name = (d) => labels.get(d.entrant) || result.entrants[d.entrant] || `seat ${d.seat}`;
  const fixed = (x, digits) => Number(x).toFixed(digits);

  // What is shown at the viewer's step: its own decisions (a penny-round's card at its own
  // step of the round, by its `order`), those of its whole round when they are placed by
  // round only (an analysis older than `order`, "g-h-t-*"), and at a hand's last step the
  // decisions made at the hand's end ("g-h-end").
  function at(map) {
    const step = viewer.dataset.step || "";
    const [g, h, t] = step.split("-");
    const found = [...(map.get(step) || []), ...(map.get(`${g}-${h}-${t}-*`) || [])];
    if (viewer.dataset.handEnd === "true") found.push(...(map.get(`${g}-${h}-end`) || []));
    return found;
  }

  function answersTable(d, valueHeading) {
    const table = el("table", { class: "table analysis-answers" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", text: d.label.answers }),
        el("th", { scope: "col", class: "num", text: valueHeading }),
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
    return table;
  }

  function drawFair(d) {
    const head = el("p", { class: "analysis-head" },
      el("strong", { text: `${name(d)} ${d.label.verb} ${d.chosen}` }), ` (${d.label.phase}) — `);
    if (d.mark) head.append(el("span", { class: `badge mark ${d.mark}`, text: d.mark }), " ");
    head.append(d.loss > 0 ? `cost ${fixed(d.loss, 2)} points; best ${d.best}` : "the best answer found");
    return el("div", { class: `analysis-one ${d.mark ? `mark-${d.mark}` : ""}`, "data-decision": `${d.game}-${d.hand}-${d.action}`, "data-kind": d.kind },
      head, answersTable(d, "Expected vs table"));
  }

  function drawHindsight(d) {
    const head = el("p", { class: "analysis-head" },
      el("strong", { text: `${name(d)} ${d.label.verb} ${d.chosen}` }), " — with all hands known, ");
    head.append(d.loss > 0 ? `best ${d.best}, ${fixed(d.loss, 2)} points better` : "the best answer too");
    return el("div", { class: "analysis-one hindsight-one", "data-decision": `${d.game}-${d.hand}-${d.action}` },
      head, answersTable(d, "On the real deal vs table"),
      el("p", { class: "hint", text: d.playouts > 1 ? `${d.playouts} playouts per answer on the real deal.` : "One playout per answer on the real deal (the house bots' play is deterministic)." }));
  }

  function show() {
    box.dataset.mode = mode;
    content.replaceChildren();
    if (mode === "hindsight") {
      content.append(el("p", { class: "analysis-about", id: "analysis-hindsight-about", text: known.about }));
      const found = at(hindsight);
      if (!found.length) {
        content.append(el("p", { class: "hint", text: "Hindsight: no judged decision with a hindsight at this step (step to a card played, the pass, or another decision)." }));
        return;
      }
      content.append(el("h3", { text: "This decision in hindsight" }));
      for (const d of found) content.append(drawHindsight(d));
      return;
    }
    const found = at(fair);
    if (!found.length) {
      content.append(el("p", { class: "hint", text: "Analysis: no judged decision at this step (step to a card played, the pass, or another decision)." }));
      return;
    }
    content.append(el("h3", { text: "Analysis of this decision" }));
    for (const d of found) content.append(drawFair(d));
  }

  // The switch between the two views, only when the analysis holds the hindsight.
  if (known) {
    const switcher = el("div", { class: "analysis-switch", role: "group", "aria-label": "Which evaluation to show" });
    const choices = [
      ["fair", "Fair (what the seat knew)"],
      ["hindsight", "Hindsight (all hands known)"],
    ].map(([value, text]) => {
      const choice = el("button", { type: "button", class: "button ghost", "data-view": value, "aria-pressed": String(value === mode), text });
      choice.addEventListener("click", () => {
        mode = value;
        for (const other of choices) other.setAttribute("aria-pressed", String(other === choice));
        show();
      });
      return choice;
    });
    switcher.append(...choices);
    box.append(switcher);
  }
  box.append(content);

  new MutationObserver(show).observe(viewer, { attributes: true, attributeFilter: ["data-step", "data-hand-end"] });
  show();
})();
