// Mystic Vale browser client.
//
// The client holds no rules: it draws the observation the server sends for this seat and makes
// exactly the action strings of `legal_actions` clickable.  Every legal action is reachable: those
// that belong to a widget (deck, commons card, vale, field card, buttons) are offered there, and any
// other one is listed under "Other actions".
//
// Server contract: POST /api/games, GET /api/games/{id}/state?token=, POST /api/games/{id}/actions,
// POST /api/games/{id}/undo, GET /api/games/{id}/summary, WS /api/games/{id}/ws?token=.

"use strict";

// ---------------------------------------------------------------- small helpers

/** Build a DOM element: h("div", {class: "x", onclick: f}, child, "text", [more]). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  const add = (c) => {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) c.forEach(add);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  };
  children.forEach(add);
  return el;
}

const $ = (sel) => document.querySelector(sel);
const playerName = (seat) => `Player ${seat + 1}`;
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** Read a JSON value from localStorage, or `fallback` when it is missing or unreadable. */
function load(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v === null ? fallback : v;
  } catch {
    return fallback;
  }
}
function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: not remembered */ }
}

// ---------------------------------------------------------------- settings (per device)

const SETTINGS_KEY = "mysticvale.settings";
const DEFAULT_SETTINGS = { animations: true, pinField: false, autoReveal: false, autoRevealLimit: 3 };
const settings = Object.assign({}, DEFAULT_SETTINGS, load(SETTINGS_KEY, {}));
function saveSettings() {
  save(SETTINGS_KEY, settings);
  document.body.classList.toggle("anim", !!settings.animations);
}

// ---------------------------------------------------------------- "your games" (tokens kept here)

const GAMES_KEY = "mysticvale.games";
function myGames() { return load(GAMES_KEY, []); }
/** Remember a game this device holds a seat token for (or a spectator link when token is null). */
function rememberGame(entry) {
  const games = myGames().filter((g) => !(g.id === entry.id && g.token === entry.token));
  games.unshift(Object.assign({ created: new Date().toISOString() }, entry));
  save(GAMES_KEY, games.slice(0, 50));
}
function forgetGame(id, token) {
  save(GAMES_KEY, myGames().filter((g) => !(g.id === id && g.token === token)));
}

// ---------------------------------------------------------------- HTTP with plain error messages

/** The server's message from an error response body, as one readable line. */
function errorText(status, body) {
  if (body && typeof body === "object") {
    const d = body.detail ?? body.message ?? body.error;
    if (typeof d === "string") return d;
    if (Array.isArray(d)) {
      return d.map((e) => (e.loc ? `${e.loc.filter((x) => x !== "body").join(".")}: ` : "") + (e.msg || JSON.stringify(e))).join("; ");
    }
    if (d) return JSON.stringify(d);
  }
  if (typeof body === "string" && body) return body.slice(0, 300);
  return `the server answered ${status}`;
}

async function api(method, path, payload) {
  let resp;
  try {
    resp = await fetch(path, {
      method,
      headers: payload ? { "Content-Type": "application/json" } : {},
      body: payload ? JSON.stringify(payload) : undefined,
    });
  } catch (e) {
    throw new Error("cannot reach the server (" + e.message + ")");
  }
  const text = await resp.text();
  let body = text;
  try { body = text ? JSON.parse(text) : null; } catch { /* keep text */ }
  if (!resp.ok) {
    const err = new Error(errorText(resp.status, body));
    err.status = resp.status;
    throw err;
  }
  return body;
}

let bannerTimer = null;
/** Show a message plainly at the top (kind "error" or "info"). */
function banner(message, kind = "error") {
  const b = $("#banner");
  b.textContent = message;
  b.className = kind;
  b.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { b.hidden = true; }, kind === "error" ? 9000 : 4000);
}
function clearBanner() { $("#banner").hidden = true; }

// ---------------------------------------------------------------- routing

function route() {
  saveSettings();
  const m = location.pathname.match(/^\/games\/([^/]+)\/?$/);
  if (m) {
    // Invitation links carry the token in the fragment (#token=...), which never reaches a server.
    const token = new URLSearchParams(location.hash.slice(1)).get("token") || new URLSearchParams(location.search).get("token");
    startTable(decodeURIComponent(m[1]), token);
  } else {
    renderLobby();
  }
}

// ================================================================ LOBBY

const SETS = [
  ["base", "Base game"],
  ["vale_of_magic", "Vale of Magic"],
  ["twilight_garden", "Twilight Garden"],
];
const THINK = [["0.2", "quick (0.2 s)"], ["0.5", "normal (0.5 s)"], ["1", "strong (1 s)"], ["3", "strongest (3 s)"]];

async function botNames() {
  try {
    const b = await api("GET", "/api/bots");
    const names = Array.isArray(b) ? b : b && b.bots;
    if (Array.isArray(names) && names.length) return names.map((n) => (typeof n === "string" ? n : n.name));
  } catch { /* the server may not list bots: use the known names */ }
  return ["greedy", "ismcts", "random"];
}

async function renderLobby() {
  document.title = "Mystic Vale — lobby";
  $("#topinfo").textContent = "Lobby";
  $("#topactions").replaceChildren();
  const app = $("#app");
  const bots = await botNames();
  const defaultBot = bots.includes("greedy") ? "greedy" : bots[0];

  const seatRows = h("div", { id: "seat-rows" });
  const playersSel = h("select", { id: "players", name: "players" },
    [2, 3, 4].map((n) => h("option", { value: n }, `${n} players`)));

  function seatRow(seat) {
    const kind = h("select", { name: `seat-${seat}`, "aria-label": `${playerName(seat)} is played by` },
      h("option", { value: "human" }, seat === 0 ? "You" : "A person (invite)"),
      bots.map((b) => h("option", { value: b, selected: seat > 0 && b === defaultBot }, `Bot: ${b}`)));
    const think = h("select", { name: `think-${seat}`, "aria-label": `${playerName(seat)} bot strength` },
      THINK.map(([v, label]) => h("option", { value: v, selected: v === "0.5" }, label)));
    const sync = () => { think.hidden = !kind.value.startsWith("ismcts"); };
    kind.addEventListener("change", sync);
    sync();
    return h("div", { class: "seat-row" }, h("span", { class: "seat-label" }, playerName(seat)), kind, think);
  }
  function syncSeats() {
    const n = Number(playersSel.value);
    while (seatRows.children.length < n) seatRows.append(seatRow(seatRows.children.length));
    while (seatRows.children.length > n) seatRows.lastChild.remove();
  }
  playersSel.addEventListener("change", syncSeats);
  syncSeats();

  const form = h("form", { id: "create-form", class: "panel" },
    h("h2", {}, "New game"),
    h("label", {}, "Players ", playersSel),
    h("fieldset", {}, h("legend", {}, "Card sets"),
      SETS.map(([v, label]) => h("label", { class: "check" },
        h("input", { type: "checkbox", name: "sets", value: v, checked: v === "base", disabled: v === "base" }), label))),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "leaders" }), "Leaders (Twilight Garden)"),
    h("label", {}, "Rule set ",
      h("select", { name: "ruleset" },
        h("option", { value: "yucata" }, "yucata.de (online rules)"),
        h("option", { value: "english" }, "English rulebook"))),
    h("fieldset", {}, h("legend", {}, "Seats"), seatRows),
    h("button", { type: "submit", class: "primary", id: "create-btn" }, "Create game"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); createGame(form); });

  const created = h("section", { id: "created", class: "panel", hidden: true });
  const list = h("section", { id: "your-games", class: "panel" }, h("h2", {}, "Your games"), h("div", { id: "games-list" }));
  app.replaceChildren(h("div", { class: "lobby" }, form, created, list));
  refreshGamesList();
}

async function createGame(form) {
  const fd = new FormData(form);
  const players = Number(fd.get("players") ?? form.querySelector("#players").value);
  const sets = ["base", ...fd.getAll("sets").filter((s) => s !== "base")];
  const bots = {};
  for (let s = 0; s < players; s++) {
    const kind = fd.get(`seat-${s}`);
    if (kind && kind !== "human") bots[String(s)] = kind.startsWith("ismcts") ? `${kind}:${fd.get(`think-${s}`)}` : kind;
  }
  if (Object.keys(bots).length === players) {
    banner("At least one seat must be played by a person.");
    return;
  }
  const payload = { players, sets, leaders: fd.get("leaders") === "on", ruleset: fd.get("ruleset"), bots };
  const btn = $("#create-btn");
  btn.disabled = true;
  try {
    const res = await api("POST", "/api/games", payload);
    clearBanner();
    showCreated(res);
  } catch (e) {
    banner("Could not create the game: " + e.message);
  } finally {
    btn.disabled = false;
  }
}

function absolute(url) { return url ? new URL(url, location.origin).href : ""; }

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API needs a secure context: fall back to a selected text field.
    const t = h("textarea", { class: "offscreen" }, text);
    document.body.append(t);
    t.select();
    try { document.execCommand("copy"); } catch { /* the link stays visible to copy by hand */ }
    t.remove();
  }
  if (button) { button.textContent = "Copied"; setTimeout(() => { button.textContent = "Copy"; }, 1500); }
}

function showCreated(res) {
  const humans = res.seats.filter((s) => s.token);
  const mine = humans[0];
  rememberGame({ id: res.id, seat: mine ? mine.seat : null, token: mine ? mine.token : null,
    invites: res.seats.map((s) => ({ seat: s.seat, url: s.url, bot: s.bot || null, token: s.token || null })),
    spectator_url: res.spectator_url || null });
  const box = $("#created");
  box.hidden = false;
  box.replaceChildren(
    h("h2", {}, `Game ${res.id} created`),
    h("ul", { class: "invites" }, res.seats.map((s) => {
      if (s.bot) return h("li", {}, `${playerName(s.seat)}: bot ${s.bot}`);
      const url = absolute(s.url);
      const isMine = mine && s.seat === mine.seat;
      const copy = h("button", { type: "button", class: "copy", onclick: (ev) => copyText(url, ev.target) }, "Copy");
      return h("li", { class: "invite", dataset: { seat: s.seat } },
        h("span", {}, `${playerName(s.seat)}${isMine ? " (you)" : ""}: `),
        h("input", { class: "link", readonly: true, value: url, "aria-label": `invitation link for ${playerName(s.seat)}`,
          onfocus: (ev) => ev.target.select() }),
        copy,
        isMine ? h("a", { class: "button primary", href: s.url }, "Open my seat") : null);
    })),
    res.spectator_url ? h("p", {}, "Spectators: ",
      h("a", { href: res.spectator_url, class: "spectator-link" }, absolute(res.spectator_url))) : null);
  refreshGamesList();
}

async function refreshGamesList() {
  const el = $("#games-list");
  if (!el) return;
  const games = myGames();
  if (!games.length) { el.replaceChildren(h("p", { class: "muted" }, "No games on this device yet.")); return; }
  const rows = games.map((g) => {
    const href = `/games/${encodeURIComponent(g.id)}` + (g.token ? `#token=${encodeURIComponent(g.token)}` : "");
    const status = h("span", { class: "status muted" }, "…");
    const row = h("li", { class: "game-row", dataset: { id: g.id } },
      h("a", { href }, `Game ${g.id}`),
      h("span", { class: "muted" }, g.seat === null || g.seat === undefined ? " (spectator) " : ` as ${playerName(g.seat)} `),
      status,
      h("button", { type: "button", class: "small", title: "Remove from this list",
        onclick: () => { forgetGame(g.id, g.token); refreshGamesList(); } }, "Remove"));
    api("GET", `/api/games/${encodeURIComponent(g.id)}/summary`).then((s) => {
      if (s.over) {
        const w = (s.winners || []).map(playerName).join(" and ");
        status.textContent = `game over${w ? ` — won by ${w}` : ""}`;
      } else if (s.current_player === g.seat) {
        status.textContent = `your turn (round ${s.round}, ${s.phase})`;
        row.classList.add("your-turn");
      } else {
        const who = s.current_player === null || s.current_player === undefined ? "nobody" : playerName(s.current_player);
        const bot = (s.seats || []).find((x) => x.seat === s.current_player && x.bot);
        status.textContent = `${who}'s turn${bot ? ` (bot ${bot.bot})` : ""} — round ${s.round}, ${s.phase}`;
      }
      status.classList.remove("muted");
    }).catch((e) => { status.textContent = e.status === 404 ? "no longer on the server" : e.message; });
    return row;
  });
  el.replaceChildren(h("ul", { class: "games" }, rows));
}

// ================================================================ TABLE

const T = {
  id: null, token: null, body: null, seq: -1, ws: null, wsOpen: false, retry: 0, busy: false,
  armed: false, armTimer: null, fieldSeat: null, pinned: false, overlay: null, endClosed: false,
  log: new Map(), seenCards: new Set(), autoSentSeq: null, pollTimer: null,
};

function startTable(id, token) {
  T.id = id;
  T.token = token;
  T.pinned = !!settings.pinField;
  document.title = `Mystic Vale — game ${id}`;
  rememberGame({ id, seat: null, token, invites: null, ...(myGames().find((g) => g.id === id && g.token === token) || {}) });
  $("#app").replaceChildren(h("p", { class: "muted" }, "Connecting…"));
  fetchState();
  connect();
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { T.overlay = null; disarm(); render(); }
  });
}

const qs = () => (T.token ? `?token=${encodeURIComponent(T.token)}` : "");

async function fetchState() {
  try {
    accept(await api("GET", `/api/games/${encodeURIComponent(T.id)}/state${qs()}`));
  } catch (e) {
    if (e.status === 403) banner("This link's token is not valid for this game.");
    else if (e.status === 404) banner("There is no such game on this server.");
    else banner(e.message);
    if (!T.body) $("#app").replaceChildren(h("p", {}, e.message, " ", h("a", { href: "/" }, "Back to the lobby")));
  }
}

/** Take a state body (from GET, POST or the WebSocket) if it is not older than the one shown. */
function accept(body) {
  if (!body) return;
  if (!body.observation && body.state && body.state.observation) body = Object.assign({ seq: body.seq }, body.state);
  if (!body.observation) return;
  if (typeof body.seq === "number" && body.seq < T.seq) return;
  // The same state again (a reconnect, a poll, our own POST echoed by the socket): nothing to
  // redraw (redrawing under the pointer could swallow a click).  The key leaves out the message
  // envelope ("type") and does not depend on the order of the body's keys.
  const key = JSON.stringify([body.seq, body.seat, body.can_undo, body.legal_actions, body.observation,
    (body.log || []).length, (body.log || []).length ? body.log[body.log.length - 1].index : -1]);
  if (key === T.bodyKey) { T.seq = T.body.seq ?? T.seq; return; }
  T.bodyKey = key;
  T.seq = typeof body.seq === "number" ? body.seq : T.seq;
  if (T.busy && T.busySeq !== null && T.seq > T.busySeq) setBusy(false);
  mergeLog(body.log);
  if (T.body && T.body.seq !== body.seq) disarm(false);
  if (T.token && typeof body.seat === "number" && (!T.body || T.body.seat !== body.seat)) {
    const known = myGames().find((g) => g.id === T.id && g.token === T.token) || {};
    rememberGame(Object.assign({}, known, { id: T.id, token: T.token, seat: body.seat }));
  }
  T.body = body;
  if (T.overlay === "chooser" && T.chooser && !T.chooser.actions.every((a) => (body.legal_actions || []).includes(a))) T.overlay = null;
  render();
  maybeAutoReveal();
}

/** Take the log events of a state: they replace what we hold from their first index on (an undo
 *  takes events back, so older copies of those indices must go). */
function mergeLog(events) {
  if (!Array.isArray(events) || !events.length) return;
  const first = Math.min(...events.map((e) => e.index));
  for (const i of [...T.log.keys()]) if (i >= first) T.log.delete(i);
  for (const e of events) T.log.set(e.index, e);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try {
    ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(T.id)}/ws${qs()}`);
  } catch {
    scheduleReconnect();
    return;
  }
  T.ws = ws;
  ws.onopen = () => { T.wsOpen = true; T.retry = 0; clearInterval(T.pollTimer); T.pollTimer = null; renderConn(); };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "state") accept(msg);
    else if (msg.type === "error") banner(msg.message || "error from the server");
    else if (msg.type === "log" && Array.isArray(msg.events)) { msg.events.forEach((e) => T.log.set(e.index, e)); renderLog(); }
  };
  ws.onclose = (ev) => {
    T.wsOpen = false;
    renderConn();
    // 4403 (wrong token) and 4404 (unknown game) will not get better by retrying.
    if (ev.code === 4403 || ev.code === 4404) {
      T.fatal = true;
      clearInterval(T.pollTimer);
      banner(ev.code === 4403 ? "This link's token is not valid for this game." : "There is no such game on this server.");
      return;
    }
    scheduleReconnect();
  };
  ws.onerror = () => { /* onclose follows */ };
}

function scheduleReconnect() {
  T.retry = Math.min(T.retry + 1, 6);
  // While the socket is down, read the state now and then so bot moves still show.
  if (!T.pollTimer && !T.fatal) T.pollTimer = setInterval(fetchState, 3000);
  setTimeout(() => { if (!T.fatal) { connect(); fetchState(); } }, 500 * 2 ** (T.retry - 1));
}

// ---------------------------------------------------------------- sending

async function send(action) {
  if (T.busy || !T.token) return;
  disarm(false);
  const mine = (T.sendId = (T.sendId || 0) + 1);
  setBusy(true, T.seq);
  try {
    const res = await api("POST", `/api/games/${encodeURIComponent(T.id)}/actions`, { token: T.token, action, seq: T.seq });
    if (T.sendId === mine) clearBanner();
    T.overlay = T.overlay === "chooser" ? null : T.overlay;
    accept(res);
  } catch (e) {
    banner(`“${action}” was not accepted: ${e.message}`);
    fetchState();
  } finally {
    if (T.sendId === mine) setBusy(false);
  }
}

/** While an action is on its way, further clicks wait; a newer state (often the socket's echo of
 *  that very action, which may come before the HTTP answer) ends the wait. */
function setBusy(on, atSeq) {
  T.busy = on;
  T.busySeq = on ? atSeq : null;
  document.body.classList.toggle("busy", on);
}

async function undo() {
  if (T.busy || !T.token) return;
  const mine = (T.sendId = (T.sendId || 0) + 1);
  setBusy(true, T.seq);
  try {
    accept(await api("POST", `/api/games/${encodeURIComponent(T.id)}/undo`, { token: T.token, seq: T.seq }));
    banner("Undone.", "info");
  } catch (e) {
    banner("Cannot undo: " + e.message);
    fetchState();
  } finally {
    if (T.sendId === mine) setBusy(false);
  }
}

/** Two-click push: the first click arms the deck, the second one pushes. */
function clickDeck() {
  if (!T.armed) {
    T.armed = true;
    clearTimeout(T.armTimer);
    T.armTimer = setTimeout(() => { disarm(); }, 6000);
    render();
  } else {
    send("push");
  }
}
function disarm(rerender = true) {
  clearTimeout(T.armTimer);
  if (T.armed) { T.armed = false; if (rerender && T.body) render(); }
}

/** "Reveal automatically below a decay limit": push by itself while it is our planting decision. */
function maybeAutoReveal() {
  const b = T.body;
  if (!settings.autoReveal || !b || b.seat === null || b.seat === undefined) return;
  const o = b.observation;
  if (o.phase !== "planting" || o.pending || o.acting_player !== b.seat) return;
  if (!(b.legal_actions || []).includes("push")) return;
  const me = o.players[b.seat];
  if (me.decay >= Number(settings.autoRevealLimit)) return;
  if (T.autoSentSeq === b.seq) return;
  T.autoSentSeq = b.seq;
  setTimeout(() => { if (T.body === b) send("push"); }, settings.animations ? 450 : 120);
}

// ---------------------------------------------------------------- which widget offers which action

const VERB_LABEL = {
  push: "Push (play on-deck card, reveal the next)", pass: "Pass (go to Harvest)", buy: "Buy", vale: "Buy vale",
  token: "Spend mana token (+1 mana)", use: "Use ability", trade: "Trade 3 spirits for 1 VP", finish: "Finish Turn",
  sleeve: "Sleeve on", discard: "Discard", keep: "Keep", skip: "Skip this ability", resolve: "Resolve first",
  spoil: "Accept spoiling", guard: "Guard against spoiling", take: "Take", choose: "Choose", order: "Order",
};

/** A readable label for an action string (the notation stays visible, it is what is sent). */
function describe(action) {
  const [verb, ...args] = action.split(" ");
  const o = T.body && T.body.observation;
  if (verb === "buy" && args[0] && o) {
    const [row, i] = args[0].split(".");
    let what = args[0];
    if (row === "soil") what = `Fertile Soil (${i} slot)`;
    else if (o.commons[row] && o.commons[row][Number(i) - 1]) what = o.commons[row][Number(i) - 1].name;
    const on = args[1] === "on" ? ` to sleeve on ${args[2]} (discount)` : "";
    return `Buy ${what}${on}`;
  }
  if (verb === "vale" && args[0] && o) {
    const [row, i] = args[0].split(".");
    const v = o.vale_rows[row] && o.vale_rows[row][Number(i) - 1];
    return `Buy vale ${v ? v.name : args[0]}`;
  }
  if (verb === "use" && args[0]) {
    if (args[0].startsWith("vale.")) {
      const v = myVales()[Number(args[0].split(".")[1]) - 1];
      return `Use ${v ? v.name : args[0]}`;
    }
    const c = findCard(args[0]);
    const layer = Number(args[0].split(".")[1]);
    const ab = c && c.abilities ? c.abilities[layer - 1] : null;
    return `Use ${args[0]}${ab ? ` — ${ab.split(":")[0]}` : ""}`;
  }
  const base = VERB_LABEL[verb] || cap(verb);
  return args.length ? `${base} ${args.join(" ").replace(/_/g, " ")}` : base;
}

function myVales() {
  const b = T.body;
  return b && b.seat !== null && b.seat !== undefined ? b.observation.players[b.seat].vales : [];
}

/** Every card this viewer can see, by id (own deck/discard, fields, on-deck, private looks). */
function visibleCards() {
  const o = T.body.observation;
  const out = new Map();
  for (const p of o.players) {
    for (const c of [...(p.field || []), p.on_deck, ...(p.deck || []), ...(p.discard || [])]) if (c) out.set(c.id, c);
  }
  for (const c of (o.pending && o.pending.cards) || []) out.set(c.id, c);
  return out;
}
function findCard(ref) {
  const id = Number(String(ref).replace("#", "").split(".")[0]);
  return visibleCards().get(id);
}

/** Group the legal actions by the widget that offers them. */
function classify(legal) {
  const g = { push: null, simple: {}, commons: {}, soil: {}, vales: {}, myVale: {}, card: {} };
  for (const a of legal) {
    const [verb, ...args] = a.split(" ");
    const first = args[0] || "";
    if (verb === "push" && !args.length) g.push = a;
    else if (["pass", "finish", "token", "trade", "keep", "skip", "spoil"].includes(verb) && !args.length) g.simple[verb] = a;
    else if (verb === "buy" && first.startsWith("soil.")) (g.soil[first.slice(5)] ||= []).push(a);
    else if (verb === "buy" && /^\d+\.\d+$/.test(first)) (g.commons[first] ||= []).push(a);
    else if (verb === "vale" && /^\d+\.\d+$/.test(first)) (g.vales[first] ||= []).push(a);
    else if (first.startsWith("vale.")) (g.myVale[first.split(".").slice(0, 2).join(".")] ||= []).push(a);
    else {
      const ref = args.find((x) => x.startsWith("#"));
      if (ref) (g.card[Number(ref.slice(1).split(".")[0])] ||= []).push(a);
    }
  }
  return g;
}

/** Offer `actions` on a widget: one action is sent on click, several open a chooser. */
function offer(el, actions, offered, title) {
  if (!actions || !actions.length) return el;
  actions.forEach((a) => offered.add(a));
  el.classList.add("clickable");
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  if (actions.length === 1) {
    el.dataset.action = actions[0];
    el.title = describe(actions[0]) + `  [${actions[0]}]`;
  } else {
    el.dataset.actions = JSON.stringify(actions);
    el.title = title || actions.map(describe).join(" / ");
  }
  const go = (ev) => {
    ev.stopPropagation();
    if (actions.length === 1) send(actions[0]);
    else openChooser(title || "Choose", actions);
  };
  el.addEventListener("click", go);
  el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(ev); } });
  return el;
}

function actionButton(a, offered, cls = "") {
  offered.add(a);
  return h("button", { type: "button", class: `act ${cls}`, dataset: { action: a }, title: a, onclick: () => send(a) }, describe(a));
}

function openChooser(title, actions) {
  T.overlay = "chooser";
  T.chooser = { title, actions };
  render();
}

// ---------------------------------------------------------------- rendering pieces

const SYMS = [
  ["mana", "mana"], ["growth", "growth"], ["decay", "decay"], ["vp", "VP"], ["guardian", "guardian"], ["curse", "curse"],
];
const SPIRITS = ["animal", "forest", "sky", "wild"];

function symbolBadges(c) {
  const out = [];
  for (const [k, label] of SYMS) if (c[k]) out.push(h("span", { class: `sym sym-${k}`, title: label }, `${c[k]} ${label}`));
  const sp = c.spirits || {};
  for (const k of SPIRITS) if (sp[k]) out.push(h("span", { class: `sym sym-${k}`, title: `${k} spirit` }, `${sp[k]} ${k}`));
  if (c.end_vp) out.push(h("span", { class: "sym sym-vp", title: "VP at game end" }, `end: ${c.end_vp} VP`));
  if (c.neg_vp) out.push(h("span", { class: "sym sym-decay", title: "negative VP at game end" }, `−${c.neg_vp} VP`));
  return h("div", { class: "syms" }, out);
}

/** The discreet marker of a card something of which is ours (a stand-in, or a value no
 * source gives): a dagger whose tooltip is the note (docs/catalogue.md). `v` is a copy or
 * vale view (note, stand_in, provisional: [fields]) or a card view (notes, stand_ins). */
function ourMark(v) {
  const lines = [];
  if (v.notes || v.stand_ins) {
    for (const [name, note] of Object.entries(v.notes || {})) lines.push(`${name}: ${note}`);
    for (const name of v.stand_ins || []) if (!(v.notes || {})[name]) lines.push(`${name}: a stand-in for a printed card.`);
  } else if (v.note || v.stand_in) {
    lines.push(v.note || "A stand-in for a printed card.");
  }
  if (!lines.length) return null;
  if (Array.isArray(v.provisional) && v.provisional.length && !(v.notes || v.stand_ins)) {
    lines.push(`Our values: ${v.provisional.join(", ")}.`);
  }
  const text = lines.join("\n");
  return h("span", { class: "ours", title: text, "aria-label": text }, "†");
}

function slotName(label) {
  const i = label.lastIndexOf("@");
  return i < 0 ? [label, ""] : [label.slice(0, i), label.slice(i + 1)];
}

/** A card of a player's deck (an id with sleeved advancements). */
function cardEl(c, { acts, offered, mark, extraClass } = {}) {
  const covered = new Set(c.covered || []);
  const layers = (c.advancements || []).map((lab) => {
    const [name, slot] = slotName(lab);
    return h("div", { class: `layer slot-${slot}${covered.has(lab) ? " covered" : ""}` },
      h("span", { class: "slot" }, slot || ""), " ", name);
  });
  const isNew = T.seenCards.size && !T.seenCards.has(`${c.id}:${(c.advancements || []).length}`);
  const el = h("div", { class: `card${extraClass ? " " + extraClass : ""}${isNew ? " enter" : ""}`, dataset: { card: c.id } },
    h("div", { class: "card-head" }, h("span", { class: "cid" }, `#${c.id}`), ourMark(c), mark ? h("span", { class: `mark mark-${mark.split(",")[0].replace(/\s+/g, "-")}` }, mark) : null),
    layers.length ? layers : h("div", { class: "layer muted" }, "blank"),
    symbolBadges(c),
    (c.abilities || []).length ? h("ul", { class: "abilities" }, c.abilities.map((t) => h("li", {}, t))) : null);
  if (acts && acts.length) {
    el.classList.add("usable");
    el.append(h("div", { class: "card-acts" }, acts.map((a) => actionButton(a, offered))));
  }
  return el;
}

function costText(v) {
  const parts = [];
  for (const k of ["animal", "forest", "sky", "any"]) if (v.cost && v.cost[k]) parts.push(`${v.cost[k]} ${k}`);
  return parts.length ? parts.join(" + ") : "free";
}

function valeEl(v, { used, acts, offered, title } = {}) {
  const el = h("div", { class: `vale${v.bought_this_turn ? " new" : ""}${used ? " used" : ""}`, dataset: { vale: v.id } },
    h("div", { class: "vale-name" }, v.name, ourMark(v), h("span", { class: "lvl" }, ` L${v.level}`)),
    h("div", { class: "cost" }, costText(v)),
    v.end_vp || v.neg_vp ? h("div", { class: "syms" },
      v.end_vp ? h("span", { class: "sym sym-vp" }, `${v.end_vp} VP`) : null,
      v.neg_vp ? h("span", { class: "sym sym-decay" }, `−${v.neg_vp} VP`) : null) : null,
    v.text ? h("div", { class: "text" }, v.text) : null,
    v.bought_this_turn ? h("div", { class: "note" }, "bought this turn — usable next turn") : null,
    used ? h("div", { class: "used-mark", title: "ability used this turn" }, "✗ used") : null);
  return offer(el, acts, offered, title);
}

/** Whether a vale's ability was used this turn, when the observation says so. */
function valeUsed(o, p, v) {
  if (typeof v.used_this_turn === "boolean") return v.used_this_turn;
  if (typeof v.used === "boolean") return v.used;
  const used = o.turn && o.turn.used;
  if (Array.isArray(used) && o.turn.player === p) return used.some((k) => String(k).startsWith(`v${v.id}.`));
  return false;
}

function copyEl(c, row, i, acts, offered) {
  const el = h("div", { class: "adv", dataset: { commons: `${row}.${i}` } },
    h("div", { class: "adv-name" }, c.name, ourMark(c)),
    h("div", { class: "adv-meta" }, h("span", { class: "cost" }, `${c.cost} mana`), " · ", (c.slots || []).join("/") || "—",
      c.longwise ? " · long" : ""),
    h("div", { class: "syms" }, Object.entries(c.symbols || {}).map(([k, n]) => h("span", { class: `sym sym-${k}` }, `${n} ${k}`)),
      c.end_vp ? h("span", { class: "sym sym-vp" }, `end: ${c.end_vp} VP`) : null),
    c.text ? h("div", { class: "text" }, c.text) : null);
  return offer(el, acts, offered, `Buy ${c.name}`);
}

function fieldTotals(o, p, pl) {
  const sum = { mana: 0, growth: 0, vp: 0, guardian: 0, animal: 0, forest: 0, sky: 0, wild: 0 };
  for (const c of pl.field) {
    for (const k of ["mana", "growth", "vp", "guardian"]) sum[k] += c[k] || 0;
    for (const k of SPIRITS) sum[k] += (c.spirits || {})[k] || 0;
  }
  const t = o.turn;
  const inHarvest = o.phase === "harvest" && t.player === p && typeof t.mana === "number";
  const items = [
    ["mana", inHarvest ? `${t.mana} mana to spend` : `${sum.mana} mana`],
    ["growth", `${sum.growth} growth`],
    ["decay", `${pl.decay} decay`],
  ];
  for (const k of SPIRITS) {
    const n = inHarvest && t.spirits ? t.spirits[k] : sum[k];
    if (n) items.push([k, `${n} ${k}${inHarvest ? " free" : ""}`]);
  }
  if (sum.vp) items.push(["vp", `${sum.vp} VP`]);
  if (inHarvest && t.spirits_spent && t.spirits_spent.any) items.push(["wild", `${t.spirits_spent.any} spent as any`]);
  const bought = t.player === p && (t.bought || []).length
    ? h("div", { class: "bought" }, "Bought this turn: ", t.bought.map((l) => { const [n, sl] = slotName(l); return sl ? `${n} (${sl})` : n; }).join(", "),
      h("span", { class: "muted" }, ` — vales ${t.vale_buys}/${t.vale_limit}`)) : null;
  return h("div", { id: "totals" }, h("div", { class: "totals" }, items.map(([k, s]) => h("span", { class: `sym sym-${k}` }, s))), bought);
}

// ---------------------------------------------------------------- the whole table

function shownFieldSeat(o, b) {
  // "Pin playing area when opening": pinned before any field was chosen means our own field.
  if (T.pinned && T.fieldSeat === null) T.fieldSeat = b.seat ?? 0;
  if (T.pinned) return T.fieldSeat;
  if (o.acting_player !== null && o.acting_player === b.seat) return b.seat;
  if (o.current_player !== null && o.current_player !== undefined) return o.current_player;
  return b.seat ?? 0;
}

function render() {
  const b = T.body;
  if (!b) return;
  T.renders = (T.renders || 0) + 1;
  const o = b.observation;
  const me = b.seat;
  const myTurn = me !== null && me !== undefined && (b.legal_actions || []).length > 0;
  const legal = myTurn ? b.legal_actions : [];
  const groups = classify(legal);
  const offered = new Set();
  const logScroll = $("#log") ? $("#log").scrollTop : null;
  const logAtEnd = $("#log") ? $("#log").scrollTop + $("#log").clientHeight >= $("#log").scrollHeight - 8 : true;
  // The tab title tells when it is your decision (games can last days in a background tab).
  document.title = `${myTurn ? "▶ Your turn — " : ""}Mystic Vale — game ${T.id}`;
  document.body.dataset.seq = b.seq;
  document.body.dataset.myturn = myTurn ? "yes" : "no";
  document.body.dataset.phase = o.phase;
  document.body.dataset.over = o.over ? "yes" : "no";

  // --- top bar
  const who = o.over ? "Game over" : o.acting_player === me ? "Your decision"
    : `${playerName(o.acting_player ?? o.current_player)}${botOf(o.acting_player ?? o.current_player)}'s turn`;
  $("#topinfo").replaceChildren(
    h("span", {}, `Game ${T.id}`), h("span", { class: "sep" }, " · "),
    h("span", {}, `Round ${o.round}`), h("span", { class: "sep" }, " · "),
    h("span", { class: "phase" }, cap(o.phase)), h("span", { class: "sep" }, " · "),
    h("strong", { id: "whose", class: o.acting_player === me && !o.over ? "mine" : "" }, who),
    h("span", { class: "sep" }, " · "),
    h("span", { id: "vp-pool", title: "VP pool" }, `VP pool ${o.vp_pool}`),
    o.end_triggered ? h("span", { class: "warn" }, " · last round") : "");
  $("#topactions").replaceChildren(
    h("span", { id: "conn", class: T.wsOpen ? "live" : "down", title: T.wsOpen ? "live updates" : "reconnecting…" },
      T.wsOpen ? "● live" : "○ reconnecting"),
    b.can_undo ? h("button", { type: "button", id: "undo", onclick: undo }, "Undo") : "",
    h("button", { type: "button", id: "settings-btn", onclick: () => { T.overlay = "settings"; render(); } }, "Settings"));

  // --- prompt: what must be decided now
  const prompt = h("div", { id: "prompt", class: myTurn ? "mine" : "" });
  if (o.over) prompt.append("The game is over.");
  else if (o.pending) prompt.append(`${playerName(o.pending.player)}${o.pending.player === me ? " (you)" : ""}: ${o.pending.description}`);
  else if (myTurn && o.phase === "planting") prompt.append("Your Planting phase: click your deck twice to push, or pass.");
  else if (myTurn && o.phase === "harvest") prompt.append("Your Harvest: buy advancements and vales, use abilities, then Finish Turn.");
  else if (myTurn) prompt.append("Your decision.");
  else prompt.append(`Waiting for ${playerName(o.acting_player ?? o.current_player)}${botOf(o.acting_player ?? o.current_player)}…`);

  // --- main buttons
  const buttons = h("div", { id: "buttons" });
  if (groups.simple.pass) buttons.append(actionButton(groups.simple.pass, offered, "pass"));
  if (groups.simple.trade) buttons.append(actionButton(groups.simple.trade, offered));
  for (const v of ["keep", "skip", "spoil"]) if (groups.simple[v]) buttons.append(actionButton(groups.simple[v], offered));
  if (groups.simple.finish) buttons.append(h("button", { type: "button", id: "finish", class: "act primary", dataset: { action: "finish" },
    onclick: () => send("finish") }, "Finish Turn"));
  if (groups.simple.finish) offered.add(groups.simple.finish);

  // --- private cards shown by a pending decision
  // (the observation carries these only for the player of the decision)
  let privatePanel = null;
  const pd = o.pending || {};
  if ((pd.cards && pd.cards.length) || (pd.leaders && pd.leaders.length) || pd.advancement || pd.vale) {
    privatePanel = h("section", { id: "private", class: "panel" }, h("h3", {}, "Only you see this"),
      pd.leaders && pd.leaders.length ? h("p", { class: "leaders" }, "Leaders dealt to you: ",
        pd.leaders.map((n) => {
          // the choice is offered on the leader's name when "choose <name as a slug>" is legal
          const slug = n.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
          const acts = legal.filter((a) => a === `choose ${slug}`);
          return offer(h("strong", { class: "chip", dataset: { leader: slug } }, n), acts, offered, `Choose ${n}`);
        })) : null,
      h("div", { class: "cards" },
        (pd.cards || []).map((c) => cardEl(c, { acts: groups.card[c.id], offered })),
        pd.advancement ? copyEl(pd.advancement, "?", "?", null, offered) : null,
        pd.vale ? valeEl(pd.vale, {}) : null));
  }

  // --- field view
  const fs = shownFieldSeat(o, b);
  const fp = o.players[fs];
  const mine = fs === me;
  const deckActs = mine && groups.push ? [groups.push] : null;
  if (deckActs) offered.add(groups.push);
  const deck = h("div", { id: "deck", class: `pile deck${deckActs ? " clickable" : ""}${T.armed ? " armed" : ""}`,
    dataset: deckActs ? { action: "push" } : {}, title: deckActs ? "Click twice to push" : "deck",
    tabindex: deckActs ? "0" : null, role: deckActs ? "button" : null },
    h("div", { class: "pile-count" }, String(fp.deck_count + (fp.on_deck ? 1 : 0))),
    h("div", { class: "pile-label" }, T.armed ? "click again to push" : deckActs ? "deck — click to push" : "deck"));
  if (deckActs) {
    deck.addEventListener("click", (ev) => { ev.stopPropagation(); clickDeck(); });
    deck.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); clickDeck(); } });
  }
  const discardPile = h("div", { id: "discard", class: "pile discard clickable", title: "discard pile",
    onclick: () => { T.overlay = mine ? "discard" : null; if (!mine) banner(`${playerName(fs)} has ${fp.discard_count} cards in the discard pile (their contents are not shown to you).`, "info"); render(); } },
    h("div", { class: "pile-count" }, String(fp.discard_count)), h("div", { class: "pile-label" }, "discard"));
  const autoBox = mine ? h("label", { class: "check auto", title: "Push by itself while your decay is below the limit" },
    h("input", { type: "checkbox", id: "auto-reveal", checked: !!settings.autoReveal,
      onchange: (ev) => { settings.autoReveal = ev.target.checked; saveSettings(); maybeAutoReveal(); } }),
    `auto < ${settings.autoRevealLimit}`) : null;
  const onDeck = fp.on_deck ? cardEl(fp.on_deck, { acts: mine ? groups.card[fp.on_deck.id] : null, offered, mark: "on deck",
    extraClass: "ondeck" + (T.armed ? " lifted" : "") }) : h("div", { class: "card empty" }, "no on-deck card");
  const upgraded = new Set(o.turn && o.turn.player === fs ? o.turn.upgrades || [] : []);
  const fieldCards = fp.field.map((c) => cardEl(c, { acts: mine ? groups.card[c.id] : null, offered,
    mark: upgraded.has(c.id) ? "upgraded" : null }));
  const fieldView = h("section", { id: "field", class: `panel field${mine ? " mine" : ""}` },
    h("div", { class: "field-head" },
      h("h3", {}, mine ? "Your field" : `Field of ${playerName(fs)}${botOf(fs)}`),
      h("button", { type: "button", id: "pin", class: `small${T.pinned ? " on" : ""}`, title: "Pin this field view",
        onclick: () => { T.pinned = !T.pinned; T.fieldSeat = T.pinned ? fs : null; render(); } }, T.pinned ? "📌 pinned" : "pin")),
    fieldTotals(o, fs, fp),
    h("div", { class: "field-row" },
      h("div", { class: "piles" }, deck, autoBox, discardPile),
      onDeck,
      h("div", { class: "cards field-cards" }, fieldCards.length ? fieldCards : h("p", { class: "muted" }, "No cards in the field."))),
    (fp.set_aside || []).length ? h("div", { class: "aside" }, h("h4", {}, "Set aside"),
      h("div", { class: "cards" }, fp.set_aside.map((c) => cardEl(c, { acts: mine ? groups.card[c.id] : null, offered, mark: "set aside" })))) : null,
    fp.harvest_next ? h("p", { class: "note" }, "Next turn begins with the Harvest.") : null);

  // --- players
  const playersPanel = h("section", { id: "players", class: "panel" }, o.players.map((p) => playerEl(o, b, p, groups, offered, fs)));

  // --- supply
  const supply = h("section", { id: "supply", class: "panel" },
    h("h3", {}, "Commons"),
    ["1", "2", "3"].map((row) => h("div", { class: "row", dataset: { row } },
      h("div", { class: "row-label" }, `L${row}`, h("span", { class: "muted" }, ` deck ${o.advancement_decks[row] ?? 0}`)),
      h("div", { class: "row-cards" }, (o.commons[row] || []).map((c, i) => (c ? copyEl(c, row, i + 1, groups.commons[`${row}.${i + 1}`], offered)
        : h("div", { class: "adv empty" }, "—")))))),
    h("div", { class: "row soil" },
      h("div", { class: "row-label" }, "Fertile Soil", h("span", { class: "muted" }, ` ${o.fertile_soil_cost} mana`)),
      h("div", { class: "row-cards" }, ["top", "middle", "bottom"].map((s) => offer(
        h("div", { class: "adv soil", dataset: { soil: s } }, h("div", { class: "adv-name" }, cap(s)), h("div", { class: "muted" }, `${o.fertile_soil[s] ?? 0} left`)),
        groups.soil[s], offered, `Buy Fertile Soil (${s})`)))),
    h("h3", {}, "Vale cards"),
    ["1", "2"].map((row) => h("div", { class: "row", dataset: { valeRow: row } },
      h("div", { class: "row-label" }, `L${row}`, h("span", { class: "muted" }, ` deck ${o.vale_decks[row] ?? 0}`)),
      h("div", { class: "row-cards" }, (o.vale_rows[row] || []).map((v, i) => (v ? valeEl(v, { acts: groups.vales[`${row}.${i + 1}`], offered, title: `Buy ${v.name}` })
        : h("div", { class: "vale empty" }, "—")))))));

  // --- every legal action not offered by a widget above
  const other = legal.filter((a) => !offered.has(a));
  const otherPanel = other.length ? h("section", { id: "other", class: "panel" }, h("h3", {}, "Other actions"),
    h("div", { class: "other-list" }, other.map((a) => actionButton(a, offered)))) : null;

  const logPanel = h("section", { id: "log-panel", class: "panel" }, h("h3", {}, "Log"), h("ul", { id: "log" }));

  $("#app").replaceChildren(h("div", { class: "table" },
    h("div", { class: "status" }, prompt, buttons),
    privatePanel, otherPanel, fieldView,
    h("div", { class: "columns" }, supply, h("div", { class: "side" }, playersPanel, logPanel)),
    overlayEl(o, b, groups, offered)));
  renderLog(logAtEnd ? null : logScroll);

  // Remember which card faces were on screen, so only new ones animate next time.
  T.seenCards = new Set([...visibleCards().values()].map((c) => `${c.id}:${(c.advancements || []).length}`));
  if (o.over && !T.endShown) { T.endShown = true; if (!T.overlay) { T.overlay = "end"; render(); } }
}

function botOf(seat) {
  const p = T.body && (T.body.players || []).find((x) => x.seat === seat);
  return p && p.bot ? ` (bot ${p.bot})` : "";
}

function playerEl(o, b, p, groups, offered, fs) {
  const me = p.seat === b.seat;
  const tokenActs = me && groups.simple.token ? [groups.simple.token] : null;
  const mana = offer(h("span", { class: `mana-token ${p.mana_token_active ? "up" : "down"}`, id: me ? "my-token" : null },
    p.mana_token_active ? "mana token ▲ face up" : "mana token ▼ face down"), tokenActs, offered, "Spend mana token");
  const vales = p.vales.map((v, i) => valeEl(v, { used: valeUsed(o, p.seat, v), acts: me ? groups.myVale[`vale.${i + 1}`] : null, offered,
    title: v.name }));
  return h("div", { class: `player${p.seat === o.current_player ? " current" : ""}${me ? " me" : ""}`,
    dataset: { seat: p.seat, decay: p.decay, vp: p.vp_tokens } },
    h("div", { class: "player-head" },
      h("strong", {}, playerName(p.seat), me ? " (you)" : "", botOf(p.seat)),
      p.star ? h("span", { class: "star", title: "starting player (star on the mana token)" }, " ★") : null,
      h("span", { class: "views" },
        h("button", { type: "button", class: "small", title: "whole deck", onclick: () => { T.overlay = `deck:${p.seat}`; render(); } }, "deck"),
        h("button", { type: "button", class: "small", title: "field view", onclick: () => { T.fieldSeat = p.seat; T.pinned = true; render(); } }, "field"),
        h("button", { type: "button", class: "small", title: "vale cards", onclick: () => { T.overlay = `vales:${p.seat}`; render(); } }, `vales ${p.vales.length}`))),
    h("div", { class: "player-stats" },
      h("span", { class: "sym sym-vp", title: "VP tokens" }, `${p.vp_tokens} VP tokens`),
      p.curse_tokens ? h("span", { class: "sym sym-curse", title: "curse tokens" }, `${p.curse_tokens} curse`) : null,
      h("span", { class: "sym sym-decay" }, `${p.decay} decay`),
      h("span", { class: "muted" }, `deck ${p.deck_count + (p.on_deck ? 1 : 0)} · discard ${p.discard_count} · field ${p.field.length} · ${p.owned_count} cards`),
      mana),
    vales.length ? h("div", { class: "vales" }, vales) : null);
}

function renderLog(keepScroll) {
  const ol = $("#log");
  if (!ol) return;
  const entries = [...T.log.values()].sort((a, b) => a.index - b.index).slice(-400);
  ol.replaceChildren(...entries.map((e) => h("li", { class: `log-${e.kind} ${e.player !== null && e.player !== undefined ? `p${e.player}` : ""}` }, e.text)));
  if (keepScroll === null || keepScroll === undefined) ol.scrollTop = ol.scrollHeight;
  else ol.scrollTop = keepScroll;
}

function renderConn() {
  const c = $("#conn");
  if (!c) return;
  c.className = T.wsOpen ? "live" : "down";
  c.textContent = T.wsOpen ? "● live" : "○ reconnecting";
}

// ---------------------------------------------------------------- overlays

const SCORE_LABEL = {
  vp_tokens: "VP tokens", advancements: "Advancements", vales: "Vale cards", negative_vp: "Negative VP",
  curse_tokens: "Curse tokens", leader: "Leader", leaders: "Leader",
};

function overlayEl(o, b, groups, offered) {
  if (!T.overlay) return null;
  const close = () => { T.overlay = null; render(); };
  const wrap = (id, title, ...content) => h("div", { class: "overlay", id, onclick: (ev) => { if (ev.target === ev.currentTarget) close(); } },
    h("div", { class: "dialog", role: "dialog", "aria-label": title },
      h("div", { class: "dialog-head" }, h("h2", {}, title), h("button", { type: "button", class: "small close", onclick: close }, "Close")),
      ...content));

  if (T.overlay === "chooser" && T.chooser) {
    return wrap("chooser", T.chooser.title, h("div", { class: "choices" },
      T.chooser.actions.map((a) => h("button", { type: "button", class: "act", dataset: { action: a }, onclick: () => { T.overlay = null; send(a); } }, describe(a)))));
  }
  if (T.overlay === "settings") {
    const chk = (key, label) => h("label", { class: "check" },
      h("input", { type: "checkbox", id: `set-${key}`, checked: !!settings[key], onchange: (ev) => { settings[key] = ev.target.checked; saveSettings(); render(); } }), label);
    return wrap("settings", "Settings (this device)",
      chk("animations", "Show animations"),
      chk("pinField", "Pin the field view to my own field when opening a game"),
      chk("autoReveal", "Planting: reveal the next card automatically while my decay is below"),
      h("label", {}, "Decay limit ", h("input", { type: "number", id: "set-limit", min: 1, max: 9, value: settings.autoRevealLimit,
        onchange: (ev) => { const n = Math.max(1, Math.min(9, Number(ev.target.value) || 3)); settings.autoRevealLimit = n; saveSettings(); render(); } })),
      h("p", { class: "muted" }, "With cards of 2 or more decay, automatic reveal may spoil your field."));
  }
  if (T.overlay.startsWith("deck:")) {
    const seat = Number(T.overlay.slice(5));
    const p = o.players[seat];
    if (seat !== b.seat || !p.deck) {
      return wrap("deck-view", `Deck of ${playerName(seat)}`,
        h("p", {}, `${p.owned_count} cards: ${p.deck_count} in the deck, ${p.on_deck ? 1 : 0} on deck, ${p.field.length} in the field, ${p.discard_count} discarded.`),
        h("div", { class: "cards" }, p.on_deck ? cardEl(p.on_deck, { mark: "on deck" }) : null, p.field.map((c) => cardEl(c, { mark: "field" }))),
        h("p", { class: "muted" }, "The contents of another player's deck and discard pile are not shown."));
    }
    const known = new Map((p.known_top || []).map((id, i, arr) => [id, arr.length - i]));
    const all = [
      ...(p.on_deck ? [[p.on_deck, "on deck"]] : []),
      ...p.field.map((c) => [c, "field"]),
      ...p.deck.map((c) => [c, known.has(c.id) ? `deck, ${known.get(c.id)}. from top` : "deck"]),
      ...p.discard.map((c) => [c, "discard"]),
      ...(p.set_aside || []).map((c) => [c, "set aside"]),
    ].sort((x, y) => x[0].id - y[0].id);
    return wrap("deck-view", `Your deck (${all.length} cards, in no particular order)`,
      h("div", { class: "cards" }, all.map(([c, mark]) => cardEl(c, { mark }))));
  }
  if (T.overlay === "discard") {
    const p = o.players[b.seat];
    return wrap("discard-view", `Your discard pile (${p.discard.length})`,
      p.discard.length ? h("div", { class: "cards" }, p.discard.map((c) => cardEl(c, { mark: "discard" }))) : h("p", { class: "muted" }, "Empty."));
  }
  if (T.overlay.startsWith("vales:")) {
    const seat = Number(T.overlay.slice(6));
    const p = o.players[seat];
    return wrap("vales-view", `Vale cards of ${playerName(seat)}`,
      p.vales.length ? h("div", { class: "vales" }, p.vales.map((v) => valeEl(v, { used: valeUsed(o, seat, v) }))) : h("p", { class: "muted" }, "None yet."));
  }
  if (T.overlay === "end" && o.scores) {
    const keys = Object.keys(o.scores[0]).filter((k) => k !== "total" && k !== "tiebreak");
    const winners = o.winners || [];
    return wrap("end", winners.length ? `${winners.map((s) => playerName(s) + (s === b.seat ? " (you)" : "")).join(" and ")} won` : "Game over",
      h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), o.scores.map((_, s) => h("th", { class: winners.includes(s) ? "winner" : "" }, playerName(s), s === b.seat ? " (you)" : "", botOf(s))))),
        h("tbody", {},
          keys.map((k) => h("tr", {}, h("th", {}, SCORE_LABEL[k] || cap(k.replace(/_/g, " "))), o.scores.map((sc) => h("td", {}, String(sc[k]))))),
          h("tr", { class: "total" }, h("th", {}, "Total"), o.scores.map((sc, s) => h("td", { class: winners.includes(s) ? "winner" : "" }, String(sc.total)))),
          o.scores[0].tiebreak !== undefined ? h("tr", { class: "muted" }, h("th", {}, "Tie-break"), o.scores.map((sc) => h("td", {}, String(sc.tiebreak)))) : null)),
      h("p", {}, h("a", { href: "/", class: "button" }, "Back to the lobby")));
  }
  T.overlay = null;
  return null;
}

// ---------------------------------------------------------------- start

// A read-only handle for debugging in the console and for the browser tests.
window.mysticvaleClient = Object.freeze({ table: () => T, settings: () => ({ ...settings }) });

// Module scripts run after parsing; keep the DOMContentLoaded path for older engines.
if (document.readyState === "loading") window.addEventListener("DOMContentLoaded", route);
else route();
