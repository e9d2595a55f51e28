"""The optional dependencies of ludoteca's integration modules, checked before they are imported.

``import ludoteca.gym`` without gymnasium would otherwise fail with Python's
bare "No module named 'gymnasium'", which names neither the module that
needed it nor the extra that installs it.
"""

from __future__ import annotations

import importlib.util

__all__ = ["require"]


def require(module: str, extra: str, *packages: str) -> None:
    """Raises ``ModuleNotFoundError`` (an ``ImportError``) naming ``module``, the first of ``packages``
    (top-level import names) that is not installed, and the pip extra that installs them."""
    for name in packages:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise ModuleNotFoundError(
                f"{module} needs {name}, which is not installed: pip install 'ludoteca[{extra}]'"
                f" (from a clone of ludoteca: pip install '.[{extra}]')",
                name=name,
            )
