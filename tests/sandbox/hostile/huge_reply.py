"""Answers a play with a 64 MiB message (served by hand, without the SDK's server)."""

from hearts_bot.proto.hearts.v1 import bot_pb2, game_pb2

from tests.sandbox.hostile._attack import AttackBot, serve_raw


def huge(raw: bytes) -> bytes:
    request = bot_pb2.PlayMatchRequest.FromString(raw)
    return bot_pb2.PlayMatchResponse(
        request_id=request.request_id, play_card=game_pb2.PlayCardAnswer(card="X" * (64 << 20))
    ).SerializeToString()


serve_raw(huge)


class HugeReplyBot(AttackBot):
    def attack(self) -> None:
        pass
