#!/usr/bin/env bash
# Rebuilds the web runtime shipped in web/dist/ (kairo-web.js + kairo-web.wasm) from the
# machine core, and records the digest of the sources it was built from (web/dist/SOURCES),
# which tests/web_runtime.rs compares with the working tree.
#
# Needs: Debian's `emscripten` package (3.1.6 here) and `rustup target add
# wasm32-unknown-emscripten`. Users exporting carts need none of this: `kairo export` copies
# the built runtime.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's emcc finds its JS tools (acorn, terser) only through NODE_PATH.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
exports='_kairo_alloc,_kairo_free,_kairo_open,_kairo_close,_kairo_tick,_kairo_frame,_kairo_audio,_kairo_audio_len,_kairo_save,_kairo_save_len,_kairo_save_changes,_kairo_cycles,_kairo_text,_kairo_text_len,_kairo_net_open,_kairo_net_press,_kairo_net_hash_of_frame,_kairo_net_present,_kairo_net_received,_kairo_net_tick,_kairo_net_outgoing,_kairo_net_outgoing_len,_kairo_net_close,_kairo_net_leave,_kairo_net_rematch,_main'
flags=(
  # Lua's errors are setjmp/longjmp; this emscripten needs wasm exceptions for them.
  -sSUPPORT_LONGJMP=wasm
  "-sEXPORTED_FUNCTIONS=[${exports//,/\",\"}]"
  -sALLOW_MEMORY_GROWTH=1
  -sMODULARIZE=1
  -sEXPORT_NAME=KairoRuntime
  -sENVIRONMENT=web,node
  -sFILESYSTEM=0
)
rustflags=""
for flag in "${flags[@]}"; do
  rustflags+=" -C link-arg=${flag}"
done
# The exported names need their quotes inside the -s option.
rustflags="${rustflags//\[/[\"}"
rustflags="${rustflags//\]/\"]}"

# Speed over size (opt-level 3: a frame at full budget runs 2.5x faster than at "s", for
# 250 KB more); panics abort (the page shows its error screen): 165 KB less than unwinding.
RUSTFLAGS="${rustflags# }" \
CARGO_PROFILE_RELEASE_DEBUG=false \
CARGO_PROFILE_RELEASE_PANIC=abort \
CARGO_PROFILE_RELEASE_LTO=true \
CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  cargo build --release --target wasm32-unknown-emscripten \
    --no-default-features --features web-runtime --bin kairo-web

out=target/wasm32-unknown-emscripten/release
cp "$out/kairo-web.js" web/dist/kairo_web.js
cp "$out/kairo_web.wasm" web/dist/kairo_web.wasm
# The digest of the sources just built, written by the test that checks it.
KAIRO_WEB_DIGEST=write cargo test --quiet --no-default-features --test web_runtime
{
  echo "rustc $(rustc --version | cut -d' ' -f2-)"
  echo "emcc $(emcc --version | head -1 | sed 's/.*) \([0-9.]*\).*/\1/')"
} >> web/dist/SOURCES
ls -l web/dist
