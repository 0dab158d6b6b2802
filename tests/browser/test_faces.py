"""Card faces (js/cards.js) for every advancement, vale and leader of all sets, drawn in Chromium:
each has a text alternative naming what it shows, icons come from the project's sprite, the
markers for eclipse, long-wise, stand-in and provisional values appear where the data says so,
and a sleeve preview draws the new advancement in its slot."""

from __future__ import annotations

import json

import pytest

from mysticvale.server.card_catalogue import catalogue_text

pytestmark = pytest.mark.browser

SETS = ("base", "vale_of_magic", "twilight_garden")

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
        assert ("marker-stand_in" in kinds) == bool(t["stand_in"]), a
        if not t["stand_in"]:
            assert ("marker-provisional" in kinds) == bool(t["provisional"]), a
        assert ("marker-eclipse" in kinds) == bool(t["eclipse"]), a
        assert ("marker-longwise" in kinds) == bool(t["longwise"]), a
    for v in out["vales"]:
        assert v["name"] in v["aria"] and "costs" in v["aria"]
        assert ("marker-stand_in" in " ".join(v["markers"])) == cat["vales"][v["name"]]["stand_in"]
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


def test_markers_on_the_table_explain_themselves_with_the_card_datas_note(page, server):
    """On the table, a card something of which is ours (a stand-in, a value no source gives) carries
    a discreet marker whose tooltip is the card data's note (or says what is ours); the card's
    own text stays as printed."""
    from browser_helpers import create_game, open_seat

    game = create_game(server, seed=5, sets=SETS)
    open_seat(page, server, game)
    page.wait_for_selector("#supply .adv-face")
    cat = page.evaluate("fetch(window.mysticvaleClient.table().view.catalogue).then((r) => r.json())")
    faces = page.eval_on_selector_all("#supply [data-commons]", """els => els.map((e) => ({
        label: e.dataset.label,
        markers: [...e.querySelectorAll('.marker')].map((m) => [m.getAttribute('class'), m.querySelector('title').textContent]) }))""")
    assert len(faces) == 9
    for f in faces:
        t = cat["types"][cat["copies"][f["label"]]]
        ours = [m for m in f["markers"] if "stand_in" in m[0] or "provisional" in m[0]]
        if t["stand_in"] or t["provisional"] or t["note"]:
            assert len(ours) == 1, f
            if t["note"]:
                assert t["note"] in ours[0][1]
        else:
            assert not ours, f
    vales = page.eval_on_selector_all("#supply .vale-face", """els => els.map((e) => ({
        name: e.querySelector('.vname').textContent,
        markers: [...e.querySelectorAll('.marker')].map((m) => m.querySelector('title').textContent) }))""")
    assert len(vales) == 8
    for v in vales:
        t = cat["vales"][v["name"]]
        if t["stand_in"] or t["note"] or t["provisional"]:
            assert v["markers"], v
            if t["note"]:
                assert any(t["note"] in m for m in v["markers"])
