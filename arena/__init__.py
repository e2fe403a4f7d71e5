"""Hearts Arena: the platform core (engine, matches, bots, ratings), free of web and queue code.

Importing the package chooses gRPC's polling engine for this process and its children
before anything loads grpc (`hearts_bot.transport`: the runner's round trips cost about a
third less CPU with it; docs/decisions/0002 "Revisited").
"""

from hearts_bot.transport import tune_grpc

tune_grpc()
