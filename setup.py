"""Build the engine's C core as `arena.engine._hearts` (everything else is in pyproject.toml)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "arena.engine._hearts",
            sources=["arena/engine/_core/hearts.c", "arena/engine/_core/_hearts.c"],
            include_dirs=["arena/engine/_core"],
            extra_compile_args=[
                "-O3",
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror=implicit-function-declaration",
            ],
            optional=False,
        ),
        # Cancellation Hearts (two packs): its own module, sharing hearts.c's SplitMix64.
        Extension(
            "arena.engine._cancellation",
            sources=[
                "arena/engine/_core/hearts.c",
                "arena/engine/_core/cancellation.c",
                "arena/engine/_core/_cancellation.c",
            ],
            include_dirs=["arena/engine/_core"],
            extra_compile_args=[
                "-O3",
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror=implicit-function-declaration",
            ],
            optional=False,
        ),
        # 000 'Domino Hearts' (the stock, draws, seats dropping out): its own small core.
        Extension(
            "arena.engine._domino",
            sources=[
                "arena/engine/_core/hearts.c",
                "arena/engine/_core/domino.c",
                "arena/engine/_core/_domino.c",
            ],
            include_dirs=["arena/engine/_core"],
            extra_compile_args=[
                "-O3",
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror=implicit-function-declaration",
            ],
            optional=False,
        ),
        # 003 'FOUR-PENNY HEARTS': several tricks open at once (arena/engine/penny.py).
        Extension(
            "arena.engine._penny",
            sources=["arena/engine/_core/penny.c", "arena/engine/_core/_penny.c"],
            include_dirs=["arena/engine/_core"],
            extra_compile_args=[
                "-O3",
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror=implicit-function-declaration",
            ],
            optional=False,
        ),
    ]
)
