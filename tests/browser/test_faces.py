"""Card faces (js/cards.js) for every advancement, vale and leader of all sets, drawn in Chromium:
each has a text alternative naming what it shows, icons come from the project's sprite, the
markers for eclipse and long-wise appear where the data says so, and a sleeve preview draws the
new advancement in its slot.  Nothing meant for us reaches a player: no file numbers, "ours" or
"provisional" in any face, tooltip, zoom, legend or help page, in either language; a stand-in
says what it is in one plain sentence in its zoom."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mysticvale.server.card_catalogue import catalogue_text

pytestmark = pytest.mark.browser

SETS = ("base", "vale_of_magic", "twilight_garden")

def settle(page) -> None:
    """Let the page's own start (its messages, then the lobby asking a name) finish before a test
    puts its catalogue, messages and cards in: a later start would put its own back over them."""
    page.wait_for_function("document.documentElement.dataset.messages")
    page.wait_for_selector("#name-panel")


_GALLERY = """async ([cat, messages]) => {
  const { setCatalogue } = await import('/static/js/catalogue.js');
  const { setMessages } = await import('/static/js/i18n.js');
  const { installIcons } = await import('/static/js/icons.js');
  const C = await import('/static/js/cards.js');
  setCatalogue(cat);
  setMessages(messages);
  installIcons();
  const app = document.querySelector('#app');
  app.innerHTML = '';
  const out = { advancements: [], vales: [], leaders: [], cards: [] };
  const wrap = document.createElement('div');
  wrap.style.cssText = 'display:flex;flex-wrap:wrap;gap:6px;width:1240px';
  app.append(wrap);
  for (const label of Object.keys(cat.copies)) {
    const el = C.advancementFace(label);
    wrap.append(el);
    const svg = el.querySelector('svg');
    out.advancements.push({ label, aria: svg.getAttribute('aria-label'), markers: [...el.querySelectorAll('.marker')].map((m) => m.getAttribute('class')),
      icons: el.querySelectorAll('use').length, height: el.getBoundingClientRect().height });
  }
  for (const [name, v] of Object.entries(cat.vales)) {
    const el = C.valeFace({ ...v, id: name });
    wrap.append(el);
    out.vales.push({ name, aria: el.querySelector('svg').getAttribute('aria-label'), markers: [...el.querySelectorAll('.marker')].map((m) => m.getAttribute('class')) });
  }
  for (const name of Object.keys(cat.leaders)) {
    const el = C.leaderFaces(name);
    wrap.append(el);
    out.leaders.push({ name, sides: el.querySelectorAll('.leader-side svg.face-svg').length, text: el.innerText });
  }
  // a card with two layers, an eclipse under another, and a sleeve preview
  const eclipse = Object.keys(cat.copies).find((l) => cat.types[cat.copies[l]].eclipse && l.endsWith('@middle'));
  const other = Object.keys(cat.copies).find((l) => !cat.types[cat.copies[l]].eclipse && l.endsWith('@middle') && cat.types[cat.copies[l]].kind === 'advancement');
  const card = { id: 900, advancements: ['Cursed Land@top', eclipse, other], covered: [eclipse] };
  const face = C.cardFace(card);
  wrap.append(face);
  const preview = C.cardFace({ id: 901, advancements: ['Cursed Land@top'], covered: [] }, { preview: other });
  wrap.append(preview);
  out.cards.push({ aria: face.querySelector('svg').getAttribute('aria-label'), covered: face.querySelectorAll('.marker-covered').length,
    layers: face.querySelectorAll('.layer').length, eclipse, other });
  out.cards.push({ aria: preview.querySelector('svg').getAttribute('aria-label'), ghost: preview.querySelectorAll('.layer.ghost').length });
  out.sprite = !!document.getElementById('mv-icons');
  // Text that does not fit: a line of an ability text outside its box or over a marker, a VP
  // shield or the cost; a number wider than its shield.
  const inside = (r, box, tol = 0.4) => r.left >= box.left - tol && r.right <= box.right + tol && r.top >= box.top - tol && r.bottom <= box.bottom + tol;
  const meets = (a, b, tol = 0.4) => a.left < b.right - tol && b.left < a.right - tol && a.top < b.bottom - tol && b.top < a.bottom - tol;
  out.misfits = [];
  for (const face of wrap.querySelectorAll('.face')) {
    const name = face.querySelector('svg').getAttribute('aria-label').slice(0, 60);
    const obstacles = [...face.querySelectorAll('.marker, .endvp, .negvp, .cost')].map((e) => e.getBoundingClientRect());
    for (const ab of face.querySelectorAll('.ab')) {
      const box = ab.getBoundingClientRect();
      const walk = document.createTreeWalker(ab, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) {
          if (!r.width) continue;
          if (!inside(r, box)) out.misfits.push(`${name}: "${n.textContent.slice(0, 30)}" runs out of its box`);
          else if (obstacles.some((o) => meets(r, o))) out.misfits.push(`${name}: "${n.textContent.slice(0, 30)}" runs under a marker`);
        }
      }
    }
    for (const g of face.querySelectorAll('.endvp, .negvp')) {
      const shield = g.querySelector('use').getBoundingClientRect();
      const num = g.querySelector('text').getBoundingClientRect();
      if (num.left < shield.left + 0.25 || num.right > shield.right - 0.25) out.misfits.push(`${name}: ${g.querySelector("text").textContent} is wider than its shield`);
    }
  }
  out.misfits = [...new Set(out.misfits)];
  return out;
}"""


def test_every_card_face_is_drawn_with_a_text_alternative(page, server, shot_dir):
    cat = json.loads(catalogue_text(SETS)[0])
    messages = json.loads((__import__("pathlib").Path(__file__).resolve().parents[2] /
                           "src/mysticvale/web/static/messages/en.json").read_text())
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(server + "/static/index.html")
    settle(page)
    out = page.evaluate(_GALLERY, [cat, messages])
    assert out["sprite"]
    assert len(out["advancements"]) == len(cat["copies"])
    for a in out["advancements"]:
        t = cat["types"][cat["copies"][a["label"]]]
        assert t["name"] in a["aria"] and "slot" in a["aria"], a
        assert a["height"] > 50
        if t["kind"] in ("advancement", "fertile_soil"):
            assert f"{t['cost']} mana" in a["aria"]
        kinds = " ".join(a["markers"])
        # a stand-in's face does not shout about it (its zoom says what it is)
        assert "stand_in" not in kinds and "provisional" not in kinds, a
        assert ("marker-eclipse" in kinds) == bool(t["eclipse"]), a
        assert ("marker-longwise" in kinds) == bool(t["longwise"]), a
    for v in out["vales"]:
        assert v["name"] in v["aria"] and "costs" in v["aria"]
        assert not v["markers"], v
    for ld in out["leaders"]:
        assert ld["sides"] == 2 and "Upgrade:" in ld["text"] and "Starting side" in ld["text"]
    covered, preview = out["cards"]
    assert covered["covered"] == 1 and "covered" in covered["aria"] and covered["layers"] == 2
    assert preview["ghost"] == 1
    # Every face's text fits its slot (wrapped and set smaller where need be, cut with "…" only
    # when even the smallest print is too long), clear of the markers, shields and cost; numbers
    # fit their shields (Le Que's −100).
    assert not out["misfits"], out["misfits"][:20]
    page.screenshot(path=str(shot_dir / "faces-gallery.png"), full_page=True)


#: What a player must never read: notes for us (file numbers, "ours", "chosen by us",
#: "provisional"), in English and German.
DEVELOPER_WORDS = re.compile(r"\b(?:files?|datei(?:en)?)\s*0\d\d|\bours\b|\bby us\b|\bour (?:own|choice)\b|"
                             r"provisional|vorläufig|von uns|\bunsere?n?\b|\bgeneric vales\b|\bpublic source", re.I)

_WALK = """async ([cat, messages, lang]) => {
  const { setCatalogue } = await import('/static/js/catalogue.js');
  const { setMessages, t } = await import('/static/js/i18n.js');
  const { installIcons, LEGEND } = await import('/static/js/icons.js');
  const C = await import('/static/js/cards.js');
  const Z = await import('/static/js/zoom.js');
  setCatalogue(cat);
  setMessages(messages);
  installIcons();
  const app = document.querySelector('#app');
  const seen = [];     // [where, text]
  const read = (where, el) => {
    // everything a player can read or hover: the text, tooltips (<title>, title=), labels
    seen.push([where, el.textContent]);
    for (const x of el.querySelectorAll('[title], [aria-label]')) seen.push([where, `${x.getAttribute('title') || ''} ${x.getAttribute('aria-label') || ''}`]);
    if (el.getAttribute && el.getAttribute('aria-label')) seen.push([where, el.getAttribute('aria-label')]);
  };
  const zoomOf = (face, what, where) => {
    app.replaceChildren(face);
    Z.show(face, what, face, false);
    const z = document.querySelector('#zoom');
    read(`${where} (zoom)`, z);
    const lines = [...z.querySelectorAll('.zoom-text li')].map((li) => li.textContent.trim());
    Z.hide();
    return lines;
  };
  const zooms = { types: {}, vales: {}, leaders: {} };
  const firstLabel = {};
  for (const [label, name] of Object.entries(cat.copies)) if (!(name in firstLabel)) firstLabel[name] = label;
  for (const [name, label] of Object.entries(firstLabel)) {
    const ty = cat.types[name];
    const face = ty.kind === 'advancement' || ty.kind === 'fertile_soil' ? C.advancementFace(label)
      : C.cardFace({ id: 1, advancements: [label], covered: [] });
    read(name, face.cloneNode(true));
    zooms.types[name] = zoomOf(face, ty.kind === 'advancement' || ty.kind === 'fertile_soil' ? { label } : { card: { id: 1, advancements: [label], covered: [] } }, name);
  }
  for (const [name, v] of Object.entries(cat.vales)) {
    const face = C.valeFace({ ...v, id: 1 });
    read(name, face.cloneNode(true));
    zooms.vales[name] = zoomOf(face, { vale: { ...v, id: 1 } }, name);
  }
  for (const name of Object.keys(cat.leaders)) {
    const el = C.leaderFaces(name);
    app.replaceChildren(el);
    read(`leader ${name}`, el);
    zooms.leaders[name] = el.innerText;
  }
  for (const [name, nameKey, helpKey] of LEGEND) seen.push([`legend ${name}`, `${t(nameKey)} ${t(helpKey)}`]);
  const help = await (await fetch(`/static/help/${lang}.html`)).text();
  const box = document.createElement('div');
  box.innerHTML = help;
  seen.push(['help page', box.textContent]);
  return { seen, zooms };
}"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_note_meant_for_us_reaches_a_player_and_a_stand_in_says_what_it_is(page, server, lang):
    """Every card type's face, tooltips and zoom, every vale and leader, the legend and the help
    page, in each language: no file number, no "ours", "chosen by us" or "provisional".  A stand-in
    says in one plain sentence what it is; a card with values no rules document gives says which
    are estimates; a printed card the rules give whole says neither."""
    root = Path(__file__).resolve().parents[2] / "src/mysticvale/web/static/messages"
    messages = json.loads((root / f"{lang}.json").read_text())
    cat = json.loads(catalogue_text(SETS)[0])
    # the document the browser gets carries no note, source or provenance at all
    assert not any(k in t for t in list(cat["types"].values()) + list(cat["vales"].values())
                   + list(cat["leaders"].values()) for k in ("note", "source", "provenance"))
    page.goto(server + "/static/index.html")
    settle(page)
    out = page.evaluate(_WALK, [cat, messages, lang])
    bad = [f"{where}: {DEVELOPER_WORDS.search(text).group(0)!r} in {text.strip()[:160]!r}"
           for where, text in out["seen"] if DEVELOPER_WORDS.search(text)]
    assert not bad, bad[:10]
    assert len(out["zooms"]["types"]) == len(cat["types"]) and len(out["zooms"]["vales"]) == len(cat["vales"])
    stand_in, estimated = messages["zoom.stand_in"], messages["zoom.estimated"].split("{")[0]
    for kind in ("types", "vales"):
        for name, lines in out["zooms"][kind].items():
            ty = cat[kind][name]
            if ty["stand_in"]:
                assert lines.count(stand_in) == 1, (name, lines)
                assert not any(estimated in x for x in lines), (name, lines)
            elif ty["provisional"]:
                assert stand_in not in lines and sum(estimated in x for x in lines) == 1, (name, lines)
            else:
                assert not any(stand_in in x or estimated in x for x in lines), (name, lines)
    assert sum(cat["types"][n]["stand_in"] for n in out["zooms"]["types"]) + \
        sum(v["stand_in"] for v in cat["vales"].values()) >= 85
    for name, text in out["zooms"]["leaders"].items():
        assert (messages["leader.stand_in"] in text) == cat["leaders"][name]["stand_in"], name


def test_cards_on_the_table_carry_no_stand_in_or_estimate_marks(page, server):
    """On the table the commons and vales show no mark for a stand-in or an estimated value (their
    zoom says it in words), and a stand-in's zoom opened on the table says what it is."""
    from browser_helpers import create_game, open_seat

    game = create_game(server, seed=5, sets=SETS)
    open_seat(page, server, game)
    page.wait_for_selector("#supply .adv-face")
    cat = page.evaluate("fetch(window.mysticvaleClient.table().view.catalogue).then((r) => r.json())")
    assert "note" not in json.dumps(cat)
    marks = page.eval_on_selector_all("#supply .marker", "els => els.map((m) => m.getAttribute('class'))")
    assert not [m for m in marks if "stand_in" in m or "provisional" in m], marks
    names = page.eval_on_selector_all("#supply .vale-face .vname", "els => els.map((e) => e.textContent)")
    assert len(names) == 8
    stand_ins = [i for i, n in enumerate(names) if cat["vales"][n]["stand_in"]]
    assert stand_ins, names        # seed 5 deals generic vales
    page.hover(f"#supply .vale-face >> nth={stand_ins[0]}")
    page.wait_for_selector("#zoom:not([hidden]) .zoom-note")
    assert page.inner_text("#zoom .zoom-note") == "A stand-in for a printed card not described in the rules: its values are estimates."
