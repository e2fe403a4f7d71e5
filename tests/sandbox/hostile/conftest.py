"""The hostile bots are never imported on the host (only run inside the sandbox): their
module-level code attacks, hangs or serves for ever. Keep pytest (and its doctest
collection) away from them."""

collect_ignore_glob = ["[!_]*.py", "_attack.py"]
