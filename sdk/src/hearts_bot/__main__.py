"""``python -m hearts_bot``: the same as the ``hearts-bot`` command."""

import sys

from .cli import main

sys.exit(main())
