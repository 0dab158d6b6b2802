// The field area of one player: deck (two-click push), on-deck card, field, discard pile, the
// field's numbers, what was bought this turn, and the sleeve preview.

import { h } from "./dom.js";
import { t, playerName } from "./i18n.js";
import { icon } from "./icons.js";
import { cardFace, advancementFace, cardBack, freeSlots } from "./cards.js";
import { layer } from "./catalogue.js";
import { zoomable } from "./zoom.js";
import { offer, actionButton } from "./widgets.js";
import { fieldNumbers, spoilChance, buysLeft, spiritsLeft, SPOIL_AT } from "./numbers.js";
import { settings, setSettings } from "./settings.js";
import { T } from "./state.js";

/** The number on a player's draw pile: the cards in the deck and the on-deck card on top of it
 *  (file 000: "the number of cards in the draw pile (incl. on-deck card)"). */
export function drawPileCount(player) {
  return (player.deck_count || 0) + (player.on_deck ? 1 : 0);
}

/** A number with its icon: (icon) 3 decay. */
export function stat(name, text, { cls = "", title = null, id = null } = {}) {
  return h("span", { class: `stat stat-${name} ${cls}`.trim(), title, id }, icon(name), " ", text);
}

/** The numbers of a field: decay and growth apart, the spoil threshold, mana, spirits, and in the
 *  Harvest what is left to spend and buy. */
export function fieldNumbersEl(ctx, seat) {
  const { o } = ctx;
  const p = o.players[seat];
  const n = fieldNumbers(p);
  const mine = seat === ctx.me;
  const inHarvest = o.phase === "harvest" && o.turn.player === seat && typeof o.turn.mana === "number";
  const items = [];
  items.push(stat("mana", inHarvest ? t("numbers.mana_left", { n: o.turn.mana }) : t("numbers.mana", { n: n.mana }),
    { cls: inHarvest ? "strong" : "", id: mine ? "mana-left" : null }));
  items.push(stat("growth", t("numbers.growth", { n: n.growth })));
  items.push(stat("decay", t("numbers.decay", { n: n.decay })));
  // Spoiling matters in Planting and Prep: in this field's own Harvest and Discard phase it no
  // longer does (the next Prep starts from a new field).
  const ownTurn = o.turn && o.turn.player === seat;
  if (!(ownTurn && (o.phase === "harvest" || o.phase === "discard"))) {
    const danger = n.net >= SPOIL_AT - 1;
    items.push(h("span", { class: `spoil-line${danger ? " danger" : ""}`, id: mine ? "spoil-line" : null },
      t(mine ? "numbers.spoils_at_you" : "numbers.spoils_at_they", { limit: SPOIL_AT, net: n.net })));
  }
  if (inHarvest) {
    const sp = spiritsLeft(o.turn);
    for (const k of ["animal", "forest", "sky", "wild"]) if (sp.left[k]) items.push(stat(k, t("numbers.spirit_left", { n: sp.left[k] })));
    if (sp.any) items.push(stat("any", t("numbers.any_spent", { n: sp.any }), { title: t("numbers.any_spent_title") }));
    // The buys left: in one's own Harvest the action bar says them (with the mana left).
    if (!mine) {
      const b = buysLeft(o.turn);
      items.push(h("span", { class: "buys" }, t("numbers.buys", { a: b.advancements, amax: b.advancementMax, v: b.vales, vmax: b.valeMax })));
    }
  } else {
    for (const k of ["animal", "forest", "sky", "wild"]) if (n.spirits[k]) items.push(stat(k, t("numbers.spirit", { n: n.spirits[k] })));
    if (n.vp) items.push(stat("vp", t("numbers.vp", { n: n.vp })));
  }
  if (mine && settings.spoilChance && o.phase === "planting" && o.turn.player === seat) {
    const sc = spoilChance(o, seat);
    if (sc) {
      const pct = Math.round(sc.chance * 100);
      items.push(h("span", { class: `spoil-chance${sc.chance > 0 ? " danger" : ""}`, id: "spoil-chance",
        title: t("numbers.spoil_chance_title", { k: sc.spoiling, n: sc.of }) },
      t(sc.known ? "numbers.spoil_chance_known" : "numbers.spoil_chance", { pct }), sc.whenPlayed ? ` ${t("numbers.spoil_chance_ability")}` : ""));
    }
  }
  return h("div", { class: "numbers", id: "totals" }, items);
}

function cardWithActs(c, ctx, { cls = "", mark = null } = {}) {
  const acts = ctx.mineShown ? ctx.groups.card[c.id] : null;
  const face = cardFace(c, { cls });
  zoomable(face, { card: c });
  const wrap = h("div", { class: `card-slot${acts && acts.length ? " usable" : ""}`, dataset: { card: c.id } }, face,
    mark ? h("span", { class: `mark mark-${mark}` }, t(`mark.${mark}`)) : null,
    acts && acts.length ? h("div", { class: "card-acts" }, acts.map((a) => actionButton(a, ctx.offered))) : null);
  return wrap;
}

/** Why an advancement cannot go on a card, in words (for the sleeve preview). */
function blockedReason(card, label) {
  const free = freeSlots(card.advancements || [], card.covered || []);
  const L = layer(label);
  if (L.slots.some((s) => !free.includes(s)) && !L.type.eclipse) return t("sleeve.slot_taken", { slot: L.slots.map((x) => t(`slot.${x}`)).join(" + ") });
  if (leaderCard(card)) return t("sleeve.leader");
  return t("sleeve.keeps_room");
}

function leaderCard(card) {
  return (card.advancements || []).some((l) => layer(l).type.kind === "leader");
}

/** The field panel of `seat`. */
export function fieldPanel(ctx, seat, { pinned, onPin, onDeckClick, onReveal, onDiscardClick }) {
  const { o } = ctx;
  const p = o.players[seat];
  const mine = seat === ctx.me;
  ctx.mineShown = mine;
  const pushable = mine && ctx.groups.push;
  // After a When Played ability: one click on the deck reveals the next card (file 000, yucata).
  const revealable = mine && ctx.groups.reveal;
  const armed = pushable && T.armedSeq === T.seq;
  const clickable = pushable || revealable;

  // deck (its number counts the on-deck card, as yucata's draw pile does: file 000), automatic
  // reveal, discard pile
  const drawPile = drawPileCount(p);
  const says = revealable ? t("deck.reveal") : pushable ? t(armed ? "deck.armed" : "deck.click_twice")
    : t("deck.title", { n: drawPile });
  const deck = h("div", { id: "deck", class: `pile deck${clickable ? " clickable" : ""}${armed ? " armed" : ""}${revealable ? " reveal" : ""}`,
    role: clickable ? "button" : null, tabindex: clickable ? "0" : null, title: says, "aria-label": says,
    dataset: { count: drawPile } },
  cardBack(drawPile),
  h("div", { class: "pile-label" }, revealable ? t("deck.reveal_short")
    : pushable ? t(armed ? "deck.armed_short" : "deck.click_twice_short") : t("deck.label")));
  if (clickable) {
    const go = revealable ? onReveal : onDeckClick;
    ctx.offered.add(revealable ? ctx.groups.reveal : ctx.groups.push);
    deck.addEventListener("click", (ev) => { ev.stopPropagation(); go(); });
    deck.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); } });
  }
  // yucata's "< 3" (file 000): the next card is revealed by itself while less decay than the limit
  // shows, the on-deck card's counted and growth cancelling (it stays the player's at the limit or
  // above: then a single decay could spoil).  Its state is said beside it, so a player sees why it
  // waits: every Prep leaves 3 or more decay showing, so it acts once growth or an ability lowers it.
  const limit = Number(settings.autoRevealLimit);
  const planting = mine && o.phase === "planting" && o.turn && o.turn.player === seat && !o.over;
  const autoState = settings.autoReveal && planting
    ? h("span", { class: `auto-state${p.decay < limit ? " on" : ""}`, id: "auto-state" },
      t(p.decay < limit ? "deck.auto_on" : "deck.auto_waits", { n: p.decay, limit })) : null;
  const auto = mine ? h("div", { class: "auto-wrap" }, h("label", { class: "check auto", title: t("deck.auto_title", { n: limit }) },
    h("input", { type: "checkbox", id: "auto-reveal", checked: !!settings.autoReveal,
      onchange: (ev) => setSettings({ autoReveal: ev.target.checked }) }),
    t("deck.auto", { n: limit })), autoState) : null;
  const discard = h("div", { id: "discard", class: "pile discard clickable", role: "button", tabindex: "0",
    title: t("discard.title", { n: p.discard_count }), onclick: onDiscardClick },
  h("div", { class: "discard-box" }, h("span", { class: "pile-count" }, String(p.discard_count))),
  h("div", { class: "pile-label" }, t("discard.label")));

  // on-deck card and field
  const sleeving = mine && o.pending && o.pending.kind === "sleeve" && o.pending.advancement;
  const onDeck = p.on_deck ? cardWithActs(p.on_deck, ctx, { cls: `ondeck${armed ? " lifted" : ""}`, mark: "ondeck" })
    : h("div", { class: "card-slot empty-slot" }, h("div", { class: "face empty-face" }, t("field.no_on_deck")));
  const upgraded = new Set(o.turn && o.turn.player === seat ? o.turn.upgrades || [] : []);
  const fieldCards = p.field.map((c) => {
    if (sleeving) return sleeveTarget(c, ctx, o.pending.advancement.label);
    return cardWithActs(c, ctx, { cls: "infield", mark: upgraded.has(c.id) ? "upgraded" : null });
  });

  // bought this turn, waiting for the Discard phase
  const bought = o.turn && o.turn.player === seat && (o.turn.bought || []).length && o.phase !== "planting"
    ? h("div", { class: "bought" }, h("h4", {}, t("field.bought")), h("div", { class: "cards small" },
      o.turn.bought.map((lab) => zoomable(advancementFace(lab), { label: lab })))) : null;

  const title = mine ? t("field.yours") : t("field.of", { name: playerName(seat) });
  return h("section", { id: "field", class: `panel field${mine ? " mine" : ""}`, dataset: { tab: "field", seat } },
    h("div", { class: "field-head" },
      h("h3", {}, title),
      h("button", { type: "button", id: "pin", class: `small${pinned ? " on" : ""}`, title: t("field.pin_title"),
        "aria-pressed": pinned ? "true" : "false", onclick: onPin }, t(pinned ? "field.pinned" : "field.pin"))),
    fieldNumbersEl(ctx, seat),
    sleeving ? h("p", { class: "sleeve-prompt", id: "sleeve-prompt" }, t("sleeve.prompt", { name: layer(o.pending.advancement.label).type.name,
      slot: layer(o.pending.advancement.label).slots.map((x) => t(`slot.${x}`)).join(" + ") })) : null,
    h("div", { class: "field-row" },
      h("div", { class: "piles" }, deck, auto, discard),
      h("div", { class: "cards field-cards" }, onDeck, fieldCards.length ? fieldCards
        : h("p", { class: "muted" }, t("field.empty")))),
    bought,
    (p.set_aside || []).length ? h("div", { class: "aside" }, h("h4", {}, t("field.set_aside")),
      h("div", { class: "cards" }, p.set_aside.map((c) => cardWithActs(c, ctx, { mark: "aside" })))) : null,
    p.harvest_next ? h("p", { class: "note" }, t("field.harvest_next")) : null);
}

function sleeveTarget(c, ctx, label) {
  const action = `sleeve #${c.id}`;
  const legal = (ctx.groups.card[c.id] || []).includes(action);
  if (!legal) {
    const face = cardFace(c, { cls: "infield" });
    zoomable(face, { card: c });
    return h("div", { class: "card-slot sleeve-blocked", dataset: { card: c.id } }, face,
      h("span", { class: "mark mark-blocked" }, blockedReason(c, label)));
  }
  const face = cardFace(c, { preview: label, cls: "infield preview" });
  const previewCard = { ...c, advancements: [...(c.advancements || []), label] };
  zoomable(face, { card: previewCard });
  const slot = h("div", { class: "card-slot sleeve-target", dataset: { card: c.id } }, face,
    h("span", { class: "mark mark-target" }, t("sleeve.here")));
  return offer(slot, [action], ctx.offered);
}
