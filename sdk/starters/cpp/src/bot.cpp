// A minimal legal Hearts Arena bot in C++ (protocol hearts.v1, docs/protocol.md).
//
// Start it as the arena does:   ./bot --address unix:/tmp/bot.sock
// It prints "HEARTS-BOT READY <address>" once it serves, answers every query of a match
// on the PlayMatch stream, and refuses malformed or out-of-order requests with the
// status codes the protocol names. Edit `decide_*` below to make it play well.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <algorithm>
#include <vector>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>

#include "hearts/v1/bot.grpc.pb.h"

namespace v1 = hearts::v1;

namespace {

const char* const kBotName = "CppStarterBot";

// -- a handicap (optional) -------------------------------------------------------------
// A file `handicap.txt` in the working folder, holding one number p in [0, 1], makes this
// a sparring partner of known strength: it plays the Python SDK's heuristic starter's rules
// (starter:heuristic, `heuristic_*` below) except that with probability p it plays a
// uniformly random legal card. `arena bench rehearsal` uploads bots of every kind so, with
// p spread over them (docs/scaling.md). Without the file (the default) nothing changes:
// the bot plays `decide_*` below.

bool sparring = false;
double handicap = 0.0;
std::mt19937_64 rng(static_cast<uint64_t>(
    std::chrono::steady_clock::now().time_since_epoch().count()) ^ static_cast<uint64_t>(getpid()));

void read_handicap() {
  std::ifstream file("handicap.txt");
  double p = 0.0;
  if (file >> p && p >= 0.0 && p <= 1.0) {
    sparring = true;
    handicap = p;
  }
}

int rank_of(const std::string& card) {
  const auto at = std::string("23456789TJQKA").find(card[0]);
  return at == std::string::npos ? -1 : static_cast<int>(at);
}

// Rank first, then suit in card order (clubs, diamonds, spades, hearts).
int by_rank(const std::string& card) {
  return rank_of(card) * 4 + static_cast<int>(std::string("CDSH").find(card.back()));
}

// How badly the heuristic wants to pass `card`: bigger is worse to keep.
int danger(const std::string& card) {
  if (card == "QS" || card == "AS" || card == "KS") return 100 + rank_of(card);
  if (card.back() == 'H') return 50 + rank_of(card);
  return rank_of(card);
}

template <typename Less>
std::string best(const std::vector<std::string>& cards, Less less) {
  return *std::max_element(cards.begin(), cards.end(), less);
}

std::string highest(const std::vector<std::string>& cards) {
  return best(cards, [](const std::string& a, const std::string& b) { return by_rank(a) < by_rank(b); });
}

std::string lowest(const std::vector<std::string>& cards) {
  return best(cards, [](const std::string& a, const std::string& b) { return by_rank(a) > by_rank(b); });
}

void heuristic_pass(const v1::PassCardsQuery& query, v1::PassCardsAnswer* answer) {
  std::set<std::string> forbidden(query.state().rules().pass_forbidden().begin(),
                                  query.state().rules().pass_forbidden().end());
  std::vector<std::string> passable;
  for (const auto& card : query.state().hand()) {
    if (!forbidden.count(card)) passable.push_back(card);
  }
  std::stable_sort(passable.begin(), passable.end(), [](const std::string& a, const std::string& b) {
    return danger(a) > danger(b);
  });
  for (size_t i = 0; i < passable.size() && i < query.count(); ++i) answer->add_cards(passable[i]);
}

// Lead the lowest card; follow with the highest card that still loses the trick (else the
// lowest, the highest when playing last); void: the QS, then the highest heart or card.
std::string heuristic_play(const v1::PlayCardQuery& query) {
  const std::vector<std::string> legal(query.legal_cards().begin(), query.legal_cards().end());
  const auto& trick = query.state().current_trick().cards();
  if (trick.empty()) return lowest(legal);
  const char led = trick[0].back();
  std::vector<std::string> following;
  for (const auto& card : legal) {
    if (card.back() == led) following.push_back(card);
  }
  if (!following.empty()) {
    int winning = -1;
    for (const auto& card : trick) {
      if (card.back() == led) winning = std::max(winning, rank_of(card));
    }
    std::vector<std::string> ducks;
    for (const auto& card : following) {
      if (rank_of(card) < winning) ducks.push_back(card);
    }
    if (!ducks.empty()) return highest(ducks);
    const bool last = static_cast<uint32_t>(trick.size()) + 1 == query.state().rules().players();
    return last ? highest(following) : lowest(following);
  }
  std::vector<std::string> hearts;
  for (const auto& card : legal) {
    if (card == "QS") return card;
    if (card.back() == 'H') hearts.push_back(card);
  }
  return highest(hearts.empty() ? legal : hearts);
}

// -- the decisions: edit these ------------------------------------------------------

// Pass the highest cards allowed (the hand is in card order, lowest first).
void decide_pass(const v1::PassCardsQuery& query, v1::PassCardsAnswer* answer) {
  std::set<std::string> forbidden(query.state().rules().pass_forbidden().begin(),
                                  query.state().rules().pass_forbidden().end());
  const auto& hand = query.state().hand();
  for (int i = hand.size() - 1; i >= 0 && answer->cards_size() < static_cast<int>(query.count());
       --i) {
    if (!forbidden.count(hand[i])) answer->add_cards(hand[i]);
  }
}

// Play the lowest legal card (on its lowest legal penny in Four-Penny Hearts).
void decide_play(const v1::PlayCardQuery& query, v1::PlayCardAnswer* answer) {
  if (query.legal_moves_size() > 0) {
    answer->set_card(query.legal_moves(0).card());
    answer->set_penny(query.legal_moves(0).penny());
    return;
  }
  answer->set_card(query.legal_cards(0));
}

void decide_reveal(const v1::RevealCardQuery& query, v1::RevealCardAnswer* answer) {
  answer->set_card(query.state().hand(0));
}

void decide_call(const v1::CallPassQuery& query, v1::CallPassAnswer* answer) {
  answer->set_direction(query.options(0));
}

void decide_bid(const v1::BidQuery&, v1::BidAnswer*) {}  // unset chips: a pass

void decide_suit(const v1::NameSuitQuery&, v1::NameSuitAnswer* answer) { answer->set_suit("C"); }

// 004 'Shooting the moon': the engine's pick (add while ahead, else subtract).
void decide_moon(const v1::MoonChoiceQuery& query, v1::MoonChoiceAnswer* answer) {
  answer->set_subtract(query.default_subtract());
}

// 004 'Scoring variants': no pledge to take no hearts.
void decide_pledge(const v1::PledgeQuery&, v1::PledgeAnswer* answer) { answer->set_pledge(false); }

// Rickety Kate: accept a passed QS; after a refusal, the default card in its place.
void decide_refuse_queen(const v1::RefuseQueenQuery&, v1::RefuseQueenAnswer* answer) {
  answer->set_refuse(false);
}
void decide_replace_pass(const v1::ReplacePassQuery& query, v1::ReplacePassAnswer* answer) {
  answer->set_card(query.default_card());
}
// Gong Zhu's exposed cards: expose none (an exposed card doubles its value, and waits for
// the second time its suit is led unless it is a singleton).
void decide_expose(const v1::ExposeQuery&, v1::ExposeAnswer* answer) { answer->clear_cards(); }

// -- the protocol ---------------------------------------------------------------------

grpc::Status invalid(const std::string& message) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, message);
}

grpc::Status out_of_order(const std::string& message) {
  return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, message);
}

// The checks of a query's state that this bot relies on (the SDK checks many more).
grpc::Status check_state(const char* kind, bool has_state, const v1::HandState& state) {
  if (!has_state) return invalid(std::string(kind) + ".state: missing");
  if (state.hand_size() == 0) return invalid(std::string(kind) + ".state.hand: empty");
  return grpc::Status::OK;
}

class Service final : public v1::BotService::Service {
  grpc::Status Ready(grpc::ServerContext*, const v1::ReadyRequest*,
                     v1::ReadyResponse* response) override {
    response->set_bot_name(kBotName);
    response->set_sdk_version("hearts-cpp-starter/1 grpc-c++/" + grpc::Version());
    return grpc::Status::OK;
  }

  grpc::Status PlayMatch(
      grpc::ServerContext*,
      grpc::ServerReaderWriter<v1::PlayMatchResponse, v1::PlayMatchRequest>* stream) override {
    v1::PlayMatchRequest request;
    bool started = false;
    bool ended = false;
    uint64_t last_id = 0;
    while (stream->Read(&request)) {
      using Kind = v1::PlayMatchRequest::KindCase;
      const Kind kind = request.kind_case();
      if (request.request_id() == 0) return invalid("request_id: 0 is not a request id");
      if (kind == Kind::KIND_NOT_SET) return invalid("kind: no message kind is set");
      if (ended) return out_of_order("a message after match_end");
      if (!started && kind != Kind::kMatchStart) return out_of_order("a message before match_start");
      if (started && kind == Kind::kMatchStart) return out_of_order("a second match_start");
      if (request.request_id() <= last_id) {
        return out_of_order("request_id " + std::to_string(request.request_id()) +
                            " does not increase");
      }
      last_id = request.request_id();
      v1::PlayMatchResponse response;
      response.set_request_id(request.request_id());
      switch (kind) {
        case Kind::kMatchStart:
          started = true;
          response.mutable_match_start()->set_wants_notifications(false);
          // The later queries this kit answers (MatchStartAnswer.answers).
          response.mutable_match_start()->add_answers("moon_choice");
          response.mutable_match_start()->add_answers("pledge");
          response.mutable_match_start()->add_answers("refuse_queen");
          response.mutable_match_start()->add_answers("replace_pass");
          response.mutable_match_start()->add_answers("expose");
          // The rules whose state shape this kit reads (MatchStartAnswer.reads): it plays
          // from legal_cards and never reads a trick, so a first trick of more cards than
          // players is no problem. Drop it if your code assumes one card per player.
          response.mutable_match_start()->add_reads("extra_cards_first_trick");
          break;
        case Kind::kPassCards: {
          const auto& query = request.pass_cards();
          auto status = check_state("pass_cards", query.has_state(), query.state());
          if (!status.ok()) return status;
          if (query.count() > static_cast<uint32_t>(query.state().hand_size())) {
            return invalid("pass_cards.count: more than the hand holds");
          }
          if (sparring) {
            heuristic_pass(query, response.mutable_pass_cards());
          } else {
            decide_pass(query, response.mutable_pass_cards());
          }
          break;
        }
        case Kind::kPlayCard: {
          const auto& query = request.play_card();
          auto status = check_state("play_card", query.has_state(), query.state());
          if (!status.ok()) return status;
          if (query.legal_cards_size() == 0) return invalid("play_card.legal_cards: empty");
          if (sparring && query.legal_moves_size() == 0) {
            const bool random = std::uniform_real_distribution<double>(0.0, 1.0)(rng) < handicap;
            const int pick = std::uniform_int_distribution<int>(0, query.legal_cards_size() - 1)(rng);
            response.mutable_play_card()->set_card(random ? query.legal_cards(pick)
                                                          : heuristic_play(query));
          } else {
            decide_play(query, response.mutable_play_card());
          }
          break;
        }
        case Kind::kRevealCard: {
          const auto& query = request.reveal_card();
          auto status = check_state("reveal_card", query.has_state(), query.state());
          if (!status.ok()) return status;
          decide_reveal(query, response.mutable_reveal_card());
          break;
        }
        case Kind::kCallPass:
          if (request.call_pass().options_size() == 0) return invalid("call_pass.options: empty");
          decide_call(request.call_pass(), response.mutable_call_pass());
          break;
        case Kind::kBid:
          decide_bid(request.bid(), response.mutable_bid());
          break;
        case Kind::kNameSuit:
          decide_suit(request.name_suit(), response.mutable_name_suit());
          break;
        case Kind::kMoonChoice:
          decide_moon(request.moon_choice(), response.mutable_moon_choice());
          break;
        case Kind::kPledge:
          decide_pledge(request.pledge(), response.mutable_pledge());
          break;
        case Kind::kRefuseQueen:
          decide_refuse_queen(request.refuse_queen(), response.mutable_refuse_queen());
          break;
        case Kind::kReplacePass:
          decide_replace_pass(request.replace_pass(), response.mutable_replace_pass());
          break;
        case Kind::kExpose:
          decide_expose(request.expose(), response.mutable_expose());
          break;
        case Kind::kMatchEnd:
          ended = true;
          continue;
        default:  // hand_start, trick_end, hand_end: notifications (never asked for here)
          continue;
      }
      if (!stream->Write(response)) break;
    }
    return grpc::Status::OK;
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::string address;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--address") address = argv[i + 1];
  }
  if (address.empty()) {
    std::cerr << "usage: " << argv[0] << " --address unix:/path/bot.sock" << std::endl;
    return 2;
  }
  read_handicap();
  // SIGTERM and SIGINT are taken by one thread (sigwait), which shuts the server down.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  Service service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::cerr << "cannot serve on " << address << std::endl;
    return 2;
  }
  std::cout << "HEARTS-BOT READY " << address << std::endl;  // endl flushes

  std::thread stopper([&server, &signals] {
    int received = 0;
    sigwait(&signals, &received);
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  });
  server->Wait();
  stopper.join();
  if (address.rfind("unix:", 0) == 0) unlink(address.substr(5).c_str());
  return 0;
}
