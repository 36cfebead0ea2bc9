#!/usr/bin/env bash
# Installs everything kubewasm needs to build and test, and nothing that is already there.
# Idempotent: a second run only prints "ok" lines. Safe to run on a laptop (uses rustup's wasm32
# target when it can) and on a fresh Debian 12 machine with no access beyond its package
# registries (builds the wasm32 std from Debian's rustc-web sources instead; ../shared/toolchain.md).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }

# --- system packages (Debian) -------------------------------------------------------------------
# rustc-web/cargo-web/rust-web-src/lld-22: a wasm32 toolchain where rustup cannot download targets.
# etcd-server/etcd-client: the real etcd backend and its tests. chromium: the browser tests.
# pkg-config/libssl-dev: building wasm-pack from crates.io.
apt_packages=(rustc-web cargo-web rust-web-src lld-22 etcd-server etcd-client chromium pkg-config libssl-dev)
install_apt_packages() {
  local missing=()
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then say "ok: Debian packages"; return; fi
  if ! have apt-get; then say "skip: no apt-get; install by hand if needed: ${missing[*]}"; return; fi
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "apt-get install ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# --- a Rust toolchain with a wasm32 std ---------------------------------------------------------
# Writes the toolchain to use into build/toolchain (read by scripts/build-wasm.sh).
# KUBEWASM_WASM_TOOLCHAIN=debian forces the Debian recipe (to test it where rustup works).
wasm_toolchain=""
setup_wasm_toolchain() {
  mkdir -p build
  local default
  default=$(rustup show active-toolchain 2>/dev/null | cut -d' ' -f1 || true)
  if [ "${KUBEWASM_WASM_TOOLCHAIN:-}" = debian ]; then
    say "KUBEWASM_WASM_TOOLCHAIN=debian: using Debian rustc-web with a locally built std"
    debian_wasm_std
    wasm_toolchain="web"
  elif rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
    wasm_toolchain="$default"; say "ok: rustup target wasm32-unknown-unknown ($default)"
  elif [ -n "$default" ] && timeout 90 rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
    wasm_toolchain="$default"; say "rustup target add wasm32-unknown-unknown: done"
  else
    say "rustup cannot add wasm32 here; using Debian rustc-web with a locally built std"
    debian_wasm_std
    wasm_toolchain="web"
  fi
  echo "$wasm_toolchain" > build/toolchain
}

debian_wasm_std() {
  local sysroot=/usr/lib/rustlib/wasm32-unknown-unknown/lib
  if ls "$sysroot"/libstd-*.rlib >/dev/null 2>&1; then
    say "ok: wasm32 std in $sysroot"
  else
    say "building the wasm32 std from rust-web-src (about a minute)"
    local scratch; scratch=$(mktemp -d)
    mkdir -p "$scratch/src" "$scratch/.cargo"
    cat > "$scratch/Cargo.toml" <<'TOML'
[package]
name = "sysroot-builder"
version = "0.0.0"
edition = "2021"
[profile.release]
panic = "abort"
TOML
    echo '#![no_std]' > "$scratch/src/lib.rs"
    cat > "$scratch/.cargo/config.toml" <<'TOML'
[source.crates-io]
replace-with = "vendored"
[source.vendored]
directory = "/usr/lib/rustlib/src/rust/library/vendor"
TOML
    # -Cembed-bitcode=yes keeps LTO working against this std; panic=abort matches the target.
    (cd "$scratch" && RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc RUSTFLAGS=-Cembed-bitcode=yes \
      /usr/bin/cargo build -q --release --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort)
    mkdir -p "$sysroot"
    for f in "$scratch"/target/wasm32-unknown-unknown/release/deps/*.rlib; do
      case "$f" in *sysroot_builder*) ;; *) cp "$f" "$sysroot/" ;; esac
    done
    rm -rf "$scratch"
  fi
  if rustup toolchain list | grep -q '^web'; then
    say "ok: rustup toolchain 'web' -> /usr"
  else
    rustup toolchain link web /usr && say "linked rustup toolchain 'web' -> /usr"
  fi
}

# --- wasm-bindgen-cli (the exact version in Cargo.lock) and wasm-pack ----------------------------
cargo_install() { # name version-or-empty
  local name=$1 version=$2 args=(install "$1")
  [ -n "$version" ] && args+=(--version "$version")
  say "cargo install $name ${version} (a few minutes, once)"
  # --locked first; a lock naming a crate version this registry does not serve falls back to a
  # fresh resolution within the same semver ranges.
  cargo "${args[@]}" --locked -q 2>/dev/null || cargo "${args[@]}" -q
}

setup_wasm_tools() {
  cargo generate-lockfile --offline >/dev/null 2>&1 || [ -f Cargo.lock ] || cargo generate-lockfile -q
  local want
  want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
  if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" = "$want" ]; then
    say "ok: wasm-bindgen $want"
  else
    cargo_install wasm-bindgen-cli "$want"
  fi
  if have wasm-pack; then say "ok: $(wasm-pack --version)"; else cargo_install wasm-pack ""; fi
}

# --- npm packages -------------------------------------------------------------------------------
setup_npm() {
  if [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
    say "ok: node_modules"
  else
    say "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

install_apt_packages
setup_wasm_toolchain
setup_wasm_tools
setup_npm
say "ready (wasm toolchain: $wasm_toolchain)"
