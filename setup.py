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
