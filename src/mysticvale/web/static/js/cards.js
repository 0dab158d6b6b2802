// Card faces, drawn as SVG from data.  One function draws each kind of face from its view:
//
//   cardFace(card)         a player's card: a sleeve with three slots and its advancements
//   advancementFace(label) an advancement on its own (the commons; bought, not yet sleeved)
//   valeFace(vale)         a vale card
//   leaderFaces(name)      a leader's two sides (each a card face) with its upgrade cost
//   cardBack()             the back of a card (decks)
//
// Everything else (commons, field, deck views, zoom, sleeve preview) reuses these.  Faces are
// built as markup once per look (a card's layers, a vale's name) and cloned afterwards.  Every
// face has a text alternative (role="img" + aria-label) read out by screen readers.

import { h, esc, svgFromMarkup } from "./dom.js";
import { t, list } from "./i18n.js";
import { layer, valeType, valeText, leaderType } from "./catalogue.js";
import { CARD_SYMBOLS, useMarkup, hasIcon } from "./icons.js";
import { faceLine } from "./facetext.js";

const W = 100, H = 140;
const SLOTS = ["top", "middle", "bottom"];
const BAND = { top: [3, 44], middle: [48, 44], bottom: [93, 44] };
const ROMAN = ["", "I", "II", "III"];
const cache = new Map();

// ------------------------------------------------------------------ layers and covering

/** The layers of a card after sleeving `label` (as the engine does: an eclipse advancement whose
 *  slot is taken slides under the others; anything else goes on top). */
export function sleevedLayers(labels, newLabel) {
  const nl = layer(newLabel);
  if (nl.type.eclipse && labels.some((l) => layer(l).slots.some((s) => nl.slots.includes(s)))) return [newLabel, ...labels];
  return [...labels, newLabel];
}

/** A legendary advancement (Twilight Garden, file 003): one advancement filling several slots.
 *  (Leader parts span slots too, but are no advancements: they get no legendary marker.) */
export function isLegendary(L) {
  return L.type.kind === "advancement" && (L.type.legendary ?? L.slots.length > 1);
}

function legendaryTitle(L) {
  return t("marker.legendary_title", { slots: L.slots.map((x) => t(`slot.${x}`)).join(" + ") });
}

/** Labels covered by a later layer sharing a slot. */
export function coveredOf(labels) {
  const out = [];
  labels.forEach((lab, i) => {
    const sl = layer(lab).slots;
    if (labels.slice(i + 1).some((o) => layer(o).slots.some((s) => sl.includes(s)))) out.push(lab);
  });
  return out;
}

/** Slots of a card no active layer fills. */
export function freeSlots(labels, covered) {
  const used = new Set();
  const cov = new Set(covered || coveredOf(labels));
  for (const lab of labels) if (!cov.has(lab)) layer(lab).slots.forEach((s) => used.add(s));
  return SLOTS.filter((s) => !used.has(s));
}

// ------------------------------------------------------------------ words (text alternatives)

function symbolWords(symbols) {
  return CARD_SYMBOLS.filter((k) => symbols[k]).map((k) => t(`symbol.count.${k}`, { n: symbols[k] }));
}

/** A text that names its own trigger ("Harvest: ...", "When Played (optional): ...") needs none added. */
const OWN_TRIGGER = /^\p{Lu}[\p{L}\d '’()-]{0,32}:/u;      // (any language: "Aufräumen: ...")

function abilityText(type) {
  const trig = (type.abilities || []).map((a) => a.trigger).filter((x, i, a) => a.indexOf(x) === i);
  const text = type.text || "";
  return { triggers: trig, text, named: OWN_TRIGGER.test(text) };
}

/** One layer in words: "Stag: 2 mana, 1 animal spirit, 1 decay".  */
export function layerWords(label) {
  const L = layer(label);
  const parts = symbolWords(L.type.symbols || {});
  if (L.type.end_vp) parts.push(t("symbol.count.end_vp", { n: L.type.end_vp }));
  if (L.type.neg_vp) parts.push(t("symbol.count.neg_vp", { n: L.type.neg_vp }));
  const ab = abilityText(L.type);
  const words = ab.named ? "" : ab.triggers.map((x) => t(`trigger.${x}`)).join(", ");
  const text = ab.text && (ab.triggers.length || L.type.kind === "advancement") ? `; ${words}${words ? ": " : ""}${ab.text}` : "";
  const name = isLegendary(L) ? t("card.legendary_name", { name: L.type.name }) : L.type.name;
  return `${name}${parts.length ? ` (${list(parts)})` : ""}${text}`;
}

/** A card in words, slot by slot. */
export function cardWords(card, labels = card.advancements || [], covered = card.covered) {
  if (card.unseen_leader) return t("card.unseen_leader");
  const cov = new Set(covered || coveredOf(labels));
  const bySlot = {};
  for (const lab of labels) {
    if (cov.has(lab)) continue;
    for (const sl of layer(lab).slots) bySlot[sl] = lab;
  }
  const seen = new Set();
  const parts = [];
  for (const sl of SLOTS) {
    const lab = bySlot[sl];
    if (!lab) parts.push(t("card.slot_empty", { slot: t(`slot.${sl}`) }));
    else if (!seen.has(lab)) {
      seen.add(lab);
      parts.push(t("card.slot_layer", { slot: layer(lab).slots.map((x) => t(`slot.${x}`)).join(" + "), layer: layerWords(lab) }));
    }
  }
  for (const lab of labels) if (cov.has(lab)) parts.push(t("card.covered_layer", { layer: layer(lab).type.name }));
  return t("card.aria", { layers: parts.join("; ") });
}

// ------------------------------------------------------------------ drawing pieces (markup)

function levelClass(type) {
  if (type.kind === "leader") return "lv-leader";
  if (type.kind === "starting") return type.name === "Cursed Land" ? "lv-cursed" : "lv-start";
  if (type.kind === "fertile_soil") return "lv-soil";
  return `lv-${type.level || 0}`;
}

function fitText(text, x, y, size, width, cls) {
  const est = text.length * size * 0.56;
  const squeeze = est > width ? ` textLength="${width}" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text class="${cls}" x="${x}" y="${y}" font-size="${size}"${squeeze}>${esc(text)}</text>`;
}

function marker(name, x, y, size, title) {
  return `<g class="marker marker-${name}"><title>${esc(title)}</title>${useMarkup(name, x, y, size)}</g>`;
}

/** The zoom's line for a card with values no rules document gives: which of them are estimates.
 *  (A stand-in says so in its own line; the face carries no mark of either: see README.) */
function estimatedLine(type) {
  const fields = (type.provisional || []).map((f) => t(`value.${f}`));
  return t("zoom.estimated", { fields: list(fields) });
}

/** How many markers markersMarkup draws for a type. */
function markerCount(type, L = null) {
  return (L && isLegendary(L) ? 1 : 0) + (type.eclipse ? 1 : 0) + (type.longwise ? 1 : 0);
}

function markersMarkup(type, x, y, size, L = null) {
  const out = [];
  const add = (name, title) => { out.push(marker(name, x + out.length * (size + 1), y, size, title)); };
  if (L && isLegendary(L)) add("legendary", legendaryTitle(L));
  if (type.eclipse) add("eclipse", t(type.kind === "leader" ? "marker.coverable_title" : "marker.eclipse_title"));
  if (type.longwise) add("longwise", t("marker.longwise_title"));
  return out.join("");
}

function symbolColumn(symbols, x, y, height) {
  const kinds = CARD_SYMBOLS.filter((k) => k !== "vp" && symbols[k]).concat(symbols.vp ? ["vp"] : []);
  if (!kinds.length) return { markup: "", width: 0 };
  const size = 11;
  const perCol = Math.max(1, Math.floor((height - 4) / (size + 1)));
  const cols = Math.ceil(kinds.length / perCol);
  let m = "";
  kinds.forEach((k, i) => {
    const cx = x + Math.floor(i / perCol) * (size + 1);
    const cy = y + 3 + (i % perCol) * (size + 1);
    m += `<g class="sym sym-${k}"><title>${esc(t(`symbol.count.${k}`, { n: symbols[k] }))}</title>${useMarkup(k, cx, cy, size)}`;
    if (symbols[k] > 1) m += `<circle cx="${cx + size - 1}" cy="${cy + size - 1}" r="3.4" class="count-bg"/><text x="${cx + size - 1}" y="${cy + size + 1.1}" class="count" font-size="5.2">${symbols[k]}</text>`;
    m += "</g>";
  });
  return { markup: m, width: cols * (size + 1) };
}

/** The pieces of a card's ability text on its face: its trigger icons (markup) and a short line.
 *  The face leads with the trigger's icon, which stands for its keyword (the keyword help says it
 *  on hover or tap, the zoom says it in words): a text that names its own trigger ("Harvest: gain
 *  1 mana ...") is drawn from after that name ("Gain 1 mana ..."), so that the few words a
 *  readable size leaves room for say what the ability does.  A trigger without an icon keeps its
 *  word. */
function abilityParts(type) {
  const { triggers, text, named } = abilityText(type);
  // A card's text is drawn where it has an ability; symbols alone speak for themselves.
  if (!text || !triggers.length) return null;
  const known = triggers.filter((x) => x !== "_");
  // data-help: the keyword help (js/help.js) explains each trigger on hover or tap.
  const icons = known.filter(hasIcon).map((x) => `<svg class="ti" data-help="${esc(x)}" viewBox="0 0 24 24" style="${TI_STYLE}"><use href="#i-${x}"/></svg>`).join("");
  const unnamed = named ? [] : known.filter((x) => !hasIcon(x));
  const words = unnamed.map((x) => `<span data-help="${esc(x)}">${esc(t(`trigger.${x}`))}</span>`).join(", ");
  let line = named && icons ? text.replace(OWN_TRIGGER, "").trim() : text;
  line = line.charAt(0).toUpperCase() + line.slice(1);
  return { head: `${icons}${words ? `<b>${words}:</b> ` : ""}`, text: line || text };
}

// ------------------------------------------------------------------ ability text that fits its box
//
// A card's text is set in a box of the face (a foreignObject, in card units: a card is 100 wide).
// It wraps round what is drawn in the box's corners (the VP shields, the cost, the markers: float
// spacers) and is set at a size one reads at the table (LAYER_TEXT, VALE_TEXT: issue 21 asks for
// 11 CSS px on a desktop and 10 on a phone at the default card size, and the card widths in
// style.css are chosen for it); it is never set smaller.  A text too long for its box is cut at a
// word with "…" on the face; the zoom and the text alternative always say it whole.  Sizes are measured once per text and box, in a hidden box laid
// out as the face's (the same font, set inline so that nothing else changes it).  The text is laid
// out ten times larger and scaled down: a browser places lines and glyphs on whole pixels of the
// layout, which at a 4-pixel font would space lines unevenly and clip letters in a zoom.

/** Ability text on a layer and on a vale, in card units (a face is 100 wide). */
export const LAYER_TEXT = 10;
export const VALE_TEXT = 12.5;
const K = 10;
// (a narrow face first: at a readable size a slot holds a few words, narrow ones are more words)
const FONT = `"DejaVu Sans Condensed", "Arial Narrow", "Liberation Sans Narrow", "DejaVu Sans", Arial, sans-serif`;
// (an icon no taller than a line, so that every line of a text is as high as the others)
const TI_STYLE = "width:1.05em;height:1.05em;vertical-align:-.18em;margin-right:.14em";
const fitCache = new Map();
let probe = null;

function probeBox() {
  if (!probe || !probe.isConnected) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("class", "fit-probe");
    svg.setAttribute("style", "position:absolute;left:-10000px;top:0;width:200px;height:200px;visibility:hidden;pointer-events:none;overflow:hidden");
    probe = document.createElementNS(ns, "foreignObject");
    probe.setAttribute("x", "0");
    probe.setAttribute("y", "0");
    svg.append(probe);
    document.body.append(svg);
  }
  return probe;
}

/** Spacers (floats) that keep a text box's corners free, each [width, height] in card units or
 *  null, for a box `height` high.  A float may not be placed above one that comes before it, so
 *  the spacers come in order of their tops: zero-width pushers down to where a bottom corner
 *  starts, then the bottom corners, the higher first. */
function spacers(height, { topRight = null, bottomRight = null, bottomLeft = null } = {}) {
  const sp = (side, w, hh, clear = false) => `<i style="float:${side};${clear ? `clear:${side};` : ""}width:${(w * K).toFixed(1)}px;height:${(Math.max(0, hh) * K).toFixed(1)}px"></i>`;
  const ht = topRight ? topRight[1] : 0;
  let m = "";
  if (bottomLeft) m += sp("left", 0, height - bottomLeft[1]);
  if (topRight) m += sp("right", topRight[0], ht);
  if (bottomRight) m += sp("right", 0, height - bottomRight[1] - ht, !!topRight);
  const bottoms = [];
  if (bottomRight) bottoms.push([height - bottomRight[1], sp("right", bottomRight[0], bottomRight[1], true)]);
  if (bottomLeft) bottoms.push([height - bottomLeft[1], sp("left", bottomLeft[0], bottomLeft[1], true)]);
  return m + bottoms.sort((x, y) => x[0] - y[0]).map((x) => x[1]).join("");
}

function abilityBox(size, w, hh, floats, head, text, probeEnd = false) {
  const end = probeEnd ? `<span class="ab-end" style="display:inline-block;width:0;height:1em;vertical-align:bottom"></span>` : "";
  // (a line's font box is a little taller than its line: the padding keeps the first one's in the box)
  const box = `width:${(w * K).toFixed(1)}px;height:${(hh * K).toFixed(1)}px;padding-top:${(0.3 * K).toFixed(1)}px;` +
    `transform:scale(${1 / K});transform-origin:0 0`;
  return `<div class="ab" xmlns="http://www.w3.org/1999/xhtml" style="${box};font:${(size * K).toFixed(1)}px/1.1 ${esc(FONT)}">${floats}${head}<span class="abt">${faceLine(text)}</span>${end}</div>`;
}

/** Whether the text ends inside a box `w` × `hh` when set at `size`. */
function fitsAt(size, w, hh, floats, head, text) {
  const fo = probeBox();
  fo.setAttribute("width", String(w));
  fo.setAttribute("height", String(hh));
  fo.innerHTML = abilityBox(size, w, hh, floats, head, text, true);
  const box = fo.firstElementChild.getBoundingClientRect();
  const end = fo.querySelector(".ab-end").getBoundingClientRect();
  return end.bottom - box.top <= hh + 0.05 && end.right - box.left <= w + 0.05;
}

/** The markup of an ability text in a box `w` × `hh` (card units), set to fit (see above). */
function fittedAbility(parts, w, hh, base, corners = {}) {
  const floats = spacers(hh, corners);
  const key = `${w.toFixed(2)}|${hh.toFixed(2)}|${base}|${floats}|${parts.head}|${parts.text}`;
  let m = fitCache.get(key);
  if (m !== undefined) return m;
  const fits = (text) => fitsAt(base, w, hh, floats, parts.head, text);
  let text = parts.text;
  if (!fits(text)) {
    const words = parts.text.split(/\s+/);
    let lo = 0, hi = words.length;        // lo words (with "…") fit, hi do not
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (fits(`${words.slice(0, mid).join(" ")}…`)) lo = mid; else hi = mid;
    }
    text = lo ? `${words.slice(0, lo).join(" ").replace(/[,;:.]$/, "")}…` : "…";
  }
  m = abilityBox(base, w, hh, floats, parts.head, text);
  if (fitCache.size > 2000) fitCache.clear();
  fitCache.set(key, m);
  return m;
}

/** A number in a 13-unit shield at (x, y): as large as fits its width (DejaVu Sans Bold: digits
 *  0.7 em, the minus sign 0.84 em), centred in the shield's broad upper part.  Its length is set
 *  too: at a few pixels a browser rounds the font up, and the number would stick out. */
function shieldNumber(text, x, y) {
  const em = [...text].reduce((sum, c) => sum + (c === "−" ? 0.84 : 0.7), 0);
  const size = Math.min(6.5, 6.8 / em);
  return `<text x="${x + 6.5}" y="${(y + 6.2 + size * 0.37).toFixed(2)}" class="vpnum" font-size="${size.toFixed(2)}" ` +
    `textLength="${(em * size).toFixed(2)}" lengthAdjust="spacingAndGlyphs" style="stroke-width:${(size * 0.17).toFixed(2)}px">${text}</text>`;
}

function vpBadge(type, x, y) {
  let m = "";
  if (type.end_vp) m += `<g class="endvp"><title>${esc(t("symbol.count.end_vp", { n: type.end_vp }))}</title>${useMarkup("vp", x, y, 13)}${shieldNumber(String(type.end_vp), x, y)}</g>`;
  if (type.neg_vp) {
    const yy = y + (type.end_vp ? 14 : 0);
    m += `<g class="negvp"><title>${esc(t("symbol.count.neg_vp", { n: type.neg_vp }))}</title>${useMarkup("curse", x, yy, 13)}${shieldNumber(`−${type.neg_vp}`, x, yy)}</g>`;
  }
  return m;
}

/** The cost disc's radius on an advancement on its own (the commons) and sleeved, and its
 *  distance from the band's foot: the second line of a text beside it stays whole. */
const COST_BIG = 5.6;
const COST_SMALL = 4.6;
const COST_FOOT = 0.9;
/** Where a layer's text box starts under the band's top (below the name) and ends above its foot. */
const TEXT_TOP = 9.4;
const TEXT_FOOT = 0.8;

function bandOf(slots) {
  const ys = slots.map((s) => BAND[s]);
  if (!ys.length) return [3, 134];
  const top = Math.min(...ys.map((b) => b[0]));
  const bottom = Math.max(...ys.map((b) => b[0] + b[1]));
  return [top, bottom - top];
}

/** Markup of one advancement layer in its slot(s). */
function layerMarkup(label, { ghost = false, costBig = false, coveredNames = [] } = {}) {
  const L = layer(label);
  const ty = L.type;
  const [y, hgt] = bandOf(L.slots);
  const sym = symbolColumn(ty.symbols || {}, 5.5, y, hgt);
  const tx = 6 + sym.width + 1.5;
  const right = 82;
  const legendary = isLegendary(L);
  let m = `<g class="layer ${levelClass(ty)}${ghost ? " ghost" : ""}${legendary ? " legendary" : ""}" data-label="${esc(label)}">`;
  m += `<rect class="band" x="3" y="${y}" width="94" height="${hgt}" rx="4"/>`;
  if (legendary) {
    const size = Math.max(12, Math.min(34, hgt - 44));
    m += `<rect class="legendary-frame" x="4.8" y="${y + 1.8}" width="90.4" height="${hgt - 3.6}" rx="3"/>`;
    m += `<g class="legendary-emblem" aria-hidden="true">${useMarkup("legendary", 50 - size / 2, y + 16 + (hgt - 30 - size) / 2, size)}</g>`;
  }
  if (ty.longwise) m += `<rect class="longwise-edge" x="92" y="${y + 2}" width="3" height="${hgt - 4}" rx="1.5"/>`;
  m += sym.markup;
  // (the name high in its band: the text's first line comes right under it)
  m += fitText(ty.name, tx, y + 7.7, 7, right - tx, "lname");
  const parts = abilityParts(ty);
  if (parts) {
    // The text box runs from under the name to the band's foot, beside the symbols; its corners
    // keep clear of the level and the VP shields (top right), the cost and covered markers
    // (bottom right) and the markers (bottom left).  Its height holds three lines at LAYER_TEXT,
    // the second beside the cost disc.
    const top = y + TEXT_TOP;
    const w = 93 - tx;
    const hh = hgt - TEXT_TOP - TEXT_FOOT;
    const foot = top + hh;
    const clear = (yTop) => foot - yTop + 0.3;            // a float's height that keeps above yTop free
    const shields = (ty.end_vp ? 1 : 0) + (ty.neg_vp ? 1 : 0);
    const topRight = shields ? [93 - 82, y + 11 + 13 + (shields - 1) * 14 + 0.6 - top]
      : ty.level && ty.kind === "advancement" ? [93 - 86.6, 0.6] : null;
    const r = costBig ? COST_BIG : COST_SMALL;
    const costW = ty.kind === "advancement" || ty.kind === "fertile_soil" ? 2 * r + 1.7 : 0;
    const coveredW = coveredNames.length ? 93 - (70 - (coveredNames.length - 1) * 9) + 0.8 : 0;
    const bottomRight = costW || coveredW ? [Math.max(costW, coveredW),
      Math.max(costW ? clear(y + hgt - COST_FOOT - 2 * r) : 0, coveredW ? clear(y + hgt - 10) : 0)] : null;
    const nMarkers = markerCount(ty, L);
    const bottomLeft = nMarkers ? [nMarkers * 9 + 0.5, clear(y + hgt - 10)] : null;
    const box = fittedAbility(parts, w, hh, LAYER_TEXT, { topRight, bottomRight, bottomLeft });
    m += `<foreignObject x="${tx}" y="${top}" width="${w}" height="${hh}">${box}</foreignObject>`;
  }
  if (ty.level && ty.kind === "advancement") m += `<text class="lvl" x="89.5" y="${y + 7.4}" font-size="5.5">${ROMAN[ty.level] || ty.level}</text>`;
  m += vpBadge(ty, 82.5, y + 11);
  if (ty.kind === "advancement" || ty.kind === "fertile_soil") {
    const r = costBig ? COST_BIG : COST_SMALL;
    const cx = 96 - r - 1.5, cy = y + hgt - COST_FOOT - r;
    const size = costBig ? 8 : 6;
    m += `<g class="cost"><title>${esc(t("card.cost", { n: ty.cost }))}</title><circle cx="${cx}" cy="${cy}" r="${r}"/>` +
      `<text x="${cx}" y="${(cy + size * 0.36).toFixed(2)}" font-size="${size}">${ty.cost}</text></g>`;
  }
  m += markersMarkup(ty, tx, y + hgt - 10, 8, L);
  coveredNames.forEach((nm, i) => {
    m += marker("covered", 70 - i * 9, y + hgt - 10, 8, t("marker.covered_title", { name: nm }));
  });
  if (ghost) m += `<rect class="ghost-outline" x="3" y="${y}" width="94" height="${hgt}" rx="4"/>`;
  return m + "</g>";
}

function svgOpen(cls, label) {
  return `<svg class="face-svg ${cls}" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>`;
}

function cardMarkup(labels, covered, ghostLabel, aria) {
  const cov = new Set(covered);
  const active = labels.filter((l) => !cov.has(l));
  const filled = new Set();
  active.forEach((l) => layer(l).slots.forEach((s) => filled.add(s)));
  let m = svgOpen("card-svg", aria) + `<rect class="sleeve" x="1" y="1" width="98" height="138" rx="6"/>`;
  for (const sl of SLOTS) {
    if (!filled.has(sl)) m += `<rect class="slot-empty" x="3" y="${BAND[sl][0]}" width="94" height="${BAND[sl][1]}" rx="4"/>`;
  }
  for (const lab of active) {
    const under = labels.filter((c) => cov.has(c) && layer(c).slots.some((s) => layer(lab).slots.includes(s)));
    m += layerMarkup(lab, { ghost: lab === ghostLabel, coveredNames: under.map((c) => layer(c).type.name) });
  }
  return m + "</svg>";
}

function faceFromCache(key, build) {
  let svg = cache.get(key);
  if (!svg) {
    svg = svgFromMarkup(build());
    if (cache.size > 3000) cache.clear();
    cache.set(key, svg);
  }
  return svg.cloneNode(true);
}

// ------------------------------------------------------------------ faces

/** A player's card.  opts: {preview: label to show sleeved (a sleeve preview), flip: animation key,
 *  cls: extra classes}. */
export function cardFace(card, opts = {}) {
  if (card.unseen_leader) return unseenLeaderFace(card, opts);
  let labels = card.advancements || [];
  let covered = card.covered || [];
  if (opts.preview) {
    labels = sleevedLayers(labels, opts.preview);
    covered = coveredOf(labels);
  }
  const aria = cardWords(card, labels, covered);
  const key = `c|${labels.join(",")}|${covered.join(",")}|${opts.preview || ""}`;
  const svg = faceFromCache(key, () => cardMarkup(labels, covered, opts.preview || null, aria));
  return h("div", { class: `face card-face ${opts.cls || ""}`.trim(), dataset: { card: card.id, flip: opts.flip === false ? null : `c${card.id}` } }, svg);
}

/** Another player's leader that has never been face up: which leader it is stays hidden. */
function unseenLeaderFace(card, opts) {
  const aria = t("card.unseen_leader");
  const svg = faceFromCache("unseen-leader", () => svgOpen("card-svg", aria) +
    `<rect class="sleeve" x="1" y="1" width="98" height="138" rx="6"/>` +
    `<rect class="unseen-leader" x="3" y="3" width="94" height="134" rx="4"/>` +
    useMarkup("leader", 34, 46, 32) + `<text class="unseen-q" x="50" y="100" font-size="16">?</text></svg>`);
  return h("div", { class: `face card-face ${opts.cls || ""}`.trim(), dataset: { card: card.id, flip: opts.flip === false ? null : `c${card.id}` } }, svg);
}

/** An advancement on its own, as in the commons (the clear plastic with its print in its slot). */
export function advancementFace(label, opts = {}) {
  const L = layer(label);
  const aria = t("card.advancement_aria", { layer: layerWords(label), slot: L.slots.map((x) => t(`slot.${x}`)).join(" + "), cost: L.type.cost });
  const key = `a|${label}`;
  const svg = faceFromCache(key, () => {
    let m = svgOpen("adv-svg", aria) + `<rect class="plastic" x="1" y="1" width="98" height="138" rx="6"/>`;
    for (const sl of SLOTS) if (!L.slots.includes(sl)) m += `<rect class="slot-clear" x="3" y="${BAND[sl][0]}" width="94" height="${BAND[sl][1]}" rx="4"/>`;
    return m + layerMarkup(label, { costBig: true }) + "</svg>";
  });
  return h("div", { class: `face adv-face ${opts.cls || ""}`.trim(), dataset: { label, flip: opts.flip === false ? null : `a:${label}` } }, svg);
}

function valeMarkup(v, aria) {
  const ty = valeType(v.name) || { abilities: [], provisional: [], stand_in: false };
  const lv = v.level === 2 ? 2 : 1;
  let m = svgOpen(`vale-svg vl-${lv}`, aria);
  m += `<rect class="vale-bg" x="1" y="1" width="98" height="138" rx="6"/>`;
  m += `<path class="vale-land" d="M3 34 C 20 18, 35 30, 50 22 S 80 12, 97 26 V 4 Q97 3 96 3 H4 Q3 3 3 4 Z"/>`;
  m += `<path class="vale-hill" d="M3 34 C 20 18, 35 30, 50 22 S 80 12, 97 26 V 40 H3 Z"/>`;
  const cost = [];
  for (const k of ["animal", "forest", "sky", "any"]) for (let i = 0; i < (v.cost?.[k] || 0); i++) cost.push(k);
  cost.forEach((k, i) => { m += `<g class="vcost"><title>${esc(t(`symbol.${k}`))}</title>${useMarkup(k, 4 + i * 11.5, 4, 11)}</g>`; });
  m += `<text class="lvl" x="89.5" y="37" font-size="5.5">${ROMAN[lv]}</text>`;
  m += vpBadge({ end_vp: v.end_vp, neg_vp: v.neg_vp }, 82, 4);
  m += fitText(v.name, 50, 49, 7.4, 88, "vname");
  // A vale's text is its ability (a stand-in vale has none; its zoom says what it is).
  const abilities = (ty.abilities || []).length ? ty.abilities : ty.stand_in ? [] : [{ trigger: "_" }];
  const parts = abilityParts({ abilities, text: valeText(v) });
  if (parts) m += `<foreignObject x="5" y="53" width="90" height="72">${fittedAbility(parts, 90, 72, VALE_TEXT)}</foreignObject>`;
  return m + "</svg>";
}

/** A vale in words: name, level, cost, VP and its text (a vale without text ends at its VP). */
function valeWords(v) {
  const cost = ["animal", "forest", "sky", "any"].filter((k) => v.cost?.[k]).map((k) => t(`symbol.count.${k}`, { n: v.cost[k] }));
  return t("card.vale_aria", { name: v.name, level: v.level, cost: cost.length ? list(cost) : t("card.free"),
    vp: v.end_vp || 0, text: valeText(v) }).replace(/[:：]\s*$/, "");
}

/** A vale card.  opts: {used, isNew, flip, cls}. */
export function valeFace(v, opts = {}) {
  const aria = valeWords(v);
  const svg = faceFromCache(`v|${v.name}`, () => valeMarkup(v, aria));
  const cls = ["face", "vale-face", opts.used ? "used" : "", opts.isNew ? "new" : "", opts.cls || ""].filter(Boolean).join(" ");
  return h("div", { class: cls, dataset: { vale: v.id, flip: opts.flip === false || v.id === undefined ? null : `v${v.id}` } },
    svg, opts.used ? h("span", { class: "used-cross", title: t("marker.used_title") }) : null);
}

/** A leader's two sides with name, title and upgrade cost (for the choice and the zoom). */
export function leaderFaces(name) {
  const ld = leaderType(name);
  if (!ld) return h("div", { class: "leader-faces" }, name);
  const side = (labels, key) => h("figure", { class: "leader-side" },
    cardFace({ id: `${ld.slug}-${key}`, advancements: labels, covered: [] }, { flip: false, cls: "leader-card" }),
    h("figcaption", {}, t(`leader.${key}`)));
  return h("div", { class: "leader-faces", dataset: { leader: ld.slug } },
    h("div", { class: "leader-head" }, h("strong", {}, ld.name), ld.title ? h("span", { class: "muted" }, ` — ${ld.title}`) : null,
      h("span", { class: "upgrade-cost", title: ld.provisional.length ? t("leader.upgrade_estimated") : null },
        t("leader.upgrade_cost", { n: ld.upgrade_cost }))),
    h("div", { class: "leader-sides" }, side(ld.start, "start"), side(ld.upgraded, "upgraded")),
    ld.stand_in ? h("p", { class: "muted small" }, t("leader.stand_in")) : null);
}

/** The back of a card (a deck), with an optional count. */
export function cardBack(count, opts = {}) {
  const svg = faceFromCache("back", () => `<svg class="face-svg back-svg" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <defs><pattern id="mv-back" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
    <rect width="10" height="10" fill="#3c5a46"/><rect width="5" height="10" fill="#35503e"/></pattern></defs>
    <rect x="1" y="1" width="98" height="138" rx="6" fill="url(#mv-back)" stroke="#1c2b21"/>
    <rect x="9" y="9" width="82" height="122" rx="4" fill="none" stroke="#c9dcb0" stroke-width="1.2"/>
    <path d="M50 45 64 70 50 95 36 70Z" fill="#c9dcb0"/></svg>`);
  return h("div", { class: `face back-face ${opts.cls || ""}`.trim() }, svg,
    count === undefined || count === null ? null : h("span", { class: "pile-count" }, String(count)));
}

/** Text lines for the zoom: every layer's name, trigger and text, covered layers, what each
 *  marker on the card means, and (a "note" row, in plain words) whether it is a stand-in or has
 *  estimated values. */
export function faceDetails({ card = null, label = null, vale = null }) {
  const rows = [];
  const explainType = (ty) => {
    if (ty.stand_in) rows.push(["note", t("zoom.stand_in")]);
    else if ((ty.provisional || []).length) rows.push(["note", estimatedLine(ty)]);
    if (ty.eclipse) rows.push(["eclipse", t(ty.kind === "leader" ? "marker.coverable_title" : "marker.eclipse_title")]);
    if (ty.longwise) rows.push(["longwise", t("marker.longwise_title")]);
  };
  const layerRow = (lab, covered = false) => {
    const L = layer(lab);
    const ty = L.type;
    const slot = L.slots.map((x) => t(`slot.${x}`)).join(" + ");
    const head = ty.kind === "advancement" ? t("zoom.head", { name: ty.name, level: ROMAN[ty.level] || ty.level, cost: ty.cost, slot })
      : ty.kind === "fertile_soil" ? t("zoom.head_soil", { name: ty.name, cost: ty.cost, slot }) : t("zoom.head_plain", { name: ty.name, slot });
    const sym = symbolWords(ty.symbols || {});
    if (ty.end_vp) sym.push(t("symbol.count.end_vp", { n: ty.end_vp }));
    if (ty.neg_vp) sym.push(t("symbol.count.neg_vp", { n: ty.neg_vp }));
    const ab = abilityText(ty);
    const words = ab.named ? "" : ab.triggers.map((x) => t(`trigger.${x}`)).join(", ");
    const text = ab.text && (ab.triggers.length || ty.kind === "advancement") ? `${words}${words ? ": " : ""}${ab.text}` : "";
    rows.push([covered ? "covered" : null, [covered ? t("zoom.covered") : "", head, sym.length ? t("zoom.shows", { what: list(sym) }) : "", text]
      .filter(Boolean).join(" · ")]);
    if (isLegendary(L)) rows.push(["legendary", legendaryTitle(L)]);
    explainType(ty);
  };
  if (card && card.unseen_leader) {
    rows.push(["leader", t("card.unseen_leader")]);
  } else if (card) {
    const cov = new Set(card.covered || []);
    for (const lab of card.advancements || []) layerRow(lab, cov.has(lab));
    if (!(card.advancements || []).length) rows.push([null, t("card.blank")]);
  } else if (label) {
    layerRow(label);
  } else if (vale) {
    const ty = valeType(vale.name) || {};
    rows.push([null, valeWords(vale)]);
    explainType({ stand_in: ty.stand_in, provisional: ty.provisional });
  }
  return rows;
}
