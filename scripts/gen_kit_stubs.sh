#!/usr/bin/env bash
# Regenerates the starter kits' stubs from proto/hearts/v1/*.proto (docs/languages.md):
#
#   sdk/starters/cpp/generated/          protoc --cpp_out + grpc_cpp_plugin (Debian 12's
#                                        protobuf-compiler 3.21.12, protobuf-compiler-grpc 1.51)
#   sdk/starters/cpp/proto/              a copy of proto/ (the kit's `make stubs` reads it,
#                                        so the kit regenerates its stubs outside the repository)
#   sdk/starters/typescript/proto/       a copy of proto/ (loaded at run time by proto-loader)
#   sdk/starters/typescript/src/generated/  proto-loader-gen-types (the kit's package-lock
#                                        pins it; run `npm ci` in the kit first)
#
#   scripts/gen_kit_stubs.sh           regenerate in place
#   scripts/gen_kit_stubs.sh --check   regenerate into a temporary folder and diff: exit 1
#                                      when the committed stubs drift from proto/
# Exit 2 when a generator is missing or of another version (the output depends on it).
set -euo pipefail

PROTOC_VERSION="libprotoc 3.21.12"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PROTO="$ROOT/proto"
CPP="$ROOT/sdk/starters/cpp"
TS="$ROOT/sdk/starters/typescript"

die() { echo "gen_kit_stubs: $*" >&2; exit 2; }

generate() {  # generate OUT: OUT/cpp, OUT/cpp-proto, OUT/ts-proto, OUT/ts-generated
  local out="$1"
  command -v protoc >/dev/null || die "protoc is required (apt-get install protobuf-compiler-grpc)"
  command -v grpc_cpp_plugin >/dev/null || die "grpc_cpp_plugin is required (apt-get install protobuf-compiler-grpc)"
  [[ "$(protoc --version)" == "$PROTOC_VERSION" ]] \
    || die "$PROTOC_VERSION is required (found: $(protoc --version)); Debian 12's protobuf-compiler"
  local gen_types="$TS/node_modules/.bin/proto-loader-gen-types"
  [[ -x "$gen_types" ]] || die "run 'npm ci' in sdk/starters/typescript first (for proto-loader-gen-types)"
  mkdir -p "$out/cpp" "$out/cpp-proto" "$out/ts-proto" "$out/ts-generated"
  protoc -I "$PROTO" --cpp_out="$out/cpp" --grpc_out="$out/cpp" \
    --plugin=protoc-gen-grpc="$(command -v grpc_cpp_plugin)" "$PROTO"/hearts/v1/*.proto
  cp -r "$PROTO/hearts" "$out/cpp-proto/"
  cp -r "$PROTO/hearts" "$out/ts-proto/"
  (cd "$TS" && "$gen_types" hearts/v1/bot.proto --includeDirs="$out/ts-proto" \
      --outDir="$out/ts-generated" --grpcLib=@grpc/grpc-js --longs=String --enums=String \
      --defaults --oneofs --keepCase >/dev/null)
  # proto-loader-gen-types names the source file it read: name the kit's own copy.
  grep -rl "$out/ts-proto" "$out/ts-generated" | xargs -r sed -i "s|$out/ts-proto|proto|g"
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
generate "$tmp"
case "${1:-}" in
  --check)
    status=0
    diff -r "$tmp/cpp" "$CPP/generated" >/dev/null || { (diff -r "$tmp/cpp" "$CPP/generated" || true) | head -20; status=1; }
    diff -r "$tmp/cpp-proto" "$CPP/proto" || status=1
    diff -r "$tmp/ts-proto" "$TS/proto" || status=1
    diff -r "$tmp/ts-generated" "$TS/src/generated" || status=1
    if [[ $status -ne 0 ]]; then
      echo "gen_kit_stubs: the starter kits' stubs drift from proto/; run scripts/gen_kit_stubs.sh" >&2
      exit 1
    fi
    echo "gen_kit_stubs: the starter kits' stubs are up to date"
    ;;
  "")
    rm -rf "$CPP/generated" "$CPP/proto" "$TS/proto" "$TS/src/generated"
    cp -r "$tmp/cpp" "$CPP/generated"
    cp -r "$tmp/cpp-proto" "$CPP/proto"
    cp -r "$tmp/ts-proto" "$TS/proto"
    cp -r "$tmp/ts-generated" "$TS/src/generated"
    echo "gen_kit_stubs: wrote the stubs of sdk/starters/cpp and sdk/starters/typescript"
    ;;
  *) echo "usage: scripts/gen_kit_stubs.sh [--check]" >&2; exit 2 ;;
esac
