"""Prints the import map of src/: for each module, the modules it imports,
then any circles and any import from a lower layer to a higher one.

    python tools/import_map.py [SRC_DIR]

A module is a file (`games/<family>/<file>` inside families; `python/*` as
one module per file). Test-only code (`tests.rs`, `reference.rs`, files
declared `#[cfg(test)] mod x;`, `#[cfg(test)]` items from the line that opens
them) is left out: tests may look anywhere. The layers are those of
docs/architecture.md. Exits with status 1 if there is a circle or an upward
import (`tests/python/test_import_map.py` runs it).
"""

import re
import sys
from pathlib import Path

SRC = Path(sys.argv[1] if len(sys.argv) > 1 else "src")
# Lowest first; a module may import its own layer or lower ones.
LAYERS = [
    {"core", "bits", "text", "error", "options", "sample"},
    {"game"},
    {"session"},
    {"search"},  # generic over Rules: above the session, below the erasure
    {"batch"},
    {"dynamic"},
    {"games"},  # every file under games/ (families order themselves: no circles)
    {"registry"},
    {"python", "lib"},
]
TEST_FILES = {"tests.rs", "reference.rs", "toy.rs"}


def module_of(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "mod":
        parts[-1] = "mod"
    return "/".join(parts)


def layer(mod: str) -> int:
    top = mod.split("/")[0]
    if top.startswith("testing"):
        return -1
    for i, names in enumerate(LAYERS):
        if top in names:
            return i
    raise SystemExit(f"no layer for {mod}")


def production_text(text: str) -> str:
    """The file without its `#[cfg(test)]` items (a module or function to its end)."""
    out, skip_depth, pending = [], None, False
    for line in text.splitlines():
        if skip_depth is not None:
            skip_depth += line.count("{") - line.count("}")
            if skip_depth <= 0:
                skip_depth = None
            continue
        if line.strip().startswith("#[cfg(test)]"):
            pending = True
            continue
        if pending:
            pending = False
            if line.rstrip().endswith(";"):
                continue
            depth = line.count("{") - line.count("}")
            if depth > 0:
                skip_depth = depth
            continue
        out.append(line)
    return "\n".join(out)


def test_only_files() -> set[Path]:
    """The files of modules declared `#[cfg(test)] mod name;`."""
    out = set()
    for path in SRC.rglob("*.rs"):
        lines = path.read_text().splitlines()
        folder = path.parent if path.name in ("mod.rs", "lib.rs") else path.with_suffix("")
        for prev, line in zip(lines, lines[1:]):
            m = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", line)
            if m and prev.strip().startswith("#[cfg(test)]"):
                out |= {folder / f"{m.group(1)}.rs", folder / m.group(1) / "mod.rs"}
    return out


def main() -> int:
    test_only = test_only_files()
    files = sorted(
        p
        for p in SRC.rglob("*.rs")
        if p.name not in TEST_FILES and "testing" not in p.parts and p not in test_only
    )
    mods = {module_of(p): p for p in files}
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        text = production_text(path.read_text())
        # Comments (doc links included) name modules without depending on them.
        text = re.sub(r"//.*", "", text)
        deps: set[str] = set()
        for m in re.finditer(r"\bcrate::((?:\w+::)*)(\{|\w+)", text):
            segs = [s for s in m.group(1).split("::") if s]
            deps.add(resolve(mods, segs))
        folder = "/".join(mod.split("/")[:-1])
        for m in re.finditer(r"\bsuper::(\w+)", text):
            name = m.group(1)
            cand = f"{folder}/{name}" if folder else name
            if cand in mods or cand + "/mod" in mods:
                deps.add(cand if cand in mods else cand + "/mod")
            elif folder:
                deps.add(f"{folder}/mod")
        if path.name in ("mod.rs", "lib.rs"):
            here = mod[: -len("/mod")] if mod.endswith("/mod") else ""
            for m in re.finditer(r"(?<![:\w])(\w+)::", text):
                cand = f"{here}/{m.group(1)}" if here else m.group(1)
                if cand in mods or cand + "/mod" in mods:
                    deps.add(cand if cand in mods else cand + "/mod")
        deps.discard(mod)
        deps.discard(None)  # type: ignore[arg-type]
        graph[mod] = deps
    for mod in sorted(graph):
        print(f"{mod:28} -> {', '.join(sorted(graph[mod])) or '-'}")
    cycles = find_cycles(graph)
    print(f"\ncircles: {len(cycles)}")
    for c in cycles:
        print("  " + " -> ".join(c + [c[0]]))
    upward = [(a, b) for a, ds in graph.items() for b in ds if layer(a) >= 0 and layer(b) > layer(a)]
    print(f"upward imports: {len(upward)}")
    for a, b in sorted(upward):
        print(f"  {a} -> {b}")
    return 1 if cycles or upward else 0


def resolve(mods: dict[str, Path], segs: list[str]) -> str:
    """The longest module path that `crate::segs...` names."""
    best = None
    for i in range(1, len(segs) + 1):
        cand = "/".join(segs[:i])
        if cand in mods:
            best = cand
        elif cand + "/mod" in mods:
            best = cand + "/mod"
    return best or (segs[0] if segs else "lib")


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    sys.exit(main())
