// The card catalogue of a game's sets: what every advancement layer, vale and leader shows.
//
// States name a card's layers by label only ("Stag@middle"); the per-layer data comes from
// GET /api/catalogue/{sets} once per set combination (the browser caches it: its URL carries a
// version).  See server/card_catalogue.py.
//
// Card texts in other languages than English: messages/cards/<lang>.json (beside the message
// files, for translators), keyed by the card's printed name (names stay as printed).  A catalogue
// loaded on a page in such a language carries those texts in place of the English ones, so every
// view of a card (face, zoom, text alternative) reads the page's language.  A card's `note` (what of
// it is ours) is in English in the card data: in another language it is the translation the file
// gives for that English note (`notes`), else none, and the marker then says the message files'
// own sentence (marker.stand_in_title, marker.provisional_title).

import { t, language } from "./i18n.js";

const loaded = new Map();      // url -> Promise<catalogue>
let current = null;

/** The card texts of `lang` (messages/cards/<lang>.json), or null (English, or no such file). */
async function cardTexts(lang) {
  if (lang === "en") return null;
  try {
    const r = await fetch(`/static/messages/cards/${lang}.json`);
    return r.ok ? await r.json() : null;
  } catch {
    return null;
  }
}

/** `cat` with the texts (and notes) of `texts` in place of its English ones. */
export function translated(cat, texts) {
  if (!texts) return cat;
  const notes = texts.notes || {};
  const put = (entry, names) => {
    if (entry.text && Object.prototype.hasOwnProperty.call(names, entry.name)) entry.text = names[entry.name];
    if (entry.note) entry.note = notes[entry.note] || "";
  };
  for (const ty of Object.values(cat.types || {})) put(ty, texts.advancements || {});
  for (const v of Object.values(cat.vales || {})) put(v, texts.vales || {});
  for (const ld of Object.values(cat.leaders || {})) put(ld, texts.leaders || {});
  return cat;
}

/** Load (once) and make current the catalogue at `url`, in the page's language. */
export async function useCatalogue(url) {
  if (!loaded.has(url)) {
    const lang = language();
    loaded.set(url, Promise.all([fetch(url).then((r) => {
      if (!r.ok) throw new Error(t("error.catalogue", { status: r.status }));
      return r.json();
    }), cardTexts(lang)]).then(([cat, texts]) => translated(cat, texts)));
  }
  try {
    current = await loaded.get(url);
  } catch (e) {
    loaded.delete(url);
    throw e;
  }
  return current;
}

/** Use this catalogue object directly (tests). */
export function setCatalogue(cat) { current = cat; }
export function catalogue() { return current; }

const SLOT_ORDER = ["top", "middle", "bottom"];

/** A layer (an advancement copy) by its label: {label, slots, type} (type: the catalogue entry). */
export function layer(label) {
  const at = label.lastIndexOf("@");
  const slots = at < 0 ? [] : label.slice(at + 1).split("+").filter((x) => SLOT_ORDER.includes(x));
  const typeName = current && current.copies[label];
  const type = (typeName && current.types[typeName]) || {
    name: at < 0 ? label : label.slice(0, at), level: 0, cost: 0, symbols: {}, text: "", abilities: [],
    end_vp: 0, neg_vp: 0, eclipse: false, longwise: false, kind: "advancement", stand_in: false, provisional: [],
  };
  return { label, slots, type };
}

export function valeType(name) { return (current && current.vales[name]) || null; }

/** A vale's text in the page's language: the catalogue's (translated) text, else the state's. */
export function valeText(v) {
  const ty = valeType(v.name);
  return (ty && ty.text) || v.text || "";
}
export function leaderType(name) { return (current && current.leaders[name]) || null; }

/** The leader (name, side) a card's layers show, or null: leader parts are layers of kind "leader". */
export function leaderOfCard(card) {
  if (!current || !card) return null;
  for (const lab of card.advancements || []) {
    const L = layer(lab);
    if (L.type.kind !== "leader") continue;
    for (const [name, ld] of Object.entries(current.leaders)) {
      if (ld.start.includes(lab)) return { name, side: "start", leader: ld };
      if (ld.upgraded.includes(lab)) return { name, side: "upgraded", leader: ld };
    }
  }
  return null;
}

/** The leader with this slug ("kojen_and_khan"), as in "choose kojen_and_khan". */
export function leaderBySlugOrName(key) {
  if (!current) return null;
  for (const ld of Object.values(current.leaders)) if (ld.slug === key || ld.name === key) return ld;
  return null;
}
