"""The public API as the issue names it (checks outside the project use these names)."""

import doctest

import pytest

import mysticvale as mv


def test_public_api_names():
    game = mv.new_game(players=2, seed=7)
    game = mv.new_game(players=3, seed=7, sets=("base",), ruleset="english")
    assert game.current_player in (0, 1, 2)
    legal = game.legal_actions()
    assert legal and len({str(a) for a in legal}) == len(legal)
    assert all(mv.Action.parse(str(a)) == a for a in legal)
    game.apply_action(legal[0])
    assert not game.is_over()
    assert len(game.scores()) == 3 and game.winners() == []
    obs = game.observe(None)
    assert obs["viewer"] is None
    clone = game.clone()
    assert clone.to_json() == game.to_json()
    assert mv.Game.from_json(game.to_json()).to_json() == game.to_json()
    assert issubclass(mv.IllegalActionError, ValueError)


def test_apply_action_accepts_notation_and_rejects_illegal_ones():
    game = mv.new_game(players=2, seed=1)
    with pytest.raises(mv.IllegalActionError, match="not legal now"):
        game.apply_action("buy 3.1")
    with pytest.raises(mv.InvalidActionError):
        game.apply_action("push!!")
    game.apply_action("pass")
    assert game.phase == "harvest"


def test_package_docstring_examples():
    result = doctest.testmod(mv, verbose=False)
    assert result.attempted > 0 and result.failed == 0


def test_readme_example(tmp_path):
    from pathlib import Path
    readme = Path(__file__).resolve().parents[2] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, verbose=False)
    assert result.attempted > 0 and result.failed == 0
