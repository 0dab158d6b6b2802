"""Action notation: the native core reads it as Action.parse, with the same messages."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings, strategies as st

from mysticvale.engine.actions import VERBS, Action
from mysticvale.errors import InvalidActionError

words = st.sampled_from(list(VERBS) + ["PUSH", "Buy", "jump", "#7", "1.2", "soil.top", "it's", "a\"b", "x\\y",
                                       "ünï", "\u212aeep", "on", "vale.3", "#7.2", "\x00", "\ud800"])
spaces = st.sampled_from([" ", "  ", "\t", "\n", "\x1c", "\x1f", "\u3000", "\xa0", "\u2028", "\x85", "\u200b"])
notations = st.builds(lambda ws, sp, lead, tail: lead + sp.join(ws) + tail,
                      st.lists(words, max_size=4), spaces, st.sampled_from(["", " ", "\x1d"]),
                      st.sampled_from(["", " ", "\r\n"]))


def _python(text):
    try:
        a = Action.parse(text)
    except InvalidActionError as exc:
        return ("error", str(exc))
    return (a.verb, list(a.args))


def _native(core, text):
    try:
        return core.parse_action(text)[0], core.parse_action(text)[1]
    except InvalidActionError as exc:
        return ("error", str(exc))


@settings(max_examples=400, deadline=None)
@given(text=notations | st.text(max_size=20))
@example(text="")
@example(text="jump")
@example(text="use #7.2 it's")
@example(text="buy 1.1 on #7")
@example(text="\ud800 push")
@example(text="push \udfff")
def test_any_text_reads_the_same_or_fails_with_the_same_message(core, text):
    assert _native(core, text) == _python(text)


@pytest.mark.parametrize("value", [7, None, b"push", ["push"]])
def test_what_is_not_text_is_refused_as_python_refuses_it(core, value):
    with pytest.raises(InvalidActionError) as mine:
        core.parse_action(value)
    with pytest.raises(InvalidActionError) as ref:
        Action.parse(value)
    assert str(mine.value) == str(ref.value)
