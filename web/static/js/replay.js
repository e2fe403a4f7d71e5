// Hearts Arena replay viewer: draws a replay document (docs/replay.md) card by card.
//
// No build step and no dependencies. The viewer fetches the match's replay JSON and
// walks a timeline of steps: for each hand, the deal, the pass (when there is one), then
// every card of every trick. Everything shown at a step is recomputed from the replay,
// so any step can be reached directly: by the buttons, the keyboard, the scrubber, or a
// deep link in the URL: #g=GAME&h=HAND&t=TRICK&c=CARD&view=SEAT (g, h and t from 1;
// t=0 is the deal (c=0) and the pass (c=1); view is "all" or a seat number).
//
// One seat's view shows only what that seat knew at that moment: its own cards, the
// cards it passed and (after the exchange) received, and the cards played; the other
// hands are drawn as card backs, and their passes are not shown at all. That seat sits
// at the bottom of the table, and each card of a trick lies in front of its player.
//
// Bot notes (a decision's optional "note") are shown beside the decisions of the step,
// always as text (textContent), never as HTML: they are the bot's own words.
//
// The same viewer runs in three places: the match page (data-replay-url: the replay is
// fetched), a file written by `arena replay view` (data-replay-inline: the id of a
// <script type="application/json"> holding it), and a match being played
// (data-live-url: server-sent events, docs/api.md; the page reloads into the full replay
// when the match ends). A live stream hides every card not yet played as "XX".
"use strict";

(function () {
  const root = document.getElementById("viewer");
  if (!root) return;

  const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], S: ["♠", "spades"], H: ["♥", "hearts"] };
  const RANKS = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
    T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
  };
  const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
  const HIDDEN = "XX"; // a card the live stream does not show yet (drawn as a card back)
  // Where each seat sits, clockwise from the bottom (the viewing seat, else seat 0):
  // b(ottom), l(eft), t(op), r(ight) and the corners; the trick's cards use the same names.
  const POSITIONS = {
    2: ["b", "t"],
    3: ["b", "l", "r"],
    4: ["b", "l", "t", "r"],
    5: ["b", "l", "tl", "tr", "r"],
    6: ["b", "l", "tl", "t", "tr", "r"],
    7: ["b", "bl", "l", "tl", "tr", "r", "br"],
    8: ["b", "bl", "l", "tl", "t", "tr", "r", "br"],
  };
  const BASE_DELAY_MS = 900;

  const seatsInfo = JSON.parse(root.dataset.seats || "[]");
  let replay = null;
  let steps = [];
  let index = 0;
  let view = "all";
  let speed = 1;
  let timer = null;
  const ui = {};

  // -- helpers -----------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("data-")) node.setAttribute(key, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // 004 'Joker Hearts': rules with jokers add up to three, "JK1" "JK2" "JK3".
  const isJoker = (code) => /^JK[1-3]$/.test(code);

  function cardName(code) {
    if (isJoker(code)) return `joker ${code[2]}`;
    const rank = RANKS[code[0]];
    const suit = SUITS[code[1]];
    return rank && suit ? `${rank} of ${suit[1]}` : code;
  }

  // A card in a line of text, as the table draws it: "10♥", "Q♠" (a joker by its name).
  function cardText(code) {
    if (isJoker(code)) return cardName(code);
    const suit = SUITS[code[1]];
    return suit ? `${code[0] === "T" ? "10" : code[0]}${suit[0]}` : code;
  }

  function card(code, extra) {
    if (code === HIDDEN) return back();
    if (isJoker(code)) {
      return el(
        "span",
        { class: `card joker ${extra || ""}`.trim(), role: "img", "aria-label": cardName(code),
          title: cardName(code), "data-card": code },
        el("span", { class: "pip", "aria-hidden": "true", text: "🃏" }),
        code[2],
      );
    }
    const suit = SUITS[code[1]] || ["?", "?"];
    const rank = code[0] === "T" ? "10" : code[0];
    return el(
      "span",
      { class: `card suit-${code[1].toLowerCase()} ${extra || ""}`.trim(), role: "img",
        "aria-label": cardName(code), title: cardName(code), "data-card": code },
      rank,
      el("span", { class: "pip", "aria-hidden": "true", text: suit[0] }),
    );
  }

  function back() {
    return el("span", { class: "card back", "aria-hidden": "true" }, "·");
  }

  const ORDER = "23456789TJQKA";
  const SUIT_ORDER = "CDSH";
  // Card order (the engine's index order): the suits, then the jokers JK1..JK3.
  const cardIndex = (c) => (isJoker(c) ? 52 + Number(c[2]) : SUIT_ORDER.indexOf(c[1]) * 13 + ORDER.indexOf(c[0]));
  function sortCards(cards) {
    return [...cards].sort((a, b) => cardIndex(a) - cardIndex(b));
  }

  function labelOf(entrant) {
    const info = seatsInfo.find((s) => s.seat === entrant);
    if (info) return info.label;
    const e = (replay.entrants || [])[entrant];
    return e ? e.name : `entrant ${entrant}`;
  }

  // -- the timeline --------------------------------------------------------------------

  function hasPass(hand) {
    return (hand.passes || []).some((p) => (p.cards || []).length > 0);
  }

  // A hand being played live whose pass is still to come: its direction is known from the
  // deal, its cards only once every seat has chosen (the "passes" event).
  function passPending(hand) {
    return !hasPass(hand) && !Array.isArray(hand.totals) && !hand.tricks.length &&
      Boolean(hand.pass_direction) && hand.pass_direction !== "hold";
  }

  // How many tricks the hand has: a finished record says; a hand still being played says
  // when every trick takes one card from each seat (its fewest dealt cards), else null
  // (Domino Hearts draws, Enfle stops early, Four-Penny adds multi-rounds).
  function tricksInHand(hand) {
    if (Array.isArray(hand.totals)) return hand.tricks.length;
    const rules = replay.rules || {};
    if (rules.domino || rules.enfle || (rules.penny_play && rules.penny_play !== "none")) return null;
    if (!hand.deal || !hand.deal.length) return null;
    return Math.min(...hand.deal.map((cards) => cards.length));
  }

  const isLive = () => root.dataset.live === "true";

  // Four-Penny Hearts (003): after the opening tricks, each multi-round is one step group,
  // its plays (each with its penny) in turn; its pennies are drawn side by side. rounds()
  // lists a hand's tricks, then its multi-rounds (marked `multi`), in play order.
  let roundsOf = new WeakMap(); // renewed whenever a live match adds to its hands

  function rounds(hand) {
    if (!roundsOf.has(hand)) {
      const multi = (hand.multi_rounds || []).map((m) => ({ ...m, multi: true }));
      roundsOf.set(hand, [...hand.tricks, ...multi]);
    }
    return roundsOf.get(hand);
  }

  function buildSteps() {
    const list = [];
    replay.games.forEach((game, g) => {
      game.hands.forEach((hand, h) => {
        list.push({ g, h, t: 0, c: 0 });
        if (hasPass(hand) || hand.reveals || hand.auction || beforePlay(hand).length) list.push({ g, h, t: 0, c: 1 });
        rounds(hand).forEach((trick, t) => {
          // Live: a trick whose cards are all down but whose result the server has not sent
          // yet (the "trick" event) waits for it: a finished trick is shown with its winner.
          const shown = trick.partial && !trick.multi && trick.plays.length >= playOrder(hand, trick, game.seating.length).length
            ? trick.plays.length - 1 : trick.plays.length;
          for (let c = 0; c < shown; c++) list.push({ g, h, t: t + 1, c: c + 1 });
        });
      });
    });
    return list;
  }

  function findStep(g, h, t, c) {
    let best = -1;
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i];
      if (s.g === g && s.h === h) {
        if (best < 0) best = i;
        if (s.t < t || (s.t === t && s.c <= c)) best = i;
      }
    }
    if (best >= 0) return best;
    // No such hand: the first step of that game, else of the match.
    const first = steps.findIndex((s) => s.g === g);
    return first >= 0 ? first : 0;
  }

  // 002 'Alternatives to the "Kitty" in 3 or 5 player games': "Deal out the extra cards to
  // players and allow the player with them to play an additional card on the first trick."
  // (rules.extra_cards_first_trick). The seats dealt one card more than the others hold
  // them; the first trick goes round once from its leader, then each of those seats plays
  // its extra card to the same trick, in play order from the leader (our reading: 002 does
  // not say when; arena.engine.hand.play_order). The deal says who: no extra field needed.
  function extraSeats(hand) {
    if (!(replay.rules && replay.rules.extra_cards_first_trick) || !hand.deal || !hand.deal.length) return [];
    const fewest = Math.min(...hand.deal.map((cards) => cards.length));
    return hand.deal.flatMap((cards, seat) => (cards.length > fewest ? [seat] : []));
  }

  // Who plays a trick's cards, in order: round the table from the leader, then (the first
  // trick under 002's extra cards) each extra-card seat again in that order.
  function playOrder(hand, record, n) {
    const round = Array.from({ length: n }, (_, i) => (record.leader + i) % n);
    if (record.multi || record !== hand.tricks[0]) return round;
    const extra = extraSeats(hand);
    return [...round, ...round.filter((seat) => extra.includes(seat))];
  }

  // The trick's winning card: the winner's play, or, when the winner played two cards to it
  // (002's extra cards), the higher of its cards in the suit led (the other did not win).
  function winningPlay(record) {
    const mine = record.plays.filter((play) => play.seat === record.winner);
    if (mine.length < 2) return mine[0] || null;
    const led = record.plays[0].card[1];
    const following = mine.filter((play) => !isJoker(play.card) && play.card[1] === led);
    if (!following.length) return mine[0];
    return following.reduce((best, play) => (ORDER.indexOf(play.card[0]) > ORDER.indexOf(best.card[0]) ? play : best));
  }

  // -- the state at a step --------------------------------------------------------------

  // Rickety Kate: a pass whose Q♠ its receiver refused went with the replacement in the
  // Q♠'s place (the record keeps the pass as given, then the refusal and the replacement).
  function replacementOf(hand, seat) {
    const found = (hand.decisions || []).find((d) => d.kind === "replace_pass" && d.seat === seat);
    return found ? found.value : null;
  }

  function passAsExchanged(hand, pass) {
    const instead = replacementOf(hand, pass.seat);
    return (pass.cards || []).map((c) => (instead !== null && c === "QS" ? instead : c));
  }

  function stateAt(step) {
    const game = replay.games[step.g];
    const hand = game.hands[step.h];
    const n = game.seating.length;
    const passed = step.t > 0 || step.c === 1;
    // Each seat's cards as a list: with two packs (Cancellation Hearts) a card may be held
    // twice, and playing or passing it takes one copy away.
    const holding = hand.deal.map((cards) => [...cards]);
    const gave = Array.from({ length: n }, () => []);
    const got = Array.from({ length: n }, () => []);
    for (const pass of hand.passes || []) gave[pass.seat] = passAsExchanged(hand, pass);
    if (hand.received) hand.received.forEach((cards, seat) => (got[seat] = cards || []));
    if (passed) {
      gave.forEach((cards, seat) => cards.forEach((c) => removeOne(holding[seat], c)));
      got.forEach((cards, seat) => cards.forEach((c) => holding[seat].push(c)));
    }
    const values = handValues(hand);
    const takenCards = Array.from({ length: n }, () => []);
    let waiting = []; // Cancellation Hearts: the cards of tricks nobody won, for the next winner
    let trick = null;
    let trickDone = false;
    const played = rounds(hand);
    for (let t = 0; t < step.t; t++) {
      const record = played[t];
      const count = t === step.t - 1 ? step.c : record.plays.length;
      for (let c = 0; c < count; c++) {
        const play = record.plays[c];
        // Domino Hearts (000): the cards a seat drew from the stock just before playing.
        for (const drawn of play.drew || []) holding[play.seat].push(drawn);
        removeOne(holding[play.seat], play.card); // one copy (Cancellation Hearts: maybe two)
      }
      // The seat to play has drawn already (the arena draws as its turn comes).
      const next = count < record.plays.length ? record.plays[count] : null;
      if (t === step.t - 1 && next) for (const drawn of next.drew || []) holding[next.seat].push(drawn);
      const complete = count === record.plays.length && !record.partial;
      if (complete && record.multi) {
        // Four-Penny Hearts: each penny's cards to that penny's winner.
        for (const play of record.plays) takenCards[record.winners[play.penny]].push(play.card);
      } else if (complete && record.pickup) {
        // Enfle (004): the next seat could not follow; it took up every trick won and this
        // trick's cards into its hand, so nothing lies on the table any more.
        holding[record.pickup.seat].push(...record.pickup.cards);
        takenCards.forEach((cards) => cards.splice(0));
        waiting = [];
      } else if (complete) {
        waiting.push(...record.plays.map((play) => play.card));
        if (record.winner >= 0) {
          takenCards[record.winner].push(...waiting);
          waiting = [];
        }
      }
      if (t === step.t - 1) {
        trick = { record, count };
        trickDone = complete;
      }
    }
    const taken = takenCards.map((cards) => scoreTaken(cards, values));
    // A hand being played live has no totals until it ends.
    const lastHandStep = step.t === played.length && trickDone && Array.isArray(hand.totals);
    let toPlay = null;
    if (step.t === 0) toPlay = played.length ? played[0].leader : null;
    else if (!trickDone) {
      const next = trick.record.plays[trick.count];
      // Live: the trick's next card is not played yet; the seat after the last one plays,
      // except after the round of 002's first trick: then the trick's play order says.
      const order = playOrder(hand, trick.record, n);
      const extra = trick.count >= n && trick.count < order.length;
      toPlay = next ? next.seat : extra ? order[trick.count] : (trick.record.plays[trick.count - 1].seat + 1) % n;
    } else if (step.t < played.length) toPlay = played[step.t].leader;
    else if (!lastHandStep && trick.record.winner >= 0) toPlay = trick.record.winner;
    const previous = step.h > 0 ? game.hands[step.h - 1] : null;
    const before = previous ? previous.totals : new Array(n).fill(0);
    const potBefore = previous && typeof previous.pot === "number" ? previous.pot : 0;
    const startLives = (replay.rules && replay.rules.lives) || 0;
    const livesBefore = previous && previous.lives ? previous.lives : new Array(n).fill(startLives);
    const stock = stockLeft(hand, n, step);
    return { game, hand, n, passed, holding, gave, got, taken, trick, trickDone, lastHandStep, toPlay, before, potBefore, livesBefore, stock };
  }

  // Domino Hearts (000): six cards each, the rest a stock that void seats draw from; null
  // in every other game.
  function isDomino() {
    return Boolean(replay.rules && replay.rules.domino);
  }

  function stockLeft(hand, n, step) {
    if (!isDomino()) return null;
    let left = 52 - 6 * n;
    hand.tricks.forEach((record, t) => {
      record.plays.forEach((play, c) => {
        // A play's draws are made when its turn comes: before the step that shows it.
        const drawnBy = t < step.t - 1 || (t === step.t - 1 && c <= step.c);
        if (drawnBy) left -= (play.drew || []).length;
      });
    });
    if (step.t === hand.tricks.length && hand.kept) left = 0;
    return left;
  }

  // A live stream's hidden hands are HIDDEN cards: a card played from one takes a HIDDEN.
  function removeOne(cards, c) {
    let at = cards.indexOf(c);
    if (at < 0) at = cards.indexOf(HIDDEN);
    if (at >= 0) cards.splice(at, 1);
  }

  // Heartless (003): each hand's scoring suit is revealed after the pass; its cards are
  // worth a point and its queen 13 (hearts: QS, spades: QD, diamonds: QC, clubs: QH).
  // Auction Hearts (000): the declarer names the suit; its cards are worth a point, no queen.
  const SCORING_QUEENS = { H: "QS", S: "QD", D: "QC", C: "QH" };

  function handValues(hand) {
    const suit = hand.scoring_suit;
    if (!suit) return (replay.rules && replay.rules.card_values) || {};
    const values = {};
    const inPlay = [...hand.deal.flat(), ...(hand.kitty || [])];
    for (const c of inPlay) if (c.endsWith(suit)) values[c] = 1;
    if (!hand.auction && inPlay.includes(SCORING_QUEENS[suit])) values[SCORING_QUEENS[suit]] = 13;
    return values;
  }

  // Auction Hearts: the bids in turn, then who names which suit, for how many chips.
  function drawAuction(hand) {
    const auction = hand.auction;
    const box = el("div", { class: "passes auction", "data-declarer": String(auction.declarer) });
    if (auction.bids.length) {
      const line = el("div", {}, "bids: ");
      auction.bids.forEach((bid, i) => {
        if (i) line.append(" · ");
        line.append(`seat ${bid.seat}: `, el("strong", {}, bid.bid === null ? "pass" : String(bid.bid)));
        if (bid.fault) line.append(" ", el("span", { class: "badge danger" }, bid.fault));
      });
      box.append(line);
    }
    const how = auction.standing ? "again, without bidding" : `for ${auction.bid} chips`;
    const naming = el("div", {}, `seat ${auction.declarer} names `, el("strong", {}, SUITS[auction.naming.suit][1]), ` to avoid, ${how}`);
    if (auction.naming.fault) naming.append(" ", el("span", { class: "badge danger" }, auction.naming.fault));
    box.append(naming);
    return box;
  }

  // Points for the cards a seat has taken so far. Royal Hearts (004): the QH doubles
  // its taker's hearts, the QC cancels the QS for a seat holding both, never below 0.
  function scoreTaken(cards, values) {
    const sum = (list) => list.reduce((total, c) => total + (values[c] || 0), 0);
    if (!(replay.rules && replay.rules.royal_queens)) return sum(cards);
    const hearts = cards.filter((c) => c.endsWith("H"));
    const others = cards.filter((c) => !c.endsWith("H") && c !== "QS");
    let total = sum(hearts) * (cards.includes("QH") ? 2 : 1) + sum(others);
    if (cards.includes("QS") && !cards.includes("QC")) total += values.QS || 0;
    return Math.max(0, total);
  }

  // A decision kind replay v1 has no place of its own for (`decisions`, each with its
  // kind and value): listed as it was answered, so a new kind shows without a branch here.
  function valueText(value) {
    return Array.isArray(value) ? value.join(" ") : value === null ? "none" : String(value);
  }

  // What a seat did: the sentence the server wrote for the decision (`words`, from the
  // kind's room in the engine: arena.match.sentences); this viewer only draws it. A record
  // without one (a kind the server had no room for) is shown as its kind and value.
  function otherText(other) {
    return other.words || `seat ${other.seat} ${other.kind}: ${valueText(other.value)}`;
  }

  // The shooter's choice is made after the last trick, so it is shown there, not at the pass.
  const beforePlay = (hand) => (hand.decisions || []).filter((other) => other.kind !== "moon_choice");
  const afterPlay = (hand) => (hand.decisions || []).filter((other) => other.kind === "moon_choice");

  function drawOtherDecisions(hand, others = beforePlay(hand)) {
    const box = el("div", { class: "passes decisions" });
    for (const other of others) {
      const line = el("div", { "data-kind": other.kind }, otherText(other));
      if (other.fault) line.append(" ", el("span", { class: "badge danger" }, other.fault));
      if (hasNote(other)) line.classList.add("noted");
      box.append(line);
    }
    return box;
  }

  function drawReveals(hand) {
    const line = el("div", { class: "passes reveals", "data-scoring-suit": hand.scoring_suit }, "face down: ");
    for (const shown of hand.reveals) {
      line.append(`${shown.seat} `, card(shown.card), " ");
      if (shown.fault) line.append(el("span", { class: "badge danger" }, shown.fault), " ");
    }
    line.append(el("strong", {}, `→ ${SUITS[hand.scoring_suit][1]} score`));
    return line;
  }

  // With a chip settlement (docs/rules.md "Chips") the totals are chips paid in net, so
  // points taken during a hand are shown beside them, never added to them.
  function chips() {
    const settlement = replay.rules && replay.rules.settlement;
    return Boolean(settlement) && settlement !== "points";
  }

  function handPoints(state, seat) {
    if (!state.lastHandStep) return state.taken[seat];
    return chips() ? state.hand.penalty_points[seat] : state.hand.points[seat];
  }

  function runningTotal(state, seat) {
    if (state.lastHandStep) return state.hand.totals[seat];
    return chips() ? state.before[seat] : state.before[seat] + state.taken[seat];
  }

  // Danger Hearts (004): lives left, shown beside the scores; a hand of
  // rules.danger_points or more costs one, and lives rank before points.
  function hasLives() {
    return Boolean(replay.rules && replay.rules.lives);
  }

  function livesLeft(state, seat) {
    return state.lastHandStep ? state.hand.lives[seat] : state.livesBefore[seat];
  }

  function potText(state) {
    const pot = state.lastHandStep ? state.hand.pot : state.potBefore;
    return `pot: ${pot} chip${pot === 1 ? "" : "s"}`;
  }

  // -- drawing --------------------------------------------------------------------------

  // The seat drawn at the bottom: the viewing seat, else seat 0.
  function positionOf(seat, n, mine) {
    const names = POSITIONS[n];
    if (!names) return "auto"; // more seats than places: the grid flows them
    const bottom = mine === null ? 0 : mine;
    return names[(seat - bottom + n) % n];
  }

  function viewerSeat(game) {
    if (view === "all") return null;
    const seat = game.seating.indexOf(Number(view));
    return seat >= 0 ? seat : null;
  }

  function kittyVisible(state, mine) {
    const rule = (replay.rules && replay.rules.kitty_visibility) || "hidden";
    if (mine === null || rule === "face_up") return true;
    const afterFirst = state.trick && (state.trick.record === state.hand.tricks[0] ? state.trickDone : true);
    if (rule === "after_first_trick") return Boolean(afterFirst);
    if (rule === "taker_only") return state.lastHandStep && state.hand.kitty_owner === mine;
    return false;
  }

  function drawSeat(state, seat, mine) {
    const entrant = state.game.seating[seat];
    const faceUp = mine === null || mine === seat;
    const cards = sortCards([...state.holding[seat]]);
    const received = new Set(state.passed ? state.got[seat] : []);
    const hand = el("div", { class: "hand", "aria-label": faceUp ? "cards held" : `${cards.length} cards, hidden` });
    for (const c of cards) hand.append(faceUp && c !== HIDDEN ? card(c, received.has(c) ? "received" : "") : back());
    const total = runningTotal(state, seat);
    const meta = el("div", { class: "meta" });
    meta.append(`this hand: ${handPoints(state, seat)}`);
    if (chips() && state.lastHandStep) meta.append(` · pays ${state.hand.points[seat]} chips`);
    if (state.lastHandStep && state.hand.moon === seat) meta.append(" · shot the moon ☾");
    if (isDomino() && state.lastHandStep && state.hand.kept && state.hand.kept.seat === seat) {
      meta.append(el("br"), `keeps ${state.hand.kept.cards.length}: `);
      for (const c of state.hand.kept.cards) meta.append(card(c, "small"), " ");
    } else if (isDomino() && state.passed && !state.lastHandStep && !cards.length) {
      meta.append(" · out");
    }
    // 002's extra cards: the seat dealt one more, until it has played it to the first trick.
    const first = state.hand.tricks[0];
    const inFirst = !state.trick ? 0 : state.trick.record === first ? state.trick.count : Infinity;
    const played = first ? first.plays.slice(0, inFirst).filter((play) => play.seat === seat).length : 0;
    if (played < 2 && extraSeats(state.hand).includes(seat)) meta.append(" · holds an extra card");
    if (faceUp && state.gave[seat].length && (state.passed || mine === null)) {
      meta.append(el("br"), state.passed ? "passed " : "will pass ");
      for (const c of state.gave[seat]) meta.append(card(c, "small"), " ");
    }
    const classes = ["seat", `seat-${seat}`, `pos-${positionOf(seat, state.n, mine)}`];
    if (state.toPlay === seat) classes.push("to-play");
    if (mine === seat) classes.push("viewing");
    return el(
      "section",
      { class: classes.join(" "), "data-seat": seat, "data-position": positionOf(seat, state.n, mine),
        "data-face-up": faceUp ? "true" : "false", "aria-label": `seat ${seat}` },
      el("h3", {}, el("span", {}, `${seat} · ${labelOf(entrant)}`), el("span", { class: "score", title: chips() ? "chips paid in net" : "running total" }, total)),
      hand,
      meta,
    );
  }

  function drawCentre(state, mine, step) {
    const centre = el("div", { class: "trick" });
    if (step.t === 0) {
      const call = state.hand.call;
      // 003's split call: each card its own way ("one card to the right and two to the left").
      // 004 'Passing cards': the dealer may call how many cards too.
      const counted = call && call.count ? `${call.direction}, ${call.count} card${call.count === 1 ? "" : "s"}` : call && call.direction;
      const called = call && call.split ? `split: ${call.split.join(", ")}` : counted;
      const dir = call ? `${called} (the dealer's call)` : state.hand.pass_direction;
      const exchanged = hasPass(state.hand)
        ? `Pass ${dir}: cards exchanged`
        : state.hand.auction ? "The auction"
        : state.hand.reveals ? "Cards laid face down"
        : "Before the first trick"; // the pledges, Gong Zhu's exposures
      const passing = hasPass(state.hand) || passPending(state.hand);
      const dealt = passing ? `Deal · pass ${dir}` : "Deal";
      centre.append(el("div", { class: "caption" }, step.c === 0 ? dealt : exchanged));
      if (state.hand.kitty && state.hand.kitty.length) {
        const widow = replay.rules && replay.rules.cancellation; // 000: "a widow"
        const k = el("div", { class: "passes" }, widow ? "widow: " : "kitty: ");
        for (const c of state.hand.kitty) k.append(kittyVisible(state, mine) ? card(c) : back(), " ");
        centre.append(k);
      }
      if (step.c === 0 && !passing) centre.append(el("div", { class: "passes" }, "no pass this hand"));
      if (step.c === 0 && passPending(state.hand)) centre.append(el("div", { class: "passes pending" }, "the seats are choosing their cards"));
      if (step.c === 1 && state.hand.reveals) centre.append(drawReveals(state.hand));
      if (step.c === 1 && state.hand.auction) centre.append(drawAuction(state.hand));
      if (step.c === 1 && beforePlay(state.hand).length) centre.append(drawOtherDecisions(state.hand));
      if (mine === null && hasPass(state.hand)) {
        const list = el("div", { class: "passes" });
        for (const pass of state.hand.passes) {
          const line = el("div", {}, `${pass.seat} → `);
          for (const c of passAsExchanged(state.hand, pass)) line.append(card(c), " ");
          if (replacementOf(state.hand, pass.seat) !== null) line.append("(Q♠ refused) ");
          if (pass.fault) line.append(el("span", { class: "badge danger" }, pass.fault));
          if (typeof pass.ms === "number") line.append(` ${pass.ms.toFixed(1)} ms`);
          if (hasNote(pass)) line.classList.add("noted");
          list.append(line);
        }
        centre.append(list);
      }
      return centre;
    }
    const { record, count } = state.trick;
    if (record.multi) return drawMultiRound(state, step, centre);
    const total = tricksInHand(state.hand);
    centre.append(el("div", { class: "caption" }, `Trick ${step.t}${total === null ? "" : ` of ${total}`}`));
    if (state.stock !== null) centre.append(el("div", { class: "passes stock" }, `stock: ${state.stock} cards`));
    // 002's extra cards: who still holds one for this trick, said under the caption.
    const extra = record === state.hand.tricks[0] ? extraSeats(state.hand) : [];
    if (extra.length) {
      const word = extra.length === 1 ? "an extra card" : "extra cards";
      const verb = state.trickDone ? "played" : extra.length === 1 ? "plays" : "play";
      centre.append(el("div", { class: "passes extra-cards" }, `seat${extra.length === 1 ? "" : "s"} ${extra.join(", ")} ${verb} ${word} after the round`));
    }
    const plays = el("div", { class: "plays compass", "aria-label": "the trick" });
    const won = state.trickDone ? winningPlay(record) : null;
    const spots = new Map(); // seat -> its first play's element (a second card goes beside it)
    for (let c = 0; c < count; c++) {
      const play = record.plays[c];
      const again = spots.has(play.seat); // 002: the seat's extra card, after the round
      const classes = ["play", `pos-${positionOf(play.seat, state.n, mine)}`];
      if (again) classes.push("extra");
      if (play === won) classes.push("winner");
      if (play.fault || play.auto) classes.push("fault");
      const note = [`seat ${play.seat}`];
      if (typeof play.ms === "number") note.push(`${play.ms < 10 ? play.ms.toFixed(2) : play.ms.toFixed(0)} ms`);
      if (play.fault) note.push(play.fault);
      else if (play.auto) note.push("auto");
      if (play.drew && play.drew.length) note.push(`drew ${play.drew.length}`);
      if (hasNote(play)) classes.push("noted");
      const tag = again ? el("span", { class: "extra-label", text: "extra card" }) : null;
      const node = el("div", { class: classes.join(" "), "data-play-seat": play.seat, "data-play-index": c, "data-position": positionOf(play.seat, state.n, mine) }, tag, card(play.card), note.join(" · "));
      if (!again) {
        spots.set(play.seat, node);
        plays.append(node);
        continue;
      }
      // Both cards in the seat's place on the felt, side by side, the extra one labelled.
      const first = spots.get(play.seat);
      let pair = first.parentElement;
      if (!pair.classList.contains("play-pair")) {
        pair = el("div", { class: `play-pair pos-${positionOf(play.seat, state.n, mine)}`, "data-pair-seat": play.seat });
        first.replaceWith(pair);
        pair.append(first);
      }
      pair.append(node);
    }
    centre.append(plays);
    if (state.trickDone && record.winner >= 0) centre.append(el("div", {}, `won by seat ${record.winner}`));
    else if (state.trickDone && record.pickup) {
      // Enfle (004): "if he cannot he may not discard, but must take up all tricks already won".
      const up = record.pickup;
      centre.append(el("div", { class: "unwon pickup" }, `seat ${up.seat} cannot follow and takes up ${up.cards.length} card${up.cards.length === 1 ? "" : "s"}: ${up.cards.join(" ")}`));
    } else if (state.trickDone && "went_out" in state.hand) {
      // Enfle: the hand ended the moment a seat played its last card.
      const out = state.hand.went_out;
      centre.append(el("div", { class: "unwon" }, out === null ? "the cap on tricks: the hand stops" : `seat ${out} is out of cards and wins`));
    } else if (state.trickDone) {
      // Cancellation Hearts: every card of the suit led met its twin, so nobody won.
      const last = record === state.hand.tricks[state.hand.tricks.length - 1];
      const fate = last ? "discarded with any tricks set aside" : "set aside for the next trick's winner";
      centre.append(el("div", { class: "unwon" }, `nobody wins: twins cancel; ${fate}`));
    }
    // The decisions made after the last trick (004's shooter's choice) show with it.
    const lastTrick = record === state.hand.tricks[state.hand.tricks.length - 1];
    if (state.trickDone && lastTrick && afterPlay(state.hand).length) centre.append(drawOtherDecisions(state.hand, afterPlay(state.hand)));
    return centre;
  }

  function playNote(play) {
    const note = [`seat ${play.seat}`];
    if (typeof play.ms === "number") note.push(`${play.ms < 10 ? play.ms.toFixed(2) : play.ms.toFixed(0)} ms`);
    if (play.fault) note.push(play.fault);
    else if (play.auto) note.push("auto");
    return note.join(" · ");
  }

  // Four-Penny Hearts: the multi-round's pennies side by side, each a column of its cards
  // in play order (the first is the penny's lead), its winner marked once all are played.
  function drawMultiRound(state, step, centre) {
    const { record, count } = state.trick;
    const hand = state.hand;
    const number = step.t - hand.tricks.length;
    centre.append(el("div", { class: "caption" }, `Multi-round ${number} of ${hand.multi_rounds.length} · seat ${record.leader} leads`));
    const columns = record.winners.map((_, p) => el("div", { class: "penny", "data-penny": p }, el("div", { class: "penny-name" }, `penny ${p}`)));
    for (let c = 0; c < count; c++) {
      const play = record.plays[c];
      const classes = ["play"];
      if (state.trickDone && play.seat === record.winners[play.penny]) classes.push("winner");
      if (play.fault || play.auto) classes.push("fault");
      if (hasNote(play)) classes.push("noted");
      columns[play.penny].append(el("div", { class: classes.join(" "), "data-play-seat": play.seat }, card(play.card), playNote(play)));
    }
    if (state.trickDone) columns.forEach((column, p) => column.append(el("div", { class: "penny-winner" }, `won by seat ${record.winners[p]}`)));
    centre.append(el("div", { class: "pennies", "aria-label": "pennies" }, ...columns));
    return centre;
  }

  function describe(step) {
    const game = replay.games[step.g];
    const hand = game.hands[step.h];
    if (step.t === 0) return step.c === 0 ? "the deal" : hand.auction ? "the auction" : "the pass";
    const record = rounds(hand)[step.t - 1];
    const play = record.plays[step.c - 1];
    const where = record.multi
      ? ` to penny ${play.penny}`
      : record.plays.slice(0, step.c - 1).some((p) => p.seat === play.seat) ? ", its extra card" : "";
    return `seat ${play.seat} plays the ${cardName(play.card)}${where}`;
  }

  function positionText(step) {
    const games = replay.games.length > 1 ? `Game ${step.g + 1} · ` : "";
    const hands = replay.games[step.g].hands.length;
    const hand = replay.games[step.g].hands[step.h];
    // A hand without a pass (Gong Zhu's exposures, a hold hand's reveals) is "before play".
    const before = hand.auction ? "auction" : hasPass(hand) ? "pass" : "before play";
    const multi = step.t > hand.tricks.length;
    const total = tricksInHand(hand);
    const of = total === null ? "" : ` of ${total}`;
    const where = step.t === 0 ? (step.c === 0 ? "deal" : before) : multi ? `multi-round ${step.t - hand.tricks.length} · card ${step.c}` : `trick ${step.t}${of} · card ${step.c}`;
    // Live, the match's length is not known: the hands played so far.
    return `${games}Hand ${step.h + 1} of ${hands}${isLive() ? " so far" : ""} · ${where}`;
  }

  function drawScores(state) {
    const game = state.game;
    const table = el("table", { class: "scores", "aria-label": "scores" });
    const head = el("tr", {}, el("th", { scope: "col", text: "Seat" }), el("th", { scope: "col", text: "Hand" }));
    if (chips()) head.append(el("th", { scope: "col", text: "Chips" }));
    if (hasLives()) head.append(el("th", { scope: "col", text: "Lives" }));
    head.append(el("th", { scope: "col", text: chips() ? "Paid in all" : "Total" }));
    table.append(el("thead", {}, head));
    const body = el("tbody");
    for (let seat = 0; seat < state.n; seat++) {
      const row = el("tr", {}, el("td", { text: `${seat} ${labelOf(game.seating[seat])}` }), el("td", { text: handPoints(state, seat) }));
      if (chips()) row.append(el("td", { text: state.lastHandStep ? state.hand.points[seat] : "" }));
      if (hasLives()) row.append(el("td", { class: "lives", text: livesLeft(state, seat) }));
      row.append(el("td", { text: runningTotal(state, seat) }));
      body.append(row);
    }
    table.append(body);
    if (chips()) table.prepend(el("caption", { class: "pot", text: potText(state) }));
    return table;
  }

  function drawSheet(step) {
    const game = replay.games[step.g];
    const table = el("table", { class: "sheet-mini", "aria-label": "score sheet of this game" });
    const head = el("tr", {}, el("th", { scope: "col", text: "Hand" }));
    for (let seat = 0; seat < game.seating.length; seat++) head.append(el("th", { scope: "col", text: `${seat}` }));
    table.append(el("thead", {}, head));
    const body = el("tbody");
    game.hands.forEach((hand, h) => {
      const done = h < step.h || (h === step.h && stateAt(step).lastHandStep);
      const row = el("tr", { class: h === step.h ? "current" : "" });
      row.append(el("td", {}, el("a", { href: `#g=${step.g + 1}&h=${h + 1}&t=0&c=0`, "data-jump": "" }, `${h + 1}`)));
      for (let seat = 0; seat < game.seating.length; seat++) row.append(el("td", { text: done ? hand.totals[seat] : "" }));
      body.append(row);
    });
    table.append(body);
    return table;
  }

  function drawEvents(step) {
    const list = el("ul", { class: "events" });
    for (const fault of replay.faults || []) {
      if (fault.game !== step.g || fault.hand !== step.h) continue;
      const where = fault.trick === null ? "pass" : `trick ${fault.trick + 1}`;
      list.append(el("li", { class: "fault" }, `${where}: seat ${fault.seat} ${fault.kind}, ${Math.round(fault.elapsed_ms)} ms → ${fault.substitute.join(" ")}`));
    }
    if (!list.children.length) list.append(el("li", { text: "no faults this hand" }));
    return list;
  }

  // -- bot notes -----------------------------------------------------------------------

  const hasNote = (decision) => Boolean(decision) && typeof decision.note === "string" && decision.note !== "";

  // The decisions shown at a step, as [seat, what it did (a sentence), the record]: the
  // dealer's call at the deal; the passes, reveals, bids and naming at the pass; the
  // cards of the trick (or multi-round) so far.
  function decisionsAt(state, step) {
    const hand = state.hand;
    const list = [];
    if (step.t === 0) {
      if (hand.call) list.push([hand.dealer, `seat ${hand.dealer} calls the pass`, hand.call]);
      if (step.c === 1) {
        for (const pass of hand.passes || []) list.push([pass.seat, `seat ${pass.seat} passes`, pass]);
        for (const shown of hand.reveals || []) list.push([shown.seat, `seat ${shown.seat} lays down ${shown.card}`, shown]);
        if (hand.auction) {
          for (const bid of hand.auction.bids) list.push([bid.seat, `seat ${bid.seat} ${bid.bid === null ? "passes the bid" : `bids ${bid.bid}`}`, bid]);
          list.push([hand.auction.declarer, `seat ${hand.auction.declarer} names a suit`, hand.auction.naming]);
        }
        for (const other of beforePlay(hand)) list.push([other.seat, otherText(other), other]);
      }
      return list;
    }
    const { record, count } = state.trick;
    for (let c = 0; c < count; c++) list.push([record.plays[c].seat, `seat ${record.plays[c].seat} plays ${record.plays[c].card}`, record.plays[c]]);
    if (state.trickDone && record === hand.tricks[hand.tricks.length - 1]) {
      for (const other of afterPlay(hand)) list.push([other.seat, otherText(other), other]);
    }
    return list;
  }

  // The notes of this step, beside its decisions. One seat's view shows that seat's only:
  // another bot's reasoning is not something the seat knew.
  function drawNotes(state, step, mine) {
    const list = el("ol", { class: "notes-list" });
    for (const [seat, what, decision] of decisionsAt(state, step)) {
      if (!hasNote(decision) || (mine !== null && seat !== mine)) continue;
      list.append(el("li", { "data-note-seat": seat },
        el("span", { class: "note-who" }, what), " ",
        el("q", { class: "note-text", text: decision.note })));
    }
    if (!list.children.length) return el("p", { class: "hint", text: "no notes at this step" });
    return list;
  }

  function anyNotes() {
    if (replay.notes) return true;
    return replay.games.some((game) => game.hands.some((hand) => {
      if ((hand.passes || []).some(hasNote) || (hand.reveals || []).some(hasNote) || hasNote(hand.call)) return true;
      if (hand.auction && (hand.auction.bids.some(hasNote) || hasNote(hand.auction.naming))) return true;
      if ((hand.decisions || []).some(hasNote)) return true;
      return rounds(hand).some((record) => record.plays.some(hasNote));
    }));
  }

  // Per entrant: how many notes the platform kept and dropped (the cap), when recorded.
  function drawNoteCounts() {
    const counts = replay.notes;
    if (!counts) return null;
    const list = el("ul", { class: "plain note-counts" });
    replay.entrants.forEach((_, i) => {
      const c = Array.isArray(counts) ? counts[i] : counts[String(i)];
      if (!c) return;
      list.append(el("li", { "data-entrant": i }, `${labelOf(i)}: ${c.kept} kept, ${c.dropped} dropped`));
    });
    return list.children.length ? list : null;
  }

  // One colour, one meaning: the legend of the table's highlights.
  function drawLegend() {
    const item = (cls, text) => el("li", {}, el("span", { class: `swatch ${cls}`, "aria-hidden": "true" }), text);
    return el("ul", { class: "legend", "aria-label": "What the highlights mean" },
      item("turn", "to play"),
      item("winner", "wins the trick"),
      item("received", "received in the pass"),
      item("fault", "fault or played for the bot"),
      item("noted", "has a bot note"));
  }

  function render() {
    const step = steps[index];
    const state = stateAt(step);
    const mine = viewerSeat(state.game);
    ui.felt.className = `table-felt players-${state.n}`;
    ui.felt.replaceChildren();
    for (let seat = 0; seat < state.n; seat++) ui.felt.append(drawSeat(state, seat, mine));
    ui.felt.append(drawCentre(state, mine, step));
    ui.scores.replaceChildren(drawScores(state));
    ui.sheet.replaceChildren(drawSheet(step));
    ui.events.replaceChildren(drawEvents(step));
    if (ui.notes) ui.notes.replaceChildren(drawNotes(state, step, mine));
    ui.position.textContent = positionText(step);
    ui.scrubber.value = String(index);
    ui.scrubber.setAttribute("aria-valuetext", positionText(step));
    ui.live.textContent = `${positionText(step)}: ${describe(step)}`;
    // Live, other owners' hands are backs until played: the view says so, not "face up".
    const hidden = state.hand.deal.some((cards) => cards.includes(HIDDEN));
    ui.allView.textContent = hidden ? "Every seat (hands hidden until played)" : "All hands face up";
    root.dataset.step = `${step.g + 1}-${step.h + 1}-${step.t}-${step.c}`;
    // The hand's last step (where its end is shown: the analysis marks a decision there).
    root.dataset.handEnd = String(index === steps.length - 1 || !same(steps[index + 1], step, ["g", "h"]));
    root.dataset.view = view;
    const hash = `#g=${step.g + 1}&h=${step.h + 1}&t=${step.t}&c=${step.c}&view=${view}`;
    if (window.location.hash !== hash) history.replaceState(null, "", hash);
  }

  // -- moving -----------------------------------------------------------------------------

  function go(target) {
    index = Math.max(0, Math.min(steps.length - 1, target));
    render();
  }

  function same(a, b, keys) {
    return keys.every((k) => a[k] === b[k]);
  }

  function lastOfGroup(i) {
    let j = i;
    while (j + 1 < steps.length && same(steps[j + 1], steps[i], ["g", "h", "t"])) j++;
    return j;
  }

  // To the end of this trick; when it is complete already, to the end of the next one.
  function nextTrick() {
    const end = lastOfGroup(index);
    if (steps[index].t > 0 && end > index) return go(end);
    if (end + 1 >= steps.length) return go(steps.length - 1);
    go(lastOfGroup(end + 1));
  }

  function prevTrick() {
    const s = steps[index];
    let i = index;
    while (i > 0 && same(steps[i - 1], s, ["g", "h", "t"])) i--;
    go(i - 1 >= 0 ? i - 1 : 0);
  }

  function nextHand() {
    const s = steps[index];
    let i = index + 1;
    while (i < steps.length && same(steps[i], s, ["g", "h"])) i++;
    go(i);
  }

  function prevHand() {
    const s = steps[index];
    let i = index;
    while (i > 0 && same(steps[i - 1], s, ["g", "h"])) i--;
    if (i === index && i > 0) {
      i -= 1;
      while (i > 0 && same(steps[i - 1], steps[i], ["g", "h"])) i--;
    }
    go(i);
  }

  function play() {
    if (timer) return;
    if (index >= steps.length - 1) go(0);
    ui.play.setAttribute("aria-pressed", "true");
    ui.play.querySelector(".glyph").textContent = "⏸";
    ui.play.querySelector(".word").textContent = "Pause";
    ui.play.setAttribute("aria-label", "Pause");
    const tick = () => {
      if (index >= steps.length - 1) return pause();
      go(index + 1);
      timer = setTimeout(tick, BASE_DELAY_MS / speed);
    };
    timer = setTimeout(tick, BASE_DELAY_MS / speed);
  }

  function pause() {
    clearTimeout(timer);
    timer = null;
    ui.play.setAttribute("aria-pressed", "false");
    ui.play.querySelector(".glyph").textContent = "▶";
    ui.play.querySelector(".word").textContent = "Play";
    ui.play.setAttribute("aria-label", "Play");
  }

  function toggle() {
    if (timer) pause();
    else play();
  }

  function setSpeed(value) {
    speed = value;
    ui.speed.value = String(value);
  }

  function changeSpeed(direction) {
    const at = SPEEDS.indexOf(speed);
    setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at + direction))]);
  }

  function setView(value) {
    const known = value === "all" || seatsInfo.some((s) => String(s.seat) === String(value)) ||
      (replay && Number(value) >= 0 && Number(value) < replay.entrants.length);
    view = known ? String(value) : "all";
    ui.view.value = view;
    render();
  }

  function fromHash() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    if (params.get("at") === "end") {
      const value = params.get("view");
      if (value && (value === "all" || /^\d+$/.test(value))) view = value;
      ui.view.value = view;
      index = steps.length - 1;
      render();
      return true;
    }
    if (!params.has("g") && !params.has("h")) {
      if (params.has("view")) setView(params.get("view"));
      return false;
    }
    const num = (key, fallback) => {
      const value = parseInt(params.get(key), 10);
      return Number.isFinite(value) ? value : fallback;
    };
    if (params.has("view")) {
      const value = params.get("view");
      view = value === "all" || /^\d+$/.test(value) ? value : "all";
      ui.view.value = view;
    }
    index = findStep(num("g", 1) - 1, num("h", 1) - 1, num("t", 0), num("c", 0));
    render();
    return true;
  }

  // -- building the viewer -----------------------------------------------------------------

  // A toolbar button: its glyph and a short visible word; the full name is its accessible
  // name, the name and its key its tooltip.
  function button(glyph, word, title, action, key) {
    return el("button", { type: "button", title: `${title} (${key})`, "aria-label": title, onclick: () => { action(); } },
      el("span", { class: "glyph", "aria-hidden": "true" }, glyph), el("span", { class: "word", "aria-hidden": "true" }, word));
  }

  function build() {
    root.replaceChildren();
    const controls = el("div", { class: "controls", role: "toolbar", "aria-label": "Replay controls" });
    ui.play = button("▶", "Play", "Play", toggle, "Space");
    ui.play.setAttribute("aria-pressed", "false");
    ui.play.dataset.action = "play";
    controls.append(
      button("⇤", "Start", "First step", () => go(0), "Home"),
      button("↞", "Hand", "Previous hand", prevHand, "PageUp"),
      button("«", "Trick", "Previous trick", prevTrick, "Shift+←"),
      button("‹", "Card", "Previous card", () => go(index - 1), "←"),
      ui.play,
      button("›", "Card", "Next card", () => go(index + 1), "→"),
      button("»", "Trick", "Next trick", nextTrick, "Shift+→"),
      button("↠", "Hand", "Next hand", nextHand, "PageDown"),
      button("⇥", "End", "Last step", () => go(steps.length - 1), "End"),
    );
    ui.speed = el("select", { id: "replay-speed", onchange: (e) => setSpeed(Number(e.target.value)) });
    for (const s of SPEEDS) ui.speed.append(el("option", { value: String(s), selected: s === 1 }, `${s}×`));
    ui.view = el("select", { id: "replay-view", onchange: (e) => setView(e.target.value) });
    ui.allView = el("option", { value: "all" }, "All hands face up");
    ui.view.append(ui.allView);
    replay.entrants.forEach((entrant, i) => ui.view.append(el("option", { value: String(i) }, `Seat ${i}'s view: ${labelOf(i)}`)));
    controls.append(
      el("label", { for: "replay-speed" }, "Speed"), ui.speed,
      el("label", { for: "replay-view" }, "Show"), ui.view,
    );
    ui.scrubber = el("input", { type: "range", min: "0", max: String(steps.length - 1), value: "0", id: "replay-scrubber", "aria-label": "Position in the match" });
    ui.scrubber.addEventListener("input", () => { pause(); go(Number(ui.scrubber.value)); });
    ui.position = el("span", { class: "position", "aria-hidden": "true" });
    const scrub = el("div", { class: "scrub" }, ui.scrubber, ui.position);
    if (root.dataset.liveUrl) controls.append(el("span", { class: "badge live", "data-live-badge": "" }, "● live"));
    ui.felt = el("div", { class: "table-felt" });
    ui.live = el("p", { class: "sr-only", "aria-live": "polite" });
    ui.notes = null;
    let notesBox = null;
    if (anyNotes() || root.dataset.liveUrl) {
      ui.notes = el("div");
      notesBox = el("section", { class: "notes", "aria-label": "Bot notes" }, el("h3", { text: "Bot notes" }), ui.notes);
    }
    ui.scores = el("div");
    ui.sheet = el("div");
    ui.events = el("div");
    const side = el(
      "aside",
      { class: "side", "aria-label": "Scores and events" },
      el("div", {}, el("h3", { text: "Running scores" }), ui.scores),
      // The page's own score sheet (a stored match) is not repeated here.
      document.getElementById("score-sheet") ? null : el("div", {}, el("h3", { text: "Score sheet" }), ui.sheet),
      el("div", {}, el("h3", { text: "Faults in this hand" }), ui.events),
      el("p", { class: "keys" },
        el("kbd", { text: "←" }), el("kbd", { text: "→" }), " card · ",
        el("kbd", { text: "Shift" }), "+", el("kbd", { text: "←" }), el("kbd", { text: "→" }), " trick · ",
        el("kbd", { text: "PgUp" }), el("kbd", { text: "PgDn" }), " hand · ",
        el("kbd", { text: "Space" }), " play · ", el("kbd", { text: "+" }), el("kbd", { text: "−" }), " speed · ",
        el("kbd", { text: "a" }), " all hands · ", el("kbd", { text: "0" }), "–", el("kbd", { text: String(replay.entrants.length - 1) }), " one seat's view"),
    );
    const counts = drawNoteCounts();
    if (counts) side.append(el("div", {}, el("h3", { text: "Notes kept" }), counts));
    root.append(controls, scrub, el("div", {}, ui.felt, drawLegend(), notesBox, ui.live), side);
    root.tabIndex = 0;
  }

  function onKey(event) {
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, select, textarea") && target.id !== "replay-scrubber") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    const handled = () => event.preventDefault();
    if (key === "ArrowRight" && event.shiftKey) { pause(); nextTrick(); return handled(); }
    if (key === "ArrowLeft" && event.shiftKey) { pause(); prevTrick(); return handled(); }
    if (target && target.id === "replay-scrubber") return; // the range moves itself with plain arrows
    switch (key) {
      case "ArrowRight": case "l": pause(); go(index + 1); return handled();
      case "ArrowLeft": case "h": pause(); go(index - 1); return handled();
      case "]": pause(); nextTrick(); return handled();
      case "[": pause(); prevTrick(); return handled();
      case "PageDown": case "n": pause(); nextHand(); return handled();
      case "PageUp": case "p": pause(); prevHand(); return handled();
      case "Home": pause(); go(0); return handled();
      case "End": pause(); go(steps.length - 1); return handled();
      case " ": case "k":
        if (target instanceof HTMLButtonElement) return; // a focused button answers Space itself
        toggle(); return handled();
      case "+": case "=": changeSpeed(1); return handled();
      case "-": case "_": changeSpeed(-1); return handled();
      case "a": setView("all"); return handled();
      default:
        if (/^[0-9]$/.test(key) && Number(key) < replay.entrants.length) { setView(key); return handled(); }
    }
  }

  // -- live: a match being played (server-sent events, docs/api.md) --------------------

  function liveHand(event) {
    const game = replay.games[event.game];
    return game ? game.hands[game.hands.length - 1] : null;
  }

  // Apply one event of the stream to the replay being built (the runner's `Event`s).
  function applyEvent(event) {
    if (event.kind === "match") {
      replay = { ...event.header, games: [], faults: [], logs: [] };
      return;
    }
    if (!replay) return;
    const game = replay.games[event.game];
    switch (event.kind) {
      case "game":
        replay.games[event.game] = { index: event.game, seating: event.seating, hands: [] };
        break;
      case "hand":
        if (game) game.hands.push({ passes: [], ...event.hand, tricks: [] });
        break;
      case "passes": {
        const hand = liveHand(event);
        if (hand) Object.assign(hand, { passes: event.passes, received: event.received });
        break;
      }
      case "play": {
        const hand = liveHand(event);
        if (!hand) break;
        const trick = hand.tricks[event.trick] || (hand.tricks[event.trick] = { leader: event.play.seat, plays: [], winner: -1, partial: true });
        trick.plays.push(event.play);
        break;
      }
      case "trick": {
        const hand = liveHand(event);
        if (hand) hand.tricks[event.trick] = event.record;
        break;
      }
      case "hand_end":
        if (game) game.hands[game.hands.length - 1] = event.hand;
        break;
      case "game_end":
        if (game) Object.assign(game, event.result);
        break;
      default:
        break; // an event kind this viewer does not know yet
    }
  }

  // Redraw after new events: a viewer at the last step follows the play, one looking at
  // an earlier step stays there.
  function refresh() {
    if (!replay) return;
    roundsOf = new WeakMap();
    const was = ui.felt ? steps[index] : null;
    const following = !was || index >= steps.length - 1;
    steps = buildSteps();
    if (!steps.length) return;
    if (!ui.felt) {
      build();
      document.addEventListener("keydown", onKey);
    }
    index = following ? steps.length - 1 : findStep(was.g, was.h, was.t, was.c);
    ui.scrubber.max = String(steps.length - 1);
    render();
    root.dataset.ready = "true";
    // Cards are being played: the match is running, whatever the page said when it loaded.
    document.dispatchEvent(new CustomEvent("arena:match-status", { detail: "running" }));
  }

  // The stream ends every half minute or so and EventSource reconnects by itself, sending
  // the last id it saw; when the server refuses (503: too many watchers), try again later.
  let lastId = "0";

  function connect(url) {
    const source = new EventSource(lastId === "0" ? url : `${url}?after=${encodeURIComponent(lastId)}`);
    source.addEventListener("message", (message) => {
      if (message.lastEventId) lastId = message.lastEventId;
      for (const event of JSON.parse(message.data)) applyEvent(event);
      refresh();
    });
    source.addEventListener("end", (message) => {
      source.close();
      const info = JSON.parse(message.data);
      root.dataset.liveEnded = info.status;
      // The match is stored: the page itself now shows the full replay and its results,
      // opened at its end (the result), not at the step the live view last drew.
      history.replaceState(null, "", `${window.location.pathname}${window.location.search}#at=end&view=${view}`);
      window.location.reload();
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) setTimeout(() => connect(url), 5000);
    });
  }

  function startLive(url) {
    root.dataset.live = "true";
    root.replaceChildren(el("p", { class: "hint", "data-live-waiting": "" }, "Waiting for the first cards of this match…"));
    connect(url);
  }

  async function load() {
    const inline = root.dataset.replayInline;
    if (inline) return JSON.parse(document.getElementById(inline).textContent);
    const response = await fetch(root.dataset.replayUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    return response.json();
  }

  async function start() {
    if (root.dataset.liveUrl) return startLive(root.dataset.liveUrl);
    try {
      replay = await load();
    } catch (error) {
      root.replaceChildren(el("p", { class: "error", text: `The replay could not be loaded: ${error.message}` }));
      return;
    }
    steps = buildSteps();
    if (!steps.length) {
      root.replaceChildren(el("p", { text: "This match has no hands to show." }));
      return;
    }
    build();
    if (!fromHash()) render();
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", () => {
      pause();
      if (fromHash()) root.scrollIntoView({ block: "start" });
    });
    root.dataset.ready = "true";
  }

  start();
})();
