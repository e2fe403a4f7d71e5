#!/bin/sh
# Build the C cores' standalone tests with the sanitizers and run them.
# Usage: arena/engine/_core/run_tests.sh   (from anywhere; exit status is the tests')
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/hearts_core_tests.$$
trap 'rm -f "$out"' EXIT INT TERM
gcc -std=c11 -O2 -Wall -Wextra -Werror -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$here" "$here/hearts.c" "$here/test_hearts.c" -o "$out"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 "$out"
# Cancellation Hearts (two packs): its own module, linked with hearts.c's SplitMix64.
gcc -std=c11 -O2 -Wall -Wextra -Werror -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$here" "$here/hearts.c" "$here/cancellation.c" "$here/test_cancellation.c" -o "$out"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 "$out"
# Domino Hearts' own core (000 'Domino Hearts'), which reuses hearts.c's generator.
gcc -std=c11 -O2 -Wall -Wextra -Werror -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$here" "$here/hearts.c" "$here/domino.c" "$here/test_domino.c" -o "$out"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 "$out"
# The penny core (003 'FOUR-PENNY HEARTS'), with the deal's helpers from hearts.c.
gcc -std=c11 -O2 -Wall -Wextra -Werror -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$here" "$here/hearts.c" "$here/penny.c" "$here/test_penny.c" -o "$out"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 "$out"
# Enfle / Schwellen (004 'Enfle'): its own core, with hearts.c's generator.
gcc -std=c11 -O2 -Wall -Wextra -Werror -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$here" "$here/hearts.c" "$here/enfle.c" "$here/test_enfle.c" -o "$out"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 "$out"
