"""These files are bots for the match tests to run in their own processes; one of them
hangs on import by design, so pytest (and its doctest collection) must never import them."""

collect_ignore_glob = ["*.py"]
