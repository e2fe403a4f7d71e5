"""Bots run as commands by the tests (never imported by pytest)."""

collect_ignore_glob = ["*.py"]
