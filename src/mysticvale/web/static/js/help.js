// Help in the table (issue 15 item 6): the rules page (help/{lang}.html) from the top bar, short
// explanations of the game's keywords where they appear on the cards, and a first-game tour.
//
// Keywords: the trigger labels and icons of a card's ability ("When Played", "Harvest", ...: they
// carry data-help, see cards.js), the Eclipse, Legendary and Long-wise markers, and the symbols
// (mana, growth, decay, guardian, VP, curse, spirits).  With a mouse, hovering one shows a tooltip
// (role="tooltip", tied to it by aria-describedby); on a touch screen a tap shows it as a popover
// (in the zoom, or on anything that starts no action), and a long press on a card opens the zoom
// with the explanation of the keyword under the finger.  One set of listeners on the document
// serves every card face, however often the table is redrawn.

import { h, s, $ } from "./dom.js";
import { t, has, language } from "./i18n.js";
import { load, save } from "./storage.js";

/** Elements explained by their class (drawn by cards.js), besides anything with data-help. */
const BY_CLASS = [
  [".sym-mana", "mana"], [".sym-growth", "growth"], [".sym-decay", "decay"], [".sym-guardian", "guardian"],
  [".sym-vp", "vp"], [".sym-curse", "curse"], [".sym-animal", "spirits"], [".sym-forest", "spirits"],
  [".sym-sky", "spirits"], [".sym-wild", "spirits"], [".vcost", "spirits"], [".endvp", "vp"], [".negvp", "neg_vp"],
  [".marker-eclipse", "eclipse"], [".marker-legendary", "legendary"], [".marker-longwise", "longwise"],
];
const SEL = ["[data-help]", ...BY_CLASS.map(([c]) => c)].join(",");
/** Elements whose own count or name (their SVG title) is worth showing above the explanation. */
const COUNTED = ".sym, .endvp, .negvp, .vcost";
/** A tap on these does something else: the keyword help then only comes by a long press or the zoom. */
const ACTIONABLE = ".clickable, button, a, input, select, textarea, label, [data-action], [role=button]";
/** Where each keyword is explained on the rules page. */
const ANCHOR = {
  when_played: "kw-when-played", harvest: "kw-harvest", ongoing: "kw-ongoing", discard: "kw-discard",
  when_bought: "kw-when-bought", eclipse: "kw-eclipse", legendary: "kw-legendary", growth: "kw-growth",
  decay: "kw-decay", guardian: "kw-guardian", curse: "kw-curse", spirits: "kw-spirits",
  mana: "help-symbols", vp: "help-symbols", neg_vp: "help-symbols", longwise: "help-discard",
};
const HELP_LANGS = ["en", "de"];
const HOVER_MS = 120;
const PRESS_MS = 450;         // as zoom.js: a long press on a card opens its zoom
const TOUR_KEY = "mysticvale.tour";

let tip = null;               // the tooltip / popover element
let anchor = null;            // the element explained
let stashed = null;           // its title, taken away while the tooltip shows (no double tooltip)
let hoverTimer = null;
let hideTimer = null;
let pressTimer = null;
let lastPointer = "mouse";
let swallow = false;
let watch = null;
let hooks = { showTab: () => {} };
let installed = false;

/** The rules page in the language of the interface. */
export function rulesUrl(anchorId = "") {
  const lang = HELP_LANGS.includes(language()) ? language() : "en";
  return `/rules/${lang}${anchorId ? `#${anchorId}` : ""}`;
}

function glyph(d) {
  return s("svg", { class: "icon", width: "1.1em", height: "1.1em", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d, fill: "currentColor" }));
}
const BOOK = "M3 5.2C3 4.5 3.6 4 4.3 4 7 4 9.3 4.6 11 6v14c-1.7-1.3-4-2-6.7-2-.7 0-1.3-.5-1.3-1.2ZM21 5.2c0-.7-.6-1.2-1.3-1.2C17 4 14.7 4.6 13 6v14c1.7-1.3 4-2 6.7-2 .7 0 1.3-.5 1.3-1.2Z";
const ROUTE = "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 4.2 4.8 9.6-4.8-2.4-4.8 2.4Z";

/** The top bar's help: the rules (a new tab) and the tour again. */
export function rulesLink() {
  return h("span", { class: "help-links" },
    h("a", { id: "rules-link", class: "button", href: rulesUrl(), target: "_blank", rel: "noopener", title: t("help.rules_title") },
      glyph(BOOK), h("span", { class: "btn-text" }, t("help.rules"))),
    h("button", { type: "button", id: "tour-btn", title: t("help.tour.again_title"), onclick: () => startTour() },
      glyph(ROUTE), h("span", { class: "btn-text" }, t("help.tour.again"))));
}

/** The same two at the foot of the players panel (a phone's top bar has no room for the tour). */
export function helpFooter() {
  return h("p", { class: "help-foot small" },
    h("a", { id: "rules-foot", href: rulesUrl(), target: "_blank", rel: "noopener", title: t("help.rules_title") }, glyph(BOOK), " ",
      t("help.rules")),
    h("button", { type: "button", id: "tour-foot", class: "small", onclick: () => startTour() }, glyph(ROUTE), " ",
      t("help.tour.again_title")));
}

// ------------------------------------------------------------------ keyword help

function keyOf(el) {
  let key = el.dataset && el.dataset.help;
  if (!key) key = (BY_CLASS.find(([c]) => el.matches(c)) || [])[1];
  // A leader's "coverable" marker looks like the eclipse one but says something else (its title).
  if (key === "eclipse" && el.closest(".lv-leader")) return null;
  return key && has(`help.keyword.${key}`) ? key : null;
}

function target(node) {
  const el = node && node.closest ? node.closest(SEL) : null;
  return el && keyOf(el) ? el : null;
}

function tipEl() {
  if (!tip) {
    tip = h("div", { id: "help-tip", class: "help-tip", role: "tooltip", hidden: true });
    tip.addEventListener("pointerenter", () => clearTimeout(hideTimer));
    tip.addEventListener("pointerleave", (ev) => { if (ev.pointerType !== "touch") hideSoon(); });
    document.body.append(tip);
  }
  return tip;
}

function takeTitle(el) {
  const svgTitle = [...el.children].find((c) => c.tagName.toLowerCase() === "title");
  if (svgTitle) { stashed = { el, node: svgTitle }; svgTitle.remove(); return svgTitle.textContent; }
  if (el.hasAttribute("title")) {
    const text = el.getAttribute("title");
    stashed = { el, attr: text };
    el.removeAttribute("title");
    return text;
  }
  return "";
}

function giveTitle() {
  if (!stashed) return;
  const { el, node, attr } = stashed;
  if (node) el.prepend(node);
  else if (attr !== undefined) el.setAttribute("title", attr);
  stashed = null;
}

/** Explain `el`'s keyword next to it (`touch`: a popover with a close button). */
export function showHelp(el, touch = false) {
  const key = keyOf(el);
  if (!key) return;
  hide();
  const own = takeTitle(el);
  const box = tipEl();
  const sub = el.matches(COUNTED) && own ? own : "";
  box.replaceChildren(...[
    h("div", { class: "help-tip-head" }, h("strong", {}, t(`help.name.${key}`)),
      touch ? h("button", { type: "button", class: "small close", "aria-label": t("help.close"), onclick: () => hide() }, "×") : null),
    sub ? h("div", { class: "help-tip-sub muted small" }, sub) : null,
    h("p", {}, t(`help.keyword.${key}`)),
    h("a", { href: rulesUrl(ANCHOR[key] || "help-keywords"), target: "_blank", rel: "noopener", class: "small" }, t("help.more")),
  ].filter(Boolean));
  box.dataset.key = key;
  box.classList.toggle("touch", touch);
  box.hidden = false;
  anchor = el;
  el.setAttribute("aria-describedby", "help-tip");
  place(box, el);
  clearInterval(watch);
  watch = setInterval(() => { if (!anchor || !anchor.isConnected) hide(); }, 400);
}

function place(box, el) {
  const r = el.getBoundingClientRect();
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  box.style.left = "0px";
  box.style.top = "0px";
  const bw = box.offsetWidth;
  const bh = box.offsetHeight;
  let left = Math.min(Math.max(8, r.left + r.width / 2 - bw / 2), vw - bw - 8);
  let top = r.top - bh - 8;                      // above the keyword, else below it
  if (top < 8) top = r.bottom + 8;
  if (top + bh > vh - 8) top = Math.max(8, vh - bh - 8);
  box.style.left = `${Math.max(8, left)}px`;
  box.style.top = `${top}px`;
}

export function hide() {
  clearTimeout(hoverTimer);
  clearTimeout(hideTimer);
  clearInterval(watch);
  if (anchor) anchor.removeAttribute("aria-describedby");
  giveTitle();
  anchor = null;
  if (tip) tip.hidden = true;
}

function hideSoon() {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hide, 200);
}

/** The same keyword in the zoom's copy of the face under `el` (zoom.js clones the face). */
function inZoom(el) {
  const face = el.closest(".face");
  const zoomed = $("#zoom:not([hidden]) .face.zoomed");
  if (!face || !zoomed) return null;
  const i = [...face.querySelectorAll(SEL)].indexOf(el);
  return i < 0 ? null : zoomed.querySelectorAll(SEL)[i] || null;
}

/** Listen on the document once: every card face drawn later is served. */
export function installHelp(opts = {}) {
  hooks = { ...hooks, ...opts };
  if (installed) return;
  installed = true;
  document.addEventListener("pointerover", (ev) => {
    lastPointer = ev.pointerType || "mouse";
    if (lastPointer === "touch") return;
    const el = target(ev.target);
    if (!el) return;
    clearTimeout(hideTimer);
    if (el === anchor) return;
    clearTimeout(hoverTimer);
    if (tip && !tip.hidden) showHelp(el);
    else hoverTimer = setTimeout(() => showHelp(el), HOVER_MS);
  });
  document.addEventListener("pointerout", (ev) => {
    if (ev.pointerType === "touch") return;
    const el = target(ev.target);
    if (!el) return;
    const to = ev.relatedTarget;
    if (to && (el.contains(to) || (tip && tip.contains(to)))) return;
    clearTimeout(hoverTimer);
    if (el === anchor) hideSoon();
  });
  document.addEventListener("pointerdown", (ev) => {
    lastPointer = ev.pointerType || "mouse";
    clearTimeout(pressTimer);
    if (lastPointer !== "touch") return;
    const el = target(ev.target);
    if (!el) return;
    // A long press: on a card, zoom.js opens the zoom; the keyword's help then shows on the copy.
    pressTimer = setTimeout(() => {
      const z = el.closest("[data-zoom]") ? inZoom(el) : el;
      if (z) { swallow = !el.closest("[data-zoom]"); showHelp(z, true); }
    }, PRESS_MS + 30);
  }, true);
  const cancel = () => clearTimeout(pressTimer);
  document.addEventListener("pointerup", cancel, true);
  document.addEventListener("pointercancel", cancel, true);
  document.addEventListener("click", (ev) => {
    if (swallow) { swallow = false; ev.stopPropagation(); ev.preventDefault(); return; }
    if (tip && tip.contains(ev.target)) return;
    const el = lastPointer === "touch" ? target(ev.target) : null;
    if (el && (el.closest("#zoom") || !el.closest(ACTIONABLE))) {
      // A tap on a keyword: its help (in the zoom, the zoom stays open).
      ev.stopPropagation();
      ev.preventDefault();
      showHelp(el, true);
      return;
    }
    if (tip && !tip.hidden && tip.classList.contains("touch")) hide();
  }, true);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { hide(); endTour(); } });
  window.addEventListener("scroll", () => { if (tip && !tip.hidden) hide(); }, true);
}

// ------------------------------------------------------------------ the first-game tour

/** Steps: what to point at, the phone's tab it is on, and its text (help.tour.<key>.*). */
const TOUR = [
  { sel: "#field", tab: "field", key: "field" },
  { sel: "#actionbar", tab: null, key: "bar" },
  { sel: "#supply", tab: "commons", key: "commons" },
  { sel: "#players", tab: "players", key: "players" },
  { sel: "#rules-link", tab: null, key: "help" },
];
let step = -1;
let offerShown = false;

function tourDone() { return !!load(TOUR_KEY, false); }
function setTourDone() { save(TOUR_KEY, true); }

/** The offer of the tour at a first game on this device (a line above the table, never over it),
 *  or null once taken or declined. */
export function tourOffer() {
  if (tourDone() || step >= 0) return null;
  offerShown = true;
  return h("div", { id: "tour-offer", class: "tour-offer", role: "note" },
    h("span", { class: "tour-offer-long" }, t("help.tour.offer")),
    h("span", { class: "tour-offer-short" }, t("help.tour.offer_short")),
    h("span", { class: "tour-offer-buttons" },
      h("button", { type: "button", id: "tour-start", class: "primary small", onclick: () => startTour() }, t("help.tour.start")),
      h("button", { type: "button", id: "tour-decline", class: "small", onclick: () => { setTourDone(); $("#tour-offer")?.remove(); } },
        t("help.tour.decline"))));
}

export function startTour() {
  hide();
  setTourDone();
  $("#tour-offer")?.remove();
  step = 0;
  showStep();
}

function endTour() {
  if (step < 0) return;
  step = -1;
  document.querySelectorAll(".tour-target").forEach((x) => x.classList.remove("tour-target"));
  $("#tour")?.remove();
}

function showStep() {
  const st = TOUR[step];
  if (!st) { endTour(); return; }
  const phone = window.matchMedia("(max-width: 700px)").matches;
  if (phone && st.tab) hooks.showTab(st.tab);
  let box = $("#tour");
  if (!box) {
    box = h("div", { id: "tour", class: "tour", role: "dialog", "aria-modal": "false", "aria-labelledby": "tour-title" });
    document.body.append(box);
  }
  const last = step === TOUR.length - 1;
  box.replaceChildren(...[
    h("div", { class: "tour-head" }, h("strong", { id: "tour-title" }, t(`help.tour.${st.key}.title`)),
      h("span", { class: "muted small" }, t("help.tour.step_of", { i: step + 1, n: TOUR.length }))),
    h("p", {}, t(`help.tour.${st.key}.text`)),
    h("div", { class: "tour-buttons" },
      h("button", { type: "button", id: "tour-skip", class: "small", onclick: endTour }, t("help.tour.skip")),
      step > 0 ? h("button", { type: "button", id: "tour-back", class: "small", onclick: () => { step--; showStep(); } }, t("help.tour.back")) : null,
      h("button", { type: "button", id: "tour-next", class: "primary small", onclick: () => { if (last) endTour(); else { step++; showStep(); } } },
        t(last ? "help.tour.done" : "help.tour.next"))),
  ].filter(Boolean));
  markTarget(true);
}

function markTarget(scroll) {
  document.querySelectorAll(".tour-target").forEach((x) => x.classList.remove("tour-target"));
  const el = step >= 0 && TOUR[step] ? $(TOUR[step].sel) : null;
  if (!el) return;
  el.classList.add("tour-target");
  if (scroll) el.scrollIntoView({ block: "nearest" });
  placeTour();
}

/** On a desktop the tour's box stands beside what its step points at, never over the side column
 *  (players, chat and log) unless the step is about that column: then just left of it.  On a phone
 *  it stays above the action bar (CSS). */
function placeTour() {
  const box = $("#tour");
  const el = step >= 0 && TOUR[step] ? $(TOUR[step].sel) : null;
  if (!box) return;
  if (!el || window.matchMedia("(max-width: 700px)").matches) { box.style.left = box.style.top = box.style.right = box.style.bottom = ""; return; }
  const m = 12;
  const r = el.getBoundingClientRect();
  const vh = window.innerHeight;
  const top0 = ($("#topbar")?.getBoundingClientRect().bottom || 0) + m;
  const bw = box.offsetWidth;
  const bh = box.offsetHeight;
  const side = $(".side");
  const sr = side ? side.getBoundingClientRect() : null;
  const main = $(".main");
  const mr = main ? main.getBoundingClientRect() : { left: m, right: window.innerWidth - m };
  let left;
  let top;
  if (sr && side.contains(el)) {
    left = sr.left - bw - m;                                // beside the side column, level with the step
    top = Math.min(Math.max(top0, r.top), vh - bh - m);
  } else {
    left = Math.max(mr.left + m, Math.min(r.left + m, mr.right - bw - m));
    if (r.bottom + m + bh <= vh - m) top = r.bottom + m;   // below it, else above it, else at the foot
    else if (r.top - m - bh >= top0) top = r.top - m - bh;
    else top = vh - bh - m;
  }
  box.style.right = box.style.bottom = "auto";
  box.style.left = `${Math.max(m, left)}px`;
  box.style.top = `${Math.max(top0, top)}px`;
}

window.addEventListener("resize", () => placeTour());
window.addEventListener("scroll", () => placeTour(), { passive: true });

/** After each drawing of the table: the tour's mark on the new elements. */
export function afterRender() {
  if (step >= 0) markTarget(false);
  return offerShown;
}
