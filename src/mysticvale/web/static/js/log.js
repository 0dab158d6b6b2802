// The log as players read it: grouped by turn, what is new since the player's last action marked,
// and a "since your last turn" summary that folds each other player's turn (Prep reveals included)
// into one line.  Entry texts come from the server (card names, no notation); summaries and headers
// from the messages.

import { h } from "./dom.js";
import { t, list, playerName, language } from "./i18n.js";
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

/** The summary box, or null when there is nothing to tell.  `open`: whether its lines show (a phone
 *  shows one line until it is opened, so the field stays on the first screen); `onToggle(open)`. */
export function summaryBox(log, seat, onClose, { open = true, onToggle = () => {} } = {}) {
  if (seat === null || seat === undefined) return null;
  const turns = sinceLastTurn(log, seat);
  if (!turns || !turns.length) return null;
  const texts = turns.map((g) => [playerName(g.player), turnSummary(g)]);
  const lines = turns.map((g, i) => h("li", { dataset: { seat: g.player } }, h("strong", {}, texts[i][0], ": "), texts[i][1]));
  const details = h("details", { open, ontoggle: (ev) => onToggle(ev.target.open) },
    h("summary", { class: "summary-head" }, h("strong", {}, t("summary.title")),
      h("span", { class: "summary-peek" }, texts.map(([name, text]) => `${name}: ${text}`).join(" · "))),
    h("ul", {}, lines));
  return h("section", { id: "summary", class: `summary${open ? " open" : ""}`, dataset: { tab: "field" } }, details,
    h("button", { type: "button", class: "small close", title: t("dialog.close"), onclick: onClose }, "×"));
}

/** A turn's entries as lines: the cards its Prep phase reveals one after another (about a third of
 *  all entries) are one line, "Anna's Prep: 4 cards: …".  [{entries, prep}] in order. */
export function logLines(group) {
  const lines = [];
  let finished = false;
  let run = null;
  for (const e of group.entries) {
    if (e.k === "finish" || e.k === "spoil") finished = true;
    const prep = finished && e.k === "reveal" && e.p === group.player && group.player !== null;
    if (prep && run) { run.entries.push(e); continue; }
    run = prep ? { entries: [e], prep: true } : null;
    lines.push(run || { entries: [e], prep: false });
  }
  return lines;
}

/** When a turn began, as the reader's clock says it: the time, with the date unless it is today
 *  (the server stamps each turn's first log entry with `at`, seconds since 1970). */
export function turnTime(at, now = new Date()) {
  if (typeof at !== "number") return null;
  const d = new Date(at * 1000);
  const loc = language();
  const time = d.toLocaleTimeString(loc, { hour: "2-digit", minute: "2-digit" });
  if (d.toDateString() === now.toDateString()) return time;
  return `${d.toLocaleDateString(loc, { day: "numeric", month: "short" })} ${time}`;
}

function lineEl(line, isNew, player) {
  const fresh = line.entries.some(isNew);
  const e = line.entries[0];
  const mark = fresh ? icon("new", { size: ".7em", cls: "new-dot" }) : null;
  // data-entries: the indices of the entries the line says (several for a Prep line).
  const entries = line.entries.map((x) => x.i).join(" ");
  if (!line.prep || line.entries.length < 2) {
    return h("li", { class: `log-${e.k}${e.p !== null && e.p !== undefined ? ` p${e.p}` : ""}${fresh ? " new" : ""}`,
      dataset: { i: e.i, entries } }, mark, named(e.t));
  }
  const cards = line.entries.map((x) => (x.a && x.a.card ? cardWords(x.a.card) : "?"));
  return h("li", { class: `log-prep p${player}${fresh ? " new" : ""}`, dataset: { i: e.i, entries, n: cards.length },
    title: line.entries.map((x) => named(x.t)).join("\n") }, mark,
  t("log.prep", { name: playerName(player), n: cards.length, what: list(cards) }));
}

/** The log list: turns as groups, the newest first, what is new since the player's last action marked (what the
 *  player did is not news to them); each turn with the time it began. */
export function logList(log, seenUpTo, me = null) {
  log = log.map(localized);           // entries in the reader's language (js/logtext.js)
  const groups = turnsOf(log);
  const items = [];
  const isNew = (e) => e.i > seenUpTo && (me === null || e.p !== me);
  groups.forEach((g, gi) => {
    const fresh = g.entries.some(isNew) || (g.head && isNew(g.head));
    const entries = h("ul", { class: "turn-entries" }, logLines(g).map((line) => lineEl(line, isNew, g.player)));
    const when = g.head ? turnTime(g.head.at) : null;
    const head = [g.head ? named(g.head.t) : t("log.setup"),
      when ? h("time", { class: "turn-time", datetime: new Date(g.head.at * 1000).toISOString(),
        title: new Date(g.head.at * 1000).toLocaleString(language()) }, when) : null];
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
