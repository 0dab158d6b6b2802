// The game's chat (issue 15): for the seated players, read-only for spectators.  The history comes
// from GET /api/games/{id}/chat when the table opens, new messages from the game socket (and, while
// it is down, from polling); a message is written over the socket or POSTed (transport.js).
//
// Every text from people (names, messages) is put in with textContent: markup in a message is
// shown as the characters typed, never run.  The panel is one element kept for the whole visit
// and moved into each new drawing of the table, so the text being typed, the caret and the scroll
// position survive the table's redraws.  Desktop: a collapsible panel in the side column; phone:
// its own tab with a count of unread messages.

import { h } from "./dom.js";
import { t, playerName, language } from "./i18n.js";
import { api, refusalText } from "./api.js";
import { load, save } from "./storage.js";
import { onSeats } from "./seats.js";
import { T } from "./state.js";

/** The server's limits (server/chat.py): characters (code points) and lines of one message. */
export const MAX_CHARS = 500;
export const MAX_LINES = 12;
const POLL_MS = 5000;
const READ_KEY = "mysticvale.chatread";
const PREFS_KEY = "mysticvale.chat";
const PHONE = "(max-width: 700px)";

const C = {
  id: null,
  conn: null,
  canWrite: () => false,
  mySeat: () => null,
  messages: [],          // by n, oldest first
  readUpTo: -1,          // the last message this device has shown to its player
  newFrom: -1,           // messages above this were unread when the page opened (marked "new")
  collapsed: false,
  sending: false,
  error: "",
  els: null,
  onUnread: () => {},
};

const chars = (text) => [...text].length;
const lines = (text) => text.split("\n").length;

// ------------------------------------------------------------------ starting

/** Start the chat of game `id`.  opts: {conn, canWrite(), mySeat(), onUnread(n)}. */
export function initChat(id, { conn, canWrite, mySeat, onUnread }) {
  Object.assign(C, { id, conn, canWrite, mySeat, onUnread: onUnread || (() => {}) });
  const reads = load(READ_KEY, {});
  C.readUpTo = typeof reads[id] === "number" ? reads[id] : -1;
  C.newFrom = C.readUpTo;
  C.collapsed = !!load(PREFS_KEY, {}).collapsed;
  build();
  onSeats(() => drawMessages());
  fetchMessages(null);
  // While the socket is down the chat is polled, as the game's updates are.
  setInterval(() => { if (!T.wsOpen && !document.hidden && !T.fatal) fetchMessages(lastN()); }, POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) markIfShown(); });
  window.matchMedia(PHONE).addEventListener("change", () => markIfShown());
}

/** The socket (re)opened: fetch what came while it was closed. */
export function catchUp() {
  if (C.id) fetchMessages(lastN());
}

async function fetchMessages(after) {
  try {
    const q = after === null || after < 0 ? "" : `?after=${after}`;
    const res = await api("GET", `/api/games/${encodeURIComponent(C.id)}/chat${q}`);
    add((res && res.messages) || []);
  } catch { /* the table says when the server is unreachable */ }
}

function lastN() { return C.messages.length ? C.messages[C.messages.length - 1].n : -1; }

// ------------------------------------------------------------------ messages

/** A {"type": "chat", "message": {...}} from the socket. */
export function receiveChat(msg) {
  if (msg && msg.message) add([msg.message]);
}

function valid(m) {
  return m && Number.isInteger(m.n) && Number.isInteger(m.seat) && typeof m.text === "string";
}

function add(list) {
  const known = new Set(C.messages.map((m) => m.n));
  const fresh = list.filter((m) => valid(m) && !known.has(m.n));
  if (!fresh.length) return;
  const list_ = C.els.list;
  const atBottom = nearBottom(list_);
  const before = C.messages.length;
  const after = lastN();
  C.messages = [...C.messages, ...fresh].sort((a, b) => a.n - b.n);
  // The usual case, newer messages: appended (a screen reader hears only them); else redrawn.
  if (before && fresh.every((m) => m.n > after)) {
    list_.append(...C.messages.slice(before).map((m, i) => messageEl(m, C.messages[before + i - 1])));
  } else {
    drawMessages();
  }
  if (atBottom || fresh.some((m) => m.seat === C.mySeat())) list_.scrollTop = list_.scrollHeight;
  markIfShown();
  drawUnread();
}

/** Messages of other players this device has not shown yet. */
export function chatUnread() {
  const me = C.mySeat();
  return C.messages.filter((m) => m.n > C.readUpTo && m.seat !== me).length;
}

/** Whether the player can see the chat now: its tab on a phone, the open panel on a desktop. */
function shown() {
  if (!C.els || !C.els.root.isConnected || document.hidden) return false;
  return window.matchMedia(PHONE).matches ? T.tab === "chat" : !C.collapsed;
}

/** Mark everything read when the chat is in view (called after each drawing of the table too). */
export function markIfShown() {
  if (!shown() || lastN() <= C.readUpTo) return;
  C.readUpTo = lastN();
  const reads = load(READ_KEY, {});
  reads[C.id] = C.readUpTo;
  const keys = Object.keys(reads);
  if (keys.length > 100) delete reads[keys[0]];
  save(READ_KEY, reads);
  drawUnread();
}

// ------------------------------------------------------------------ drawing

function when(at) {
  const d = new Date(Number(at) * 1000);
  if (Number.isNaN(d.getTime())) return "";
  const today = d.toDateString() === new Date().toDateString();
  const opts = today ? { hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  try { return new Intl.DateTimeFormat(language(), opts).format(d); } catch { return d.toLocaleString(); }
}

function messageEl(m, prev) {
  const me = m.seat === C.mySeat();
  // A message right after another of the same seat (within 5 minutes) goes without its name.
  const cont = prev && prev.seat === m.seat && Number(m.at) - Number(prev.at) < 300;
  const name = m.name || playerName(m.seat);
  const full = new Date(Number(m.at) * 1000);
  return h("li", { class: `chat-msg p${m.seat}${me ? " mine" : ""}${cont ? " cont" : ""}${m.n > C.newFrom && !me ? " new" : ""}`,
    dataset: { n: m.n, seat: m.seat } },
  cont ? null : h("div", { class: "chat-meta" },
    h("strong", { class: "chat-name" }, name, me ? ` (${t("chat.you")})` : ""), " ",
    h("time", { class: "chat-time", datetime: Number.isNaN(full.getTime()) ? null : full.toISOString(),
      title: Number.isNaN(full.getTime()) ? null : full.toLocaleString(language()) }, when(m.at))),
  h("div", { class: "chat-text" }, m.text));
}

function drawMessages() {
  if (!C.els) return;
  const { list } = C.els;
  const top = list.scrollTop;
  list.replaceChildren(...(C.messages.length
    ? C.messages.map((m, i) => messageEl(m, C.messages[i - 1]))
    : [h("li", { class: "chat-empty muted" }, t("chat.empty"))]));
  list.scrollTop = top;
}

function drawUnread() {
  const n = chatUnread();
  const { badge } = C.els;
  badge.hidden = !n;
  badge.textContent = n ? t("chat.unread", { n }) : "";
  // The phone's tab (drawn by the table) shows the same count.
  const tab = document.querySelector('#tabs .tab[data-tab="chat"]');
  if (tab) {
    let b = tab.querySelector(".badge");
    if (n && !b) { b = h("span", { class: "badge" }); tab.append(b); }
    if (b) { if (n) { b.textContent = String(n); b.title = t("chat.unread", { n }); } else b.remove(); }
  }
  C.onUnread(n);
}

function drawForm() {
  const { input, count, send, error, form, note } = C.els;
  const writable = C.canWrite();
  form.hidden = !writable;
  note.hidden = writable;
  if (!writable) return;
  const text = input.value;
  const n = chars(text);
  count.textContent = t("chat.count", { n, max: MAX_CHARS });
  count.classList.toggle("over", n > MAX_CHARS);
  count.classList.toggle("near", n > MAX_CHARS - 50 && n <= MAX_CHARS);
  const lines = text.split("\n").length;
  const problem = n > MAX_CHARS ? t("chat.too_long", { n, max: MAX_CHARS })
    : lines > MAX_LINES ? t("chat.too_many_lines", { n: lines, max: MAX_LINES }) : "";
  error.textContent = C.error || problem;
  error.hidden = !(C.error || problem);
  send.disabled = C.sending || !text.trim() || !!problem;
  send.textContent = t(C.sending ? "chat.sending" : "chat.send");
  input.setAttribute("aria-invalid", C.error || problem ? "true" : "false");
}

function drawCollapsed() {
  const { root, toggle } = C.els;
  root.classList.toggle("collapsed", C.collapsed);
  toggle.setAttribute("aria-expanded", C.collapsed ? "false" : "true");
  toggle.title = t(C.collapsed ? "chat.expand" : "chat.collapse");
  toggle.textContent = C.collapsed ? "▸" : "▾";
}

function build() {
  const list = h("ol", { id: "chat-list", class: "chat-list", "aria-live": "polite", "aria-label": t("chat.title") });
  const input = h("textarea", { id: "chat-input", rows: 2, placeholder: t("chat.placeholder"), "aria-label": t("chat.input_label"),
    "aria-describedby": "chat-count chat-error", autocomplete: "off", spellcheck: "true" });
  const count = h("span", { id: "chat-count", class: "chat-count muted small",
    title: t("chat.count_title", { max: MAX_CHARS, lines: MAX_LINES }) });
  const error = h("div", { id: "chat-error", class: "chat-error", role: "alert", hidden: true });
  const send = h("button", { type: "submit", id: "chat-send", class: "primary small" }, t("chat.send"));
  const form = h("form", { id: "chat-form", class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); sendMessage(); } },
    input, error, h("div", { class: "chat-foot" }, h("span", { class: "chat-hint muted small" }, t("chat.enter_hint")), count, send));
  const note = h("p", { id: "chat-readonly", class: "chat-readonly muted small", hidden: true }, t("chat.read_only"));
  const badge = h("span", { id: "chat-unread", class: "chat-unread", hidden: true });
  const toggle = h("button", { type: "button", id: "chat-toggle", class: "small chat-toggle", "aria-controls": "chat-body",
    onclick: () => {
      C.collapsed = !C.collapsed;
      save(PREFS_KEY, { ...load(PREFS_KEY, {}), collapsed: C.collapsed });
      drawCollapsed();
      if (!C.collapsed) C.els.list.scrollTop = C.els.list.scrollHeight;
      markIfShown();
    } });
  const root = h("section", { id: "chat", class: "panel chat", dataset: { tab: "chat" }, "aria-label": t("chat.title") },
    h("div", { class: "chat-head" }, h("h3", {}, t("chat.title")), badge, toggle),
    h("div", { id: "chat-body", class: "chat-body" }, list, form, note));
  input.addEventListener("input", () => { C.error = ""; drawForm(); });
  input.addEventListener("keydown", (ev) => {
    // Enter sends on a keyboard; a touch keyboard's Enter is a new line (the button sends).
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing && !window.matchMedia("(pointer: coarse)").matches) {
      ev.preventDefault();
      sendMessage();
    }
  });
  C.els = { root, list, input, count, error, send, form, note, badge, toggle };
  drawMessages();
  drawCollapsed();
  drawForm();
  drawUnread();
}

async function sendMessage() {
  const { input } = C.els;
  const text = input.value;
  if (C.sending || !text.trim() || chars(text) > MAX_CHARS || text.split("\n").length > MAX_LINES || !C.canWrite()) return;
  C.sending = true;
  C.error = "";
  drawForm();
  try {
    const m = await C.conn.chat(text, C.mySeat());
    if (input.value === text) input.value = "";
    add([m]);
  } catch (e) {
    // The text stays in the box, so nothing typed is lost.
    C.error = e.status === 429 ? (e.reason ? t("chat.refused", { why: refusalText(e) }) : t("chat.slow_down"))
      : e.status === 422 ? t("chat.refused", { why: refusalText(e) })
        : e.status === 403 || e.status === 401 ? t("chat.not_seated")
          : t("chat.failed", { why: e.message || t("chat.no_answer") });
  } finally {
    C.sending = false;
    drawForm();
    if (C.els.root.isConnected) input.focus({ preventScroll: true });
  }
}

function nearBottom(el) { return el.scrollHeight - el.scrollTop - el.clientHeight < 40; }

// ------------------------------------------------------------------ in the table's drawing

/** The chat panel, to place in the table being drawn (the same element every time). */
export function chatPanel() {
  drawForm();
  return C.els.root;
}

/** Call before the table is redrawn; the function returned puts back the caret, the selection and
 *  the scroll position after it. */
export function keepChat() {
  if (!C.els) return () => {};
  const { input, list } = C.els;
  const focused = document.activeElement === input;
  const sel = focused ? [input.selectionStart, input.selectionEnd] : null;
  const top = list.scrollTop;
  const bottom = nearBottom(list);
  return () => {
    list.scrollTop = bottom ? list.scrollHeight : top;
    if (focused && input.isConnected) {
      input.focus({ preventScroll: true });
      input.setSelectionRange(sel[0], sel[1]);
    }
    markIfShown();
  };
}
