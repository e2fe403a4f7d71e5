"""Build the engine's C cores as extension modules (everything else is in pyproject.toml)."""

from pathlib import Path

from setuptools import Extension, setup

CORE = "arena/engine/_core"
# Every header, so that a changed header (hc_config_fields.h is generated from
# arena/engine/config.py) rebuilds the modules that include it.
HEADERS = sorted(str(path) for path in Path(CORE).glob("*.h"))


def core(module: str, *sources: str) -> Extension:
    """`arena.engine.<module>` from C sources in arena/engine/_core, all built alike (a
    variant family's binding lands in its package, arena/engine/variants/)."""
    return Extension(
        f"arena.engine.{module}",
        sources=[f"{CORE}/{source}" for source in sources],
        include_dirs=[CORE],
        depends=HEADERS,
        extra_compile_args=[
            "-O3",
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror=implicit-function-declaration",
        ],
        optional=False,
    )


setup(
    ext_modules=[
        # The one-pack game, its variants and the random batch.
        core("_hearts", "hearts.c", "_hearts.c"),
        # Cancellation Hearts (two packs): its own module, sharing hearts.c's SplitMix64.
        core("variants._cancellation", "hearts.c", "cancellation.c", "_cancellation.c"),
        # 000 'Domino Hearts' (the stock, draws, seats dropping out): its own small core.
        core("variants._domino", "hearts.c", "domino.c", "_domino.c"),
        # 003 'FOUR-PENNY HEARTS': several tricks open at once (arena/engine/variants/penny.py).
        core("variants._penny", "penny.c", "_penny.c"),
        # 004 'Enfle' (Schwellen): a seat that cannot follow takes up the tricks won.
        core("variants._enfle", "hearts.c", "enfle.c", "_enfle.c"),
    ]
)
