"""Benchmarks behind `arena bench …`: each measures and returns figures, the CLI prints them."""
