// The log as players read it: grouped by turn, what is new since the player's last action marked,
// and a "since your last turn" summary that folds each other player's turn (Prep reveals included)
// into one line.  Entry texts come from the server (card names, no notation); summaries and headers
// from the messages.

import { h } from "./dom.js";
import { t, list, playerName } from "./i18n.js";
import { icon } from "./icons.js";
import { nameAt } from "./seats.js";
import { localized, cardWords } from "./logtext.js";

/** An entry's text with the players' names: the server writes "Player 2"; where the table knows that
 *  seat's name (a person, a bot) it is put in ("Anna pushes", "Greedy bot's turn"). */
export function named(text) {
  return String(text ?? "").replace(/\bPlayer ([1-9])\b/g, (m, d) => nameAt(Number(d) - 1) || m);
}

/** Turns shown open at the end of the log; older ones are folded. */
const OPEN_TURNS = 6;

/** Split entries into turns: [{player, header entry or null, entries}]. */
export function turnsOf(log) {
  const groups = [];
  let cur = { player: null, head: null, entries: [] };
  for (const e of log) {
    if (e.k === "turn") {
      if (cur.head || cur.entries.length) groups.push(cur);
      cur = { player: e.p, head: e, entries: [] };
    } else {
      cur.entries.push(e);
    }
  }
  if (cur.head || cur.entries.length) groups.push(cur);
  return groups;
}

/** One turn in a line: pushes, spoil, buys, vales, VP, curses, and the Prep's reveals. */
export function turnSummary(group) {
  const parts = [];
  let pushes = 0;
  let spoil = null;
  let finished = false;
  const buys = [];
  const vales = [];
  const prep = [];
  let vp = 0;
  let curses = 0;
  for (const e of group.entries) {
    const a = e.a || {};
    if (e.k === "push") pushes++;
    else if (e.k === "spoil") { spoil = a.decay ?? "?"; finished = true; }
    else if (e.k === "finish") finished = true;
    else if (e.k === "buy") buys.push(a.slots ? `${a.name} (${a.slots.split("+").map((s) => t(`slot.${s}`)).join(" + ")})` : (a.name || named(e.t)));
    else if (e.k === "vale" && a.vale) vales.push(a.vale);
    else if (e.k === "vp" && e.p === group.player) vp += a.amount || 0;
    else if (e.k === "curse" && e.p === group.player) curses += a.amount || 0;
    else if (e.k === "reveal" && finished && e.p === group.player) prep.push(a.card ? cardWords(a.card) : "?");
  }
  if (pushes) parts.push(t("summary.pushed", { n: pushes }));
  if (spoil !== null) parts.push(t("summary.spoiled", { n: spoil }));
  if (buys.length) parts.push(t("summary.bought", { what: list(buys) }));
  if (vales.length) parts.push(t("summary.vales", { what: list(vales) }));
  if (vp) parts.push(t("summary.vp", { n: vp }));
  if (curses) parts.push(t("summary.curses", { n: curses }));
  if (prep.length) parts.push(t("summary.prep", { n: prep.length, what: list(prep) }));
  if (!parts.length) parts.push(t("summary.nothing"));
  return parts.join("; ");
}

/** The turns of other players since `seat`'s last turn (null if `seat` had no turn yet). */
export function sinceLastTurn(log, seat) {
  const groups = turnsOf(log);
  let last = -1;
  for (let i = groups.length - 1; i >= 0; i--) {
    if (groups[i].player === seat && groups[i].head) {
      // the current turn of `seat` does not count as "last": look for the one before it
      if (i === groups.length - 1) continue;
      last = i;
      break;
    }
  }
  if (last < 0) return null;
  return groups.slice(last + 1).filter((g) => g.player !== seat && g.head);
}

/** The summary box, or null when there is nothing to tell. */
export function summaryBox(log, seat, onClose) {
  if (seat === null || seat === undefined) return null;
  const turns = sinceLastTurn(log, seat);
  if (!turns || !turns.length) return null;
  const lines = turns.map((g) => h("li", { dataset: { seat: g.player } }, h("strong", {}, playerName(g.player), ": "), turnSummary(g)));
  return h("section", { id: "summary", class: "summary", dataset: { tab: "field" } },
    h("div", { class: "summary-head" }, h("strong", {}, t("summary.title")),
      h("button", { type: "button", class: "small close", title: t("dialog.close"), onclick: onClose }, "×")),
    h("ul", {}, lines));
}

/** The log list: turns as groups, the newest first, what is new since the player's last action marked (what the
 *  player did is not news to them). */
export function logList(log, seenUpTo, me = null) {
  log = log.map(localized);           // entries in the reader's language (js/logtext.js)
  const groups = turnsOf(log);
  const items = [];
  const isNew = (e) => e.i > seenUpTo && (me === null || e.p !== me);
  groups.forEach((g, gi) => {
    const fresh = g.entries.some(isNew) || (g.head && isNew(g.head));
    const entries = h("ul", { class: "turn-entries" }, g.entries.map((e) => h("li", {
      class: `log-${e.k}${e.p !== null && e.p !== undefined ? ` p${e.p}` : ""}${isNew(e) ? " new" : ""}`,
      dataset: { i: e.i } }, isNew(e) ? icon("new", { size: ".7em", cls: "new-dot" }) : null, named(e.t))));
    const head = g.head ? named(g.head.t) : t("log.setup");
    // Older turns fold away (a click opens them); the last few and anything new stay open.
    const open = fresh || gi >= groups.length - OPEN_TURNS;
    items.push(h("li", { class: `log-turn${fresh ? " new" : ""}${g.player !== null ? ` p${g.player}` : ""}`, dataset: { turn: gi } },
      open ? [h("div", { class: "turn-head" }, head), entries]
        : h("details", {}, h("summary", { class: "turn-head" }, head, h("span", { class: "muted small" }, ` (${g.entries.length})`)), entries)));
  });
  // The newest turn first (as on yucata and BGA: no scrolling to see what just happened); each
  // turn reads from top to bottom.
  return h("ul", { id: "log", "aria-live": "polite" }, items.reverse());
}
