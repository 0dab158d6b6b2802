"""Compile the hot modules of the engine and the bots with Cython (``make`` runs this).

    .venv/bin/python scripts/compile.py          # build what changed
    .venv/bin/python scripts/compile.py --clean  # remove every compiled module

The sources stay the game: the compiled modules are the same Python, compiled as it is
(annotations are not turned into C types), about 1.5x faster.  The list of modules is
``mysticvale._compiled.COMPILED``.  Generated C goes to ``build/cython``, the built modules
to ``build/lib``, from where each changed one is moved next to its source.

Compiling is an optimisation, never a requirement: when there is no C compiler, no Python
headers or no Cython, or a build fails, this prints why and exits 0, and the game runs
from its sources.  It first tries to install a missing compiler or headers with
``scripts/install-system-packages.sh --build-tools``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from mysticvale import _compiled  # noqa: E402


def _missing_tools() -> list[str]:
    missing = []
    if not (shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")):
        missing.append("a C compiler")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        missing.append("the Python headers")
    return missing


def clean() -> int:
    removed = 0
    for source in _compiled.compiled_sources():
        ext = _compiled.extension_for(source)
        if ext.exists():
            ext.unlink()
            removed += 1
    for folder in ("cython", "lib", "temp"):
        shutil.rmtree(ROOT / "build" / folder, ignore_errors=True)
    print(f"compile: removed {removed} compiled modules")
    return 0


def build(jobs: int) -> int:
    if _missing_tools():
        subprocess.run(["bash", str(ROOT / "scripts" / "install-system-packages.sh"),
                        "--build-tools"], check=False, env={**os.environ, "PYTHON": sys.executable})
    missing = _missing_tools()
    if missing:
        print(f"compile: skipped, {' and '.join(missing)} missing; the game runs from its "
              "Python sources (slower)", file=sys.stderr)
        return 0
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution
    except ImportError as exc:
        print(f"compile: skipped, {exc.name} is not installed; the game runs from its Python "
              "sources (slower)", file=sys.stderr)
        return 0
    os.chdir(ROOT / "src")
    sources = [str(p.relative_to(ROOT / "src")) for p in _compiled.compiled_sources()]
    print(f"compile: the {len(sources)} hot modules with Cython, where changed (a minute or two "
          "the first time)", flush=True)
    try:
        modules = cythonize(
            sources, build_dir=str(ROOT / "build" / "cython"), nthreads=jobs, quiet=True,
            compiler_directives={
                "language_level": 3,
                # Keep Python semantics: functions stay introspectable and picklable, and
                # annotations stay annotations (no C type checks on arguments).
                "binding": True,
                "annotation_typing": False,
            })
        dist = Distribution({"ext_modules": modules})
        cmd = dist.get_command_obj("build_ext")
        cmd.inplace = False             # built under build/, then moved in below
        cmd.parallel = jobs
        cmd.build_lib = str(ROOT / "build" / "lib")
        cmd.build_temp = str(ROOT / "build" / "temp")
        dist.run_command("build_ext")
        placed = sum(_place(Path(cmd.get_ext_fullpath(ext.name)), ext.name) for ext in modules)
    except (Exception, SystemExit) as exc:  # a failed build leaves the sources in charge
        print(f"compile: failed ({exc}); the game runs from its Python sources (slower)",
              file=sys.stderr)
        return 0
    print(f"compile: {placed} compiled modules updated, {len(sources) - placed} already up to date")
    return 0


def _place(built: Path, name: str) -> bool:
    """Put a built module next to its source, unless the one there is the same.

    Written to a new file and renamed over the old one, never rewritten in place: a running
    game (a server, a test run) that loaded the old module keeps its own copy intact.
    """
    source = ROOT / "src" / Path(*name.split(".")).with_suffix(".py")
    target = _compiled.extension_for(source)
    data = built.read_bytes()
    fresh = target.exists() and target.stat().st_mtime >= source.stat().st_mtime
    if fresh and target.read_bytes() == data:
        return False
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, target)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="parallel compilations (default: one per core)")
    args = parser.parse_args()
    return clean() if args.clean else build(max(1, args.jobs))


if __name__ == "__main__":
    sys.exit(main())
