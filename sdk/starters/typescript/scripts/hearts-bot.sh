#!/bin/sh
# Runs the hearts-bot command (the Hearts Arena SDK's) for `npm run check` and `npm run play`:
# $HEARTS_BOT when set, else hearts-bot on PATH; its own folder goes first on PATH, so the
# platform's `arena` command installed beside it (pip install ./sdk . in one virtual
# environment) is found too. Says how to get it when there is none.
hearts_bot="${HEARTS_BOT:-hearts-bot}"
found="$(command -v "$hearts_bot" 2>/dev/null)" || {
  echo "the hearts-bot command is not on PATH. Install the SDK and the platform's command" \
       "(pip install ./sdk . from a Hearts Arena checkout) and activate that virtual" \
       "environment, or name it: HEARTS_BOT=/path/to/venv/bin/hearts-bot npm run check" >&2
  exit 2
}
PATH="$(dirname "$found"):$PATH" exec "$found" "$@"
