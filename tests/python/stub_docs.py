"""The docstrings of ``python/ludoteca/_core.pyi``, and a tool that writes them
into the pyo3 sources as ``///`` doc comments, so that ``help()``, ``?`` in
Jupyter and ``__doc__`` show at run time the same text the stub shows to type
checkers and editors.

    python tests/python/stub_docs.py          # rewrite the doc comments in src/python/*.rs

The stub is the one place to edit a docstring; run this afterwards (and
rebuild). ``test_docstrings.py`` checks the compiled module against the stub.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STUB = ROOT / "python" / "ludoteca" / "_core.pyi"


def stub_docs() -> dict[str, str]:
    """``{"games": doc, "State": doc, "State.play": doc, ...}`` for every
    documented name of the stub (cleaned as ``inspect.cleandoc`` does)."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            doc = ast.get_docstring(node)
            if doc:
                out[node.name] = doc
        elif isinstance(node, ast.ClassDef):
            doc = ast.get_docstring(node)
            if doc:
                out[node.name] = doc
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    doc = ast.get_docstring(item)
                    if doc and f"{node.name}.{item.name}" not in out:
                        out[f"{node.name}.{item.name}"] = doc
    return out


def _doc_lines(doc: str, indent: str) -> list[str]:
    return [f"{indent}///{' ' + line if line else ''}\n" for line in inspect.cleandoc(doc).splitlines()]


def rewrite(path: Path, docs: dict[str, str]) -> bool:
    """Puts the stub's docs on the pyclasses, pymethods and pyfunctions of
    one source file; returns whether the file changed."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    rust_to_py: dict[str, str] = {}
    for i, line in enumerate(lines):
        m = re.search(r'#\[pyclass\(name = "(\w+)"', line)
        if m:
            for follow in lines[i + 1 : i + 4]:
                s = re.match(r"\s*pub(?:\(crate\))? struct (\w+)", follow)
                if s:
                    rust_to_py[s.group(1)] = m.group(1)
                    break
    out: list[str] = []
    current: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        impl = re.match(r"impl (\w+) \{", line)
        if impl:
            pymethods = any("#[pymethods]" in prev for prev in out[-2:])
            current = rust_to_py.get(impl.group(1)) if pymethods else None
        elif line.startswith("}"):
            current = None
        key: str | None = None
        cls = re.search(r'#\[pyclass\(name = "(\w+)"', line)
        fn = re.match(r"(\s*)(?:pub(?:\(crate\))? )?fn (\w+)", line)
        if cls:
            key = cls.group(1)
        elif fn and (current is not None or _is_pyfunction(out)):
            name = fn.group(2)
            setter = name.startswith("set_") and _has_attr(out, "#[setter]")
            key = None if setter or name == "new" else (f"{current}.{name}" if current else name)
        if key and key in docs:
            start = _attr_block_start(out)
            indent = re.match(r"\s*", line).group(0)  # type: ignore[union-attr]
            block = [b for b in out[start:] if not b.strip().startswith("///")]
            out[start:] = _doc_lines(docs[key], indent) + block
        out.append(line)
        i += 1
    text = "".join(out)
    changed = text != path.read_text(encoding="utf-8")
    if changed:
        path.write_text(text, encoding="utf-8")
    return changed


def _attr_block_start(out: list[str]) -> int:
    """Index where the attributes and doc comments above the current item begin."""
    k = len(out)
    while k > 0 and (out[k - 1].strip().startswith(("#[", "///"))):
        k -= 1
    return k


def _has_attr(out: list[str], attr: str) -> bool:
    return any(attr in line for line in out[_attr_block_start(out) :])


def _is_pyfunction(out: list[str]) -> bool:
    return _has_attr(out, "#[pyfunction]")


def main() -> int:
    docs = stub_docs()
    for path in sorted((ROOT / "src" / "python").glob("*.rs")):
        if rewrite(path, docs):
            print(f"rewrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
