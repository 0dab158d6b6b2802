// The short line of an ability on a card face: the card's words, with the names of the game's
// symbols drawn as their icons ("Gain 1 mana for each guardian" -> "Gain 1 ◆ for each ⛨"), as
// printed cards do.  That leaves room at a readable size for more of what the ability does; the
// zoom says the text in words.  Which words name a symbol is a text of each language
// (messages: face.words.<symbol>, alternatives separated by "|", the longer first).

import { esc } from "./dom.js";
import { t, language } from "./i18n.js";

/** Symbols whose names a face line draws as icons. */
const SYMBOL_WORDS = ["animal", "forest", "sky", "wild", "guardian", "mana", "growth", "decay", "vp", "curse"];
const ICON_STYLE = "width:1.05em;height:1.05em;vertical-align:-.17em;margin:0 .04em";
const patterns = new Map();       // language -> [[RegExp, symbol]]

function patternsOf(lang) {
  let p = patterns.get(lang);
  if (!p) {
    p = SYMBOL_WORDS.map((k) => {
      const words = t(`face.words.${k}`).split("|").map((w) => w.trim()).filter(Boolean)
        .map((w) => w.replace(/[.*+?^${}()[\]\\]/g, "\\$&"));
      return [new RegExp(`(^|[^\\p{L}])(?:${words.join("|")})(?![\\p{L}])`, "giu"), k];
    });
    patterns.set(lang, p);
  }
  return p;
}

/** Markup of `text` (plain) with its symbol words drawn as icons (each with its name as a title). */
export function faceLine(text) {
  // placeholders (control characters no card text has) keep icons out of the escaping
  let s = String(text);
  const found = [];
  for (const [re, k] of patternsOf(language())) {
    s = s.replace(re, (m, before) => { found.push(k); return `${before}\u0001${found.length - 1}\u0002`; });
  }
  return esc(s).replace(/\u0001(\d+)\u0002/g, (m, i) => {
    const k = found[Number(i)];
    return `<svg class="si" viewBox="0 0 24 24" style="${ICON_STYLE}" role="img" aria-label="${esc(t(`symbol.${k}`))}"><use href="#i-${k}"/></svg>`;
  });
}
