"""The one module that imports the native core (``mysticvale._native``, Rust, ``native/``).

The native core is an optional twin of this engine, built in place by ``make`` where cargo
exists.  The package installs, plays and passes its tests without it.  It is not used when

* it is not built (no cargo, or ``make`` not run yet),
* ``MYSTICVALE_PURE`` asks for the plain Python (as for the Cython build, ``_compiled.py``),
* it is stale: built from older Rust sources than the checkout's (``native/``), or for
  another version of the save or catalogue formats, so a stale build never plays.

:func:`available` says whether it may be used, :func:`unavailable_reason` why not.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from .. import _compiled
from . import native_catalogue
from .catalogue import Catalogue

#: The crate's folder in a source checkout (absent in an installed package).
CRATE_DIR = Path(__file__).resolve().parents[3] / "native"

#: The value network's weights, which the core embeds (``native/src/bots/value_net.rs``).
VALUE_NET_WEIGHTS = Path(__file__).resolve().parents[1] / "bots" / "data" / "value_net.json"

_CACHE_ATTR = "_native_catalogue"


def _newest_source(crate: Path) -> float:
    """The newest modification time of the crate's sources (0 when there are none); the value
    network's weights are built into the core, so they count as a source."""
    files = [crate / "Cargo.toml", crate / "Cargo.lock", *crate.glob("src/**/*.rs"), VALUE_NET_WEIGHTS]
    return max((f.stat().st_mtime for f in files if f.exists()), default=0.0)


def _load() -> tuple[ModuleType | None, str | None]:
    if _compiled.pure_requested():
        return None, "MYSTICVALE_PURE asks for the plain Python engine"
    try:
        from .. import _native
    except ImportError as exc:
        return None, f"the native core is not built ({exc}); run `make native` where cargo exists"
    if getattr(_native, "CATALOGUE_VERSION", None) != native_catalogue.VERSION:
        return None, ("the native core is stale: it reads catalogue tables of version "
                      f"{getattr(_native, 'CATALOGUE_VERSION', None)!r}, this engine writes "
                      f"{native_catalogue.VERSION}; rebuild it with `make native`")
    built = Path(_native.__file__).stat().st_mtime
    if CRATE_DIR.is_dir() and _newest_source(CRATE_DIR) > built:
        return None, ("the native core is stale: native/ or the value network's weights changed since it was "
                      "built; rebuild it with `make native`")
    return _native, None


_NATIVE, _REASON = _load()


def available() -> bool:
    """True when the native core is built, current, and not switched off."""
    return _NATIVE is not None


def unavailable_reason() -> str | None:
    """Why the native core is not used (None when it is)."""
    return _REASON


def module() -> ModuleType:
    """The native extension module; RuntimeError saying why when it cannot be used."""
    if _NATIVE is None:
        raise RuntimeError(f"the native engine is not available: {_REASON}")
    return _NATIVE


def catalogue(cat: Catalogue):
    """The native twin of a catalogue (``_native.Catalogue``), built once per catalogue
    from its canonical table; ``CatalogueError`` if the native core cannot represent it."""
    twin = cat.__dict__.get(_CACHE_ATTR)
    if twin is None:
        twin = module().Catalogue.from_table_json(native_catalogue.table_json(cat), f"catalogue {cat.source}")
        cat.__dict__[_CACHE_ATTR] = twin
    return twin


def save_catalogue(text: str | bytes) -> Catalogue:
    """The catalogue a save names, resolved by Python (the only reader of card data), with
    :func:`serialize.loads`'s errors for a text that is no save of a supported version."""
    import json

    from ..cards.catalogue import catalogue_from_json
    from ..errors import SaveError
    from . import serialize

    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise SaveError(f"not a saved game: the text is not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != serialize.FORMAT:
        raise SaveError("not a saved game: the 'format' field is missing or wrong")
    if data.get("version") != serialize.VERSION:
        raise SaveError(f"saved game version {data.get('version')!r} is not supported "
                        f"(expected {serialize.VERSION})")
    try:
        return catalogue_from_json(data["catalogue"])
    except Exception as exc:  # any malformed catalogue entry: refuse the whole save
        raise SaveError(f"corrupt saved game: {type(exc).__name__}: {exc}") from None


def save_round_trip(text: str | bytes) -> str:
    """A save loaded into the native core's state and written again (for the proofs: it
    must be the text the Python engine writes); ``SaveError`` for a corrupt save."""
    cat = save_catalogue(text)
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return module().save_round_trip(catalogue(cat), text)
