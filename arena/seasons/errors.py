"""The seasons package's one error."""


class SeasonError(ValueError):
    """A season that cannot be created, entered, scheduled or moved on as asked."""
