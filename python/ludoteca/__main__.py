"""``python -m ludoteca``: see :mod:`ludoteca.cli`."""

from .cli import main

raise SystemExit(main())
