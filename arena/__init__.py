"""Hearts Arena: the platform core (engine, matches, bots, ratings), free of web and queue code."""
