"""Golden playthroughs diffed line by line (regenerate: python scripts/regen_golden.py)."""

import pytest

from golden_playthrough import CASES, path, playthrough


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    expected = path(name).read_text().splitlines()
    actual = playthrough(**CASES[name]).splitlines()
    for i, (e, a) in enumerate(zip(expected, actual)):
        assert a == e, f"{name}.txt line {i + 1} differs"
    assert len(actual) == len(expected)
