"""The README snippet of docs/research.md runs as written (a faster search budget aside)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def _snippet_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- README snippet starts here -->")
    end = text.index("<!-- README snippet ends here -->")
    return re.findall(r"```python\n(.*?)```", text[start:end], re.S)


def test_the_readme_snippet_has_one_example_per_interface():
    blocks = _snippet_blocks()
    assert len(blocks) == 3
    assert "codec" in blocks[0] and "pyspiel" in blocks[1] and "pettingzoo" in blocks[2]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_readme_snippet_runs(index, capsys):
    # The whole-game ISMCTS run is tested in test_openspiel_game; here the game is cut
    # after 60 actions (a draw) to keep the suite fast.
    code = _snippet_blocks()[index].replace("max_simulations=20", "max_simulations=2")
    code = code.replace("ruleset=yucata)", "ruleset=yucata,max_game_length=60)")
    assert index != 1 or ("max_game_length=60" in code and "max_simulations=2" in code)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # PettingZoo's advisory warnings (see api test)
        exec(compile(code, f"{DOC.name} block {index}", "exec"), {})
    if index == 1:
        out = capsys.readouterr().out
        returns = eval(out.strip().splitlines()[-1])  # noqa: S307  (our own printed list)
        assert abs(sum(returns) - 1.0) < 1e-9
