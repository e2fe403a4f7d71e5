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
    ]
)
