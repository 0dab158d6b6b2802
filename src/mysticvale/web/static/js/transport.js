// State and transport: the versions of one seat's view, as the server sends them (protocol 2).
//
// A WebSocket brings every version (a full state first, then deltas).  Actions and undos go on the
// socket while it is open ({"type": "action", "action", "seq", "ref"}, answered by {"type":
// "applied", "applied_seq", "ref"} or an error with the same ref; the server sends the answer before
// the push of that version, and the change resolves once the version is taken, at once if it is
// held already, as for a repeated change), and are POSTed otherwise (answered with the versions
// after the client's).  A change whose socket answer does not come is sent again by POST with the
// same seq, which the server never applies twice.  The same version may come by both ways: only
// the next one in line is taken.  A gap (a message from a version we do not hold) asks the server
// for what is missing.  While the socket is down, the updates are polled.
//
// The socket also carries the table's chat and who sits where (issue 15): {"type": "chat"} and
// {"type": "seats"} messages go to `social`.  A chat message is sent over the socket while it is
// open ({"type": "chat", "text": T}: the server's echo of it is the answer, an error message
// the refusal), else POSTed with the seat token.

import { api } from "./api.js";

export class Connection {
  /** `deliver(msg)` gets each new version's message in order (full or delta), `status(open)` the
   *  socket's state, `note(msg)` other messages (rematch, errors). */
  constructor(gameId, token, { deliver, status, note, fatal, social = () => {}, opened = () => {} }) {
    this.id = gameId;
    this.token = token;
    this.deliver = deliver;
    this.status = status;
    this.note = note;
    this.fatal = fatal;
    this.social = social;      // chat and seats messages
    this.opened = opened;      // each time the socket opens (to catch up on the chat)
    this.pendingChat = null;   // {text, seat, resolve, reject, timer}: a chat message sent over the socket
    this.pendingChange = null; // {ref, resolve, reject, timer}: an action or undo sent over the socket
    this.refs = 0;
    this.reached = [];         // [seq, resolve]: callers waiting until a version is taken
    this.seq = -1;             // the latest version received (not necessarily shown yet)
    this.ws = null;
    this.open = false;
    this.retry = 0;
    this.pollTimer = null;
    this.closed = false;
    this.dead = false;
  }

  get base() { return `/api/games/${encodeURIComponent(this.id)}`; }
  /** The seat token for a request (as the X-Seat-Token header, see api.js). */
  get auth() { return { token: this.token }; }

  start() {
    this.connect();
    // The socket brings the first state; ask over HTTP only if it is slow to open.
    setTimeout(() => { if (!this.open && this.seq < 0 && !this.dead) this.fetchUpdates(); }, 1500);
  }

  stop() {
    this.closed = true;
    clearInterval(this.pollTimer);
    if (this.ws) this.ws.close();
  }

  /** Take messages in order; returns whether any new version was taken. */
  take(messages) {
    let took = false;
    for (const msg of messages) {
      if (msg.type === "full") {
        if (msg.seq < this.seq) continue;
        this.seq = msg.seq;
        this.deliver(msg);
        took = true;
      } else if (msg.type === "delta") {
        if (msg.seq <= this.seq) continue;           // already have it (socket and POST both bring it)
        if (msg.from !== this.seq) { this.fetchUpdates(); break; }   // a gap: ask for what is missing
        this.seq = msg.seq;
        this.deliver(msg);
        took = true;
      } else if (msg.type === "chat" || msg.type === "seats" || msg.type === "table") {
        this.social(msg);
      } else {
        this.note(msg);
      }
    }
    if (took) this.wakeReached();
    return took;
  }

  wakeReached() {
    const still = [];
    for (const [seq, resolve] of this.reached) (this.seq >= seq ? resolve() : still.push([seq, resolve]));
    this.reached = still;
  }

  /** Resolves once version `seq` is taken: it comes as a push; if it is slow, it is asked for. */
  reach(seq) {
    if (this.seq >= seq) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.fetchUpdates(), 1500);
      this.reached.push([seq, () => { clearTimeout(timer); resolve(); }]);
    });
  }

  async fetchUpdates() {
    try {
      const res = await api("GET", `${this.base}/updates?since=${this.seq}`, null, this.auth);
      this.take(res.updates || []);
    } catch (e) {
      if (e.status === 403 || e.status === 404 || e.status === 410) this.giveUp(e.status, e.message);
      else if (!this.open) this.status(false);
    }
  }

  connect() {
    if (this.closed || this.dead) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      // The token is offered as a subprotocol, so it is in no URL; the server answers "mysticvale".
      const protocols = ["mysticvale", ...(this.token ? [`mysticvale.token.${this.token}`] : [])];
      ws = new WebSocket(`${proto}//${location.host}${this.base}/ws?since=${this.seq}`, protocols);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.open = true;
      this.retry = 0;
      clearInterval(this.pollTimer);
      this.pollTimer = null;
      this.status(true);
      this.opened();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if ((msg.type === "applied" || msg.type === "error") && msg.ref !== undefined) {
        if (this.pendingChange && this.pendingChange.ref === msg.ref) {
          this.settleChange(msg.type === "applied" ? msg : null, msg.type === "error" ? msg : null);
        }
        return;
      }
      if (msg.type === "error" && this.pendingChat) {          // the refusal of the chat message sent
        this.settleChat(null, msg);
        return;
      }
      if (msg.type === "chat" && this.pendingChat && msg.message && msg.message.seat === this.pendingChat.seat
          && msg.message.text === this.pendingChat.text) this.settleChat(msg.message, null);
      if (msg.type === "error") {
        if (msg.status === 403 || msg.status === 404 || msg.status === 410) this.giveUp(msg.status, msg.message);
        else this.note(msg);
        return;
      }
      this.take([msg]);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.open = false;
      if (this.pendingChat) this.settleChat(null, { status: 0, message: "" });
      if (this.pendingChange) this.settleChange(null, { status: 0, message: "" });
      this.status(false);
      // 4410: the seat's token ended (its invitation was claimed, its player made a new key)
      if (ev.code === 4403 || ev.code === 4404 || ev.code === 4410) { this.giveUp(ev.code - 4000, ev.reason); return; }
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  giveUp(status, message) {
    if (this.dead) return;
    this.dead = true;
    clearInterval(this.pollTimer);
    this.fatal(status, message);
  }

  scheduleReconnect() {
    if (this.closed || this.dead) return;
    this.retry = Math.min(this.retry + 1, 6);
    // While the socket is down, poll so bot moves still show.
    if (!this.pollTimer) this.pollTimer = setInterval(() => this.fetchUpdates(), 3000);
    setTimeout(() => { if (!this.closed && !this.dead) { this.connect(); this.fetchUpdates(); } }, 500 * 2 ** (this.retry - 1));
  }

  /** Play an action (notation) chosen at the version held; resolves when its version is taken,
   *  rejects with an Error carrying the server's `status` and message when it is refused. */
  act(action) {
    return this.change({ type: "action", action }, "actions", { action });
  }

  /** Take back this seat's last action (as `act`). */
  undo() {
    return this.change({ type: "undo" }, "undo", {});
  }

  async change(message, route, body) {
    const seq = this.seq;
    if (this.socketReady() && !this.pendingChange) {
      let answer = null;
      try {
        answer = await new Promise((resolve, reject) => {
          const ref = ++this.refs;
          const timer = setTimeout(() => this.settleChange(null, { status: 0, message: "" }), 8000);
          this.pendingChange = { ref, resolve, reject, timer };
          try {
            this.ws.send(JSON.stringify({ ...message, seq, ref }));
          } catch {
            this.settleChange(null, { status: 0, message: "" });
          }
        });
      } catch (e) {
        // Refused: as a POST would be.  Too many messages, or no answer (a socket that died with
        // the change on its way): sent again by POST, at the same seq, so it counts once.
        if (e.status !== 0 && e.status !== 429) throw e;
      }
      if (answer) {
        await this.reach(answer.applied_seq);
        return;
      }
    }
    const res = await api("POST", `${this.base}/${route}?since=${seq}`, { ...body, seq }, this.auth);
    this.take(res.updates || []);
  }

  socketReady() {
    return this.open && this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  settleChange(answer, error) { this.settle("pendingChange", answer, error); }

  /** Resolve (with `value`) or reject (with `error`'s message and status) the promise of a message
   *  sent on the socket, kept in `this[name]` ("pendingChange" or "pendingChat"). */
  settle(name, value, error) {
    const p = this[name];
    if (!p) return;
    this[name] = null;
    clearTimeout(p.timer);
    if (value) p.resolve(value);
    else {
      p.reject(Object.assign(new Error(error.message || ""), {
        status: error.status ?? 0, reason: typeof error.reason === "string" ? error.reason : undefined,
        params: error.params && typeof error.params === "object" ? error.params : {},
      }));
    }
  }

  /** Write `text` in the chat as `seat`; resolves with the stored message {n, seat, name, text, at},
   *  rejects with an Error carrying the server's `status` (422 refused, 429 too fast, 0 no answer). */
  chat(text, seat) {
    if (this.pendingChat) return Promise.reject(Object.assign(new Error("busy"), { status: 0 }));
    if (!this.socketReady()) {
      return api("POST", `${this.base}/chat`, { text }, this.auth);
    }
    return new Promise((resolve, reject) => {
      // No echo and no error in time (a socket that died quietly): the caller keeps the text.
      const timer = setTimeout(() => this.settleChat(null, { status: 0, message: "" }), 8000);
      this.pendingChat = { text, seat, resolve, reject, timer };
      try {
        this.ws.send(JSON.stringify({ type: "chat", text }));
      } catch {
        this.settleChat(null, { status: 0, message: "" });
      }
    });
  }

  settleChat(message, error) { this.settle("pendingChat", message, error); }

  async rematch() {
    return api("POST", `${this.base}/rematch`, {}, this.auth);
  }
}
