// Log entries in the reader's language.
//
// The server writes each log entry's text `t` in English ("Player 2 buys Stag (middle) for 3
// mana.") and adds its kind `k` and a few arguments `a` (docs/protocol.md).  The engine words each
// kind of event in a fixed way, so the English text can be read back: PATTERNS below names, per
// kind, the server's sentences with their variable parts, and each pattern has a message
// (`logk.<key>` in messages/<lang>.json) that says the same in the reader's language.  An entry that
// no pattern matches (a sentence the engine learnt after this file) keeps the server's text.
//
// Rendering from the messages in every language (English too) means players appear under the name
// playerName() gives them, and in English the result is the server's own sentence but for a card
// without advancements, which the engine names "Blank" and file 000 calls a "blank card"
// (tests/browser/test_german.py checks both).
//
// Placeholders in a pattern:
//   {name}             "Player N", the player the entry is about -> playerName
//   {other}            "player N" / "Player N", another player -> playerName
//   {n} {m}            a number
//   {card} {card2} {cards} {src}   card names (kept, they are printed English; the slot / side
//                      words in brackets are translated, and a card without advancements, which
//                      the engine names "Blank", is "a blank card" in the rules' words (file 000: "8 blank cards"), in every
//                      language: English too differs from the server's text there)
//   {vale}             a vale's name (kept)
//   {who}              a list "player 1, player 3" -> names
//   {sets} {ruleset}   the set codes and the rule set of the setup line (said by their names)
//   {why}              an optional " (reason)" at the end of a VP or curse line

import { t, has, language, playerName, sentence as capitalStart } from "./i18n.js";

/** [kind, the server's English sentence, message key (logk.<key>)]; the first match wins, so a
 *  sentence comes before a shorter one it would also match. */
const PATTERNS = [
  ["setup", "A {n}-player game begins ({ruleset} rules, sets: {sets}). {name} has the star token and starts.", "setup"],
  ["setup", "Each player is dealt {n} leaders and keeps one.", "leaders_dealt"],
  ["turn", "Round {n}: {name}'s turn.", "turn"],
  ["pass", "{name} passes.", "pass"],
  ["push", "{name} goes on with the Prep phase and plays {card}.", "prep_push"],
  ["push", "{name} pushes {card}.", "push"],
  ["reveal", "{name} reveals {card} on deck.", "reveal"],
  ["buy", "{name} buys {card} for {n} mana to sleeve on {card2}.", "buy_on"],
  ["buy", "{name} buys {card} for {n} mana.", "buy"],
  ["sleeve", "{name} sleeves {card} onto Kojen and Khan.", "sleeve_kojen"],
  ["sleeve", "{name} sleeves {card} on {card2}.", "sleeve"],
  ["spoil", "{name} spoils with {n} decay.", "spoil"],
  ["shuffle", "{name} shuffles the discard pile into a new deck.", "shuffle"],
  ["token", "{name} spends the mana token for 1 mana.", "token"],
  ["vale", "{name} buys the vale {vale}.", "vale"],
  ["vale", "{name} adds {vale} from the top of the level-{n} vale deck ({src}).", "vale_added"],
  ["vp", "{name} gains {n} VP{why}.", "vp"],
  ["curse", "{name} gains {n} curse token(s){why}.", "curse"],
  ["finish", "{name} finishes the Harvest.", "finish"],
  ["finish_turn", "{name} finishes the turn.", "finish_turn"],
  ["guard", "{name} discards {vale} to cancel the decay on {card}.", "guard_vale"],
  ["guard", "{name} uses {card} to discard the on-deck Blank instead of spoiling.", "guard_card_empty"],
  ["guard", "{name} uses {card} to discard the on-deck {card2} instead of spoiling.", "guard_card"],
  ["prep_stop", "{name} stops the Prep phase with {n} decay symbols showing.", "prep_stop"],
  ["extra_turn", "{name} takes another turn.", "extra_turn"],
  ["game_over", "The game is over.", "game_over"],
  ["end_triggered", "The last level-2 vale enters the commons: the game ends after this round.", "end_vales"],
  ["end_triggered", "The VP pool is empty: the game ends after this round.", "end_pool"],
  ["leader", "{name} keeps the leader {card} and sleeves it into {card2}.", "leader_kept"],
  ["leader", "{name} keeps a leader and shuffles it into the deck.", "leader_hidden"],
  ["upgrade", "{name} pays {n} mana to upgrade {card}; it turns over in the Discard phase.", "upgrade_paid"],
  ["upgrade", "{name}'s leader {card} turns to its upgraded side.", "upgrade_turned"],
  ["win", "{name} has {n} cards in the field and wins the game (Le Que).", "win_le_que"],
  // abilities (by the card that words them)
  ["ability", "{name} turns the mana token face up ({src}).", "token_up"],
  ["ability", "{name} spends the face-up mana token for 1 mana and turns it face up again ({src}).", "token_again"],
  ["ability", "{name} has no more cards in deck and discard pile.", "no_cards"],
  ["ability", "{name} puts {card} from the deck into the field ({src}).", "deck_to_field"],
  ["ability", "{name} doubles the mana to {n} ({src}).", "double_mana"],
  ["ability", "{name} has no guardian in the field ({src}).", "no_guardian"],
  ["ability", "{name} gains {n} mana for the guardians on {card}.", "mana_guardians"],
  ["ability", "{name} stops searching the deck.", "stop_search"],
  ["ability", "{name} shuffles the deck.", "shuffle_deck"],
  ["ability", "{card} is the first card in the field and is discarded as normal.", "first_in_field"],
  ["ability", "{name} keeps {card} in the field for the next turn.", "keep_field"],
  ["ability", "{name} discards {card} as normal.", "discard_normal"],
  ["ability", "{name} keeps {card} in the field after spoiling ({src}).", "keep_after_spoil"],
  ["ability", "{name} gains {n} mana ({m} minus the cards in the field).", "mana_below"],
  ["ability", "{name} gains {n} mana from Aurora's ability.", "mana_aurora"],
  ["ability", "{name} gains {n} mana for the other cards in the field.", "mana_others"],
  ["ability", "{name} gains {n} mana ({src}).", "mana"],
  ["ability", "The level-{n} vale deck is empty ({src}).", "vale_deck_empty"],
  ["ability", "{name} has no cards in the deck to look at ({src}).", "nothing_to_look"],
  ["ability", "{name} looks at the top {n} card(s) of the deck ({src}): {cards}.", "look_src_cards"],
  ["ability", "{name} looks at the top {n} card(s) of the deck ({src}).", "look_src"],
  ["ability", "{name} looks at the top {n} card(s) of the deck: {cards}.", "look_cards"],
  ["ability", "{name} looks at the top {n} card(s) of the deck.", "look"],
  ["ability", "{name} puts {n} card(s) back in the same order.", "back_same_order"],
  ["ability", "{name} puts {n} card(s) back on the deck.", "back_n"],
  ["ability", "{name} keeps {card} on top of the deck.", "keep_top"],
  ["ability", "{name} puts the top card back.", "top_back"],
  ["ability", "{name} discards a card from the top of the deck.", "discard_top_hidden"],
  ["ability", "{name} discards {card} from the top of the deck.", "discard_top"],
  ["ability", "{name} discards {card} from the field.", "discard_field"],
  ["ability", "{name} searches the deck and discards nothing.", "search_nothing"],
  ["ability", "{name} searches the deck and discards a card.", "search_hidden"],
  ["ability", "{name} searches the deck and discards {card}.", "search"],
  ["ability", "{name}'s Daybreak Herald turns mana tokens active: {who}.", "daybreak_herald"],
  ["ability", "{name} returns {n} curse token(s) to the pool.", "curses_returned"],
  ["ability", "{name} gives {other} one VP token (Deepwood Veteran).", "veteran_vp"],
  ["ability", "{name} may buy one more vale this turn (Griffin Rider).", "griffin_more"],
  ["ability", "{name} gives the vale {vale} to {other} (Griffin Rider).", "griffin_give"],
  ["ability", "{name} claims the vale {vale} from {other} (Griffin Rider).", "griffin_claim"],
  ["ability", "{name}'s vale deck to look at is empty.", "vale_look_empty"],
  ["ability", "{name} puts the vale back on top of the deck.", "vale_back_hidden"],
  ["ability", "{name} puts {vale} back on the vale deck.", "vale_back"],
  ["ability", "{name} takes the vale {vale} for free (Ranger Captain).", "ranger_captain"],
  ["ability", "{name}'s advancement deck to look at is empty.", "adv_look_empty"],
  ["ability", "{name} puts the advancement back on top of the deck.", "adv_back_hidden"],
  ["ability", "{name} puts {card} back on the deck.", "adv_back"],
  ["ability", "{name} takes {card} for free (Snapjaw).", "snapjaw"],
  ["ability", "{name} places {card} from the bottom of the deck into the field.", "bottom_to_field"],
  ["ability", "{name} puts back {cards} (top first).", "put_back"],
  ["ability", "{name} reveals {card} (Lore Keeper).", "lore_reveal"],
  ["ability", "{name} places {card} into the field; the other revealed cards go to the discard pile.", "lore_place"],
  ["ability", "{name} will take another turn (Witches of Deephollow).", "witches"],
  ["ability", "{name} discards the on-deck Blank (Echoing Waterfalls).", "waterfalls_empty"],
  ["ability", "{name} discards the on-deck {card} (Echoing Waterfalls).", "waterfalls"],
  ["ability", "{name}'s Flame Geysers: every player will gain curse tokens or VP tokens equal to the negative VP on their vales.", "geysers"],
  ["ability", "{name} chooses curse tokens for every player (Flame Geysers).", "geysers_curses"],
  ["ability", "{name} chooses VP tokens for every player (Flame Geysers).", "geysers_vp"],
  ["ability", "{name}'s Althena stays in the field for the next turn.", "althena_stays"],
  ["ability", "{name} also keeps {card} in the field (Althena).", "althena_keeps"],
  ["ability", "{name}'s Hectoro finds no opponent to curse.", "hectoro_none"],
  ["ability", "{name}'s Hectoro places {n} card(s) into the field: {cards}.", "hectoro_places"],
  ["ability", "{name}'s Hectoro turns back to his starting side.", "hectoro_back"],
  ["ability", "{name} chooses {cards} in {other}'s field (Le Que).", "le_que_choose"],
  ["ability", "{name} gives {card} to {other}, on top of the discard pile (Le Que).", "le_que_give"],
  ["ability", "{name} pays {n} mana to turn Le Que back to the starting side.", "le_que_back"],
];

/** The reasons in brackets after "gains N VP" / "gains N curse token(s)"; any other is a card. */
const WHY = [
  ["3 spirit symbols traded", "why.trade"],
  ["Deepwood Veteran of {other}; no VP token to give", "why.veteran_none"],
  ["Deepwood Veteran of {other}", "why.veteran"],
  ["Hectoro: most vales", "why.hectoro_vales"],
  ["Hectoro: most net VP tokens", "why.hectoro_vp"],
];

const GROUP = {
  name: "Player (\\d+)",
  other: "[Pp]layer (\\d+)",
  n: "(\\d+)",
  m: "(\\d+)",
  why: "(?: \\((.*)\\))?",
};

/** A pattern sentence as an anchored regular expression and the names of its parts in order. */
function compile(sentence) {
  const names = [];
  const source = sentence.split(/\{(\w+)\}/).map((part, i) => {
    if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    names.push(part);
    return GROUP[part] || "(.+?)";
  }).join("");
  return { re: new RegExp(`^${source}$`), names };
}

const BY_KIND = new Map();
for (const [kind, sentence, key] of PATTERNS) {
  if (!BY_KIND.has(kind)) BY_KIND.set(kind, []);
  BY_KIND.get(kind).push({ ...compile(sentence), key: `logk.${key}` });
}
const WHY_COMPILED = WHY.map(([sentence, key]) => ({ ...compile(sentence), key: `logk.${key}` }));

const WORDS = /\(((?:top|middle|bottom|starting|upgraded)(?:(?:, | \+ )(?:top|middle|bottom|starting|upgraded))*)\)/g;

/** Card names as printed, with the bracketed slot / leader side words translated and a card
 *  without advancements (the engine's "Blank") said as players say it: "Stag (middle)" ->
 *  "Stag (Mitte)", "Blank, Cursed Land" -> "eine leere Karte, Cursed Land". */
export function cardWords(text) {
  return String(text)
    .replace(/\bBlank\b/g, () => t("card.empty"))
    .replace(WORDS, (_, words) => `(${words.replace(/[a-z]+/g, (w) => (w === "starting" || w === "upgraded" ? t(`logk.side.${w}`) : t(`slot.${w}`)))})`);
}

const seatName = (num) => playerName(Number(num) - 1);

function whyText(reason) {
  for (const w of WHY_COMPILED) {
    const m = w.re.exec(reason);
    if (m) return t(w.key, argsOf(w.names, m));
  }
  return cardWords(reason);
}

function argsOf(names, m) {
  const args = {};
  names.forEach((part, i) => {
    const v = m[i + 1];
    if (part === "name" || part === "other") args[part] = seatName(v);
    else if (part === "n" || part === "m") args[part] = Number(v);
    else if (part === "card" || part === "card2" || part === "cards" || part === "src") args[part] = cardWords(v);
    else if (part === "who") args[part] = v.replace(/[Pp]layer (\d+)/g, (_, num) => seatName(num));
    // the rule set by its name in words ("yucata.de rules", "Deutsche Regeln"), never its id
    else if (part === "ruleset") args[part] = has(`ruleset.${v}`) ? t(`ruleset.${v}`) : v;
    else if (part === "sets") args[part] = v.split(", ").map((s) => (has(`set.${s}`) ? t(`set.${s}`) : s)).join(", ");
    else if (part === "why") args[part] = v === undefined ? "" : ` (${whyText(v)})`;
    else args[part] = v;
  });
  return args;
}

// Reading a sentence back and wording it again cost some 50 µs an entry, and the table draws
// the whole log on every step it shows: keep per entry its match and its text, the text with the
// language and players' names it was made with (what can change while the entry stays).
const matches = new WeakMap();
const texts = new WeakMap();

function matchOf(entry) {
  if (matches.has(entry)) return matches.get(entry);
  let found = null;
  for (const p of BY_KIND.get(entry.k) || []) {
    const m = p.re.exec(entry.t || "");
    if (m) { found = { p, m }; break; }
  }
  matches.set(entry, found);
  return found;
}

/** The language and the names of the seats now; worked out once per task (one drawing). */
let words = null;
function wordsNow() {
  if (words === null) {
    words = `${language()}|${[0, 1, 2, 3].map(playerName).join("|")}`;
    queueMicrotask(() => { words = null; });
  }
  return words;
}

/** The message an entry is said with: {key, args}, or null when no pattern knows its sentence. */
export function logMessage(entry) {
  const found = matchOf(entry);
  return found ? { key: found.p.key, args: argsOf(found.p.names, found.m) } : null;
}

/** An entry's text in the current language (the server's text when no pattern knows it). */
export function logText(entry) {
  const now = wordsNow();
  const kept = texts.get(entry);
  if (kept && kept.words === now) return kept.text;
  const msg = logMessage(entry);
  const text = capitalStart(msg && has(msg.key) ? t(msg.key, msg.args) : entry.t.replace(/\bBlank\b/g, () => t("card.empty")));
  texts.set(entry, { words: now, text });
  return text;
}

/** The entry with its text in the current language (for lists that show `t`). */
export function localized(entry) {
  return { ...entry, t: logText(entry) };
}
