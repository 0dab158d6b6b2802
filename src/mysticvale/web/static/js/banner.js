// Messages at the top of the page (errors, information) and the spoil banner in the middle.

import { $, h } from "./dom.js";

let timer = null;

/** Show a message plainly at the top (kind "error" or "info"). */
export function banner(message, kind = "error") {
  const b = $("#banner");
  if (!b) return;
  b.textContent = message;
  b.className = kind;
  b.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { b.hidden = true; }, kind === "error" ? 9000 : 4000);
}

export function clearBanner() {
  const b = $("#banner");
  if (b) b.hidden = true;
}

let bigTimer = null;

/** An unmistakable banner across every screen (a spoil), gone after `ms` or on a click. */
export function bigBanner(text, { ms = 2600, kind = "spoil" } = {}) {
  let el = $("#big-banner");
  if (!el) {
    el = h("div", { id: "big-banner", role: "alert", onclick: () => { el.hidden = true; } });
    document.body.append(el);
  }
  el.className = kind;
  el.replaceChildren(h("div", { class: "big-banner-text" }, text));
  el.hidden = false;
  clearTimeout(bigTimer);
  bigTimer = setTimeout(() => { el.hidden = true; }, ms);
}
