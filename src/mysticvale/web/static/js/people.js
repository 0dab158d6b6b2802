// People (issue 15): this browser's person, a display name with a secret personal key; the people
// API (name, key, settings, my games, claims); and the lobby socket that keeps "my games" live.
//
// The key is sent only as the X-Player-Key header (on a WebSocket, where browsers cannot set
// headers, as the subprotocol "mysticvale.key.K"), never in a URL.  It reaches a new device through
// the personal link `/#key=K`: the fragment never leaves the browser, and adoptKeyFromHash() takes
// it out of the address at once so it does not stay in the history.

import { api } from "./api.js";
import { person, personKey, savePerson, forgetPerson, myGames as oldSeatLinks, forgetGame } from "./storage.js";

export { person, personKey, forgetPerson };

/** Personal keys and seat tokens are URL-safe base64 (server/security.py). */
const SECRET = /^[A-Za-z0-9_-]{8,128}$/;

/** Whether a failed people request means the key is nobody's (replaced on another device, a bad link). */
export const keyRefused = (e) => !!e && (e.status === 401 || e.status === 403);

const enc = encodeURIComponent;
const withKey = (method, path, payload) => api(method, path, payload, { key: personKey() });

// ------------------------------------------------------------------ identity

/** Make a person with this display name and keep their key in this browser. */
export async function createPerson(name) {
  const res = await api("POST", "/api/people", { name });
  forgetPerson();
  savePerson({ key: res.key, id: res.id, name: res.name, link: res.link });
  return res;
}

/** Ask the server who the stored key belongs to (and keep the name); throws, keyRefused(e) for a bad key. */
export async function whoAmI() {
  const me = await withKey("GET", "/api/people/me");
  savePerson({ id: me.id, name: me.name });
  return me;
}

export async function rename(name) {
  const me = await withKey("PATCH", "/api/people/me", { name });
  savePerson({ name: me.name });
  return me;
}

/** A new personal key: the old one (and its link) stops working at once, on every device. */
export async function replaceKey() {
  const res = await withKey("POST", "/api/people/me/key");
  savePerson({ key: res.key, id: res.id, name: res.name, link: res.link });
  return res;
}

/** Sign out on every device: every key of the person ends; this browser keeps the new one. */
export async function signOutEverywhere() {
  const res = await withKey("POST", "/api/people/me/sign-out-everywhere");
  savePerson({ key: res.key, id: res.id, name: res.name, link: res.link });
  return res;
}

/** The personal link that restores this identity on another device (a secret). */
export function personalLink() {
  const p = person();
  if (!p) return "";
  return new URL(p.link || `/#key=${enc(p.key)}`, location.origin).href;
}

/** Take a personal key from the address (`#key=K`), keep it, and remove it from the address and
 *  so from the history.  Returns whether there was one. */
export function adoptKeyFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const key = params.get("key");
  if (key === null) return false;
  params.delete("key");
  const rest = params.toString();
  history.replaceState(null, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
  if (key !== personKey()) {
    forgetPerson();                          // another person's link: nothing of the old one stays
    savePerson({ key: SECRET.test(key) ? key : "-" });   // a mangled key is refused by the server
  }
  return true;
}

// ------------------------------------------------------------------ settings

export const getSettings = () => withKey("GET", "/api/people/me/settings");
export const patchSettings = (changes) => withKey("PATCH", "/api/people/me/settings", changes);
export const resendConfirmation = () => withKey("POST", "/api/people/me/settings/confirm-email");

// ------------------------------------------------------------------ games and seats

/** The person's games (MyGame rows: your turn first, then running, then finished). */
export const listMyGames = () => withKey("GET", "/api/people/me/games").then((r) => r.games);
/** One of the person's games (404 when it is not theirs). */
export const getMyGame = (id) => withKey("GET", `/api/people/me/games/${enc(id)}`);
/** Create a game as the person: their seat is claimed, the invitations kept for them. */
export const createGame = (payload) => withKey("POST", "/api/games", payload);
/** Take a seat: `{token}` of an invitation or `{seat}` of an open seat -> `{seat, token, new, game}`. */
export const claimSeat = (id, body) => withKey("POST", `/api/games/${enc(id)}/claim`, body);
/** The host renames a table or makes it public or private (issue 21). */
export const patchTable = (id, changes) => withKey("PATCH", `/api/games/${enc(id)}/table`, changes);
/** Who sits where (no secret): `[{seat, bot, name, open, claimed}]`. */
export const seatsOf = (id) => api("GET", `/api/games/${enc(id)}/seats`).then((r) => r.seats);

/** Seat links this browser kept before it had a name are claimed for the person once, then
 *  dropped.  A link that is no seat (any 4xx: a bad token, a seat somebody else holds) is dropped
 *  too; one that failed for the network or the server is tried again next time. */
export async function migrateOldGames() {
  for (const g of oldSeatLinks()) {
    try {
      await claimSeat(g.id, { token: g.token });
    } catch (e) {
      if (e.status === 0 || e.status === 429 || e.status >= 500) continue;
    }
    forgetGame(g.id, g.token);
  }
}

// ------------------------------------------------------------------ the lobby socket

const PING_MS = 25_000;
const MAX_BACKOFF_MS = 30_000;

/** `WS /api/people/me/ws`: `onGames(rows)` with every game on each (re)connection, `onGame(row)`
 *  when one changes, `onStatus(live)`, `onRefused()` when the key is nobody's (no reconnecting then).
 *  With `onTables` the socket also asks for the open tables (issue 21): `onTables(rows)` on each
 *  (re)connection, `onTable(row)` when one comes or changes, `onTableGone(id)` when one leaves. */
export class LobbySocket {
  constructor({ onGames = () => {}, onGame = () => {}, onStatus = () => {}, onRefused = () => {},
    onTables = null, onTable = () => {}, onTableGone = () => {} } = {}) {
    Object.assign(this, { onGames, onGame, onStatus, onRefused, onTables, onTable, onTableGone });
    this.ws = null;
    this.retry = 0;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    this.live = false;
    this.wake = () => { if (!this.live && !this.stopped) { clearTimeout(this.timer); this.connect(); } };
  }

  start() {
    window.addEventListener("online", this.wake);
    this.connect();
    return this;
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  /** Connect again at once (a new key). */
  restart() {
    this.stopped = false;
    clearTimeout(this.timer);
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.connect();
  }

  setLive(live) {
    if (live === this.live) return;
    this.live = live;
    this.onStatus(live);
  }

  connect() {
    const key = personKey();
    if (this.stopped || !key) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/people/me/ws`, ["mysticvale", `mysticvale.key.${key}`]);
    } catch {
      this.refused();               // a key no WebSocket can carry is no key of ours
      return;
    }
    this.ws = ws;
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "games") {
        this.retry = 0;
        this.setLive(true);
        this.onGames(msg.games || []);
        if (this.onTables && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "tables" }));
      } else if (msg.type === "game" && msg.game) {
        this.onGame(msg.game);
      } else if (msg.type === "tables" && this.onTables) {
        this.onTables(msg.tables || []);
      } else if (msg.type === "open_table" && msg.table) {
        this.onTable(msg.table);
      } else if (msg.type === "open_table_gone") {
        this.onTableGone(msg.id);
      } else if (msg.type === "error" && (msg.status === 401 || msg.status === 403)) {
        this.refused();
      }
    };
    ws.onopen = () => {
      clearInterval(this.pinger);
      this.pinger = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" })); }, PING_MS);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      this.setLive(false);
      if (ev.code === 4401 || ev.code === 4403) { this.refused(); return; }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  refused() {
    if (this.stopped) return;
    this.stop();
    this.setLive(false);
    this.onRefused();
  }

  /** Reconnect after 1, 2, 4 ... 30 seconds (with some jitter, so a restarted server is not stormed). */
  schedule() {
    if (this.stopped) return;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.retry) * (0.8 + Math.random() * 0.4);
    this.retry = Math.min(this.retry + 1, 10);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }
}
