#!/usr/bin/env bash
# Builds the one .wasm that Node and the browser both load: crates/wasm → build/wasm/
# (kubewasm.js glue, kubewasm.d.ts, kubewasm_bg.wasm), then optimises it with wasm-opt.
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain=$(cat build/toolchain 2>/dev/null || true)
if [ -z "$toolchain" ]; then
  echo "build-wasm: no build/toolchain; run scripts/setup.sh first" >&2
  exit 1
fi
profile=${KUBEWASM_WASM_PROFILE:-release}

# --mode no-install: use the wasm-bindgen CLI on PATH (the setup script put the exact version there).
RUSTUP_TOOLCHAIN=$toolchain wasm-pack --quiet build crates/wasm --"$profile" --target web \
  --mode no-install --no-pack --out-dir ../../build/wasm --out-name kubewasm

if [ "$profile" = release ]; then
  wasm=build/wasm/kubewasm_bg.wasm
  before=$(stat -c %s "$wasm")
  # The features rustc enables by default for wasm32-unknown-unknown must be allowed explicitly.
  npx --no-install wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
  echo "build-wasm: $wasm $((before / 1024)) KiB → $(($(stat -c %s "$wasm") / 1024)) KiB (wasm-opt -O3)"
fi
