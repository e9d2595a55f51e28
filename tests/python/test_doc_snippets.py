"""Every code block in README.md and docs/ runs as written.

Which blocks run, and how (the same text is in docs/howto.md, "Snippets under test"):

* ```` ```python ```` blocks run in order, one namespace per page (a later block
  may use what an earlier one made, as in a notebook), in a fresh temporary
  directory.
* ```` ```bash ```` blocks run command by command (lines, split at ``&&``):
  ``python``/``python3`` commands run from the repository root (``python3 -m
  pip ...`` is skipped: the test environment is installed already); any other
  program needs the block to be marked.
* Blocks without a language are output listings and do not run.
* ``<!-- no-test: reason -->`` on the line before a block: it does not run (it
  shows up as a skipped test with the reason).
* ``<!-- needs: module -->`` on a line before a block: skipped when that
  optional module is not installed (python blocks need no marker: their imports
  of torch, sb3-contrib, gymnasium, pettingzoo or Pillow are checked).
* ``<!-- smoke: OLD -> NEW -->`` lines before a block: a long block (training
  for minutes) runs with OLD replaced by NEW, unless ``LUDOTECA_DOCS_FULL=1``,
  which runs it as written.

Every docs/*.md page is picked up, new pages included.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FULL = os.environ.get("LUDOTECA_DOCS_FULL") == "1"


@dataclass
class Block:
    page: str
    line: int
    lang: str
    code: str
    skip: str | None = None
    needs: list[str] = field(default_factory=list)
    smoke: list[tuple[str, str]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    def text(self) -> str:
        if FULL:
            return self.code
        code = self.code
        for old, new in self.smoke:
            assert old in code, f"{self.id}: smoke replacement {old!r} is not in the block"
            code = code.replace(old, new)
        return code


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        block = Block(str(page.relative_to(ROOT)), i + 1, m.group(1), "\n".join(lines[i + 1 : j]) + "\n")
        k = i - 1
        while k >= 0 and lines[k].startswith("<!--"):
            note = re.match(r"<!--\s*(no-test|smoke|needs):\s*(.*?)\s*-->", lines[k])
            if note and note.group(1) == "no-test":
                block.skip = note.group(2)
            elif note and note.group(1) == "needs":
                block.needs.append(note.group(2))
            elif note:
                old, new = note.group(2).split(" -> ")
                block.smoke.append((old, new))
            k -= 1
        out.append(block)
        i = j + 1
    return out


ALL = [b for p in pages() for b in blocks(p) if b.lang in ("python", "bash", "sh")]
# Per page: the namespace and the working directory its python blocks share,
# and the blocks that ran.
_namespaces: dict[str, dict[str, Any]] = {}
_dirs: dict[str, Path] = {}
_ran: set[str] = set()
# Optional dependencies a block may import; without them it is skipped.
OPTIONAL = {
    "sb3_contrib": "test-train",
    "stable_baselines3": "test-train",
    "torch": "test-train",
    "gymnasium": "test",
    "pettingzoo": "test",
    "PIL": "test",
}


def _missing(block: Block) -> str | None:
    for name, extra in OPTIONAL.items():
        imported = re.search(rf"^\s*(import|from)\s+{name}\b", block.code, re.M)
        if (imported or name in block.needs) and importlib.util.find_spec(name) is None:
            return f"needs {name} (pip install '.[{extra}]')"
    return None


def _run_python(block: Block, tmp_factory: pytest.TempPathFactory) -> None:
    ns = _namespaces.setdefault(block.page, {"__name__": "__doc__"})
    tmp = _dirs.setdefault(block.page, tmp_factory.mktemp("doc"))
    earlier = [b for b in ALL if b.page == block.page and b.lang == "python" and b.line < block.line and b.skip is None]
    for b in [*earlier, block]:
        why = _missing(b)
        if why:
            pytest.skip(f"{why} (block {b.id})")
    if any(re.search(r"^\s*(import|from)\s+(torch|sb3_contrib|stable_baselines3)\b", b.code, re.M) for b in [*earlier, block]):
        import torch

        # One thread, as examples/train_maskable_ppo.py uses: torch's default
        # thread pool crawls on a machine whose cores are busy.
        torch.set_num_threads(1)
    # Earlier blocks of the page first (when this test runs alone).
    for b in earlier:
        if b.id not in _ran:
            _exec(b, ns, tmp)
    _exec(block, ns, tmp)


def _exec(block: Block, ns: dict[str, Any], tmp: Path) -> None:
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        exec(compile(block.text(), block.id, "exec"), ns)
    finally:
        os.chdir(cwd)
    _ran.add(block.id)


def _run_bash(block: Block) -> None:
    for line in block.text().splitlines():
        for command in (c.strip() for c in line.split("&&")):
            if not command or command.startswith("#"):
                continue
            argv = shlex.split(command, comments=True)
            if argv[0] not in ("python", "python3"):
                pytest.fail(f"{block.id}: cannot run {argv[0]!r}: mark the block <!-- no-test: reason -->")
            if argv[1:3] == ["-m", "pip"]:
                continue
            done = subprocess.run(
                [sys.executable, *argv[1:]],
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, f"{block.id}: {command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


@pytest.mark.parametrize("block", ALL, ids=[b.id for b in ALL])
def test_doc_block_runs_as_written(block: Block, tmp_path_factory: pytest.TempPathFactory) -> None:
    if block.skip is not None:
        pytest.skip(block.skip)
    if block.lang == "python":
        _run_python(block, tmp_path_factory)
    else:
        why = _missing(block)
        if why:
            pytest.skip(why)
        _run_bash(block)


def test_every_docs_page_is_scanned() -> None:
    scanned = {b.page for b in ALL}
    assert "README.md" in scanned and "docs/howto.md" in scanned
    for page in pages():
        assert page.suffix == ".md"


def test_markers_are_spelled_right() -> None:
    """A misspelled marker would silently run (or not skip) a block."""
    for page in pages():
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"<!--\s*(no.?test|smoke|needs)", line, re.I):
                assert re.match(r"<!--\s*(no-test: .+|needs: \w+|smoke: .+ -> .+?)\s*-->$", line), f"{page}:{n}: {line}"


def test_readme_comments_say_what_the_code_prints() -> None:
    import ludoteca

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    state = ludoteca.Game("tablut", max_turns=200).new_state(seed=0)
    assert "# the board as text" in readme and str(state).startswith("9 # . . M M M . . #")
    first = state.legal_moves()[:2]
    assert f"['{first[0]}', '{first[1]}', ...]" in readme
