// Numbers the table shows that are not in the observation as such, computed only from what the
// viewer may know (the observation and the card catalogue).  No DOM here: these functions are
// tested in Chromium against the rules engine (tests/browser/test_numbers.py).

import { layer } from "./catalogue.js";

/** Net decay at which a field spoils (file 000). */
export const SPOIL_AT = 4;
/** Advancements one may buy in a Harvest (file 000). */
export const MAX_ADVANCEMENT_BUYS = 2;
const GAIA = ["mana", "growth", "decay", "vp", "animal", "forest", "sky", "wild"];

/** Decay and growth showing in a player's field and on the on-deck card, separately, and the
 *  net decay the rules count (the observation's `decay`, which also knows Aether Tree). */
export function fieldNumbers(player) {
  const cards = [...(player.field || []), ...(player.on_deck ? [player.on_deck] : [])];
  const sum = (k) => cards.reduce((a, c) => a + (c[k] || 0), 0);
  const spirits = {};
  for (const k of ["animal", "forest", "sky", "wild"]) spirits[k] = (player.field || []).reduce((a, c) => a + ((c.spirits || {})[k] || 0), 0);
  return {
    decay: sum("decay"), growth: sum("growth"), net: player.decay, spoilAt: SPOIL_AT,
    mana: (player.field || []).reduce((a, c) => a + (c.mana || 0), 0),
    vp: (player.field || []).reduce((a, c) => a + (c.vp || 0), 0),
    spirits,
  };
}

/** The chance that pushing now spoils: the on-deck card joins the field and the next card is
 *  revealed.  Only what the viewer knows: its deck's contents (order hidden), or the known top
 *  card (after e.g. Wood Sprite Hoard); with an empty deck the discard pile is shuffled.
 *
 *  Returns null when it does not apply (not the viewer's own field, no on-deck card), else
 *  {chance (0..1), spoiling: cards that would spoil, of: cards it may be, known: top known,
 *  whenPlayed: the on-deck card has a When Played ability (which acts before the reveal and may
 *  change this)}. */
export function spoilChance(observation, seat) {
  const p = observation.players[seat];
  if (!p || !p.deck || !p.on_deck) return null;
  let pool;
  let known = false;
  const top = (p.known_top || []);
  if (p.deck.length) {
    if (top.length) {
      const id = top[top.length - 1];
      pool = p.deck.filter((c) => c.id === id);
      known = pool.length === 1;
      if (!known) pool = p.deck;
    } else {
      pool = p.deck;
    }
  } else {
    pool = p.discard || [];
  }
  const whenPlayed = (p.on_deck.advancements || []).some((lab) =>
    !(p.on_deck.covered || []).includes(lab) && (layer(lab).type.abilities || []).some((a) => a.trigger === "when_played"));
  if (!pool.length) return { chance: 0, spoiling: 0, of: 0, known, whenPlayed };
  const net = p.decay;
  const spoiling = pool.filter((c) => net + (c.decay || 0) - (c.growth || 0) >= SPOIL_AT).length;
  return { chance: spoiling / pool.length, spoiling, of: pool.length, known, whenPlayed };
}

/** Every card a player owns, as far as the viewer knows: the public list of owned cards when the
 *  observation has it, else (own seat) deck, discard, field, on-deck card and set-aside cards;
 *  for another player without that list, null. */
export function ownedCards(player) {
  if (Array.isArray(player.owned)) return player.owned;
  if (!player.deck) return null;
  return [...player.deck, ...(player.discard || []), ...(player.field || []),
    ...(player.on_deck ? [player.on_deck] : []), ...(player.set_aside || [])];
}

function activeLayers(card) {
  const cov = new Set(card.covered || []);
  return (card.advancements || []).filter((l) => !cov.has(l));
}

function printed(card, symbol) {
  return activeLayers(card).reduce((a, lab) => a + ((layer(lab).type.symbols || {})[symbol] || 0), 0);
}

/** VP of advancements at the end of the game: printed VP plus end-game abilities (Gaia's Chosen:
 *  one per printed symbol on its card; abilities that count a symbol in the whole deck). */
export function cardEndVp(card, owned) {
  let vp = card.end_vp || 0;
  for (const lab of activeLayers(card)) {
    for (const ab of layer(lab).type.abilities || []) {
      if (ab.trigger !== "end_game") continue;
      if (ab.effect === "vp_per_printed_symbol") vp += GAIA.reduce((a, k) => a + printed(card, k), 0);
      else if (ab.effect === "vp_per_symbol_in_deck") {
        const sym = ab.params?.symbol;
        vp += owned.reduce((a, c) => a + printed(c, sym), 0) * (ab.params?.per ?? 1);
      }
    }
  }
  return vp;
}

/** A running score estimate: what the player would score if the game ended now (VP tokens, VP of
 *  advancements and vales, minus negative VP and curse tokens), as the final scoring counts.
 *  null when the player's cards are not known to the viewer; `partial` when one of them is a
 *  leader that has not been face up yet (its VP are left out). */
export function scoreEstimate(player) {
  const owned = ownedCards(player);
  if (!owned) return null;
  let adv = 0;
  let neg = 0;
  for (const c of owned) {
    adv += cardEndVp(c, owned);
    neg += c.neg_vp || 0;
  }
  const vales = (player.vales || []).reduce((a, v) => a + (v.end_vp || 0), 0);
  neg += (player.vales || []).reduce((a, v) => a + (v.neg_vp || 0), 0);
  const parts = { vp_tokens: player.vp_tokens, advancements: adv, vales, negative_vp: -neg, curse_tokens: -player.curse_tokens };
  // A leader never face up is in the list, but not which one: its VP are not counted (partial).
  const unseen = owned.filter((c) => c.unseen_leader).length;
  return { total: Object.values(parts).reduce((a, b) => a + b, 0), parts, partial: unseen > 0 };
}

/** Buys of this Harvest: advancements a/2, vales v/limit. */
export function buysLeft(turn) {
  return { advancements: turn.advancement_buys || 0, advancementMax: MAX_ADVANCEMENT_BUYS,
    vales: turn.vale_buys || 0, valeMax: turn.vale_limit ?? 2 };
}

/** Spirit symbols still free in the Harvest: per kind what was not spent on that kind (a wild
 *  paying for a missing one), and how many were spent as "any" (yucata shows that apart: you
 *  choose which symbols pay it). */
export function spiritsLeft(turn) {
  const have = turn.spirits || {};
  const spent = turn.spirits_spent || {};
  const left = {};
  let wild = have.wild || 0;
  for (const k of ["animal", "forest", "sky"]) {
    const d = (have[k] || 0) - (spent[k] || 0);
    left[k] = Math.max(0, d);
    if (d < 0) wild += d;
  }
  left.wild = Math.max(0, wild);
  return { left, any: spent.any || 0 };
}
