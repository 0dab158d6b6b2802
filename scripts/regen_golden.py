"""Rewrite the golden playthrough files (tests/golden/) from the current engine."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from golden_playthrough import CASES, path, playthrough  # noqa: E402

for name, case in CASES.items():
    path(name).write_text(playthrough(**case))
    print("wrote", path(name))
