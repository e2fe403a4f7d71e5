"""The `arena` subcommands, one module per concern; each is a thin shell over `arena`."""
