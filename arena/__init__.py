"""Hearts Arena: the platform core (engine, matches, bots, ratings), free of web and queue code.

Importing the package chooses gRPC's polling engine for this process and its children,
before anything loads grpc: the runner's round trips cost about a third less CPU with it
(docs/decisions/0002 "Revisited"). The value is the SDK's (`hearts_bot.transport`,
checked equal by tests/sdk/test_transport.py); it is set here without importing the SDK,
which would load grpc into every `arena` process, the web's included, at start-up.
"""

import os

os.environ.setdefault("GRPC_EXPERIMENTS", "-event_engine_client,-event_engine_listener")
