// Zoom: hovering a card face (mouse) or pressing on it a while (touch) shows it large, with its
// texts and what each marker on it means.  The zoom never takes a click: a long press that opened
// it swallows the click that follows, so zooming cannot buy or push anything.  On a touch screen a
// tap on a face that offers no action (nothing to buy, push or choose there) opens its zoom too;
// a tap on a face that offers one does that action, as a click does, and a long press zooms it.

import { h, $ } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { faceDetails } from "./cards.js";

const HOVER_DELAY = 350;
const PRESS_DELAY = 450;
let hoverTimer = null;
let pressTimer = null;
let swallowClick = false;
let shownFor = null;

function layerEl() {
  let z = $("#zoom");
  if (!z) {
    z = h("div", { id: "zoom", role: "dialog", "aria-modal": "false", hidden: true,
      onclick: () => hide() });
    document.body.append(z);
  }
  return z;
}

/** Show `faceEl` large with the details of `what` ({card} / {label} / {vale}). */
export function show(faceEl, what, anchor = null, touch = false) {
  const z = layerEl();
  const big = faceEl.cloneNode(true);
  big.classList.add("zoomed");
  big.removeAttribute("data-flip");
  big.querySelectorAll("[data-flip]").forEach((x) => x.removeAttribute("data-flip"));
  const rows = faceDetails(what).map(([mark, text]) => mark === "note" ? h("li", { class: "zoom-note" }, text)
    : h("li", {}, mark ? icon(mark, { size: "1.2em" }) : null, " ", text));
  z.replaceChildren(h("div", { class: "zoom-box" }, big, h("ul", { class: "zoom-text" }, rows),
    touch ? h("p", { class: "muted small" }, t("zoom.tap_to_close")) : null));
  z.hidden = false;
  z.classList.toggle("touch", touch);
  if (anchor && !touch) {
    const r = anchor.getBoundingClientRect();
    const boxW = Math.min(560, window.innerWidth - 16);
    let left = r.right + 12;
    if (left + boxW > window.innerWidth - 8) left = Math.max(8, r.left - boxW - 12);
    z.style.left = `${left}px`;
    z.style.top = `${Math.max(8, Math.min(r.top, window.innerHeight - 420))}px`;
  } else {
    z.style.left = "";
    z.style.top = "";
  }
  shownFor = faceEl;
}

export function hide() {
  clearTimeout(hoverTimer);
  const z = $("#zoom");
  if (z) z.hidden = true;
  shownFor = null;
}

let swallowInstalled = false;

/** The click that ends a long press (wherever it lands: the zoom covers the page) is not a click:
 *  caught before any widget sees it. */
function installSwallow() {
  if (swallowInstalled) return;
  swallowInstalled = true;
  window.addEventListener("click", (ev) => {
    if (swallowClick) { swallowClick = false; ev.stopImmediatePropagation(); ev.preventDefault(); }
  }, true);
  // A hover zoom belongs to a face under the mouse.  A click redraws the table (buying, pushing),
  // and a redrawn face never sees the mouse leave: so a mouse click, or a move once the face is
  // gone from the page, closes it.
  window.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType === "touch") return;
    clearTimeout(hoverTimer);                     // a click is not a hover
    if (shownFor && !$("#zoom").classList.contains("touch")) hide();
  }, true);
  window.addEventListener("pointermove", (ev) => {
    if (ev.pointerType !== "touch" && shownFor && !shownFor.isConnected) hide();
  }, { passive: true });
}

/** Make `el` (a face, or a widget holding one) zoom on hover and long press. */
export function zoomable(el, what) {
  const face = () => (el.classList.contains("face") ? el : el.querySelector(".face")) || el;
  let lastTouch = false;             // the last press on it was a finger's (its mouse events are emulated)
  el.addEventListener("mouseenter", (ev) => {
    if (ev.pointerType === "touch" || lastTouch) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => { if (el.isConnected) show(face(), what, el, false); }, HOVER_DELAY);
  });
  // (a touch zoom stays: the zoom covering the page makes the emulated mouse leave the face)
  el.addEventListener("mouseleave", () => {
    clearTimeout(hoverTimer);
    if (shownFor === face() && !$("#zoom").classList.contains("touch")) hide();
  });
  el.addEventListener("pointerdown", (ev) => {
    lastTouch = ev.pointerType === "touch";
    if (ev.pointerType !== "touch") return;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => { swallowClick = true; show(face(), what, el, true); }, PRESS_DELAY);
  });
  // A tap: the click a touch ends in, on a face that offers no action (js/widgets.js offer()
  // marks the faces that do as clickable).
  el.addEventListener("click", (ev) => {
    if (!lastTouch || el.closest(".clickable") || ev.target.closest(".clickable, button, a, input")) return;
    if (shownFor === face()) { hide(); return; }
    show(face(), what, el, true);
  });
  const cancel = () => clearTimeout(pressTimer);
  el.addEventListener("pointerup", cancel);
  el.addEventListener("pointercancel", cancel);
  el.addEventListener("pointermove", (ev) => {
    if (ev.pointerType === "mouse") lastTouch = false;      // a real mouse again: hovering zooms
    if (ev.pointerType === "touch" && (Math.abs(ev.movementX) + Math.abs(ev.movementY)) > 6) cancel();
  });
  el.addEventListener("pointerenter", (ev) => { if (ev.pointerType === "mouse") lastTouch = false; });
  el.addEventListener("contextmenu", (ev) => { if (swallowClick || shownFor) ev.preventDefault(); });
  installSwallow();
  el.dataset.zoom = "1";
  return el;
}
