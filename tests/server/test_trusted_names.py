"""Names a player can trust (issue 22, finding 4): visible, unique up to look-alikes, never a label
of the table.  Every refusal says which rule (``reason``, for the page's language) and makes nobody."""

from __future__ import annotations

import pytest
from social_helpers import count, key, person

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("name, reason", [
    ("\u3164", "invisible"),                # Hangul filler: renders as nothing
    ("\u3164\u3164 \u3164", "invisible"),
    ("\u2800", "invisible"),                # blank Braille pattern
    ("\u115f\u1160", "invisible"),          # Hangul choseong/jungseong fillers
    ("\uffa0", "invisible"),
    ("An\u034fna", "invisible"),            # combining grapheme joiner
    ("Ann\ufe0fa", "invisible"),            # a variation selector
    ("\u0301", "marks"),                    # a lone combining mark
    ("\u0301\u0301\u0301", "marks"),
    ("Anna \u0301", "marks"),               # a mark after a space belongs to no letter
    ("Za\u0301\u0302\u0303\u0304lgo", "marks"),  # stacked marks
    ("Anna\u202eanna", "bidi"),             # right-to-left override
    ("\u2066Anna\u2069", "bidi"),           # an isolate
    ("\u200fAnna", "bidi"),                 # right-to-left mark
    ("...", "no_letter"),
    ("★ ★", "no_letter"),
])
def test_a_name_needs_a_visible_letter_and_nothing_hidden(client, name, reason):
    before = count(client, "people")
    r = client.post("/api/people", json={"name": name})
    assert r.status_code == 422, r.text
    assert r.json()["reason"] == reason
    assert count(client, "people") == before


@pytest.mark.parametrize("name", ["José", "Nguyễn", "Jürgen", "Ωmega", "Анна", "李小龍", "محمد", "देवनागरी", "R2-D2"])
def test_names_of_every_script_are_welcome(client, name):
    assert person(client, name)["name"] == name


@pytest.mark.parametrize("copy", [
    "Anna", "anna", "ANNA", " Anna ", "An na",
    "\u0410nna",                            # Cyrillic capital A
    "\uff21\uff4e\uff4e\uff41",             # full-width
    "\U0001d400nna",                        # mathematical bold A
])
def test_a_copy_or_look_alike_of_a_name_in_use_is_refused(client, copy):
    person(client, "Anna")
    before = count(client, "people")
    r = client.post("/api/people", json={"name": copy})
    assert r.status_code == 409, r.text
    assert r.json()["reason"] == "name_taken" and "Anna" in r.json()["detail"]
    assert count(client, "people") == before


def test_a_rename_cannot_take_a_name_in_use_but_may_change_its_own_spelling(client):
    person(client, "Anna")
    b = person(client, "Ben")
    r = client.patch("/api/people/me", json={"name": "Аnnа"}, headers=key(b))      # Cyrillic a's
    assert r.status_code == 409 and r.json()["reason"] == "name_taken"
    assert client.get("/api/people/me", headers=key(b)).json()["name"] == "Ben"
    r = client.patch("/api/people/me", json={"name": "BEN"}, headers=key(b))
    assert r.status_code == 200 and r.json()["name"] == "BEN"


@pytest.mark.parametrize("label", [
    "Player 1", "player 4", "Spieler 2", "PIayer 3",
    "Greedy bot", "Random bot", "ISMCTS bot", "Greedy bot 2", "greedy  BOT", "Greedy b0t",
    "Bot Greedy", "Bot Random 3", "bot", "Greedy", "Greedy (bot)",
])
def test_the_tables_own_labels_are_reserved(client, label):
    before = count(client, "people")
    r = client.post("/api/people", json={"name": label})
    assert r.status_code == 422, r.text
    assert r.json()["reason"] == "reserved"
    assert count(client, "people") == before
