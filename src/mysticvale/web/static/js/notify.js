// "Your turn" notices (issue 15): a badge on the favicon, a short chime (a setting, off by default),
// and a browser notification while the tab is hidden.  The table tells turnChanged() about its own
// game; the lobby socket's rows tell gamesChanged() about every game of the person.
//
// Browser notifications need the person's permission, asked for only from the button in the
// profile panel (askNotifications), never on page load.  The sound setting is the person's (kept
// by the server for every device, js/profile.js); this module keeps a copy so a table page knows it
// at once.

import { t } from "./i18n.js";
import { load, save } from "./storage.js";

const PREFS_KEY = "mysticvale.notify";
const prefs = Object.assign({ sound: false, browser: true }, load(PREFS_KEY, {}));

let tableTurn = null;            // this table's game: my decision? (null: not known yet)
let tableGame = null;            // its id, so the lobby rows of the same game add no second notice
let lobbyStatus = null;          // game id -> status from the lobby rows (null: no rows yet)
const lobbyTurns = new Set();    // games (other than the table's) where it is the person's turn

// ------------------------------------------------------------------ entry points

/** The table's call on every drawing: `isMyTurn` the person's decision now, `gameLabel` for the
 *  notification.  Only a change from "not my turn" to "my turn" chimes and notifies (not the opening
 *  of a table where it already is my turn). */
export function turnChanged(isMyTurn, gameLabel) {
  const was = tableTurn;
  tableTurn = !!isMyTurn;
  showBadge();
  if (was === false && tableTurn) alertTurn(gameLabel, null);
}

/** This page shows the table of game `id`: its turns come from turnChanged, not from the lobby rows. */
export function atTable(id) {
  tableGame = id;
  lobbyTurns.delete(id);
}

/** Rows of the person's games (all of them with `complete`, else the ones that changed).  A game
 *  that turns to `your_turn` after the first rows chimes and notifies (`link` opens it); a game seen
 *  for the first time does not.  Returns how many games wait for the person. */
export function gamesChanged(rows, { complete = false, label = (row) => row.id, link = () => null } = {}) {
  const first = lobbyStatus === null;
  const before = lobbyStatus || new Map();
  const now = complete ? new Map() : new Map(before);
  for (const row of rows) now.set(row.id, row.status);
  lobbyStatus = now;
  lobbyTurns.clear();
  for (const [id, status] of now) if (status === "your_turn" && id !== tableGame) lobbyTurns.add(id);
  if (!first) {
    for (const row of rows) {
      const was = before.get(row.id);
      if (row.status === "your_turn" && was !== undefined && was !== "your_turn" && row.id !== tableGame) {
        alertTurn(label(row), link(row));
      }
    }
  }
  showBadge();
  return lobbyTurns.size;
}

// ------------------------------------------------------------------ favicon badge

const LEAF = "M12 22C4 17 3.5 8 12 2c8.5 6 8 15 0 20Z";

/** The page's icon: the leaf, with an orange dot while something waits for the person. */
export function faviconHref(badge) {
  const dot = badge ? "<circle cx='18.5' cy='5.5' r='5' fill='%23e8590c' stroke='%23fff' stroke-width='1.6'/>" : "";
  return `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='${LEAF}' fill='%233b8a3e'/%3E${
    dot.replace(/</g, "%3C").replace(/>/g, "%3E")}%3C/svg%3E`;
}

function showBadge() {
  const on = !!tableTurn || lobbyTurns.size > 0;
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  if (link.dataset.badge === (on ? "yes" : "no")) return;
  link.href = faviconHref(on);
  link.dataset.badge = on ? "yes" : "no";
}

// ------------------------------------------------------------------ sound

let audio = null;

export function soundOn() { return !!prefs.sound; }

/** Keep the person's sound setting here (null from the server: never set, so off). */
export function setSound(on) {
  prefs.sound = !!on;
  save(PREFS_KEY, prefs);
  if (prefs.sound) unlockAudio();
}

let soundChoices = 0;        // how often the person turned the sound on or off on this page

/** The person's own choice (the profile's box): kept, and counted, so that an answer of the
 *  server asked for before it cannot undo it (see soundFromServer). */
export function chooseSound(on) {
  soundChoices += 1;
  setSound(on);
}

/** Call before asking the server for the settings; the function returned takes the server's
 *  sound setting and keeps it, unless the person chose here meanwhile (then the choice stands,
 *  and is on its way to the server).  It returns whether it kept the server's. */
export function soundFromServer() {
  const asked = soundChoices;
  return (on) => {
    if (soundChoices !== asked) return false;
    setSound(on);
    return true;
  };
}

/** Browsers let a page play sound only after the person touched it: the audio is made ready on
 *  the first click or key press. */
function unlockAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
  return audio;
}
for (const ev of ["pointerdown", "keydown"]) {
  document.addEventListener(ev, () => { if (prefs.sound) unlockAudio(); }, { capture: true, passive: true });
}

/** A short two-note chime (about half a second, quiet). */
export function chime() {
  const ctx = unlockAudio();
  if (!ctx) return false;
  const start = ctx.currentTime + 0.02;
  [[660, 0], [990, 0.16]].forEach(([freq, at]) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.42);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + 0.45);
  });
  return true;
}

// ------------------------------------------------------------------ browser notifications

/** "unsupported", "default" (not asked yet), "denied" (blocked in the browser), "granted". */
export function notificationPermission() {
  return "Notification" in window ? Notification.permission : "unsupported";
}

/** Whether notifications are shown: permission granted and not turned off here. */
export function notificationsOn() {
  return notificationPermission() === "granted" && prefs.browser !== false;
}

/** Ask the browser for permission (only ever from a button the person clicked). */
export async function askNotifications() {
  if (!("Notification" in window)) return "unsupported";
  const answer = await Notification.requestPermission();
  prefs.browser = answer === "granted";
  save(PREFS_KEY, prefs);
  return answer;
}

/** Turn notifications off (or on again) for this browser without changing the permission. */
export function setNotifications(on) {
  prefs.browser = !!on;
  save(PREFS_KEY, prefs);
}

function alertTurn(gameLabel, link) {
  if (prefs.sound) chime();
  if (!notificationsOn() || !document.hidden) return;
  try {
    const n = new Notification(t("notify.title"), { body: t("notify.body", { game: gameLabel }), tag: `mysticvale-${gameLabel}` });
    n.onclick = () => {
      window.focus();
      if (link) location.href = link;
      n.close();
    };
  } catch { /* some browsers show notifications only from a service worker: the badge stays */ }
}
