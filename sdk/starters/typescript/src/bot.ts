// A minimal legal Hearts Arena bot in TypeScript (protocol hearts.v1, docs/protocol.md).
//
// Start it as the arena does:   node dist/bot.js --address unix:/tmp/bot.sock
// It prints "HEARTS-BOT READY <address>" once it serves, answers every query of a match
// on the PlayMatch stream, and refuses malformed or out-of-order requests with the
// status codes the protocol names. Edit the `decide*` functions to make it play well.

import * as fs from "node:fs";
import * as path from "node:path";

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import type { ProtoGrpcType } from "./generated/bot";
import type { BidQuery__Output } from "./generated/hearts/v1/BidQuery";
import type { BotServiceHandlers } from "./generated/hearts/v1/BotService";
import type { CallPassQuery__Output } from "./generated/hearts/v1/CallPassQuery";
import type { HandState__Output } from "./generated/hearts/v1/HandState";
import type { PassDirection__Output } from "./generated/hearts/v1/PassDirection";
import type { PassCardsQuery__Output } from "./generated/hearts/v1/PassCardsQuery";
import type { PlayCardQuery__Output } from "./generated/hearts/v1/PlayCardQuery";
import type { PlayMatchRequest__Output } from "./generated/hearts/v1/PlayMatchRequest";
import type { PlayMatchResponse } from "./generated/hearts/v1/PlayMatchResponse";

const BOT_NAME = "TypeScriptStarterBot";

// -- a handicap (optional) -------------------------------------------------------------
// A file `handicap.txt` in the working folder, holding one number p in [0, 1], makes this
// a sparring partner of known strength: it plays the Python SDK's heuristic starter's rules
// (starter:heuristic, `heuristic*` below) except that with probability p it plays a
// uniformly random legal card. `arena bench rehearsal` uploads bots of every kind so, with
// p spread over them (docs/scaling.md). Without the file (the default) nothing changes:
// the bot plays the `decide*` functions below.

function readHandicap(): number | null {
  let text: string;
  try {
    text = fs.readFileSync("handicap.txt", "utf8");
  } catch {
    return null;
  }
  const p = Number(text.trim());
  return Number.isFinite(p) && p >= 0 && p <= 1 ? p : null;
}

const HANDICAP = readHandicap();

const rankOf = (card: string) => "23456789TJQKA".indexOf(card[0]);
/** Rank first, then suit in card order (clubs, diamonds, spades, hearts). */
const byRank = (card: string) => rankOf(card) * 4 + "CDSH".indexOf(card[card.length - 1]);
const suitOf = (card: string) => card[card.length - 1];
const highest = (cards: string[]) => cards.reduce((a, b) => (byRank(b) > byRank(a) ? b : a));
const lowest = (cards: string[]) => cards.reduce((a, b) => (byRank(b) < byRank(a) ? b : a));

/** How badly the heuristic wants to pass `card`: bigger is worse to keep. */
function danger(card: string): number {
  if (card === "QS" || card === "AS" || card === "KS") return 100 + rankOf(card);
  if (suitOf(card) === "H") return 50 + rankOf(card);
  return rankOf(card);
}

function heuristicPass(query: PassCardsQuery__Output): string[] {
  const state = query.state as HandState__Output;
  const forbidden = new Set(state.rules?.pass_forbidden ?? []);
  return state.hand
    .filter((card) => !forbidden.has(card))
    .map((card, index) => ({ card, index }))
    .sort((a, b) => danger(b.card) - danger(a.card) || a.index - b.index)
    .slice(0, query.count)
    .map(({ card }) => card);
}

/** Lead the lowest card; follow with the highest card that still loses the trick (else the
 * lowest, the highest when playing last); void: the QS, then the highest heart or card. */
function heuristicPlay(query: PlayCardQuery__Output): string {
  const legal = query.legal_cards;
  const state = query.state as HandState__Output;
  const trick = state.current_trick?.cards ?? [];
  if (trick.length === 0) return lowest(legal);
  const led = suitOf(trick[0]);
  const following = legal.filter((card) => suitOf(card) === led);
  if (following.length > 0) {
    const winning = Math.max(...trick.filter((card) => suitOf(card) === led).map(rankOf));
    const ducks = following.filter((card) => rankOf(card) < winning);
    if (ducks.length > 0) return highest(ducks);
    const last = trick.length + 1 === state.rules?.players;
    return last ? highest(following) : lowest(following);
  }
  if (legal.includes("QS")) return "QS";
  const hearts = legal.filter((card) => suitOf(card) === "H");
  return highest(hearts.length > 0 ? hearts : legal);
}

function sparringPlay(query: PlayCardQuery__Output, p: number): { card: string } {
  const legal = query.legal_cards;
  if (Math.random() < p) return { card: legal[Math.floor(Math.random() * legal.length)] };
  return { card: heuristicPlay(query) };
}

// -- the decisions: edit these ------------------------------------------------------

/** Pass the highest cards allowed (the hand is in card order, lowest first). */
function decidePass(query: PassCardsQuery__Output): string[] {
  const state = query.state as HandState__Output;
  const forbidden = new Set(state.rules?.pass_forbidden ?? []);
  return [...state.hand]
    .reverse()
    .filter((card) => !forbidden.has(card))
    .slice(0, query.count);
}

/** Play the lowest legal card (on its lowest legal penny in Four-Penny Hearts). */
function decidePlay(query: PlayCardQuery__Output): { card: string; penny?: number } {
  if (query.legal_moves.length > 0) {
    return { card: query.legal_moves[0].card, penny: query.legal_moves[0].penny };
  }
  return { card: query.legal_cards[0] };
}

function decideCall(query: CallPassQuery__Output): PassDirection__Output {
  return query.options[0];
}

function decideBid(_query: BidQuery__Output): number | undefined {
  return undefined; // a pass
}

// -- the protocol ---------------------------------------------------------------------

class ProtocolError extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new ProtocolError(grpc.status.INVALID_ARGUMENT, message);
const outOfOrder = (message: string) =>
  new ProtocolError(grpc.status.FAILED_PRECONDITION, message);

function requireState(kind: string, state: HandState__Output | null | undefined): HandState__Output {
  if (!state) throw invalid(`${kind}.state: missing`);
  if (state.hand.length === 0) throw invalid(`${kind}.state.hand: empty`);
  return state;
}

/** One match on one stream: checks the framing, answers the queries in order. */
class Match {
  private started = false;
  private ended = false;
  private lastId = 0n;

  /** The answer to `request`, or null for a notification; throws ProtocolError. */
  answer(request: PlayMatchRequest__Output): PlayMatchResponse | null {
    const id = BigInt(request.request_id);
    const kind = request.kind;
    if (id === 0n) throw invalid("request_id: 0 is not a request id");
    if (!kind) throw invalid("kind: no message kind is set");
    if (this.ended) throw outOfOrder("a message after match_end");
    if (!this.started && kind !== "match_start") throw outOfOrder("a message before match_start");
    if (this.started && kind === "match_start") throw outOfOrder("a second match_start");
    if (id <= this.lastId) throw outOfOrder(`request_id ${id} does not increase`);
    this.lastId = id;
    const request_id = request.request_id;
    switch (kind) {
      case "match_start":
        this.started = true;
        // `reads`: the rules whose state shape this kit reads (MatchStartAnswer.reads). It
        // plays from legal_cards and never reads a trick, so a first trick of more cards
        // than players is no problem; drop it if your code assumes one card per player.
        return {
          request_id,
          match_start: {
            wants_notifications: false,
            answers: ["moon_choice", "pledge", "refuse_queen", "replace_pass", "expose"],
            reads: ["extra_cards_first_trick"],
          },
        };
      case "pass_cards": {
        const query = request.pass_cards!;
        const state = requireState("pass_cards", query.state);
        if (query.count > state.hand.length) throw invalid("pass_cards.count: more than the hand");
        const cards = HANDICAP === null ? decidePass(query) : heuristicPass(query);
        return { request_id, pass_cards: { cards } };
      }
      case "play_card": {
        const query = request.play_card!;
        requireState("play_card", query.state);
        if (query.legal_cards.length === 0) throw invalid("play_card.legal_cards: empty");
        const sparring = HANDICAP !== null && query.legal_moves.length === 0;
        return {
          request_id,
          play_card: sparring ? sparringPlay(query, HANDICAP) : decidePlay(query),
        };
      }
      case "reveal_card": {
        const state = requireState("reveal_card", request.reveal_card!.state);
        return { request_id, reveal_card: { card: state.hand[0] } };
      }
      case "call_pass":
        if (request.call_pass!.options.length === 0) throw invalid("call_pass.options: empty");
        return { request_id, call_pass: { direction: decideCall(request.call_pass!) } };
      case "bid":
        return { request_id, bid: { chips: decideBid(request.bid!) } };
      case "name_suit":
        return { request_id, name_suit: { suit: "C" } };
      case "moon_choice": // 004 'Shooting the moon': the engine's pick
        return { request_id, moon_choice: { subtract: request.moon_choice!.default_subtract } };
      case "pledge": // 004 'Scoring variants': no pledge
        return { request_id, pledge: { pledge: false } };
      case "refuse_queen": // Rickety Kate: accept the passed QS
        return { request_id, refuse_queen: { refuse: false } };
      case "replace_pass": // Rickety Kate: the default card in the refused QS's place
        return { request_id, replace_pass: { card: request.replace_pass!.default_card } };
      case "expose": // Gong Zhu's exposed cards: expose none
        return { request_id, expose: { cards: [] } };
      case "match_end":
        this.ended = true;
        return null;
      default: // hand_start, trick_end, hand_end: notifications (never asked for here)
        return null;
    }
  }
}

const handlers: BotServiceHandlers = {
  Ready(_call, callback) {
    callback(null, { bot_name: BOT_NAME, sdk_version: `hearts-ts-starter/1 node/${process.version}` });
  },
  PlayMatch(call) {
    const match = new Match();
    call.on("data", (request: PlayMatchRequest__Output) => {
      try {
        const response = match.answer(request);
        if (response) call.write(response);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        call.emit("error", { code: error.code, details: error.message });
        call.removeAllListeners("data");
      }
    });
    call.on("end", () => call.end());
  },
};

function main(): void {
  const at = process.argv.indexOf("--address");
  const address = at > 0 ? process.argv[at + 1] : undefined;
  if (!address) {
    process.stderr.write("usage: node dist/bot.js --address unix:/path/bot.sock\n");
    process.exit(2);
  }
  const definition = protoLoader.loadSync("hearts/v1/bot.proto", {
    includeDirs: [path.join(__dirname, "..", "proto")],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const proto = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType;
  const server = new grpc.Server();
  server.addService(proto.hearts.v1.BotService.service, handlers);
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error) => {
    if (error) {
      process.stderr.write(`cannot serve on ${address}: ${error.message}\n`);
      process.exit(2);
    }
    process.stdout.write(`HEARTS-BOT READY ${address}\n`);
  });
  const stop = () => {
    server.tryShutdown(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main();
