// Hearts Arena: small enhancements for every page (no build step, no dependencies).
// - selects that choose a season submit themselves;
// - a bot version's page follows its validation live (polling a small JSON endpoint);
// - a queued match's page reloads itself when the match is over.
"use strict";

(function () {
  // Every page loads this file from base.html; some templates add it again: run once.
  if (window.arenaSite) return;
  window.arenaSite = true;
  document.documentElement.classList.add("js");

  // Tables scroll inside their card, never past it: each goes into a .table-wrap (the
  // templates wrap some already), and a wrap that can scroll further to the right fades
  // at its right edge, so a reader on a phone sees there is more.
  function hintScroll(wrap) {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    wrap.classList.toggle("scrolls-more", wrap.scrollWidth - wrap.clientWidth - wrap.scrollLeft > 1);
    wrap.dataset.scrolls = scrolls ? "true" : "false";
    // A region that scrolls is reachable by keyboard (and named); one that does not is
    // left out of the tab order.
    if (scrolls) {
      wrap.tabIndex = 0;
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", wrap.dataset.label);
    } else {
      wrap.removeAttribute("tabindex");
      wrap.removeAttribute("role");
      wrap.removeAttribute("aria-label");
    }
  }
  const wraps = [];
  for (const table of document.querySelectorAll("main table.table")) {
    let wrap = table.parentElement;
    if (!wrap.classList.contains("table-wrap")) {
      wrap = document.createElement("div");
      wrap.className = "table-wrap";
      table.replaceWith(wrap);
      wrap.appendChild(table);
    }
    const caption = table.closest("section") && table.closest("section").querySelector("h2");
    wrap.dataset.label = table.getAttribute("aria-label") || (caption && caption.textContent.trim()) || "table";
    wrap.addEventListener("scroll", () => hintScroll(wrap), { passive: true });
    wraps.push(wrap);
  }
  const hintAll = () => wraps.forEach(hintScroll);
  hintAll();
  window.addEventListener("resize", hintAll);

  for (const form of document.querySelectorAll("[data-season-select], [data-autosubmit]")) {
    const select = form.querySelector("select");
    if (select) select.addEventListener("change", () => form.submit());
  }

  const ORDER = ["pending", "validating", "ready"];

  function showStatus(panel, data) {
    const badge = panel.querySelector("#version-status");
    badge.innerHTML = "";
    const span = document.createElement("span");
    span.className = "status status-" + data.status;
    span.dataset.status = data.status;
    span.textContent = data.status;
    badge.appendChild(span);
    panel.querySelector("#version-reason").textContent = data.reason || "";
    const log = panel.querySelector("#version-log");
    if (log && "log" in data) log.textContent = data.log || "(nothing yet)";
    const failed = data.status === "rejected" || data.status === "disabled";
    const at = failed ? ORDER.length - 1 : ORDER.indexOf(data.status);
    const next = panel.querySelector("#version-next");
    if (next && data.next) next.textContent = data.next;
    for (const step of panel.querySelectorAll(".progress li")) {
      const index = ORDER.indexOf(step.dataset.step);
      step.classList.toggle("done", at > index || (data.status === "ready" && index === at));
      step.classList.toggle("current", at === index && data.status !== "ready" && !failed);
      step.classList.toggle("failed", false);
    }
    if (failed) {
      const last = panel.querySelector('.progress li[data-step="ready"]');
      last.classList.add("failed");
      last.textContent = data.status;
    }
    if (data.settled) {
      const note = panel.querySelector("#validation-note");
      if (note) note.textContent = "";
    }
  }

  const validation = document.getElementById("validation");
  if (validation && validation.dataset.settled !== "true") {
    const url = validation.dataset.statusUrl;
    let delay = 1000;
    const poll = async () => {
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
        if (response.ok) {
          const data = await response.json();
          showStatus(validation, data);
          if (data.settled) return;
        }
      } catch (error) {
        delay = Math.min(delay * 2, 15000);
      }
      setTimeout(poll, delay);
    };
    setTimeout(poll, delay);
  }

  const pending = document.getElementById("pending-match");
  // A match page loaded while the match was queued says "running" once it is: from the
  // status the page polls, or at once when the live viewer draws its first cards.
  const showMatchStatus = (status) => {
    if (!pending || pending.dataset.status === status) return;
    if (status === "queued" && pending.dataset.status === "running") return; // only forward
    pending.dataset.status = status;
    const word = pending.querySelector("[data-match-status]");
    if (word) word.textContent = status;
    const badge = document.querySelector("h1 .status");
    if (badge) {
      badge.className = "status status-" + status;
      badge.dataset.status = status;
      badge.textContent = status;
    }
  };
  document.addEventListener("arena:match-status", (event) => showMatchStatus(event.detail));
  if (pending && ["queued", "running"].includes(pending.dataset.status)) {
    const poll = async () => {
      try {
        const response = await fetch(pending.dataset.statusUrl, { headers: { Accept: "application/json" } });
        const data = await response.json();
        if (!["queued", "running"].includes(data.status)) {
          window.location.reload();
          return;
        }
        showMatchStatus(data.status);
      } catch (error) { /* try again */ }
      setTimeout(poll, 3000);
    };
    setTimeout(poll, 3000);
  }
})();
