#!/usr/bin/env bash
# Rust formatting and lints, as issue #41 asks CI to run them:
#
#   tools/lint.sh          # cargo fmt --check, then clippy with warnings as errors
#
# .ci/run calls it before the Rust tests. rustfmt.toml keeps the tree's
# 120-column lines. clippy checks both feature sets: the default one (what
# `cargo test` builds) and `python` (the bindings, what the wheel builds).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

echo "== cargo fmt --check =="
cargo fmt --all -- --check

echo "== cargo clippy --all-targets -- -D warnings =="
cargo clippy --quiet --all-targets -- -D warnings
echo "== cargo clippy --all-targets --features python -- -D warnings =="
cargo clippy --quiet --all-targets --features python -- -D warnings
