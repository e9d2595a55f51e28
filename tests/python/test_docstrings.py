"""Every public name has a docstring at run time (``help()``, Jupyter's ``?``),
and the compiled core's are the stub's (``_core.pyi``) word for word:
``tests/python/stub_docs.py`` copies them into the pyo3 sources."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

import ludoteca
from ludoteca import _core

sys.path.insert(0, str(Path(__file__).parent))
from stub_docs import stub_docs  # noqa: E402

# Modules that import an optional dependency at import time.
OPTIONAL = {
    "ludoteca.gym": "gymnasium",
    "ludoteca.pettingzoo": "pettingzoo",
    "ludoteca.train": "torch",
    "ludoteca.train.alphazero": "torch",
    "ludoteca.train.nets": "torch",
    "ludoteca.train.__main__": "torch",
}


def _public(obj: Any) -> Iterator[tuple[str, Any]]:
    for name, value in vars(obj).items():
        if not name.startswith("_"):
            yield name, value


def test_core_names_carry_the_stub_docstrings() -> None:
    docs = stub_docs()
    missing, different = [], []
    for name in _core.__all__:
        if name == "__version__":
            continue
        obj = getattr(_core, name)
        targets = [(name, obj)]
        if inspect.isclass(obj):
            targets += [(f"{name}.{attr}", value) for attr, value in _public(obj)]
        for key, value in targets:
            doc = value.__doc__
            if not doc or not doc.strip():
                missing.append(key)
            elif key in docs and inspect.cleandoc(doc) != docs[key]:
                different.append(key)
    assert not missing, f"no runtime docstring: {missing}"
    assert not different, f"runtime docstring differs from _core.pyi (run tests/python/stub_docs.py): {different}"


def test_every_stub_name_is_documented() -> None:
    docs = stub_docs()
    for name in _core.__all__:
        if name == "__version__":
            continue
        obj = getattr(_core, name)
        assert name in docs, name
        if inspect.isclass(obj):
            for attr, _ in _public(obj):
                assert f"{name}.{attr}" in docs, f"{name}.{attr} has no docstring in _core.pyi"


def test_help_shows_the_docs() -> None:
    assert "A game in progress" in (ludoteca.State.__doc__ or "")
    assert "one per distinct resulting position" in (ludoteca.State.legal_moves.__doc__ or "")
    assert "seed" in (ludoteca.Game.new_state.__doc__ or "")


def _modules() -> Iterator[ModuleType]:
    yield ludoteca
    for info in pkgutil.walk_packages(ludoteca.__path__, "ludoteca."):
        if info.name in ("ludoteca.__main__", "ludoteca._core"):
            continue
        needs = OPTIONAL.get(info.name)
        if needs and importlib.util.find_spec(needs) is None:
            continue
        yield importlib.import_module(info.name)


@pytest.mark.parametrize("module", list(_modules()), ids=lambda m: m.__name__)
def test_python_module_names_have_docstrings(module: ModuleType) -> None:
    assert module.__doc__ and module.__doc__.strip(), module.__name__
    missing = []
    for name, obj in _public(module):
        if getattr(obj, "__module__", None) != module.__name__:
            continue  # imported from elsewhere: checked where it is defined
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for attr, value in _public(obj):
                if inspect.isfunction(value) or isinstance(value, property):
                    doc = (value.__doc__ or "").strip()
                    inherited = any(getattr(base, attr, None) is not None for base in obj.__mro__[1:] if base is not object)
                    if not doc and not inherited:
                        missing.append(f"{name}.{attr}")
    assert not missing, f"{module.__name__}: no docstring: {missing}"
