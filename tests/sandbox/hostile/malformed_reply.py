"""Answers a play with bytes that are not a protobuf message (served without the SDK)."""

from tests.sandbox.hostile._attack import AttackBot, serve_raw

serve_raw(lambda raw: b"\x0a\xff\xff\xff\xff\x0f\x12garbage")


class MalformedReplyBot(AttackBot):
    def attack(self) -> None:
        pass
