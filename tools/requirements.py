"""Prints the requirements of pyproject.toml's extras, one a line, with the
package's own extras expanded (``ludoteca[gymnasium]`` inside an extra
becomes gymnasium's line) and the base dependencies first.

    python tools/requirements.py test-train [more extras...]

.ci/run installs the test dependencies from this list while the wheel is
still compiling: `pip install '.[test-train]'` would first build the
package, and a wheel's extras can only be installed once the wheel exists.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # the release workflow's Python 3.9 jobs: pip install tomli
    import tomli as tomllib

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def requirements(extras: list[str]) -> list[str]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    name = project["name"]
    optional: dict[str, list[str]] = project.get("optional-dependencies", {})
    own = re.compile(rf"^{re.escape(name)}\[([^\]]+)\]\s*$")
    out: list[str] = list(project.get("dependencies", []))
    seen: set[str] = set()
    todo = list(extras)
    while todo:
        extra = todo.pop(0)
        if extra in seen:
            continue
        if extra not in optional:
            raise SystemExit(f"no extra {extra!r} in {PYPROJECT.name}; known: {', '.join(sorted(optional))}")
        seen.add(extra)
        for req in optional[extra]:
            match = own.match(req)
            if match:
                todo += [e.strip() for e in match.group(1).split(",")]
            elif req not in out:
                out.append(req)
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    print("\n".join(requirements(sys.argv[1:])))
