// Tables with names (issue 21): a table is named by its host or after its people ("Anna vs. Ben"),
// in the reader's language.  Also the small pieces every list of people uses: a person's name as a
// link to their profile, with their rating beside it.  At a table, the name (and who holds each
// seat, for the links to their profiles) comes from GET /api/games/{id}/table, read again when the
// seats change, and the name from the game socket's {"type": "table"} messages.

import { h } from "./dom.js";
import { t, has } from "./i18n.js";
import { api } from "./api.js";
import { botKindLabel, kindName } from "./seats.js";

/** "Druid", "Greedy bot", "ISMCTS bot (0.5 s)": a bot by its configuration name. */
export function botName(spec) {
  const [kind, think] = String(spec).split(":");
  return think ? t("tables.bot_think", { bot: kindName(kind), s: think }) : botKindLabel(kind);
}

/** The title of a table: its name, or the names of its people and bots ("Anna vs. Ben"; "Anna's
 *  table" while Anna sits alone).  `players`: [{name, bot}] as the server lists seats. */
export function tableTitle(name, players = []) {
  if (name) return name;
  const labels = players.filter((p) => p.name || p.bot).map((p) => p.name || botName(p.bot));
  if (labels.length === 1) return t("tables.alone", { name: labels[0] });
  if (!labels.length) return t("tables.unnamed");
  return labels.join(t("top.versus"));
}

/** A rating as shown beside a name ("1137"); nothing for somebody without one. */
export function ratingBadge(rating) {
  if (rating === null || rating === undefined) return null;
  return h("span", { class: "rating", title: t("rating.badge_title", { n: rating }) }, String(rating));
}

/** A person's name that opens their profile (plain text for a seat without a person). */
export function personLink(person, name, { cls = "", newTab = false } = {}) {
  if (!person) return h("span", { class: `person ${cls}`.trim() }, name);
  return h("a", { class: `person-link ${cls}`.trim(), href: `/people/${encodeURIComponent(person)}`,
    target: newTab ? "_blank" : null, rel: newTab ? "noopener" : null, title: t("profile.open_title", { name }) }, name);
}

// ------------------------------------------------------------------ at a table

let table = { name: null, public: false, players: null };
const listeners = new Set();

function set(next) {
  table = { name: typeof next.name === "string" && next.name.trim() ? next.name : null, public: !!next.public,
    players: Array.isArray(next.players) ? next.players : table.players };
  listeners.forEach((f) => f(table));
}

/** The table's name and publicity from the server (errors keep the people's names). */
export async function loadTable(gameId) {
  try {
    set(await api("GET", `/api/games/${encodeURIComponent(gameId)}/table`));
  } catch { /* the table is named after its people */ }
}

/** A {"type": "table"} message of the game socket: the host renamed the table. */
export function setTable(msg) { if (msg && typeof msg === "object") set(msg); }

/** The person at `seat` of the table shown, `{person, rating}` (null: nobody, a bot, not known). */
export function personAt(seat) {
  const p = (table.players || []).find((x) => x.seat === seat);
  return p && p.person ? { person: p.person, rating: p.rating ?? null } : null;
}

/** The name the host gave the table shown (null: named after its people). */
export function tableName() { return table.name; }

/** Call `f(table)` whenever the table's name changes. */
export function onTable(f) { listeners.add(f); }
