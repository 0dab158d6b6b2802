// Replaying a finished game, /games/{id}/replay?seat=S&step=K (issue 21): the table as one seat saw
// it at each step, drawn by the table's own panels (field, commons, players, log), with the log
// beside it.  First / previous / next / last step, a slider over every step, turn-by-turn jumps (the
// buttons and the list of turns), a click on a log line goes to the step that wrote it, and play
// moves on by itself.  Keys: ← →  steps, PageUp / PageDown turns, Home / End.
//
// The server sends each step as that seat's view at that moment (GET /api/games/{id}/replay): what
// the seat knew then and nothing more (server/replay.py).  Steps already seen are kept here.

import { h, s, $ } from "./dom.js";
import { t, playerName } from "./i18n.js";
import { icon } from "./icons.js";
import { api } from "./api.js";
import { banner } from "./banner.js";
import { useCatalogue } from "./catalogue.js";
import { classify } from "./actions.js";
import { fieldPanel } from "./field.js";
import { commonsPanel } from "./commons.js";
import { playersPanel } from "./players.js";
import { logList } from "./log.js";
import { deckDialog, valesDialog, legendDialog } from "./dialogs.js";
import { endDialog } from "./endscreen.js";
import { hide as hideZoom } from "./zoom.js";
import { loadSeats, onSeats, seatInfo } from "./seats.js";
import { loadTable, tableName, onTable } from "./tablename.js";
import { rulesLink } from "./help.js";
import { personKey } from "./people.js";
import { installProfile } from "./profile.js";
import { T } from "./state.js";

/** Milliseconds between steps while playing. */
const PLAY_MS = 700;
/** Steps kept here (each is one seat's view and log). */
const KEPT = 400;

const R = {
  id: null,
  seat: null,          // whose view (null: a spectator's)
  step: 0,
  steps: 0,
  outline: null,       // {turns: [{step, turn, round, player}], events: [...], actors: [...]}
  shown: null,         // the step's answer shown
  fieldSeat: null,     // the field shown when chosen from the players panel
  tab: "field",        // phone: the tab shown
  overlay: null,       // "deck:1", "vales:0", "legend", "end"
  playing: null,       // the play timer
  cache: new Map(),    // "seat:step" -> answer
  wanted: 0,           // the step asked for last (answers to older asks are not shown)
};

/** Open the replay of game `id`. */
export async function startReplay(id) {
  R.id = id;
  const query = new URLSearchParams(location.search);
  const seat = query.get("seat");
  R.seat = seat !== null && /^[0-3]$/.test(seat) ? Number(seat) : null;
  const step = Number(query.get("step"));
  document.body.classList.add("at-table", "at-replay");
  document.title = t("title.replay", { name: id });
  $("#topinfo").textContent = t("replay.title");
  $("#app").replaceChildren(h("p", { class: "muted" }, t("replay.loading")));
  if (personKey()) installProfile({});
  onSeats(() => { if (R.shown) render(); });
  onTable(() => { if (R.shown) render(); });
  loadSeats(id);
  loadTable(id);
  document.addEventListener("keydown", onKey);
  try {
    const first = await fetchStep(Number.isInteger(step) && step > 0 ? step : 0, true);
    R.outline = first.outline;
    R.steps = first.steps;
    await show(first);
  } catch (e) {
    $("#app").replaceChildren(h("section", { class: "panel welcome", id: "replay-error" },
      h("h1", {}, t(e.status === 409 ? "replay.not_over" : e.status === 404 ? "error.no_game" : "replay.failed", { why: e.message })),
      h("p", {}, e.status === 409 ? h("a", { class: "button primary", href: `/games/${encodeURIComponent(id)}` }, t("replay.to_table")) : null,
        " ", h("a", { class: "button", href: "/" }, t("end.lobby")))));
  }
}

async function fetchStep(step, outline = false) {
  const key = `${R.seat}:${step}`;
  if (!outline && R.cache.has(key)) return R.cache.get(key);
  const q = new URLSearchParams({ step: String(step) });
  if (R.seat !== null) q.set("seat", String(R.seat));
  if (outline) q.set("outline", "true");
  const res = await api("GET", `/api/games/${encodeURIComponent(R.id)}/replay?${q}`);
  R.cache.set(key, res);
  if (R.cache.size > KEPT) R.cache.delete(R.cache.keys().next().value);
  return res;
}

async function show(res) {
  await useCatalogue(res.view.catalogue);
  R.shown = res;
  R.step = res.step;
  const q = new URLSearchParams();
  if (R.seat !== null) q.set("seat", String(R.seat));
  if (R.step) q.set("step", String(R.step));
  history.replaceState(null, "", `${location.pathname}${q.toString() ? `?${q}` : ""}`);
  render();
}

/** Go to step `k` (clamped); the newest ask wins when answers come out of order. */
async function go(k) {
  k = Math.max(0, Math.min(R.steps, Math.round(k)));
  if (R.shown && k === R.step && R.shown.seat === R.seat) return;
  R.wanted = k;
  try {
    const res = await fetchStep(k);
    if (R.wanted === k) await show(res);
  } catch (e) {
    stop();
    banner(t("replay.failed", { why: e.message }));
  }
}

function turnIndex(step) {
  const turns = R.outline.turns;
  let i = 0;
  while (i + 1 < turns.length && turns[i + 1].step <= step) i++;
  return i;
}

function prevTurn() {
  const i = turnIndex(R.step);
  const start = R.outline.turns[i].step;
  go(R.step > start ? start : R.outline.turns[Math.max(0, i - 1)].step);
}

function nextTurn() {
  const i = turnIndex(R.step);
  go(i + 1 < R.outline.turns.length ? R.outline.turns[i + 1].step : R.steps);
}

/** The step that wrote log entry `i`. */
function stepOfEntry(i) {
  const events = R.outline.events;
  let k = 0;
  while (k < events.length && events[k] <= i) k++;
  return Math.min(k, R.steps);
}

function play() {
  if (R.playing) { stop(); return; }
  if (R.step >= R.steps) go(0);
  R.playing = setInterval(() => {
    if (R.step >= R.steps) { stop(); return; }
    go(R.step + 1);
  }, PLAY_MS);
  render();
}

function stop() {
  if (!R.playing) return;
  clearInterval(R.playing);
  R.playing = null;
  render();
}

function chooseSeat(value) {
  R.seat = value === "" ? null : Number(value);
  R.fieldSeat = null;
  const k = R.step;
  R.step = -1;
  go(k);
}

function onKey(ev) {
  if (ev.target && /^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName) && ev.target.type !== "range") return;
  const keys = {
    ArrowLeft: () => go(R.step - 1), ArrowRight: () => go(R.step + 1), Home: () => go(0), End: () => go(R.steps),
    PageUp: prevTurn, PageDown: nextTurn,
    Escape: () => { hideZoom(); if (R.overlay) { R.overlay = null; render(); } },
  };
  const f = keys[ev.key];
  if (!f || !R.outline) return;
  ev.preventDefault();
  if (ev.key !== "Escape") stop();
  f();
}

// ------------------------------------------------------------------ drawing

function whoActs(o, res) {
  if (res.step === 0) return t("replay.setup");
  const actor = res.actor;
  return t("replay.step_by", { name: playerName(actor) });
}

function seatName(s) {
  const info = seatInfo(s);
  return info && info.name ? info.name : playerName(s);
}

/** The controls' small pictures (drawn, not font characters: not every font has ⏮ and ⏭). */
const SHAPES = {
  first: ["M6 5h2.4v14H6z", "M19 5v14L9.5 12z"],
  prevTurn: ["M12 5v14L4 12z", "M20 5v14l-8-7z"],
  prev: ["M16 5v14L7 12z"],
  play: ["M8 5v14l11-7z"],
  pause: ["M7 5h3.6v14H7z", "M13.4 5H17v14h-3.6z"],
  next: ["M8 5v14l9-7z"],
  nextTurn: ["M4 5v14l8-7z", "M12 5v14l8-7z"],
  last: ["M5 5v14l9.5-7z", "M15.6 5H18v14h-2.4z"],
};

function shape(name) {
  return s("svg", { class: "icon", viewBox: "0 0 24 24", width: "1.05em", height: "1.05em", "aria-hidden": "true" },
    SHAPES[name].map((d) => s("path", { d, fill: "currentColor" })));
}

function controls(o) {
  const res = R.shown;
  const turn = R.outline.turns[turnIndex(R.step)];
  const btn = (id, label, title, onclick, disabled = false) => h("button", { type: "button", id, title, "aria-label": title,
    disabled, onclick: () => { if (id !== "replay-play") stop(); onclick(); } }, label);
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: R.steps, step: 1, value: R.step,
    "aria-label": t("replay.slider"), oninput: (ev) => { stop(); go(Number(ev.target.value)); } });
  const turnSelect = h("select", { id: "replay-turn", "aria-label": t("replay.turn_list"),
    onchange: (ev) => { stop(); go(Number(ev.target.value)); } },
  R.outline.turns.map((tn, i) => h("option", { value: tn.step, selected: i === turnIndex(R.step) },
    i === 0 && tn.step === 0 ? t("replay.turn_first", { round: tn.round, name: seatName(tn.player) })
      : t("replay.turn_option", { round: tn.round, name: seatName(tn.player) }))));
  const seatSelect = h("select", { id: "replay-seat", "aria-label": t("replay.seen_from"), onchange: (ev) => chooseSeat(ev.target.value) },
    o.players.map((_, s) => h("option", { value: s, selected: R.seat === s }, seatName(s))),
    h("option", { value: "", selected: R.seat === null }, t("replay.spectator")));
  return h("div", { id: "actionbar", class: "replay-bar" },
    h("div", { id: "prompt", role: "status" },
      h("strong", { id: "replay-where" }, t("replay.where", { step: R.step, steps: R.steps, round: turn.round })),
      " · ", h("span", { id: "replay-who" }, whoActs(o, res))),
    h("div", { class: "replay-controls" },
      btn("replay-first", shape("first"), t("replay.first"), () => go(0), R.step === 0),
      btn("replay-prev-turn", shape("prevTurn"), t("replay.prev_turn"), prevTurn, R.step === 0),
      btn("replay-prev", shape("prev"), t("replay.prev"), () => go(R.step - 1), R.step === 0),
      btn("replay-play", shape(R.playing ? "pause" : "play"), t(R.playing ? "replay.pause" : "replay.play"), play),
      btn("replay-next", shape("next"), t("replay.next"), () => go(R.step + 1), R.step >= R.steps),
      btn("replay-next-turn", shape("nextTurn"), t("replay.next_turn"), nextTurn, R.step >= R.steps),
      btn("replay-last", shape("last"), t("replay.last"), () => go(R.steps), R.step >= R.steps),
      slider),
    h("div", { class: "replay-choices" },
      h("label", {}, t("replay.turn_label"), " ", turnSelect),
      h("label", {}, t("replay.seen_from"), " ", seatSelect),
      o.over ? h("button", { type: "button", id: "replay-scores", onclick: () => { R.overlay = "end"; render(); } },
        icon("vp"), " ", t("top.scores")) : null));
}

function tabsEl() {
  const tab = (name) => h("button", { type: "button", class: `tab${R.tab === name ? " on" : ""}`, role: "tab",
    "aria-selected": R.tab === name ? "true" : "false", dataset: { tab: name },
    onclick: () => { R.tab = name; render(); } }, t(`tab.${name}`));
  return h("nav", { id: "tabs", role: "tablist" }, tab("field"), tab("commons"), tab("players"), tab("log"));
}

function overlayEl(view) {
  const o = view.observation;
  const close = () => { R.overlay = null; render(); };
  const ov = R.overlay;
  if (!ov) return null;
  if (ov === "legend") return legendDialog(close);
  if (ov.startsWith("deck:")) return deckDialog(o, Number(ov.slice(5)), close);
  if (ov.startsWith("vales:")) return valesDialog(o, Number(ov.slice(6)), close);
  if (ov === "end" && o.scores) return endDialog({ ...view, seat: null, rematch: null }, close, { replay: false });
  R.overlay = null;
  return null;
}

function topBar(view) {
  const title = tableName() || view.observation.players.map((_, s) => playerName(s)).join(t("top.versus"));
  document.title = t("title.replay", { name: title });
  $("#topinfo").replaceChildren(
    h("span", { class: "top-game" }, title),
    h("span", { class: "sep sep-game" }, " · "),
    h("strong", { id: "whose" }, t("replay.title")));
  const keep = $("#person-btn");
  $("#topactions").replaceChildren(...[
    rulesLink(),
    h("button", { type: "button", id: "legend-btn", onclick: () => { R.overlay = "legend"; render(); }, title: t("legend.title") },
      icon("info"), h("span", { class: "btn-text" }, t("top.legend"))),
    keep,
  ].filter(Boolean));
}

function render() {
  const res = R.shown;
  if (!res) return;
  const view = res.view;
  const o = view.observation;
  // The table's panels read the view shown from the table's state (js/state.js): a replay has no
  // move of its own to make, so nothing there can act.
  T.view = view;
  T.log = res.log;
  T.seq = -1;
  const ctx = { o, view, me: null, mine: false, legal: [], groups: classify([]), offered: new Set() };
  const acting = o.acting_player ?? o.current_player ?? res.actor ?? 0;
  const fs = R.fieldSeat ?? (R.seat !== null && acting === null ? R.seat : acting ?? 0);
  const field = fieldPanel(ctx, fs, {
    pinned: R.fieldSeat !== null,
    onPin: () => { R.fieldSeat = R.fieldSeat === null ? fs : null; render(); },
    onDeckClick: () => {},
    onDiscardClick: () => {},
  });
  const players = playersPanel(ctx, {
    onDeck: (seat) => { R.overlay = `deck:${seat}`; render(); },
    onField: (seat) => { R.fieldSeat = seat; if (R.tab === "players") R.tab = "field"; render(); },
    onVales: (seat) => { R.overlay = `vales:${seat}`; render(); },
  });
  // The log as the seat read it at this step; what this step wrote is marked.
  const before = res.step > 0 ? R.outline.events[res.step - 1] - 1 : -1;
  const log = logList(res.log, before, null);
  log.addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-i]");
    if (!li) return;
    stop();
    go(stepOfEntry(Number(li.dataset.i)));
  });
  const logPanel = h("section", { id: "log-panel", class: "panel replay-log", dataset: { tab: "log" } },
    h("h3", {}, t("log.title")), h("p", { class: "small muted" }, t("replay.log_hint")), log);
  topBar(view);
  Object.assign(document.body.dataset, { step: String(R.step), steps: String(R.steps), replaySeat: R.seat === null ? "" : String(R.seat) });
  $("#app").replaceChildren(h("div", { class: "table replay", dataset: { tab: R.tab } },
    tabsEl(), controls(o),
    h("div", { class: "columns" },
      h("div", { class: "main" }, field, commonsPanel(ctx)),
      h("div", { class: "side" }, players, logPanel)),
    overlayEl(view)));
}
