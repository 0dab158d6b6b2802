// Settings of this device (file 000's "Possible settings", plus the spoil-chance aid).

import { load, save } from "./storage.js";

const KEY = "mysticvale.settings";
export const DEFAULTS = Object.freeze({
  animations: true,        // play other players' actions back step by step, cards moving
  pinField: false,         // pin the field view to my own field when opening a game
  autoReveal: false,       // Planting: reveal the next card by itself while my decay is below the limit
  autoRevealLimit: 3,
  spoilChance: false,      // show the chance that the next reveal spoils
  cardSize: "normal",      // the faces' size: one of CARD_SIZES (style.css --cs)
  language: "",            // "" = the browser's language when there are messages for it
  languageAsked: false,    // this device has asked the server for the person's language
});

export const settings = Object.assign({}, DEFAULTS, load(KEY, {}));

const listeners = new Set();

/** Change settings, keep them on this device and tell who listens. */
export function setSettings(changes) {
  Object.assign(settings, changes);
  save(KEY, settings);
  applyToPage();
  listeners.forEach((f) => f(settings));
}

export function onSettings(f) { listeners.add(f); }

// -- language ------------------------------------------------------------------------------
/** The languages there is a message file for (messages/<code>.json); the settings dialog offers
 *  them by their own names (settings.lang.<code>). */
export const LANGUAGES = Object.freeze(["en", "de"]);

/** "Automatic": the browser's language when there are messages in it, else English. */
export function browserLanguage() {
  const code = String((typeof navigator !== "undefined" && navigator.language) || "en").slice(0, 2).toLowerCase();
  return LANGUAGES.includes(code) ? code : "en";
}

/** The language the page shows: the chosen one, else the browser's. */
export function chosenLanguage() {
  return LANGUAGES.includes(settings.language) ? settings.language : browserLanguage();
}

/** Switch the language (`""` = automatic): keep the choice and load the page again, which shows
 *  every part of it (table, chat, lobby, dialogs) in the new language.  The game is on the server
 *  and the page's address names the game and the seat, so the reloaded page opens the same table.
 *  `remember(value)` (optional) keeps the choice with the person on the server first, so that it
 *  follows them to their other devices and their e-mails come in it. */
export async function setLanguage(choice, remember = null) {
  const value = LANGUAGES.includes(choice) ? choice : "";
  if (value === (settings.language || "")) return;
  settings.language = value;
  save(KEY, settings);
  if (remember) {
    try { await remember(value || null); } catch { /* kept on this device; the server keeps its copy */ }
  }
  location.reload();
}

/** The person's language kept on the server (`language`, null for automatic), adopted by a device
 *  that has no choice of its own yet: the language follows the person to a new device.  The
 *  device remembers that it asked, so it asks once. */
export function adoptLanguage(language) {
  if (!settings.language && LANGUAGES.includes(language)) settings.language = language;
  settings.languageAsked = true;
  save(KEY, settings);
}

/** The card sizes offered; "normal" sets a face's text at a size one reads at the table. */
export const CARD_SIZES = Object.freeze(["small", "normal", "large"]);

export function applyToPage() {
  document.body.classList.toggle("anim", !!settings.animations);
  // on the root element: the card widths (style.css) are set there from the size
  document.documentElement.dataset.cards = CARD_SIZES.includes(settings.cardSize) ? settings.cardSize : "normal";
}
