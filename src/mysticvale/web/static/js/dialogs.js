// Dialogs over the table: a chooser for a widget with several actions, settings, deck / discard /
// vale views, the legend of the symbols.  (The end screen is endscreen.js.)

import { h } from "./dom.js";
import { t, playerName } from "./i18n.js";
import { icon, LEGEND } from "./icons.js";
import { cardFace, valeFace, advancementFace } from "./cards.js";
import { zoomable } from "./zoom.js";
import { describe, visibleCards } from "./actions.js";
import { settings, setSettings, setLanguage, LANGUAGES, browserLanguage, CARD_SIZES } from "./settings.js";
import { personKey, patchSettings } from "./people.js";
import { valeUsed } from "./players.js";

/** A dialog frame: title, close button, content; closes on a click outside or Escape. */
export function dialog(id, title, onClose, ...content) {
  return h("div", { class: "overlay", id, onclick: (ev) => { if (ev.target === ev.currentTarget) onClose(); } },
    h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
      h("div", { class: "dialog-head" }, h("h2", {}, title),
        h("button", { type: "button", class: "small close", onclick: onClose }, t("dialog.close"))),
      ...content));
}

/** Several actions on one widget: each as a button, with a preview of the advancement if given. */
export function chooserDialog(o, chooser, send, close) {
  const cards = visibleCards(o);
  // A buy declared onto a card (a discount) shows that card with the advancement in its slot.
  const preview = (a) => {
    const m = a.match(/^buy \S+ on #(\d+)$/);
    const c = m && chooser.preview ? cards.get(Number(m[1])) : null;
    return c ? cardFace(c, { preview: chooser.preview, flip: false, cls: "choice-preview" }) : null;
  };
  return dialog("chooser", chooser.title, close,
    chooser.preview ? h("div", { class: "chooser-preview" }, advancementFace(chooser.preview, { flip: false })) : null,
    h("div", { class: "choices" }, chooser.actions.map((a) => h("button", { type: "button", class: "act", dataset: { action: a },
      onclick: () => { close(); send(a); } }, preview(a), h("span", {}, describe(o, a))))));
}

/** The language choice: Automatic (the browser's language, named) or one of the languages, each
 *  by its own name ("Deutsch", "English"), so that a reader finds theirs whatever is shown now.
 *  Choosing one reloads the page in that language (settings.js setLanguage); a person's choice is
 *  kept on the server too (their other devices and their e-mails follow it).  Exported for any
 *  page that offers the choice outside the table's settings (the lobby's profile panel). */
export function languageField() {
  const opt = (value, label) => h("option", { value, selected: (settings.language || "") === value }, label);
  return h("div", { class: "setting-language" },
    h("label", {}, t("settings.language"), " ",
      h("select", { id: "set-language", onchange: (ev) => setLanguage(ev.target.value, rememberLanguage) },
        opt("", t("settings.language_auto", { lang: t(`settings.lang.${browserLanguage()}`) })),
        LANGUAGES.map((code) => opt(code, t(`settings.lang.${code}`))))),
    h("p", { class: "muted small" }, t("settings.language_help")));
}

/** Keep a person's language choice on the server (nothing to keep without a person). */
const rememberLanguage = (language) => (personKey() ? patchSettings({ language }) : Promise.resolve());

/** The card size of this device: small, normal (readable at the table: README) or large. */
function cardSizeField() {
  return h("div", { class: "setting-cards" },
    h("label", {}, t("settings.card_size"), " ",
      h("select", { id: "set-cardSize", onchange: (ev) => setSettings({ cardSize: ev.target.value }) },
        CARD_SIZES.map((size) => h("option", { value: size, selected: settings.cardSize === size }, t(`settings.card_size.${size}`))))),
    h("p", { class: "muted small" }, t("settings.card_size_help")));
}

export function settingsDialog(close) {
  const chk = (key, label) => h("label", { class: "check" },
    h("input", { type: "checkbox", id: `set-${key}`, checked: !!settings[key], onchange: (ev) => setSettings({ [key]: ev.target.checked }) }),
    label);
  return dialog("settings", t("settings.title"), close,
    languageField(),
    cardSizeField(),
    chk("animations", t("settings.animations")),
    h("p", { class: "muted small" }, t("settings.animations_help")),
    chk("pinField", t("settings.pin")),
    chk("autoReveal", t("settings.auto")),
    h("label", {}, t("settings.limit"), " ", h("input", { type: "number", id: "set-limit", min: 1, max: 9, value: settings.autoRevealLimit,
      onchange: (ev) => setSettings({ autoRevealLimit: Math.max(1, Math.min(9, Number(ev.target.value) || 3)) }) })),
    h("p", { class: "muted small" }, t("settings.auto_help")),
    chk("spoilChance", t("settings.spoil_chance")),
    h("p", { class: "muted small" }, t("settings.spoil_chance_help")));
}

export function legendDialog(close) {
  return dialog("legend", t("legend.title"), close,
    h("dl", { class: "legend" }, LEGEND.map(([name, nameKey, helpKey]) => [
      h("dt", {}, icon(name, { size: "1.6em" }), " ", t(nameKey)),
      h("dd", {}, t(helpKey)),
    ])));
}

function markedCard(c, mark, extra = null) {
  const face = cardFace(c, { flip: false });
  zoomable(face, { card: c });
  return h("div", { class: `card-slot marked mark-${mark}` }, face, h("span", { class: `mark mark-${mark}` }, extra || t(`mark.${mark}`)));
}

/** The whole deck of a player: every card they own (yucata's deck view).  For the viewer's own
 *  deck each card says where it is; other players' cards (public: what they own) show no order or
 *  place. */
export function deckDialog(o, seat, close) {
  const p = o.players[seat];
  const title = seat === o.viewer ? t("deckview.yours", { n: p.owned_count }) : t("deckview.of", { name: playerName(seat), n: p.owned_count });
  if (seat === o.viewer && p.deck) {
    const known = new Map((p.known_top || []).map((id, i, arr) => [id, arr.length - i]));
    const all = [
      ...(p.on_deck ? [[p.on_deck, "ondeck"]] : []),
      ...p.field.map((c) => [c, "field"]),
      ...p.deck.map((c) => [c, known.has(c.id) ? "known" : "deck"]),
      ...p.discard.map((c) => [c, "discard"]),
      ...(p.set_aside || []).map((c) => [c, "aside"]),
    ].sort((x, y) => x[0].id - y[0].id);
    return dialog("deck-view", title, close,
      h("p", { class: "muted" }, t("deckview.own_help")),
      h("div", { class: "cards deck-cards" }, all.map(([c, mark]) => markedCard(c, mark,
        mark === "known" ? t("mark.known", { n: known.get(c.id) }) : null))));
  }
  if (Array.isArray(p.owned)) {
    // Cards alike (the same advancements) are one face with a count, the richest first.
    const groups = new Map();
    for (const c of p.owned) {
      const key = c.unseen_leader ? "?leader" : JSON.stringify([c.advancements || [], c.covered || []]);
      if (!groups.has(key)) groups.set(key, { card: c, n: 0 });
      groups.get(key).n++;
    }
    const sorted = [...groups.values()].sort((a, b) => (b.card.advancements || []).length - (a.card.advancements || []).length || b.n - a.n);
    return dialog("deck-view", title, close,
      h("p", { class: "muted" }, t("deckview.public_help")),
      h("div", { class: "cards deck-cards" }, sorted.map(({ card, n }) => {
        const face = cardFace(card, { flip: false });
        zoomable(face, { card });
        return h("div", { class: "card-slot", dataset: { count: n } }, face,
          n > 1 ? h("span", { class: "mark mark-count" }, t("deckview.times", { n })) : null);
      })));
  }
  return dialog("deck-view", title, close,
    h("p", {}, t("deckview.counts", { deck: p.deck_count, ondeck: p.on_deck ? 1 : 0, field: p.field.length, discard: p.discard_count })),
    h("div", { class: "cards deck-cards" }, p.on_deck ? markedCard(p.on_deck, "ondeck") : null, p.field.map((c) => markedCard(c, "field"))),
    h("p", { class: "muted" }, t("deckview.hidden_help")));
}

export function discardDialog(o, seat, close) {
  const p = o.players[seat];
  return dialog("discard-view", t("discardview.title", { n: p.discard.length }), close,
    p.discard.length ? h("div", { class: "cards deck-cards" }, p.discard.map((c) => markedCard(c, "discard")))
      : h("p", { class: "muted" }, t("discardview.empty")));
}

export function valesDialog(o, seat, close) {
  const p = o.players[seat];
  return dialog("vales-view", t("valesview.title", { name: playerName(seat) }), close,
    p.vales.length ? h("div", { class: "cards vales" }, p.vales.map((v) => {
      const face = valeFace(v, { used: valeUsed(o, seat, v), isNew: v.bought_this_turn, flip: false });
      zoomable(face, { vale: v });
      return h("div", { class: "card-slot" }, face, v.bought_this_turn ? h("span", { class: "mark mark-new" }, t("mark.bought_vale")) : null);
    })) : h("p", { class: "muted" }, t("valesview.none")));
}
