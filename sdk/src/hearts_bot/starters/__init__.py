"""Starter bots: `random_bot.RandomBot` and `heuristic_bot.HeuristicBot` (copy and improve)."""
