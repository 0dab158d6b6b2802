// Playing other players' (and bots') versions back one step at a time, cards moving where they go.
//
// Versions arrive in order (transport.js).  The player's own versions, undos, full states, and
// everything when the animations setting is off are shown at once; other players' versions are
// shown one every STEP_MS (also after one shown at once), each drawn with the cards sliding from
// where they were (FLIP: First, Last, Invert, Play).  A queue far behind catches up without playing everything.

import { settings } from "./settings.js";

export const STEP_MS = 400;
const ANIM_MS = 330;
const CATCH_UP = 40;         // more queued versions than this: show all but the last few at once

export class Playback {
  /** apply(msg) changes the shown view; draw({animate, msgs}) renders; idle() runs when the queue is empty. */
  constructor({ apply, draw, idle, mySeat }) {
    this.apply = apply;
    this.draw = draw;
    this.idle = idle;
    this.mySeat = mySeat;
    this.queue = [];
    this.timer = null;
    this.stepping = false;
    this.lastStep = -Infinity;
  }

  get playing() { return this.queue.length > 0 || this.timer !== null || this.stepping; }
  get waiting() { return this.queue.length; }

  push(msg) {
    this.queue.push(msg);
    if (this.timer === null && !this.stepping) this.pump();
  }

  /** Show everything queued at once. */
  skip() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.queue.length) return;
    const msgs = this.queue.splice(0);
    msgs.forEach((m) => this.apply(m));
    this.draw({ animate: false, msgs });
    this.idle();
  }

  instant(msg) {
    return msg.type === "full" || !settings.animations || msg.undo || msg.by === this.mySeat() || msg.by === null
      || document.hidden;
  }

  pump() {
    this.timer = null;
    if (this.queue.length > CATCH_UP) {
      const msgs = this.queue.splice(0, this.queue.length - 3);
      msgs.forEach((m) => this.apply(m));
      this.draw({ animate: false, msgs });
    }
    const batch = [];
    while (this.queue.length && this.instant(this.queue[0])) batch.push(this.queue.shift());
    if (batch.length) {
      batch.forEach((m) => this.apply(m));
      this.draw({ animate: false, msgs: batch });
      // What was shown at once (the player's own move, a full state) stays on screen STEP_MS
      // before another player's step moves the cards: versions taken together (an answer
      // over HTTP brings the player's own and the bots' next ones) were drawn in the same
      // moment, the player's own never seen.
      this.lastStep = performance.now();
    }
    if (!this.queue.length) { this.idle(); return; }
    // Other players' steps come at least STEP_MS apart, also when they arrive one by one.
    const wait = STEP_MS - (performance.now() - this.lastStep);
    if (wait > 0) { this.timer = setTimeout(() => this.pump(), wait); return; }
    const msg = this.queue.shift();
    this.apply(msg);
    this.stepping = this.queue.length > 0;      // more to come: the table is still being played back
    this.draw({ animate: true, msgs: [msg] });
    this.stepping = false;
    const last = !this.queue.length;
    if (last) this.idle();                      // the last step's animation ends by itself
    // The next step comes STEP_MS after this one is on screen (drawn): counted from before the
    // drawing, a slow drawing (a loaded machine) shortened the time the player had to see it.
    this.lastStep = performance.now();
    if (!last) this.timer = setTimeout(() => this.pump(), STEP_MS);
  }
}

/** Positions of everything that can move (data-flip keys) and of the piles cards come from. */
export function snapshot(root) {
  const rects = new Map();
  root.querySelectorAll("[data-flip]").forEach((el) => {
    const r = el.getBoundingClientRect();
    if (r.width) rects.set(el.dataset.flip, r);
  });
  const deck = root.querySelector("#deck");
  const discard = root.querySelector("#discard");
  return { rects, deck: deck && deck.getBoundingClientRect(), discard: discard && discard.getBoundingClientRect(),
    ghosts: [...root.querySelectorAll("#field [data-flip]")].map((el) => ({ key: el.dataset.flip, el, rect: el.getBoundingClientRect() })) };
}

/** Animate elements from their old positions (or, for cards new to the field, from the deck) to the
 *  new ones; cards that left the field fly to the discard pile. */
export function animateFrom(before, root) {
  if (!before || !settings.animations) return;
  const seen = new Set();
  root.querySelectorAll("[data-flip]").forEach((el) => {
    const key = el.dataset.flip;
    seen.add(key);
    const now = el.getBoundingClientRect();
    if (!now.width) return;
    let from = before.rects.get(key);
    let fade = false;
    if (!from && key.startsWith("c") && before.deck && el.closest("#field")) { from = before.deck; fade = true; }
    if (!from) return;
    const dx = from.left - now.left;
    const dy = from.top - now.top;
    const sx = from.width / now.width;
    const sy = from.height / now.height;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2 && Math.abs(sx - 1) < 0.02) return;
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, transformOrigin: "top left", opacity: fade ? 0.4 : 1 },
      { transform: "none", transformOrigin: "top left", opacity: 1 },
    ], { duration: ANIM_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  });
  // Cards that left the field: a ghost flies to the discard pile.
  const discard = root.querySelector("#discard");
  if (!discard) return;
  const to = discard.getBoundingClientRect();
  for (const g of before.ghosts) {
    if (seen.has(g.key) || !g.rect.width) continue;
    const ghost = g.el.cloneNode(true);
    ghost.classList.add("ghost-fly");
    Object.assign(ghost.style, { position: "fixed", left: `${g.rect.left}px`, top: `${g.rect.top}px`, width: `${g.rect.width}px`,
      margin: 0, zIndex: 30, pointerEvents: "none" });
    document.body.append(ghost);
    const anim = ghost.animate([
      { transform: "none", opacity: 1 },
      { transform: `translate(${to.left - g.rect.left}px, ${to.top - g.rect.top}px) scale(${to.width / g.rect.width})`, opacity: 0.2 },
    ], { duration: ANIM_MS, easing: "ease-in", fill: "forwards" });   // (not back where it flew from before it goes)
    anim.onfinish = () => ghost.remove();
    setTimeout(() => ghost.remove(), ANIM_MS + 200);
  }
}
