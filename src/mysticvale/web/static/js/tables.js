// The lobby's open tables (issue 21): public tables anyone may join without a link, live from the
// lobby socket ({"type": "tables"}, {"type": "open_table"}, {"type": "open_table_gone"}).  Each row
// says the table's name, its host (with rating), who sits where and which seats are free, the card
// sets, rules and bots; Join takes the lowest free seat under the person's name and opens the table.

import { h, $ } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { banner } from "./banner.js";
import { person, personKey } from "./people.js";
import { tableTitle, botName, ratingBadge, personLink } from "./tablename.js";

const rows = new Map();            // game id -> open table row
let loaded = false;
let expanded = false;              // all rows shown, not only the first SHOWN
/** Rows shown before "Show all" (the list holds up to 50). */
const SHOWN = 8;

/** The panel (empty until the lobby socket or GET /api/tables brings the list). */
export function openTablesPanel() {
  return h("section", { id: "open-tables", class: "panel games-panel tables-panel" },
    h("div", { class: "panel-head" }, h("h2", {}, t("tables.heading")),
      h("span", { class: "muted small" }, t("tables.explain"))),
    h("div", { id: "open-list" }, h("p", { class: "muted" }, t("tables.loading"))));
}

/** The whole list (on connecting). */
export function setOpenTables(list_) {
  rows.clear();
  (list_ || []).forEach((r) => rows.set(r.id, r));
  loaded = true;
  renderOpenTables();
}

/** One table came or changed. */
export function openTableChanged(row) {
  if (!row || !row.id) return;
  rows.set(row.id, row);
  loaded = true;
  renderOpenTables(row.id);
}

/** One table left the list (full, over, made private). */
export function openTableGone(id) {
  if (!rows.delete(id)) return;
  renderOpenTables();
}

/** Read the list over HTTP (before the socket is live, or without it). */
export async function fetchOpenTables() {
  try {
    const res = await api("GET", "/api/tables");
    if (!loaded) setOpenTables(res.tables);
  } catch { /* the socket brings it */ }
}

function mySeat(row) {
  const me = person();
  return me && me.id ? row.players.find((p) => p.person === me.id) : null;
}

function renderOpenTables(changed = null) {
  const el = $("#open-list");
  if (!el) return;
  const ordered = [...rows.values()].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1));
  const order = ordered.map((r) => r.id).join(" ");
  if (changed && el.dataset.order === order && el.querySelector(`.table-row[data-id="${CSS.escape(changed)}"]`)) {
    const old = el.querySelector(`.table-row[data-id="${CSS.escape(changed)}"]`);
    if (old) { old.replaceWith(tableRow(rows.get(changed))); return; }
  }
  el.dataset.order = order;
  if (!ordered.length) {
    el.replaceChildren(h("div", { class: "empty" }, h("p", {}, t("tables.none")), h("p", { class: "muted small" }, t("tables.none_hint"))));
    return;
  }
  const shown = expanded ? ordered : ordered.slice(0, SHOWN);
  const more = ordered.length > shown.length ? h("button", { type: "button", id: "all-tables", class: "small",
    onclick: () => { expanded = true; renderOpenTables(); } }, t("tables.show_all", { n: ordered.length })) : null;
  el.replaceChildren(...[h("ul", { class: "games open-tables" }, shown.map(tableRow)), more].filter(Boolean));
}

function seatChip(p) {
  if (p.bot) return h("span", { class: "chip bot", dataset: { seat: p.seat } }, botName(p.bot));
  if (!p.claimed) return h("span", { class: `chip ${p.open ? "free" : "invited"}`, dataset: { seat: p.seat } },
    t(p.open ? "tables.free_seat" : "tables.reserved_seat"));
  const me = person();
  return h("span", { class: `chip${me && p.person === me.id ? " you" : ""}`, dataset: { seat: p.seat } },
    personLink(p.person, p.name), ratingBadge(p.rating));
}

function tableRow(r) {
  const sets = r.sets.map((x) => t(`set.${x}`)).join(" + ");
  const meta = [sets, r.ruleset ? t(`ruleset.${r.ruleset}`) : null, r.leaders ? t("lobby.with_leaders") : null].filter(Boolean).join(" · ");
  const mine = mySeat(r);
  const where = r.started ? t("tables.round", { round: r.round }) : t("tables.not_started");
  const action = mine
    ? h("a", { class: "button open-game", href: `/games/${encodeURIComponent(r.id)}` }, t("tables.open_yours"))
    : h("button", { type: "button", class: "primary join", dataset: { id: r.id }, onclick: (ev) => join(r, ev.currentTarget) },
      t("tables.join"));
  const watch = mine ? null : h("a", { class: "button watch", href: `/games/${encodeURIComponent(r.id)}`,
    title: t("tables.watch_title") }, t("tables.watch"));
  return h("li", { class: "game-row table-row", dataset: { id: r.id } },
    h("div", { class: "game-head" },
      h("span", { class: "game-title", title: t("lobby.game", { id: r.id }) }, tableTitle(r.name, r.players)),
      h("span", { class: "muted small game-meta" }, meta)),
    r.host ? h("div", { class: "small host" }, t("tables.host"), " ", personLink(r.host.person, r.host.name || "?"),
      " ", ratingBadge(r.host.rating)) : null,
    h("div", { class: "game-players" }, r.players.map(seatChip)),
    h("div", { class: "game-foot" },
      h("span", { class: "status" }, t("tables.free", { n: r.seats_free, seats: r.seats }), " · ", where),
      mine ? h("span", { class: "muted small" }, t("tables.you_sit")) : null,
      watch, action));
}

/** Take a free seat of the table under the person's name, then open it. */
async function join(row, button) {
  if (!personKey()) return;
  button.disabled = true;
  try {
    const res = await api("POST", `/api/tables/${encodeURIComponent(row.id)}/join`, undefined, { key: personKey() });
    location.href = `/games/${encodeURIComponent(row.id)}#token=${encodeURIComponent(res.token)}`;
  } catch (e) {
    button.disabled = false;
    if (e.status === 409 && /full|taken/.test(e.message)) {
      openTableGone(row.id);
      banner(t("tables.join_full", { name: tableTitle(row.name, row.players) }), "info");
    } else if (e.status === 429) {
      banner(t("tables.join_too_many"));
    } else {
      banner(t("tables.join_failed", { why: e.message }));
    }
  }
}
