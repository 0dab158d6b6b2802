import pytest

from mysticvale.bots.stats import describe, wilson


def test_wilson_known_values():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(380, 400)
    assert lo == pytest.approx(0.9240, abs=1e-3) and hi == pytest.approx(0.9674, abs=1e-3)


def test_wilson_bad_input_and_empty():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes"):
        wilson(11, 10)


def test_describe():
    d = describe([1, 2, 3, 4])
    assert d["mean"] == 2.5 and d["min"] == 1 and d["max"] == 4
    assert d["sd"] == pytest.approx(1.1180, abs=1e-4)
    assert describe([])["mean"] == 0.0
