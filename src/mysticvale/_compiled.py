"""Optional compiled build of the hot modules, and the guard that keeps it honest.

The Python sources are the game; ``make`` (``scripts/compile.py``) also compiles the
modules that the engine and the bots spend their time in with Cython, in place, next to
their sources (``flow.py`` gets ``flow.cpython-311-x86_64-linux-gnu.so``).  Python would
always import such an extension module before its source, so this module installs an
import hook that falls back to the source when

* the environment variable ``MYSTICVALE_PURE`` is set to anything but ``""`` / ``0``
  (to debug, profile or measure the plain Python), or
* the source is newer than its compiled module (it was edited and not rebuilt), so a stale
  build never runs code that no longer matches the source.

A compiled module whose source is gone is refused with an ImportError that says so.

Compiled and pure builds play identically (``tests/engine/test_compiled_build.py`` replays seeded
games in both).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

#: The compiled modules, as paths under the package (globs allowed; ``__init__`` excluded).
COMPILED = (
    "engine/*.py",
    "engine/effects/*.py",
    "bots/base.py",
    "bots/greedy.py",
    "bots/ismcts.py",
    "bots/value_model.py",
)

#: Extension modules that are not a compiled twin of a source file: the native core (Rust,
#: ``native/``, loaded and checked by ``engine/native.py``) has no ``_native.py``.
NOT_COMPILED = frozenset({"mysticvale._native"})

PACKAGE_DIR = Path(__file__).resolve().parent
EXT_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def compiled_sources() -> list[Path]:
    """The source files that the compiled build covers."""
    out: list[Path] = []
    for pattern in COMPILED:
        out.extend(p for p in sorted(PACKAGE_DIR.glob(pattern)) if p.name != "__init__.py")
    return out


def pure_requested() -> bool:
    """True when ``MYSTICVALE_PURE`` asks for the plain Python modules."""
    return os.environ.get("MYSTICVALE_PURE", "") not in ("", "0")


def extension_for(source: Path) -> Path:
    """Where the compiled module of a source file lives: next to it."""
    return source.with_name(source.stem + EXT_SUFFIX)


def status() -> dict[str, object]:
    """Which build runs: ``{"build": "compiled" | "pure" | "partly compiled", ...}``.

    Reads the modules already imported, so call it after importing what you measure.
    """
    compiled, pure = [], []
    for source in compiled_sources():
        rel = source.relative_to(PACKAGE_DIR).with_suffix("")
        name = "mysticvale." + ".".join(rel.parts)
        mod = sys.modules.get(name)
        if mod is None:
            continue
        (compiled if str(getattr(mod, "__file__", "")).endswith(EXT_SUFFIX) else pure).append(name)
    build = "compiled" if compiled and not pure else "pure" if not compiled else "partly compiled"
    return {"build": build, "compiled": len(compiled), "pure": len(pure),
            "pure_requested": pure_requested()}


class _SourceWhenStale(importlib.abc.MetaPathFinder):
    """Import a mysticvale module from its source when asked to or when its build is stale."""

    def find_spec(self, fullname, path, target=None):  # noqa: D401 - importlib protocol
        if not fullname.startswith("mysticvale.") or path is None or fullname in NOT_COMPILED:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{leaf}.py"
            ext = extension_for(source)
            if not ext.exists():
                continue
            if not source.exists():
                # A module whose source is gone (removed or renamed) must not live on.
                raise ImportError(f"{ext} is a compiled module without its source {source.name}; "
                                  "remove it (make clean, or scripts/compile.py --clean)",
                                  name=fullname, path=str(ext))
            if pure_requested() or source.stat().st_mtime > ext.stat().st_mtime:
                return importlib.util.spec_from_file_location(fullname, source)
            return None
        return None


def install() -> None:
    """Put the guard first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _SourceWhenStale) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceWhenStale())
