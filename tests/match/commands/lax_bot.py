"""A bot served by its own gRPC code (not the SDK's server), as a bot in another language
would be: it plays legally but accepts malformed and out-of-order requests without a
complaint, so the protocol probes must fail it. Run as ``python lax_bot.py --address
unix:PATH``; it prints the readiness line."""

from __future__ import annotations

import sys
import threading
from concurrent import futures

import grpc
from hearts_bot.proto.hearts.v1 import bot_pb2, bot_pb2_grpc, game_pb2


class LaxService(bot_pb2_grpc.BotServiceServicer):
    def Ready(self, request, context):
        return bot_pb2.ReadyResponse(bot_name="LaxBot", sdk_version="lax/1")

    def PlayMatch(self, request_iterator, context):
        for request in request_iterator:
            kind = request.WhichOneof("kind")
            answer = bot_pb2.PlayMatchResponse(request_id=request.request_id)
            if kind == "match_start":
                answer.match_start.CopyFrom(game_pb2.MatchStartAnswer())
            elif kind == "pass_cards":
                query = request.pass_cards
                answer.pass_cards.cards.extend(list(query.state.hand)[-query.count :])
            elif kind == "play_card":
                cards = list(request.play_card.legal_cards) or list(request.play_card.state.hand)
                answer.play_card.card = cards[0] if cards else "2C"
            else:
                continue
            yield answer


def main() -> None:
    address = sys.argv[sys.argv.index("--address") + 1]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_BotServiceServicer_to_server(LaxService(), server)
    server.add_insecure_port(address)
    server.start()
    print(f"HEARTS-BOT READY {address}", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
