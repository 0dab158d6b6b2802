// The game's symbols, drawn by the project as SVG.  Each icon is a <symbol id="i-NAME"> in one
// sprite added to the page once; cards and panels draw it with <use href="#i-NAME">.
//
// LEGEND lists the icons with the message keys that name and explain them (the legend dialog).

import { s } from "./dom.js";

const C = {
  mana: "#2f64b3", growth: "#3b8a3e", decay: "#5e2b7e", vp: "#c9a227", curse: "#8a1c1c",
  guardian: "#5f7282", animal: "#c2621f", forest: "#2f7a3a", sky: "#2b8fc7", any: "#8d8777",
};

// Each entry: icon name -> SVG markup inside a 24x24 viewBox.
const SHAPES = {
  mana: `<path d="M12 1.5 21 9 12 22.5 3 9Z" fill="${C.mana}" stroke="#163a70" stroke-width="1"/>
         <path d="M12 1.5 8 9h8ZM3 9h18" fill="#7fa8e6" stroke="#163a70" stroke-width=".7"/>
         <path d="M8 9l4 13.5L16 9" fill="none" stroke="#163a70" stroke-width=".7"/>`,
  growth: `<path d="M12 22C4 17 3.5 8 12 2c8.5 6 8 15 0 20Z" fill="${C.growth}" stroke="#1d5120" stroke-width="1"/>
           <path d="M12 21V6M12 11l-4-3M12 15l4-3.5" stroke="#d8f0c8" stroke-width="1.2" fill="none" stroke-linecap="round"/>`,
  decay: `<path d="M12 1.5l2.2 5 5.3-1.7-1.7 5.3 5 2.2-5 2.2 1.7 5.3-5.3-1.7-2.2 5-2.2-5-5.3 1.7 1.7-5.3-5-2.2 5-2.2L4.5 4.8l5.3 1.7Z"
           fill="${C.decay}" stroke="#2c0f40" stroke-width=".8"/>
          <circle cx="12" cy="12" r="3.6" fill="#c9a3e0"/><circle cx="12" cy="12" r="1.6" fill="${C.decay}"/>`,
  vp: `<path d="M12 1.5 20.5 4.5v6.5c0 5.8-3.8 9.4-8.5 11.5C7.3 20.4 3.5 16.8 3.5 11V4.5Z" fill="${C.vp}" stroke="#6e5408" stroke-width="1"/>
       <path d="M12 6.2l1.6 3.4 3.7.4-2.8 2.5.8 3.6L12 14.3l-3.3 1.8.8-3.6L6.7 10l3.7-.4Z" fill="#fff6cc"/>`,
  curse: `<path d="M12 1.5 20.5 4.5v6.5c0 5.8-3.8 9.4-8.5 11.5C7.3 20.4 3.5 16.8 3.5 11V4.5Z" fill="${C.curse}" stroke="#3d0707" stroke-width="1"/>
          <path d="M12 5l-1.5 4.5 2.5 2-2.5 3 1.5 4" stroke="#ffd3c9" stroke-width="1.6" fill="none" stroke-linejoin="round"/>`,
  guardian: `<path d="M12 1.5 20.5 4.5v6.5c0 5.8-3.8 9.4-8.5 11.5C7.3 20.4 3.5 16.8 3.5 11V4.5Z" fill="${C.guardian}" stroke="#28343d" stroke-width="1"/>
             <path d="M12 4.5v15M7 9.5h10" stroke="#e6edf2" stroke-width="2" stroke-linecap="round"/>`,
  animal: `<circle cx="12" cy="12" r="11" fill="${C.animal}"/>
           <g fill="#fff3e6"><ellipse cx="12" cy="15.5" rx="4.6" ry="3.8"/><ellipse cx="6.6" cy="10.6" rx="1.9" ry="2.4"/>
           <ellipse cx="10" cy="7.2" rx="1.9" ry="2.5"/><ellipse cx="14" cy="7.2" rx="1.9" ry="2.5"/><ellipse cx="17.4" cy="10.6" rx="1.9" ry="2.4"/></g>`,
  forest: `<circle cx="12" cy="12" r="11" fill="${C.forest}"/>
           <path d="M12 3.5 17.5 11h-3l4 5.5h-13l4-5.5h-3Z" fill="#e3f5da"/><rect x="10.8" y="16.5" width="2.4" height="4" fill="#e3f5da"/>`,
  sky: `<circle cx="12" cy="12" r="11" fill="${C.sky}"/>
        <path d="M4.5 15c3-1 5-4 6-8 .3 3 1.5 4.7 3.5 5.3-.2-2 .5-3.7 2-5-0 3.5 1.5 6 3.5 7.7-4 1.8-10 2.3-15 0Z" fill="#eaf6ff"/>`,
  wild: `<circle cx="12" cy="12" r="11" fill="#fff"/>
         <path d="M12 12 12 1A11 11 0 0 1 21.5 17.5Z" fill="${C.animal}"/>
         <path d="M12 12 21.5 17.5A11 11 0 0 1 2.5 17.5Z" fill="${C.forest}"/>
         <path d="M12 12 2.5 17.5A11 11 0 0 1 12 1Z" fill="${C.sky}"/>
         <circle cx="12" cy="12" r="4.2" fill="#fff"/><path d="M12 9.3l.9 1.8 2 .3-1.5 1.4.4 2L12 13.9l-1.8.9.4-2-1.5-1.4 2-.3Z" fill="#6b5a16"/>`,
  any: `<circle cx="12" cy="12" r="11" fill="${C.any}"/>
        <path d="M9 9.2a3 3 0 1 1 4.3 2.7c-.9.5-1.3 1-1.3 2.1v.5" stroke="#fff" stroke-width="2.2" fill="none" stroke-linecap="round"/>
        <circle cx="12" cy="18" r="1.3" fill="#fff"/>`,
  // ability triggers
  when_played: `<circle cx="12" cy="12" r="11" fill="#3b4a55"/><path d="M9.5 6.5 17 12l-7.5 5.5Z" fill="#fff"/>`,
  harvest: `<circle cx="12" cy="12" r="11" fill="#8a6a1c"/><path d="M6 15c1 3.5 10.5 3.5 12 0Z" fill="#fff3cf"/>
            <path d="M8.5 14.5c-.5-4 1-7 3.5-8.5M12 14.5V6M15.5 14.5c.5-4-1-7-3.5-8.5" stroke="#fff3cf" stroke-width="1.5" fill="none" stroke-linecap="round"/>`,
  ongoing: `<circle cx="12" cy="12" r="11" fill="#2f5f6f"/>
            <path d="M12 12c-2-2.8-6.5-2.8-6.5 0s4.5 2.8 6.5 0 6.5-2.8 6.5 0-4.5 2.8-6.5 0Z" stroke="#fff" stroke-width="1.8" fill="none"/>`,
  discard: `<circle cx="12" cy="12" r="11" fill="#6a4a2a"/><path d="M12 4.5v8.5M8.5 9.5 12 13l3.5-3.5" stroke="#fff" stroke-width="1.8" fill="none" stroke-linecap="round"/>
            <path d="M6 15.5h12v3H6Z" fill="#fff"/>`,
  when_bought: `<circle cx="12" cy="12" r="11" fill="#1f6e5c"/><circle cx="12" cy="12" r="6" fill="none" stroke="#fff" stroke-width="1.6"/>
                <path d="M12 9v6M9 12h6" stroke="#fff" stroke-width="1.6"/>`,
  end_game: `<circle cx="12" cy="12" r="11" fill="#6e5408"/><path d="M8 19V5M8 5.5h8.5l-2 3 2 3H8" stroke="#fff" stroke-width="1.6" fill="#fff3c4" stroke-linejoin="round"/>`,
  spoil_guard: `<circle cx="12" cy="12" r="11" fill="#44506a"/><path d="M12 4.5 17.5 6.5v4c0 3.8-2.4 6-5.5 7.5-3.1-1.5-5.5-3.7-5.5-7.5v-4Z" fill="#fff"/>
                <path d="M9.3 11.2l2 2 3.6-3.8" stroke="#44506a" stroke-width="1.6" fill="none"/>`,
  buy_discount: `<circle cx="12" cy="12" r="11" fill="#2f64b3"/><path d="M5.5 12.5 12 6h6v6l-6.5 6.5Z" fill="#fff"/><circle cx="15.3" cy="8.8" r="1.3" fill="#2f64b3"/>`,
  on_spoil: `<circle cx="12" cy="12" r="11" fill="${C.decay}"/><path d="M7 17 17 7M7 7l10 10" stroke="#fff" stroke-width="2" stroke-linecap="round"/>`,
  opponent_spoil: `<circle cx="12" cy="12" r="11" fill="#5b4a6e"/><ellipse cx="12" cy="12" rx="7" ry="4.3" fill="#fff"/><circle cx="12" cy="12" r="2.4" fill="#5b4a6e"/>`,
  // markers
  eclipse: `<circle cx="12" cy="12" r="10.5" fill="#f4e7b0" stroke="#2b2540" stroke-width="1"/><circle cx="15.5" cy="9.5" r="8.5" fill="#2b2540"/>`,
  longwise: `<rect x="7" y="1.5" width="10" height="21" rx="3" fill="#2f5f6f"/><path d="M12 4.5v15M9 7.5l3-3 3 3M9 16.5l3 3 3-3" stroke="#fff" stroke-width="1.6" fill="none" stroke-linecap="round"/>`,
  // a legendary advancement: one tablet over two slots (the ticks mark the slot line it spans)
  legendary: `<rect x="3.5" y="1.5" width="17" height="21" rx="3" fill="#f6e7a8" stroke="#8a6412" stroke-width="1.4"/>
              <path d="M3.5 12h3M17.5 12h3" stroke="#8a6412" stroke-width="1.4"/>
              <path d="M12 5.3l1.9 4 4.3.5-3.2 2.9.9 4.3L12 14.8 8.1 17l.9-4.3-3.2-2.9 4.3-.5Z" fill="#6e4391"/>`,
  covered: `<rect x="3" y="6" width="18" height="13" rx="2" fill="#9a93a8"/><rect x="5" y="3" width="18" height="13" rx="2" fill="#d9d3e6" stroke="#5a5268"/>`,
  leader: `<circle cx="12" cy="12" r="11" fill="#b58a12"/><path d="M5 16.5 6.5 8l3.5 3.5L12 6l2 5.5L17.5 8 19 16.5Z" fill="#fff6cc"/>`,
  token_up: `<circle cx="12" cy="12" r="11" fill="${C.mana}" stroke="#163a70"/><path d="M12 5.5 17 10 12 18.5 7 10Z" fill="#cfe0fa"/>`,
  token_down: `<circle cx="12" cy="12" r="11" fill="#b9b4a8" stroke="#6d6a60"/><circle cx="12" cy="12" r="6" fill="none" stroke="#6d6a60" stroke-width="1.5"/>`,
  // a bot's seat: a robot's head, drawn by the table and never part of a name (issue 22)
  bot: `<rect x="3.5" y="7" width="17" height="13" rx="3.5" fill="#3d4f63" stroke="#1c2733"/>
        <path d="M12 7V3.5" stroke="#1c2733" stroke-width="1.6"/><circle cx="12" cy="3" r="1.8" fill="#e0a800" stroke="#1c2733" stroke-width=".8"/>
        <circle cx="8.6" cy="12.5" r="2.1" fill="#9fe3ff"/><circle cx="15.4" cy="12.5" r="2.1" fill="#9fe3ff"/>
        <path d="M8.5 16.8h7" stroke="#9fe3ff" stroke-width="1.5" stroke-linecap="round"/>
        <path d="M3.5 12H1.8M20.5 12h1.7" stroke="#1c2733" stroke-width="1.6"/>`,
  star: `<path d="M12 1.8l3 6.4 7 .8-5.2 4.8 1.4 7L12 17.3l-6.2 3.5 1.4-7L2 9l7-.8Z" fill="#e0a800" stroke="#7a5c00" stroke-width=".8"/>`,
  deck: `<rect x="5" y="2" width="14" height="19" rx="2" fill="#35503e" stroke="#1c2b21"/><rect x="3" y="4" width="14" height="19" rx="2" fill="#3c5a46" stroke="#1c2b21"/>
         <path d="M10 8.5l2.5 4.5L10 17.5 7.5 13Z" fill="#c9dcb0"/>`,
  gear: `<path d="M10.3 2h3.4l.5 2.6 1.9.8 2.2-1.5 2.4 2.4-1.5 2.2.8 1.9 2.6.5v3.4l-2.6.5-.8 1.9 1.5 2.2-2.4 2.4-2.2-1.5-1.9.8-.5 2.6h-3.4l-.5-2.6-1.9-.8-2.2 1.5-2.4-2.4 1.5-2.2-.8-1.9L1.6 13.7v-3.4l2.6-.5.8-1.9-1.5-2.2 2.4-2.4 2.2 1.5 1.9-.8Z" fill="currentColor"/><circle cx="12" cy="12" r="3.6" fill="#26352b"/>`,
  info: `<circle cx="12" cy="12" r="10.5" fill="currentColor"/><circle cx="12" cy="7" r="1.6" fill="#26352b"/><path d="M12 10.5v7" stroke="#26352b" stroke-width="2.6" stroke-linecap="round"/>`,
  used: `<path d="M5 5l14 14M19 5 5 19" stroke="#c0392b" stroke-width="3.2" stroke-linecap="round"/>`,
  new: `<circle cx="12" cy="12" r="7" fill="#e67e22"/>`,
};

/** Names of the spirit symbols, in the catalogue's order. */
export const SPIRITS = ["animal", "forest", "sky", "wild"];
/** Symbols shown on a card's left column, in drawing order. */
export const CARD_SYMBOLS = ["mana", "animal", "forest", "sky", "wild", "growth", "decay", "guardian", "curse", "vp"];
export const TRIGGERS = ["when_played", "harvest", "ongoing", "discard", "when_bought", "end_game", "spoil_guard",
  "buy_discount", "on_spoil", "opponent_spoil"];

/** The legend: [icon, message key of its name, message key of its meaning].  A trigger is
 *  explained in the words of the keyword help on the cards (js/help.js). */
export const LEGEND = [
  ...["mana", "growth", "decay", "vp", "curse", "guardian", "animal", "forest", "sky", "wild", "any"]
    .map((k) => [k, `symbol.${k}`, `legend.${k}`]),
  ...TRIGGERS.map((k) => [k, `trigger.${k}`, `help.keyword.${k}`]),
  ...["legendary", "eclipse", "longwise", "covered", "leader", "token_up", "token_down", "star", "bot", "used"]
    .map((k) => [k, `marker.${k}`, `legend.${k}`]),
];

export const COLORS = C;

/** Add the sprite to the page (once). */
export function installIcons() {
  if (document.getElementById("mv-icons")) return;
  const symbols = Object.entries(SHAPES).map(([k, body]) => `<symbol id="i-${k}" viewBox="0 0 24 24">${body}</symbol>`).join("");
  const holder = document.createElement("div");
  holder.innerHTML = `<svg id="mv-icons" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" style="position:absolute;width:0;height:0;overflow:hidden">${symbols}</svg>`;
  document.body.prepend(holder.firstElementChild);
}

/** An inline icon element (decorative unless `label` is given). */
export function icon(name, { size = "1.1em", label = null, cls = "" } = {}) {
  const el = s("svg", { class: `icon icon-${name} ${cls}`.trim(), width: size, height: size, viewBox: "0 0 24 24",
    role: label ? "img" : null, "aria-label": label, "aria-hidden": label ? null : "true", focusable: "false" },
  s("use", { href: `#i-${name}` }));
  if (label) el.prepend(s("title", {}, label));
  return el;
}

/** Markup of an icon placed inside another SVG (card faces are built as strings). */
export function useMarkup(name, x, y, size) {
  return `<use href="#i-${name}" x="${x}" y="${y}" width="${size}" height="${size}"/>`;
}

export function hasIcon(name) { return Object.prototype.hasOwnProperty.call(SHAPES, name); }
