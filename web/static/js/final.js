// A final's page: while the final is scheduled or running, fetch its live part again every
// five seconds and put it in place (the server renders it; nothing is drawn here).
(function () {
  "use strict";
  var box = document.getElementById("final-live");
  if (!box) return;
  function refresh() {
    if (box.getAttribute("data-status") === "finished") return;
    fetch(box.getAttribute("data-live-url"), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        box.innerHTML = html;
        var status = document.getElementById("final-status");
        if (status) box.setAttribute("data-status", status.textContent.trim());
      })
      .catch(function () {})
      .then(function () { window.setTimeout(refresh, 5000); });
  }
  window.setTimeout(refresh, 5000);
})();
