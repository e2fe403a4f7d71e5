// A person's table (web/tables.py): reads the seat's state once, then follows the table's
// stream (web/table_live.py: the seat's moments, and the match's live events cut for the
// seat, so a bot's card shows as it is played; EventSource resumes a dropped connection
// with Last-Event-ID), falling back to polling the state when the stream is refused. It
// draws what the seat sees and sends the person's answer to the decision asked. Only the
// cards and options the decision offers can be chosen; the server checks again. Keyboard:
// arrows move between the cards you may choose, Enter or Space chooses, 1-9 pick an
// option, C confirms a pick of several.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var SUITS = { C: "\u2663", D: "\u2666", S: "\u2660", H: "\u2665" };
  var POLL_MS = 400;
  // Where the pass goes (arena.engine.rules.PassDirection), said to the person passing.
  var PASS_TO = {
    left: "to the left", right: "to the right", across: "across the table",
    left2: "two seats to the left", right2: "two seats to the right",
    scatter: "one to each other player", center: "to the centre", star: "one to each of the two seats opposite"
  };
  var stateUrl = root.dataset.stateUrl;
  var liveUrl = root.dataset.liveUrl;
  var answerUrl = root.dataset.answerUrl;
  var csrf = root.dataset.csrf;
  var mySeat = Number(root.dataset.seat);
  var el = function (id) { return document.getElementById(id); };
  var handBox = el("hand"), trickBox = el("trick"), choicesBox = el("choices");
  var confirmButton = el("confirm"), asked = el("asked"), refused = el("refused");
  var fallback = el("fallback"), clock = el("clock"), clockText = el("clock-text");
  var clockFill = el("clock-fill");

  var number = 0;            // the last moment drawn
  var asking = null;         // the decision waiting for the person, if any
  var sent = 0;              // the decision the person answered last
  var selected = [];
  var deadline = 0, seconds = 0;
  var finished = false, failures = 0;
  var live = null;           // the table's stream, while it is followed
  var liveHand = null;       // "game:hand" of the last hand the live events began
  var liveCards = 0;         // cards drawn from the live events (ahead of a moment)

  function pretty(card) {
    var suit = card.slice(-1), rank = card.slice(0, -1);
    return (rank === "T" ? "10" : rank) + (SUITS[suit] || suit);
  }
  function isRed(card) { var s = card.slice(-1); return s === "H" || s === "D"; }
  function cardNode(tag, card) {
    var node = document.createElement(tag);
    node.className = "card" + (isRed(card) ? " red" : "");
    node.dataset.card = card;
    node.textContent = pretty(card);
    return node;
  }
  function seatName(seat) {
    var li = document.querySelector('#seats [data-seat="' + seat + '"] .name');
    return li ? li.textContent : "seat " + seat;
  }

  function drawSeats(moment) {
    var view = moment.view || {};
    (moment.scores || []).forEach(function (score, seat) {
      var li = document.querySelector('#seats [data-seat="' + seat + '"]');
      if (!li) return;
      li.querySelector("[data-score]").textContent = score;
      var taken = (view.points_taken || [])[seat];
      li.querySelector("[data-taken]").textContent = taken ? "+" + taken + " this hand" : "";
      li.classList.toggle("to-play", view.to_play === seat && moment.kind === "ask");
    });
  }

  function drawTrick(moment) {
    var view = moment.view || {};
    var plays = view.current_trick || [];
    var caption = el("trick-caption"), last = el("last-trick");
    trickBox.textContent = "";
    var shown = plays;
    if (moment.kind === "trick" && moment.trick) shown = moment.trick.plays;
    // which trick the table shows, and whether it is over (the live events draw on it)
    trickBox.dataset.trick = String(moment.kind === "trick" ? moment.trick_number : (view.tricks || []).length);
    trickBox.dataset.done = String(moment.kind === "trick" || moment.kind === "hand_end");
    shown.forEach(function (play) {
      var li = document.createElement("li");
      li.className = "t-play" + (play[0] === mySeat ? " mine" : "");
      li.dataset.seat = play[0];
      var who = document.createElement("span");
      who.className = "who";
      who.textContent = play[0] === mySeat ? "you" : seatName(play[0]);
      li.appendChild(who);
      li.appendChild(cardNode("span", play[1]));
      trickBox.appendChild(li);
    });
    var tricks = view.tricks || [];
    var done = tricks.length ? tricks[tricks.length - 1] : null;
    last.textContent = "";
    if (done && moment.kind !== "trick") {
      last.appendChild(document.createTextNode("Last trick, won by " +
        (done.winner === mySeat ? "you" : seatName(done.winner)) + ": "));
      done.plays.forEach(function (play) { last.appendChild(cardNode("span", play[1])); });
    }
    if (moment.kind === "game") caption.textContent = "Waiting for the deal\u2026";
    else if (moment.kind === "deal") caption.textContent = "Hand " + (moment.hand + 1) + " dealt" +
      (view.pass_direction && view.pass_direction !== "hold" ? " \u00b7 pass " + view.pass_direction : "");
    else if (moment.kind === "trick") caption.textContent = "Trick " + (moment.trick_number + 1) +
      " won by " + (moment.trick.winner === mySeat ? "you" : seatName(moment.trick.winner));
    else if (moment.kind === "hand_end") caption.textContent = "Hand over: " +
      moment.points.map(function (p, s) { return (s === mySeat ? "you" : seatName(s)) + " " + p; }).join(", ");
    else if (moment.kind === "end") caption.textContent = "Game over" + (moment.aborted ? " (aborted)" : "");
    else if (moment.kind === "out") caption.textContent = "You are out of this match: too many clocks ran out, so the platform plays your seat's defaults.";
    else if (plays.length) caption.textContent = "Trick " + (tricks.length + 1);
    else if (moment.ask && moment.ask.trick !== null && moment.ask.trick !== undefined) caption.textContent = "Trick " + (moment.ask.trick + 1) + ": your lead";
    else caption.textContent = "Before the tricks";
  }

  function pickRange() { return asking && asking.ask.pick ? asking.ask.pick : [0, 0]; }

  function drawHand(moment) {
    var view = moment.view || {};
    var hand = (view.hand || []).slice();
    var legal = asking && asking.ask.cards ? asking.ask.cards : [];
    legal.forEach(function (card) { if (hand.indexOf(card) < 0) hand.push(card); });
    handBox.textContent = "";
    hand.forEach(function (card) {
      var button = cardNode("button", card);
      button.type = "button";
      var ok = legal.indexOf(card) >= 0;
      button.disabled = !ok;
      button.classList.toggle("legal", ok);
      button.setAttribute("aria-pressed", selected.indexOf(card) >= 0 ? "true" : "false");
      button.setAttribute("aria-label", pretty(card) + (ok ? "" : " (not playable now)"));
      button.addEventListener("click", function () { chooseCard(card); });
      handBox.appendChild(button);
    });
  }

  function drawAsk() {
    choicesBox.textContent = "";
    refused.textContent = "";
    fallback.textContent = "";
    confirmButton.hidden = true;
    if (!asking) {
      clock.hidden = true;
      root.dataset.asking = "false";
      return;
    }
    root.dataset.asking = "true";
    root.dataset.kind = asking.ask.kind;
    root.dataset.pick = asking.ask.pick ? asking.ask.pick.join(",") : "";
    var kind = asking.ask.kind.replace(/_/g, " ");
    if (asking.ask.cards) {
      var range = pickRange();
      var wanted = range[0] === range[1] ? (range[0] === 1 ? "one card" : range[0] + " cards")
        : "any of the highlighted cards (" + range[0] + " to " + range[1] + ")";
      asked.textContent = asking.ask.kind === "pass" && PASS_TO[asking.view && asking.view.pass_direction]
        ? "Your turn \u2014 pass " + wanted + " " + PASS_TO[asking.view.pass_direction] + "."
        : "Your turn \u2014 " + kind + ": choose " + wanted + ".";
      if (!(range[0] === 1 && range[1] === 1)) {
        confirmButton.hidden = false;
        updateConfirm();
      }
      if (asking.ask.default_words) fallback.textContent = "If your clock runs out, this is played for you: " + asking.ask.default_words + ".";
    } else {
      asked.textContent = "Your turn \u2014 " + kind + ": choose one.";
      asking.ask.choices.forEach(function (choice, index) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "button choice";
        button.dataset.index = index;
        button.textContent = (index < 9 ? index + 1 + ". " : "") + choice.words;
        button.addEventListener("click", function () { send({ choice: index }); });
        choicesBox.appendChild(button);
      });
    }
    clock.hidden = false;
    tick();
  }

  function updateConfirm() {
    var range = pickRange();
    confirmButton.disabled = !(selected.length >= range[0] && selected.length <= range[1]);
    confirmButton.textContent = "Confirm " + selected.length + " card" + (selected.length === 1 ? "" : "s");
  }

  function chooseCard(card) {
    if (!asking || !asking.ask.cards || asking.ask.cards.indexOf(card) < 0) return;
    var range = pickRange();
    if (range[0] === 1 && range[1] === 1) { send({ cards: [card] }); return; }
    var at = selected.indexOf(card);
    if (at >= 0) selected.splice(at, 1);
    else if (selected.length < range[1]) selected.push(card);
    var button = handBox.querySelector('[data-card="' + card + '"]');
    if (button) button.setAttribute("aria-pressed", selected.indexOf(card) >= 0 ? "true" : "false");
    updateConfirm();
  }

  confirmButton.addEventListener("click", function () {
    if (!confirmButton.disabled) send({ cards: selected.slice() });
  });

  function send(answer) {
    if (!asking) return;
    var asked_ = asking;
    answer.number = asked_.number;
    Array.prototype.forEach.call(root.querySelectorAll("#hand button, #choices button, #confirm"),
      function (b) { b.disabled = true; });
    fetch(answerUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(answer)
    }).then(function (response) {
      return response.json().then(function (body) { return [response.status, body]; });
    }).then(function (result) {
      if (result[0] === 200) {
        sent = asked_.number;
        asking = null;
        selected = [];
        asked.textContent = "Answered. Waiting for the other seats\u2026";
        root.dataset.answered = String(sent);
        drawAsk();
        dimSent(answer.cards || []);
      } else {
        refused.textContent = result[1].error || "refused";
        if (result[0] === 409) { asking = null; drawAsk(); }
        else drawHandAgain();
      }
    }).catch(function () {
      refused.textContent = "The answer did not reach the site: try again.";
      drawHandAgain();
    });
  }

  var lastMoment = null;
  function drawHandAgain() { if (lastMoment) { drawHand(lastMoment); drawAsk(); } }
  function dimSent(cards) {
    // the cards just sent are dimmed until the next moment draws the hand as it is now
    Array.prototype.forEach.call(handBox.querySelectorAll("button"), function (b) {
      b.disabled = true;
      b.classList.remove("legal");
      if (cards.indexOf(b.dataset.card) >= 0) b.classList.add("sent");
    });
  }

  function tick() {
    if (!asking) return;
    var left = Math.max(0, (deadline - Date.now()) / 1000);
    clockText.textContent = left > 0 ? Math.ceil(left) + " s left" : "Time is up: the default is played.";
    clockFill.style.width = (seconds ? Math.max(0, Math.min(100, 100 * left / seconds)) : 0) + "%";
    clock.classList.toggle("low", left < 10);
  }
  setInterval(tick, 250);

  function draw(moment) {
    var fresh = moment.number !== number;
    number = moment.number;
    root.dataset.number = String(number);
    root.dataset.moment = moment.kind;
    lastMoment = moment;
    var waiting = moment.kind === "ask" && !moment.answered && moment.remaining > 0 && sent !== moment.number;
    if (waiting && (!asking || asking.number !== moment.number)) {
      asking = moment;
      selected = [];
      seconds = moment.ask.seconds;
      deadline = Date.now() + moment.remaining * 1000;
      fresh = true;
    } else if (!waiting && asking) {
      asking = null;
      fresh = true;
    }
    if (!fresh) return;
    drawSeats(moment);
    drawTrick(moment);
    drawHand(moment);
    drawAsk();
    if (!asking && moment.kind !== "ask") {
      asked.textContent = moment.kind === "end" ? "The game is over."
        : moment.kind === "out" ? "You are out of this match; it plays on to its end."
        : "Waiting for the other seats\u2026";
    }
  }

  function setStatus(body) {
    root.dataset.status = body.status;
    var badge = document.querySelector("#table-status [data-status]");
    if (badge) {
      badge.dataset.status = body.status;
      badge.className = "status status-" + body.status;
      badge.textContent = body.status;
    }
  }

  function connected() {
    failures = 0;
    if (root.dataset.connection === "lost") refused.textContent = "";
    root.dataset.connection = "ok";
  }
  function lost() {
    root.dataset.connection = "lost";
    refused.textContent = "Connection lost: trying again\u2026";
  }

  // The state's body, from the state endpoint or a stream's moment: the same shape.
  function take(body) {
    if (body.status) setStatus(body);
    if (body.moment) draw(body.moment);
    if (body.replay) {
      finished = true;
      asking = null;
      drawAsk();
      el("done").hidden = false;
      asked.textContent = body.status === "done" ? "The game is over." : "The match ended: " + (body.reason || body.status) + ".";
    }
  }

  function fetchState() {
    return fetch(stateUrl + "?after=" + number, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("status " + response.status);
        return response.json();
      })
      .then(function (body) { connected(); take(body); return true; })
      .catch(function () { failures += 1; lost(); return false; });
  }

  function poll() {
    root.dataset.updates = "polling";
    fetchState().then(function () {
      if (!finished) setTimeout(poll, failures ? Math.min(5000, 500 * failures) : POLL_MS);
    });
  }

  // A live event of the match (cut for this seat): a card played, or a trick taken, in the
  // hand the page shows, drawn before the seat's next moment says it.
  function momentKey(moment) {
    return moment && moment.hand !== undefined ? (moment.game || 0) + ":" + moment.hand : null;
  }
  function liveEvent(event) {
    if (event.kind === "hand" && event.hand) { liveHand = (event.game || 0) + ":" + event.hand.number; return; }
    if (event.kind !== "play" && event.kind !== "trick") return;
    if (!lastMoment || liveHand === null || momentKey(lastMoment) !== liveHand) return;
    var shown = Number(trickBox.dataset.trick), done = trickBox.dataset.done === "true";
    if (done && event.trick === shown + 1) {  // the next trick begins on the table
      trickBox.textContent = "";
      trickBox.dataset.trick = String(event.trick);
      trickBox.dataset.done = "false";
      el("trick-caption").textContent = "Trick " + (event.trick + 1);
    } else if (done || event.trick !== shown) {
      return;
    }
    var plays = event.kind === "play" ? [event.play] : event.record.plays;
    plays.forEach(function (play) {
      if (!play || !play.card || trickBox.querySelector('[data-card="' + play.card + '"]')) return;
      var li = document.createElement("li");
      li.className = "t-play" + (play.seat === mySeat ? " mine" : "");
      li.dataset.seat = play.seat;
      li.dataset.live = "true";
      var who = document.createElement("span");
      who.className = "who";
      who.textContent = play.seat === mySeat ? "you" : seatName(play.seat);
      li.appendChild(who);
      li.appendChild(cardNode("span", play.card));
      trickBox.appendChild(li);
      liveCards += 1;
      root.dataset.liveCards = String(liveCards);
    });
    if (event.kind === "trick") trickBox.dataset.done = "true";
    if (event.kind === "trick" && event.record.winner >= 0) {
      el("trick-caption").textContent = "Trick " + (event.trick + 1) + " won by " +
        (event.record.winner === mySeat ? "you" : seatName(event.record.winner));
    }
  }

  // Follow the table's stream from the moment drawn; refused (no stream place, an old
  // browser), poll the state instead.
  function follow() {
    if (!window.EventSource || !liveUrl) { poll(); return; }
    root.dataset.updates = "stream";
    live = new EventSource(liveUrl + "?after=0:" + number);
    live.onopen = connected;
    live.onmessage = function (message) { JSON.parse(message.data).forEach(liveEvent); };
    live.addEventListener("moment", function (message) { take(JSON.parse(message.data)); });
    live.addEventListener("end", function () {
      live.close();
      live = null;
      fetchState().then(function () { if (!finished) poll(); });
    });
    live.onerror = function () {
      if (live && live.readyState === EventSource.CLOSED) {
        live = null;
        poll();
      } else {
        lost();
      }
    };
  }

  document.addEventListener("keydown", function (event) {
    if (!asking || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    var cards = Array.prototype.slice.call(handBox.querySelectorAll("button.legal:not([disabled])"));
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      if (!cards.length) return;
      var at = cards.indexOf(document.activeElement);
      var step = event.key === "ArrowRight" ? 1 : -1;
      var next = at < 0 ? (step > 0 ? 0 : cards.length - 1) : (at + step + cards.length) % cards.length;
      cards[next].focus();
      event.preventDefault();
    } else if (/^[1-9]$/.test(event.key) && asking.ask.choices) {
      var index = Number(event.key) - 1;
      if (index < asking.ask.choices.length) { send({ choice: index }); event.preventDefault(); }
    } else if ((event.key === "c" || event.key === "C") && !confirmButton.hidden && !confirmButton.disabled) {
      send({ cards: selected.slice() });
      event.preventDefault();
    }
  });

  fetchState().then(function (ok) { if (finished) return; if (ok) follow(); else poll(); });
})();
