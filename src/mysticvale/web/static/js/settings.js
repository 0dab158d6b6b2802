// Settings of this device (file 000's "Possible settings", plus the spoil-chance aid).

import { load, save } from "./storage.js";

const KEY = "mysticvale.settings";
export const DEFAULTS = Object.freeze({
  animations: true,        // play other players' actions back step by step, cards moving
  pinField: false,         // pin the field view to my own field when opening a game
  autoReveal: false,       // Planting: reveal the next card by itself while my decay is below the limit
  autoRevealLimit: 3,
  spoilChance: false,      // show the chance that the next reveal spoils
  language: "",            // "" = the browser's language when there are messages for it
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

export function applyToPage() {
  document.body.classList.toggle("anim", !!settings.animations);
}
