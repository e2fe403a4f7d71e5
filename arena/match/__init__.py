"""Matches: seats (in-process or gRPC), time budgets, the fault policy, and replays."""
