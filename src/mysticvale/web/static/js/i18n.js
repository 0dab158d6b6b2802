// Texts for people: every one comes from a message file (messages/<lang>.json), looked up by key.
//
//   t("numbers.spoils_at_you", {limit: 4, net: 3})   ->  "spoils at 4 net decay; you show 3"
//
// A message is a string with {name} placeholders, or, for counts, an object of plural forms
// ({"one": "{n} card", "other": "{n} cards"}) chosen by Intl.PluralRules for the argument `n`.
// A missing key shows as the key itself (and is reported once in the console), so a gap is visible.

let messages = {};
let lang = "en";
let plural = new Intl.PluralRules("en");
const missing = new Set();

/** Load the messages of `language` (falls back to English when there is no such file). */
export async function loadMessages(language = "en") {
  const tryLoad = async (l) => {
    const resp = await fetch(`/static/messages/${l}.json`);
    if (!resp.ok) throw new Error(`messages/${l}.json: ${resp.status}`);
    return resp.json();
  };
  try {
    messages = await tryLoad(language);
    lang = language;
  } catch {
    messages = await tryLoad("en");
    lang = "en";
  }
  plural = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  // <html lang="en"> is there before any message is: this says the messages are (tests wait on it)
  document.documentElement.dataset.messages = lang;
}

/** Use these messages directly (tests). */
export function setMessages(table, language = "en") {
  messages = table;
  lang = language;
  plural = new Intl.PluralRules(lang);
}

export function language() { return lang; }

/** Whether there is a message for `key`. */
export function has(key) { return Object.prototype.hasOwnProperty.call(messages, key); }

/** The text of `key` with its placeholders filled from `args`. */
export function t(key, args = {}) {
  let msg = messages[key];
  if (msg === undefined) {
    if (!missing.has(key)) { missing.add(key); console.warn(`no message for ${key}`); }
    return key;
  }
  if (typeof msg === "object") msg = msg[plural.select(Number(args.n ?? 0))] ?? msg.other;
  return msg.replace(/\{(\w+)\}/g, (m, name) => (args[name] === undefined ? m : String(args[name])));
}

/** A sentence or button text that starts with an empty card ("card.empty": "a blank card",
 *  "eine leere Karte") starts with a capital: "A blank card is the first card in the field". */
export function sentence(text) {
  const empty = t("card.empty");
  return text.startsWith(empty) ? t("card.empty_start") + text.slice(empty.length) : text;
}

/** A list in the language's words: ["a", "b", "c"] -> "a, b and c". */
export function list(items) {
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items.map(String));
  } catch {
    return items.join(", ");
  }
}

let seatNames = null;

/** The table says who sits where (js/seats.js): `f(seat)` is that seat's name, or null. */
export function setSeatNames(f) { seatNames = f; }

/** A player's name as shown everywhere: the seat's name when the table knows it (a person's
 *  chosen name, "Greedy bot"), else "Player n". */
export function playerName(seat) {
  const name = seatNames ? seatNames(Number(seat)) : null;
  return name || t("player.name", { n: Number(seat) + 1 });
}
