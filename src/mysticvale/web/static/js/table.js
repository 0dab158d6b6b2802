// The table: takes the versions of the game, plays them back, and draws everything from the view
// shown.  Layout pieces live in field.js, commons.js, players.js, log.js, dialogs.js and
// endscreen.js; this module connects them and holds what the player is doing (two-click push,
// automatic reveal, dialogs, tabs on a phone).  Who sits where is seats.js, the chat chat.js, the
// keyword help and the tour help.js.

import { h, $ } from "./dom.js";
import { t, playerName, has } from "./i18n.js";
import { icon } from "./icons.js";
import { Connection } from "./transport.js";
import { applyOps, applyLog } from "./patch.js";
import { useCatalogue, leaderBySlugOrName } from "./catalogue.js";
import { classify, describe, cardName } from "./actions.js";
import { cardFace, valeFace, advancementFace, leaderFaces } from "./cards.js";
import { zoomable, hide as hideZoom } from "./zoom.js";
import { actionButton, setHandlers } from "./widgets.js";
import { fieldPanel } from "./field.js";
import { commonsPanel } from "./commons.js";
import { playersPanel, botOf } from "./players.js";
import { namedByBot, nameSaysBot, botBadge } from "./seats.js";
import { logList, summaryBox } from "./log.js";
import { chooserDialog, settingsDialog, legendDialog, deckDialog, discardDialog, valesDialog } from "./dialogs.js";
import { endDialog } from "./endscreen.js";
import { Playback, snapshot, animateFrom } from "./playback.js";
import { buysLeft, spiritsLeft } from "./numbers.js";
import { settings, onSettings } from "./settings.js";
import { banner, clearBanner, bigBanner } from "./banner.js";
import { rememberGame, myGames, lastSeen, setLastSeen, setTabSeat, personKey } from "./storage.js";
import { getMyGame, keyRefused } from "./people.js";
import { T, obs, myDecision } from "./state.js";
import { turnChanged } from "./notify.js";
import { loadSeats, setSeats, seatsFromView, onSeats } from "./seats.js";
import { initChat, chatPanel, chatUnread, receiveChat, catchUp, keepChat } from "./chat.js";
import { installHelp, rulesLink, tourOffer, afterRender } from "./help.js";
import { loadTable, setTable, tableName, onTable } from "./tablename.js";
import { houseNotice, houseDialog } from "./housecards.js";

const ARM_MS = 6000;
let playback = null;
let delivering = Promise.resolve();

// ------------------------------------------------------------------ starting

export function startTable(id, token) {
  T.id = id;
  T.token = token;
  T.pinned = !!settings.pinField;
  document.body.classList.add("at-table");
  $("#home").title = t("top.home");
  document.title = t("title.game", { id });
  rememberGame({ id, token, ...(myGames().find((g) => g.id === id && g.token === token) || {}) });
  $("#app").replaceChildren(h("p", { class: "muted" }, t("table.connecting")));
  setHandlers({ send, choose: openChooser });
  playback = new Playback({ apply, draw, idle, mySeat: () => (T.view ? T.view.seat : null) });
  onSeats(() => { if (T.view) render(); loadTable(id); });      // (a claim: whose profile each seat links to)
  onTable(() => { if (T.view) render(); });
  loadSeats(id);
  loadTable(id);
  T.conn = new Connection(id, token, {
    social: (msg) => {
      if (msg.type === "chat") receiveChat(msg);
      else if (msg.type === "seats") setSeats(msg.seats);
      else if (msg.type === "table") setTable(msg.table);         // the host renamed the table
    },
    opened: () => { catchUp(); loadSeats(id); },
    deliver: (msg) => { delivering = delivering.then(() => prepare(msg)).then(() => playback.push(msg)).catch((e) => banner(e.message)); },
    status: (open) => { T.wsOpen = open; renderConn(); },
    note: onNote,
    fatal: async (status, message) => {
      T.fatal = true;
      if (status === 410 && await reopenWithNewToken(message)) return;
      if (T.view && status !== 410) banner(status === 403 ? t("error.token") : status === 404 ? t("error.no_game") : t("error.server"));
      else {
        T.conn.stop();
        $("#app").replaceChildren(errorPage(status, message));
      }
      renderConn();
    },
  });
  initChat(id, {
    conn: T.conn,
    canWrite: () => !!T.token && !!T.view && typeof T.view.seat === "number",
    mySeat: () => (T.view && typeof T.view.seat === "number" ? T.view.seat : null),
  });
  installHelp({ showTab: (name) => { if (T.tab !== name) { T.tab = name; render(); } } });
  T.conn.start();
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { hideZoom(); if (T.overlay) { closeOverlay(); } else if (T.armedSeq !== null) { disarm(); } }
  });
  onSettings(() => { if (T.view) { render(); maybeAutoReveal(); } });
  document.addEventListener("visibilitychange", () => { if (!document.hidden && playback.playing) playback.skip(); });
}

/** The seat's token ended (410: its invitation was claimed, or its player made a new key).  If the
 *  seat is this person's (the seat shown, or for a replaced link the person's seat of this game),
 *  their key reads its new token: the table opens again with it (true).  An invitation somebody
 *  else used stays an "already used" page, also for a person who holds another seat of the game. */
async function reopenWithNewToken(message) {
  const shown = T.view && typeof T.view.seat === "number" ? T.view.seat : null;
  // The key may have been replaced in another tab of this browser a moment ago (its new key is on
  // its way back there): a refused key is asked again a few times, with whatever key is kept then.
  for (let attempt = 0; attempt < 6 && personKey(); attempt++) {
    let mine;
    try {
      mine = await getMyGame(T.id);
    } catch (e) {
      if (!keyRefused(e)) return false;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    if (!mine.token || mine.token === T.token) return false;
    if (shown === null ? !/replaced/.test(message || "") : mine.seat !== shown) return false;
    setTabSeat(T.id, mine.token);
    location.reload();
    return true;
  }
  return false;
}

/** The page instead of the table when the game cannot be opened: what happened and what to do, in
 *  the player's words (the server's own message only as a detail, for a report). */
function errorPage(status, message) {
  const ended = /already used/.test(message || "") ? "used" : "replaced";
  const kind = status === 403 ? "token" : status === 404 ? "no_game" : status === 410 ? ended : "other";
  document.title = t(`errorpage.${kind}.title`);
  const actions = [];
  // (watching: this tab forgets the seat's token, which would open this page again)
  if (kind === "token" || status === 410) actions.push(h("a", { class: "button primary", id: "watch-game", href: `/games/${encodeURIComponent(T.id)}`, onclick: () => setTabSeat(T.id, null) }, t("errorpage.watch")));
  if (kind === "other") actions.push(h("button", { type: "button", class: "primary", onclick: () => location.reload() }, t("errorpage.retry")));
  actions.push(h("a", { class: "button", id: "to-lobby", href: "/" }, t("end.lobby")));
  return h("section", { id: "error-page", class: "panel error-page", dataset: { status: String(status) } },
    h("h1", {}, t(`errorpage.${kind}.title`)),
    h("p", {}, t(`errorpage.${kind}.text`)),
    h("p", { class: "error-actions" }, actions),
    kind === "other" && message ? h("details", { class: "muted small" }, h("summary", {}, t("errorpage.detail")), message) : null);
}

/** Before a version is queued: its card data must be there. */
async function prepare(msg) {
  if (msg.type === "full") await useCatalogue(msg.view.catalogue);
}

function onNote(msg) {
  if (msg.type === "rematch") {
    if (T.view) { T.view.rematch = msg.id; render(); }
    banner(t("end.rematch_started"), "info");
  } else if (msg.type === "error") {
    banner(msg.message || t("error.server"));
  }
}

// ------------------------------------------------------------------ versions

function apply(msg) {
  if (msg.type === "full") {
    T.view = msg.view;
    T.log = msg.log;
    seatsFromView(msg.view.players);
    if (T.seenAtOpen < 0) T.seenAtOpen = lastSeen(T.id, msg.view.seat);
    if (T.seenAtOpen < 0 && T.log.length) T.seenAtOpen = T.log[T.log.length - 1].i;
  } else {
    T.view = applyOps(T.view, msg.ops);
    applyLog(T.log, msg.log);
  }
  T.seq = msg.seq;
  T.lastBy = msg.by ?? null;
  // An undo of this seat's is said in the action bar, beside Undo, until the next version (a
  // banner over the bar covered Undo and End Harvest).
  if (msg.type === "delta" && msg.undo && msg.by === T.view.seat) T.undoneSeq = msg.seq;
  rememberCards();
  if (T.token && typeof T.view.seat === "number") {
    const known = myGames().find((g) => g.id === T.id && g.token === T.token);
    if (!known || known.seat !== T.view.seat) rememberGame({ id: T.id, token: T.token, seat: T.view.seat });
  }
}

/** Card views seen on the table, with their owner (a leader stays known once face up). */
function rememberCards() {
  const o = obs();
  o.players.forEach((p, seat) => {
    for (const c of [...p.field, ...(p.on_deck ? [p.on_deck] : [])]) T.knownCards.set(c.id, { ...c, owner: seat });
  });
}

function draw({ animate, msgs }) {
  const before = animate ? snapshot($("#app")) : null;
  render();
  // Drawn in this task: idle() right after it (the playback's last step) need not draw it again.
  T.justDrawn = true;
  queueMicrotask(() => { T.justDrawn = false; });
  if (animate) animateFrom(before, $("#app"));
  for (const m of msgs) announce(m);
}

/** The spoil banner, on every screen. */
function announce(msg) {
  if (msg.type !== "delta" || !msg.log) return;
  for (const e of msg.log[1]) {
    if (e.k !== "spoil") continue;
    const n = e.a && e.a.decay !== undefined ? e.a.decay : "?";
    bigBanner(e.p === T.view.seat ? t("banner.spoil_you", { n }) : t("banner.spoil", { name: playerName(e.p), n }));
  }
}

/** Every version received is shown: a deck click that came while an action was on its way arms
 *  the deck now (for the next card: it never pushes by itself). */
function idle({ redraw } = {}) {
  const armed = T.armedSeq;
  if (T.pendingArm !== false && T.seq > T.pendingArm) {
    if (myDecision() && (T.view.legal_actions || []).includes("push")) T.armedSeq = T.seq;
    T.pendingArm = false;
  }
  maybeAutoReveal();
  // Drawing the whole table is most of a click's time: draw it once per version, not again for a
  // version drawn just now, unless arming the deck changed what shows.
  if ((redraw ?? !T.justDrawn) || T.armedSeq !== armed) render();
  if (T.armedSeq === T.seq) { clearTimeout(T.armTimer); T.armTimer = setTimeout(() => disarm(), ARM_MS); }
}

// ------------------------------------------------------------------ sending

async function send(action, { auto = false } = {}) {
  if (T.busy || !T.token || !T.conn) return;
  if (playback.playing) playback.skip();
  disarm(false);
  cancelAuto();
  if (!auto) T.summaryClosedAt = T.view.observation.turn_number;
  T.busy = true;
  document.body.classList.add("busy");
  markSeen();
  const renders = T.renders;
  try {
    await T.conn.act(action);
    clearBanner();
  } catch (e) {
    banner(t("error.not_accepted", { action: describe(obs(), action), why: e.message }));
    T.pendingArm = false;
    T.conn.fetchUpdates();
  } finally {
    T.busy = false;
    document.body.classList.remove("busy");
    const closed = T.overlay === "chooser";
    if (closed) T.overlay = null;
    // The action's version was drawn when it came, after every change above: draw again only if
    // none was (a refusal) or the chooser closes.
    if (!playback.playing) idle({ redraw: closed || T.renders === renders });
  }
}

async function undo() {
  if (T.busy || !T.token) return;
  if (playback.playing) playback.skip();
  disarm(false);
  cancelAuto();
  T.busy = true;
  document.body.classList.add("busy");
  const renders = T.renders;
  try {
    await T.conn.undo();
  } catch (e) {
    banner(t("error.undo", { why: e.message }));
    T.conn.fetchUpdates();
  } finally {
    T.busy = false;
    document.body.classList.remove("busy");
    if (!playback.playing) idle({ redraw: T.renders === renders });
  }
}

function markSeen() {
  const last = T.log.length ? T.log[T.log.length - 1].i : -1;
  T.seenAtOpen = last;
  if (T.view && T.view.seat !== null) setLastSeen(T.id, T.view.seat, last);
}

// ------------------------------------------------------------------ two-click push, automatic reveal

/** The deck was clicked: the first click arms it, a second click at the same version pushes.  A
 *  click while an action is on its way arms the deck for the next version (it is not lost, and it
 *  never pushes by itself). */
function deckClick() {
  cancelAuto();
  if (T.busy || playback.playing) { T.pendingArm = T.seq; return; }
  if (T.armedSeq === T.seq) send("push");
  else arm();
}

function arm() {
  T.armedSeq = T.seq;
  clearTimeout(T.armTimer);
  T.armTimer = setTimeout(() => disarm(), ARM_MS);
  render();
}

function disarm(rerender = true) {
  clearTimeout(T.armTimer);
  const was = T.armedSeq !== null;
  T.armedSeq = null;
  if (was && rerender && T.view) render();
}

function cancelAuto() {
  if (T.autoTimer) clearTimeout(T.autoTimer.id);
  T.autoTimer = null;
}

/** "Reveal automatically with less than N decay" (file 000): push by itself while it is our
 *  Planting decision, below the limit, unless the player is in the middle of a push themselves. */
function maybeAutoReveal() {
  const v = T.view;
  if (!settings.autoReveal || !v || v.seat === null || v.seat === undefined || T.busy || playback.playing) return;
  const o = v.observation;
  if (o.phase !== "planting" || o.pending || o.acting_player !== v.seat) return;
  if (!(v.legal_actions || []).includes("push")) return;
  if (o.players[v.seat].decay >= Number(settings.autoRevealLimit)) return;
  if (T.autoSentSeq === T.seq || T.armedSeq === T.seq || T.pendingArm !== false) return;
  if (T.autoTimer && T.autoTimer.seq === T.seq) return;
  cancelAuto();
  const at = T.seq;
  const timer = { seq: at, id: 0 };
  timer.id = setTimeout(() => {
    if (T.autoTimer === timer) T.autoTimer = null;
    if (T.seq !== at || T.armedSeq === at || T.busy || playback.playing) { maybeAutoReveal(); return; }
    T.autoSentSeq = at;
    send("push", { auto: true });
  }, settings.animations ? 450 : 150);
  T.autoTimer = timer;
}

// ------------------------------------------------------------------ dialogs

function openChooser(title, actions, opts = {}) {
  T.overlay = "chooser";
  T.chooser = { title, actions, preview: opts.preview || null };
  render();
}

function open(name) { T.overlay = name; render(); }

function closeOverlay() {
  if (T.overlay === "end") T.endClosed = true;
  T.overlay = null;
  render();
}

async function rematch() {
  T.rematchBusy = true;
  render();
  try {
    const res = await T.conn.rematch();
    const mine = res.seats.find((s) => s.token);
    location.href = mine ? mine.url : res.spectator_url;
  } catch (e) {
    banner(t("error.rematch", { why: e.message }));
  } finally {
    T.rematchBusy = false;
  }
}

function overlayEl(o) {
  if (!T.overlay) return null;
  const close = closeOverlay;
  const ov = T.overlay;
  if (ov === "chooser" && T.chooser) {
    if (!T.chooser.actions.every((a) => (T.view.legal_actions || []).includes(a))) { T.overlay = null; return null; }
    return chooserDialog(o, T.chooser, send, close);
  }
  if (ov === "settings") return settingsDialog(close);
  if (ov === "legend") return legendDialog(close);
  if (ov.startsWith("deck:")) return deckDialog(o, Number(ov.slice(5)), close);
  if (ov === "discard" && T.view.seat !== null && o.players[T.view.seat].discard) return discardDialog(o, T.view.seat, close);
  if (ov.startsWith("vales:")) return valesDialog(o, Number(ov.slice(6)), close);
  if (ov === "house") return houseDialog(T.view, close);        // issue 21: the host's card values
  if (ov === "end" && o.scores) return endDialog(T.view, close, { onRematch: rematch, rematchBusy: !!T.rematchBusy });
  T.overlay = null;
  return null;
}

// ------------------------------------------------------------------ no decision on a hidden tab

const PHONE = "(max-width: 700px)";

/** Where the widgets of the player's decision are: the phone tabs holding some, and whether any is
 *  always on screen (the action bar, the private panel). */
function decisionPlaces() {
  const tabs = new Map();
  let always = false;
  for (const el of document.querySelectorAll(".table [data-action], .table [data-actions], .table #deck.clickable")) {
    if (el.closest(".overlay")) continue;
    const sec = el.closest("section[data-tab]");
    if (!sec) { always = true; continue; }
    tabs.set(sec.dataset.tab, (tabs.get(sec.dataset.tab) || 0) + 1);
  }
  return { tabs, always };
}

/** On a phone, no decision waits on a hidden tab.  Right after the player's own action (they are
 *  acting, not reading) the table goes to the tab that holds the whole decision, e.g. the field for
 *  sleeving after End Harvest on the commons.  A decision that comes by itself (the turn begins,
 *  another player's action) never pulls the player away from what they are reading: the tabs that
 *  hold it get a mark, and when nothing of it is on screen the bar offers a button to go there.
 *  Returns true when it switched (and drew the table again). */
function placeDecision(v) {
  if (!window.matchMedia(PHONE).matches) return false;
  const { tabs, always } = decisionPlaces();
  const hidden = !always && tabs.size && !tabs.has(T.tab);
  const target = [...tabs.entries()].sort((a, b) => b[1] - a[1] || (a[0] === "field" ? -1 : 1))[0];
  if (hidden && T.lastBy === v.seat && T.tabPlacedSeq !== T.seq) {
    T.tabPlacedSeq = T.seq;
    T.tab = target[0];
    render();
    window.scrollTo(0, 0);
    return true;
  }
  T.tabPlacedSeq = T.seq;
  for (const [tab] of tabs) {
    const btn = document.querySelector(`#tabs [data-tab=${tab}]`);
    if (btn && tab !== T.tab && !btn.querySelector(".badge")) btn.append(h("span", { class: "badge decision", title: t("tab.decision_here") }, "!"));
  }
  if (hidden) {
    const go = h("button", { type: "button", id: "go-decision", class: "primary",
      onclick: () => { T.tab = target[0]; render(); window.scrollTo(0, 0); } }, t("tab.go", { tab: t(`tab.${target[0]}`) }));
    const bar = $("#actionbar .bar-buttons");
    if (bar) bar.append(go);
  }
  return false;
}

// ------------------------------------------------------------------ drawing

function shownFieldSeat(o, v) {
  if (T.pinned && T.fieldSeat === null) T.fieldSeat = v.seat ?? 0;
  if (T.pinned) return T.fieldSeat;
  if (o.acting_player !== null && o.acting_player === v.seat) return v.seat;
  if (o.current_player !== null && o.current_player !== undefined) return o.current_player;
  return v.seat ?? 0;
}

function actingName(o, v) {
  const who = o.acting_player ?? o.current_player;
  return { who, name: playerName(who), bot: botOf(v, who) };
}

function promptText(o, v, mine, groups) {
  if (o.over) return t("prompt.over");
  const me = v.seat;
  if (playback.playing && !mine) {
    const { name } = actingName(o, v);
    return t("prompt.replaying", { name });
  }
  // yucata's turn order (file 000): the reveal after a When Played ability, and Finish Turn after the
  // Prep; each says whether the last choice can still be taken back.
  const undoable = v.can_undo ? ` ${t("prompt.can_undo")}` : "";
  if (o.pending && o.pending.kind === "finish_turn" && o.pending.player === me) return t("prompt.finish_turn") + undoable;
  if (o.pending && o.pending.kind === "reveal_next" && o.pending.player === me) {
    const played = o.players[me].field[o.players[me].field.length - 1];
    return t(o.phase === "prep" ? "prompt.reveal_prep" : "prompt.reveal_planting", { name: cardName(played) }) + undoable;
  }
  if (o.pending) {
    const key = `pending.${o.pending.kind}`;
    const what = has(key) ? t(key) : o.pending.description;
    if (o.pending.player === me) return t("prompt.your_pending", { what });
    return t("prompt.other_pending", { name: playerName(o.pending.player), what });
  }
  if (mine) {
    if (o.phase === "planting") return t(groups.push ? "prompt.planting" : "prompt.planting_pass");
    if (o.phase === "harvest") return t("prompt.harvest");
    if (groups.simple.finish && Object.keys(groups.simple).length === 1) return t("prompt.finish_turn") + undoable;
    return t("prompt.yours");
  }
  const { who, name, bot } = actingName(o, v);
  // "Druid (bot) is thinking", but "Greedy bot is thinking": the bot is named once (issue 20).
  if (bot) return t(nameSaysBot(who) ? "prompt.bot_named_thinking" : "prompt.bot_thinking", { name });
  return t("prompt.waiting", { name });
}

function actionBar(ctx) {
  const { o, view, mine, groups, offered } = ctx;
  const buttons = h("div", { id: "buttons" });
  const add = (verb, opts = {}) => { if (groups.simple[verb]) buttons.append(actionButton(groups.simple[verb], offered, opts)); };
  add("pass", { cls: "pass" });
  add("trade");
  add("stop");
  for (const v of ["keep", "skip", "spoil"]) add(v);
  // Everything legal no widget offers (besides push, which only the deck offers).
  for (const a of groups.rest) if (!offered.has(a)) buttons.append(actionButton(a, offered));
  if (groups.reveal) {
    buttons.append(actionButton(groups.reveal, offered, { cls: "primary", id: "reveal", label: t("action.reveal") }));
  }
  if (groups.simple.finish) {
    const harvestEnd = o.phase === "harvest" && !o.pending;
    buttons.append(actionButton(groups.simple.finish, offered, { cls: "primary", id: "finish",
      label: t(harvestEnd ? "action.end_harvest" : "action.finish_turn") }));
  }
  const res = [];
  if (o.phase === "harvest" && o.turn.player === view.seat && typeof o.turn.mana === "number") {
    const b = buysLeft(o.turn);
    const sp = spiritsLeft(o.turn);
    res.push(h("span", { class: "res res-mana", title: t("numbers.mana_left_title") }, icon("mana"), " ", String(o.turn.mana)));
    for (const k of ["animal", "forest", "sky", "wild"]) if (sp.left[k]) res.push(h("span", { class: `res res-${k}` }, icon(k), " ", String(sp.left[k])));
    res.push(h("span", { class: "res res-buys", title: t("numbers.buys_title") },
      t("bar.buys", { a: b.advancements, amax: b.advancementMax, v: b.vales, vmax: b.valeMax })));
  }
  const undoBtn = view.can_undo ? h("button", { type: "button", id: "undo", onclick: undo, title: t("table.undo_title") }, t("table.undo")) : null;
  const skip = playback.playing && !mine ? h("button", { type: "button", id: "skip", class: "small",
    onclick: () => playback.skip() }, t("table.skip", { n: playback.waiting + 1 })) : null;
  const undone = T.undoneSeq === T.seq ? h("span", { class: "undone-note", id: "undone" }, "↶ ", t("table.undone"), " ") : null;
  return h("div", { id: "actionbar", class: mine ? "mine" : "" },
    h("div", { id: "prompt", class: mine ? "mine" : "", role: "status" }, undone, promptText(o, view, mine, groups), skip),
    res.length ? h("div", { class: "resources", id: "resources" }, res) : null,
    h("div", { class: "bar-buttons" }, undoBtn, buttons));
}

function privatePanel(ctx) {
  const { o, groups, offered, legal } = ctx;
  const pd = o.pending || {};
  if (!((pd.cards && pd.cards.length) || (pd.leaders && pd.leaders.length) || (pd.advancement && pd.kind !== "sleeve") || pd.vale)) return null;
  const leaders = (pd.leaders || []).map((n) => {
    const ld = leaderBySlugOrName(n);
    const slug = ld ? ld.slug : n.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
    const acts = legal.filter((a) => a === `choose ${slug}`);
    acts.forEach((a) => offered.add(a));
    const faces = leaderFaces(n);
    if (ld) faces.querySelectorAll(".leader-side .face").forEach((f, i) => zoomable(f, { card: { advancements: i ? ld.upgraded : ld.start } }));
    return h("div", { class: "leader-choice", dataset: { leader: slug } }, faces,
      acts.length ? h("button", { type: "button", class: "primary act", dataset: { action: acts[0] },
        onclick: () => send(acts[0]) }, t("leader.choose", { name: n })) : null);
  });
  // The engine offers one answer per kind of card (identical cards are the same choice); every
  // card shown gets the buttons, so a search through three Cursed Lands shows three.
  const makeUp = (c) => JSON.stringify([c.advancements || [], c.covered || []]);
  const actsOfKind = new Map();
  for (const c of pd.cards || []) if ((groups.card[c.id] || []).length) actsOfKind.set(makeUp(c), groups.card[c.id]);
  const cards = (pd.cards || []).map((c) => {
    const face = cardFace(c, { flip: false });
    zoomable(face, { card: c });
    const acts = groups.card[c.id] || actsOfKind.get(makeUp(c)) || [];
    return h("div", { class: `card-slot${acts.length ? " usable" : ""}`, dataset: { card: c.id } }, face,
      acts.length ? h("div", { class: "card-acts" }, acts.map((a) => actionButton(a, offered))) : null);
  });
  let adv = null;
  if (pd.advancement && pd.kind !== "sleeve") {
    adv = advancementFace(pd.advancement.label, { flip: false });
    zoomable(adv, { label: pd.advancement.label });
  }
  let vale = null;
  if (pd.vale) { vale = valeFace(pd.vale, { flip: false }); zoomable(vale, { vale: pd.vale }); }
  return h("section", { id: "private", class: "panel private" },
    h("h3", {}, t(leaders.length ? "leader.title" : "private.title")),
    leaders.length ? h("div", { class: "leader-choices" }, leaders) : null,
    h("div", { class: "cards" }, cards, adv, vale));
}

function tabsEl(ctx) {
  const { groups } = ctx;
  const buyable = Object.keys(groups.commons).length + Object.keys(groups.soil).length + Object.keys(groups.vales).length;
  const tab = (name, badge, label = t(`tab.${name}`)) => h("button", { type: "button", class: `tab${T.tab === name ? " on" : ""}`, role: "tab",
    "aria-selected": T.tab === name ? "true" : "false", dataset: { tab: name },
    onclick: () => { T.tab = name; render(); window.scrollTo(0, 0); } }, label, badge ? h("span", { class: "badge" }, String(badge)) : null);
  return h("nav", { id: "tabs", role: "tablist" }, tab("field"), tab("commons", buyable), tab("players"), tab("log"),
    tab("chat", chatUnread(), t("chat.tab")));
}

/** The game as players know it: the table's name (its host's, or who plays: "Anna vs. Greedy
 *  bot") and by which rules; the game's id is in its tooltip (and in the address). */
function gameLabel(v) {
  const seats = (v.players || []).map((p) => p.seat);
  const players = tableName() || (seats.length ? seats : v.observation.players.map((_, i) => i)).map((s) => playerName(s)).join(t("top.versus"));
  const rules = v.options && has(`top.rules.${v.options.ruleset}`) ? t(`top.rules.${v.options.ruleset}`) : null;
  return [players, rules].filter(Boolean).join(" · ");
}

function topBar(o, v, mine) {
  const { who: seat, name, bot } = actingName(o, v);
  // A bot's seat is named after its bot ("Greedy bot"): "(bot)" only where the name does not say it.
  const who = o.over ? t("top.over") : mine ? t("top.yours") : bot && !namedByBot(seat) ? t("top.bot_turn", { name }) : t("top.turn", { name });
  $("#topinfo").replaceChildren(...[
    h("span", { class: "top-game", title: t("top.game", { id: T.id }), dataset: { game: T.id } }, gameLabel(v)),
    h("span", { class: "sep sep-game" }, " · "),
    h("span", { class: "top-where" }, h("span", { class: "round" }, t("top.round", { n: o.round })),
      o.over ? null : [h("span", { class: "sep" }, " · "), h("span", { class: "phase" }, t(`phase.${o.phase}`))]),
    h("span", { class: "sep sep-where" }, " · "),
    h("strong", { id: "whose", class: mine ? "mine" : "" }, bot && !o.over && !mine ? botBadge(bot) : null, who),
    h("span", { class: "sep sep-pool" }, " · "),
    h("span", { id: "vp-pool", title: t("top.vp_pool_title") }, icon("vp"), " ", t("top.vp_pool", { n: o.vp_pool })),
    o.end_triggered && !o.over ? h("span", { class: "warn" }, " · ", t("top.last_round")) : null,
  ].filter(Boolean));
  $("#topactions").replaceChildren(...[
    h("span", { id: "conn", class: T.wsOpen ? "live" : "down", title: t(T.wsOpen ? "top.live_title" : "top.down_title") },
      t(T.wsOpen ? "top.live" : "top.down")),
    o.over ? h("button", { type: "button", id: "scores-btn", onclick: () => open("end") }, icon("vp"), h("span", { class: "btn-text" }, t("top.scores"))) : null,
    rulesLink(),
    h("button", { type: "button", id: "legend-btn", onclick: () => open("legend"), title: t("legend.title") }, icon("info"), h("span", { class: "btn-text" }, t("top.legend"))),
    h("button", { type: "button", id: "settings-btn", onclick: () => open("settings"), title: t("top.settings") }, icon("gear"), h("span", { class: "btn-text" }, t("top.settings"))),
  ].filter(Boolean));
}

export function renderConn() {
  const c = $("#conn");
  if (!c) return;
  c.className = T.wsOpen ? "live" : "down";
  c.textContent = t(T.wsOpen ? "top.live" : "top.down");
}

/** Draw the whole table from the view shown. */
export function render() {
  const v = T.view;
  if (!v) return;
  T.renders++;
  const o = v.observation;
  const me = v.seat;
  const mine = myDecision() && !playback.playing;
  const legal = mine ? v.legal_actions : [];
  const groups = classify(legal);
  const offered = new Set();
  const ctx = { o, view: v, me, mine, legal, groups, offered };
  const logEl = $("#log");
  const logScroll = logEl ? logEl.scrollTop : 0;
  const restoreChat = keepChat();

  document.title = mine ? t("title.your_turn", { id: T.id }) : t("title.game", { id: T.id });
  turnChanged(mine, t("notify.game", { id: T.id }));
  Object.assign(document.body.dataset, { seq: T.seq, myturn: mine ? "yes" : "no", phase: o.phase, over: o.over ? "yes" : "no",
    playing: playback.playing ? "yes" : "no" });
  topBar(o, v, mine);

  const fs = shownFieldSeat(o, v);
  const field = fieldPanel(ctx, fs, {
    pinned: T.pinned,
    onPin: () => { T.pinned = !T.pinned; T.fieldSeat = T.pinned ? fs : null; render(); },
    onDeckClick: deckClick,
    onReveal: () => send(groups.reveal),
    onDiscardClick: () => {
      if (fs === me && o.players[fs].discard) open("discard");
      else banner(t("discard.other", { name: playerName(fs), n: o.players[fs].discard_count }), "info");
    },
  });
  const players = playersPanel(ctx, {
    onDeck: (seat) => open(`deck:${seat}`),
    onField: (seat) => { T.fieldSeat = seat; T.pinned = true; if (T.tab === "players") T.tab = "field"; render(); },
    onVales: (seat) => open(`vales:${seat}`),
  });
  // A phone shows the summary as one line until it is opened (the field stays on the first screen).
  const summaryOpen = T.summaryOpen ?? !window.matchMedia(PHONE).matches;
  const summary = o.turn.player === me && T.summaryClosedAt !== o.turn_number && !o.over
    ? summaryBox(T.log, me, () => { T.summaryClosedAt = o.turn_number; render(); },
      { open: summaryOpen, onToggle: (open) => { T.summaryOpen = open; } }) : null;
  const logPanel = h("section", { id: "log-panel", class: "panel", dataset: { tab: "log" } },
    h("h3", {}, t("log.title")), logList(T.log, T.seenAtOpen, me));
  const priv = privatePanel(ctx);
  const commons = commonsPanel(ctx);
  const bar = actionBar(ctx);           // last: it offers what no widget above offers

  $("#app").replaceChildren(h("div", { class: "table", dataset: { tab: T.tab } },
    tabsEl(ctx), bar, o.over ? null : tourOffer(), houseNotice(v, () => open("house")), summary, priv,
    h("div", { class: "columns" },
      h("div", { class: "main" }, field, commons),
      h("div", { class: "side" }, players, chatPanel(), logPanel)),
    overlayEl(o)));
  const newLog = $("#log");
  if (newLog) newLog.scrollTop = logScroll;
  restoreChat();
  if (mine && placeDecision(v)) return;     // switched to the tab of the decision: drawn again
  afterRender();

  if (o.over && !T.endClosed && T.overlay !== "end" && !playback.playing) { T.overlay = "end"; render(); }
}

// A read-only handle for debugging and for the browser tests.
window.mysticvaleClient = Object.freeze({
  table: () => T,
  settings: () => ({ ...settings }),
  playing: () => !!(playback && playback.playing),
  skip: () => playback && playback.skip(),
});
