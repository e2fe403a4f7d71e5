"""Print the image's third-party requirements, one a line, read from the two pyproject.toml
files alone (the platform with its `platform` extra, the SDK with its `fast` extra), so the
Dockerfile installs them in a layer that our own code changing does not invalidate."""

import sys
import tomllib
from pathlib import Path

OURS = {"hearts-bot-sdk"}


def name(requirement: str) -> str:
    for stop in "[<>=!~; ":
        requirement = requirement.split(stop, maxsplit=1)[0]
    return requirement.lower()


def main(folder: Path) -> None:
    platform = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
    sdk = tomllib.loads((folder / "sdk" / "pyproject.toml").read_text())["project"]
    wanted = [
        *platform["dependencies"],
        *platform["optional-dependencies"]["platform"],
        *sdk["dependencies"],
        *sdk["optional-dependencies"]["fast"],
    ]
    print("\n".join(r for r in wanted if name(r) not in OURS))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
