// Who sits where at the table (issue 15): the names of the people holding the seats, the bots and
// the open seats.  Read from GET /api/games/{id}/seats when the table opens and then from the game
// socket's {"type": "seats"} messages (a claim, a rename).  playerName() in i18n.js reads the
// names from here, so the log, the banners, the players panel and the end screen all say "Anna"
// where they said "Player 1".  Names are shown as text only (textContent), never as markup.

import { api } from "./api.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t, has, setSeatNames } from "./i18n.js";

/** [{seat, bot, name, open, claimed}], by seat. */
let seats = [];
/** Whether the list came from the server (the view's bots are only a first guess). */
let fromServer = false;
const listeners = new Set();

const text = (v) => (typeof v === "string" && v.trim() ? v : null);

function clean(list) {
  if (!Array.isArray(list)) return null;
  return list.filter((s) => s && Number.isInteger(s.seat)).map((s) => ({
    seat: s.seat, bot: text(s.bot), name: text(s.name), open: !!s.open, claimed: !!s.claimed,
  })).sort((a, b) => a.seat - b.seat);
}

function set(list) {
  seats = list;
  setSeatNames(nameAt);
  listeners.forEach((f) => f(seats));
}

/** The server's list of seats (the seats endpoint or a socket message). */
export function setSeats(list) {
  const c = clean(list);
  if (!c) return;
  fromServer = true;
  set(c);
}

/** The bots of the view (`view.players`: [{seat, bot}]), until the server's list is there. */
export function seatsFromView(players) {
  if (fromServer) return;
  const c = clean((players || []).map((p) => ({ seat: p.seat, bot: p.bot })));
  if (c && JSON.stringify(c) !== JSON.stringify(seats)) set(c);
}

/** Ask the server who sits where (errors are not fatal: the table works without names). */
export async function loadSeats(gameId) {
  try {
    const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}/seats`);
    setSeats(res && res.seats);
  } catch { /* names stay unknown: "Player n" */ }
}

/** Call `f(seats)` whenever the seats change. */
export function onSeats(f) { listeners.add(f); }

export function seatInfo(seat) { return seats.find((s) => s.seat === seat) || null; }

/** Whether any seat is held by a person (a game among people, not only seat links). */
export function anyClaimed() { return seats.some((s) => s.claimed); }

/** Whether bot `kind` is a level a player chooses by strength ("druid"): it is named by itself
 *  ("Druid"), where the bots themselves are named "Greedy bot" (issue 20). */
export function isLevel(kind) { return has(`bots.level.${kind}`); }

/** The name of bot `kind` in the page's language ("Druid", "Greedy"; an unknown kind as it is). */
export function kindName(kind) { return has(`seats.bot_kind.${kind}`) ? t(`seats.bot_kind.${kind}`) : kind; }

/** A bot by its kind alone: "Druid" (a level), "Greedy bot". */
export function botKindLabel(kind) {
  return t(isLevel(kind) ? "seats.bot_level" : "seats.bot", { bot: kindName(kind) });
}

/** "Druid", "Greedy bot", or "Druid 2" / "Greedy bot 2" when two seats have the same kind of bot. */
export function botLabel(bot, seat) {
  const kind = String(bot).split(":")[0];
  const name = kindName(kind);
  const same = seats.filter((s) => s.bot && s.bot.split(":")[0] === kind);
  const level = isLevel(kind);
  if (same.length < 2) return botKindLabel(kind);
  return t(level ? "seats.bot_level_numbered" : "seats.bot_numbered", { bot: name, k: same.findIndex((s) => s.seat === seat) + 1 });
}

/** The name shown for `seat`: the person's name, the bot's label, or null (then "Player n"). */
export function nameAt(seat) {
  const s = seatInfo(seat);
  if (!s) return null;
  if (s.name) return s.name;
  if (s.bot) return botLabel(s.bot, seat);
  return null;
}

/** The mark of a bot's seat, shown before its label wherever the table names seats: an icon in a
 *  dark badge, which no name can produce (names are text), so a person named like a bot is never
 *  taken for one (issue 22). */
export function botBadge(bot) {
  const kind = String(bot || "").split(":")[0];
  const label = t("seats.bot_title", { bot: kindName(kind) });
  return h("span", { class: "bot-badge", title: label, role: "img", "aria-label": label }, icon("bot", { size: "1.05em" }));
}

/** Whether `seat`'s name is its bot's label (the players panel then needs no bot tag). */
export function namedByBot(seat) {
  const s = seatInfo(seat);
  return !!(s && !s.name && s.bot);
}

/** Whether `seat`'s name itself says it is a bot ("Greedy bot"; a level's "Druid" does not, so
 *  "Druid (bot) is thinking"). */
export function nameSaysBot(seat) {
  const s = seatInfo(seat);
  return namedByBot(seat) && !isLevel(String(s.bot).split(":")[0]);
}
