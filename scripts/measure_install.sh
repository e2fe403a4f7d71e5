#!/bin/bash
# Part of docs/benchmarks.md ("The contestant's install"): a fresh venv, `pip install ./sdk .`
# from a copy of the tree SRC (no .venv, build or .git), then its time, size and package count.
# usage: scripts/measure_install.sh SRC LABEL   (the venv is left in the folder it prints)
set -euo pipefail
SRC=$1; LABEL=$2
W=$(mktemp -d "/tmp/install-$LABEL.XXXX")
rsync -a --exclude .venv --exclude var --exclude build --exclude .git --exclude '*.so' --exclude '*.egg-info' --exclude __pycache__ "$SRC"/ $W/src/
python3 -m venv $W/venv
$W/venv/bin/pip install -q --upgrade pip setuptools wheel 2>/dev/null
start=$(date +%s.%N)
$W/venv/bin/pip install -q "$W/src/sdk" "$W/src"
end=$(date +%s.%N)
echo "$LABEL install_seconds=$(echo "$end - $start" | bc) venv_size=$(du -sm $W/venv | cut -f1)MiB packages=$($W/venv/bin/pip list 2>/dev/null | tail -n +3 | wc -l)"
echo "$W"
