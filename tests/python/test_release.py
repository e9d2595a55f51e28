"""Release facts: one version everywhere with its changelog entry, the
licence files, the release workflow's shape, and what ``import ludoteca``
costs (no numpy, no optional dependency until first use).

The wheel itself (built, installed in a fresh venv, its contents) is
``test_wheel.py``'s.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ludoteca

ROOT = Path(__file__).resolve().parents[2]
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$")


def _cargo_version() -> str:
    text = (ROOT / "Cargo.toml").read_text()
    package = text.split("[package]", 1)[1].split("\n[", 1)[0]
    match = re.search(r'^version = "([^"]+)"', package, re.M)
    assert match, "no version in Cargo.toml's [package]"
    return match.group(1)


def test_version_is_semver_and_one_number_everywhere() -> None:
    version = _cargo_version()
    assert SEMVER.match(version), version
    assert ludoteca.__version__ == version
    # pyproject takes it from Cargo.toml (maturin): no second copy to forget.
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject
    assert not re.search(r"^version\s*=", pyproject.split("[project]", 1)[1].split("\n[", 1)[0], re.M)
    assert importlib.metadata.version("ludoteca") == version


def test_changelog_has_an_entry_and_a_link_for_every_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in text
    released = re.findall(r"^## \[(\d[^\]]*)\] - (\d{4}-\d{2}-\d{2})$", text, re.M)
    versions = [v for v, _ in released]
    assert _cargo_version() in versions, "CHANGELOG.md has no entry for the package version"
    assert all(SEMVER.match(v) for v in versions), versions
    # Newest first, dates not going forward down the file.
    keys = [tuple(int(x) for x in v.split("-")[0].split(".")) for v in versions]
    assert keys == sorted(keys, reverse=True), versions
    dates = [d for _, d in released]
    assert dates == sorted(dates, reverse=True), dates
    for v in ["Unreleased", *versions]:
        assert re.search(rf"^\[{re.escape(v)}\]: https://", text, re.M), f"no link for [{v}]"
    for section in re.findall(r"^### (.+)$", text, re.M):
        assert section in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, section


def test_licence_file_matches_the_declared_licence() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^license = "MIT"$', pyproject, re.M)
    assert re.search(r'^license = "MIT"$', (ROOT / "Cargo.toml").read_text(), re.M)
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text
    files = re.search(r"^license-files = \[(.*)\]$", pyproject, re.M)
    assert files and {"LICENSE", "THIRD-PARTY-LICENSES.md"} <= set(re.findall(r'"([^"]+)"', files.group(1)))


@pytest.mark.skipif(shutil.which("cargo") is None, reason="needs cargo (cargo metadata) to list the crates")
def test_third_party_licences_list_the_linked_crates_of_cargo_lock() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "third_party.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    text = (ROOT / "THIRD-PARTY-LICENSES.md").read_text()
    for crate in ("pyo3", "numpy", "rayon", "rand", "thiserror"):
        assert f"| {crate} |" in text, crate
    # Build-time only: not in the binary, not listed.
    for crate in ("syn", "quote", "proc-macro2", "pyo3-macros"):
        assert f"| {crate} |" not in text, crate


def _workflow() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text())  # type: ignore[no-any-return]


def test_release_workflow_is_valid_against_the_github_workflow_schema() -> None:
    exe = shutil.which("check-jsonschema")
    if exe is None:
        pytest.skip("check-jsonschema is not installed (pip install check-jsonschema)")
    proc = subprocess.run([exe, "--builtin-schema", "vendor.github-workflows",
                           str(ROOT / ".github" / "workflows" / "release.yml")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_release_workflow_builds_tests_and_publishes_every_platform() -> None:
    wf = _workflow()
    jobs = wf["jobs"]
    text = json.dumps(wf)
    for platform in ("x86_64", "aarch64", "musllinux_1_2", "macos-15", "macos-15-intel", "windows-latest"):
        assert platform in text, platform
    assert "sdist" in jobs
    # Each wheel is tested on its own platform, at the abi3 floor and a current Python.
    tests = jobs["test"]["strategy"]["matrix"]["include"]
    artifacts = {t["artifact"] for t in tests}
    built = {"dist-linux-x86_64-2014", "dist-linux-aarch64-2014", "dist-macos-x86_64", "dist-macos-aarch64",
             "dist-windows-x64"}
    assert built <= artifacts, built - artifacts
    assert "3.9" in {t["python"] for t in tests}
    assert any("pytest" in step.get("run", "") for step in jobs["test"]["steps"])
    # Publishing: only from a tag, only after every test, by trusted publishing (no token).
    publish = jobs["publish"]
    assert publish["if"].startswith("startsWith(github.ref, 'refs/tags/v')")
    assert {"sdist", "test", "test-musl"} <= set(publish["needs"])
    assert publish["permissions"] == {"id-token": "write"}
    assert any(step.get("uses", "").startswith("pypa/gh-action-pypi-publish") for step in publish["steps"])
    assert "password" not in json.dumps(publish)


def _fresh_import(code: str, no_site: bool = False) -> str:
    # no_site (-S): no site-packages, so no .pth file imports anything first;
    # the package's own folder is put on the path instead.
    env = dict(os.environ, PYTHONPATH=str(Path(ludoteca.__file__).parents[1]))
    flags = ["-S"] if no_site else []
    proc = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_import_ludoteca_imports_no_numpy_and_no_optional_dependency() -> None:
    out = _fresh_import(
        "import sys, ludoteca\n"
        "heavy = ('numpy', 'typing', 'gymnasium', 'pettingzoo', 'torch', 'ray', 'PIL', 'ludoteca._obs',"
        " 'ludoteca._sampling', 'ludoteca.render', 'ludoteca.agents')\n"
        "print(sorted(m for m in sys.modules if m in heavy))\n",
        no_site=True,
    )
    assert out.strip() == "[]", out


def test_lazy_names_are_the_submodules_functions() -> None:
    out = _fresh_import(
        "import ludoteca\n"
        "names = ['unpack_observation', 'masked_categorical', 'masked_uniform']\n"
        "assert all(n in dir(ludoteca) for n in names)\n"
        "from ludoteca import masked_uniform\n"
        "from ludoteca._obs import unpack_observation\n"
        "from ludoteca._sampling import masked_categorical, masked_uniform as mu\n"
        "assert masked_uniform is mu and ludoteca.unpack_observation is unpack_observation\n"
        "assert ludoteca.masked_categorical is masked_categorical\n"
        "try:\n"
        "    ludoteca.no_such_name\n"
        "except AttributeError as e:\n"
        "    print(e)\n"
    )
    assert "no attribute 'no_such_name'" in out


def test_the_tested_package_is_the_installed_wheel_when_ci_says_so() -> None:
    # .ci/run sets LUDOTECA_WHEEL and runs the suite in a venv with that
    # wheel installed: the package under test must be it, not python/ here.
    if not os.environ.get("LUDOTECA_WHEEL"):
        pytest.skip("LUDOTECA_WHEEL is not set (not testing an installed wheel)")
    where = Path(ludoteca.__file__).resolve()
    assert ROOT / "python" not in where.parents, where
    assert "site-packages" in where.parts, where
    # The venv's own copy (from the wheel), not one that the base Python it
    # sees through --system-site-packages may hold.
    assert Path(sys.prefix).resolve() in where.parents, (where, sys.prefix)
    assert ludoteca.__version__ in Path(os.environ["LUDOTECA_WHEEL"]).name


def test_ci_requirements_expand_the_packages_own_extras() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "requirements.py"), "test-train"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    reqs = proc.stdout.split()
    names = {re.split(r"[\[<>=!~ ]", r, maxsplit=1)[0].lower() for r in reqs}
    # test-train = test + train + sb3 + torchrl + rllib + rllib-bench, and test = ... + all + arena.
    for name in ("numpy", "pytest", "pytest-xdist", "torch", "ray", "stable-baselines3", "torchrl", "gymnasium",
                 "pettingzoo", "pillow", "tqdm", "open_spiel"):
        assert name in names, name
    assert "ludoteca" not in names
    assert len(reqs) == len(set(reqs))
    bad = subprocess.run([sys.executable, str(ROOT / "tools" / "requirements.py"), "no-such-extra"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "no extra 'no-such-extra'" in bad.stderr
