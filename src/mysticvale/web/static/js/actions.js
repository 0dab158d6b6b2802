// Which widget offers which legal action, and each action in words.
//
// The client holds no rules: it makes exactly the strings of `legal_actions` clickable.  Actions
// that belong to a thing on the table (the deck, a commons card, a vale, a card) are offered
// there; the others are buttons.  "push" is offered only on the deck, by two clicks; "reveal" (the
// next card after a When Played ability, yucata's click on the deck) on the deck by one click and
// as a button.

import { t, playerName, sentence } from "./i18n.js";
import { layer, leaderBySlugOrName } from "./catalogue.js";

const SIMPLE = ["pass", "finish", "token", "trade", "keep", "skip", "spoil", "stop"];

/** Group the legal actions by the widget that offers them. */
export function classify(legal) {
  const g = { push: null, reveal: null, simple: {}, commons: {}, soil: {}, vales: {}, myVale: {}, card: {}, rest: [] };
  for (const a of legal) {
    const [verb, ...args] = a.split(" ");
    const first = args[0] || "";
    if (verb === "push" && !args.length) g.push = a;
    else if (verb === "reveal" && !args.length) g.reveal = a;
    else if (SIMPLE.includes(verb) && !args.length) g.simple[verb] = a;
    else if (verb === "buy" && first.startsWith("soil.")) (g.soil[first.slice(5)] ||= []).push(a);
    else if (verb === "buy" && /^\d+\.\d+$/.test(first)) (g.commons[first] ||= []).push(a);
    else if (verb === "vale" && /^\d+\.\d+$/.test(first)) (g.vales[first] ||= []).push(a);
    else if (first.startsWith("vale.")) (g.myVale[first.split(".").slice(0, 2).join(".")] ||= []).push(a);
    else {
      const ref = args.find((x) => x.startsWith("#"));
      if (ref) (g.card[Number(ref.slice(1).split(".")[0])] ||= []).push(a);
      else g.rest.push(a);
    }
  }
  return g;
}

/** Every card the viewer can see, by id (fields, on-deck cards, own deck and discard, private looks,
 *  other players' owned cards when public). */
export function visibleCards(o) {
  const out = new Map();
  for (const p of o.players) {
    for (const c of [...(p.owned || []), ...(p.deck || []), ...(p.discard || []), ...(p.set_aside || []),
      ...(p.field || []), p.on_deck]) if (c) out.set(c.id, c);
  }
  for (const c of (o.pending && o.pending.cards) || []) out.set(c.id, c);
  return out;
}

/** A card's name as players say it: its advancements, or "a blank card". */
export function cardName(c) {
  if (!c) return t("card.unknown");
  const cov = new Set(c.covered || []);
  const names = (c.advancements || []).filter((l) => !cov.has(l)).map((l) => layer(l).type.name);
  return names.length ? names.join(" + ") : t("card.empty");
}

function refName(o, ref) {
  if (!ref) return "";
  if (ref.startsWith("#")) {
    const [id, lay] = ref.slice(1).split(".");
    const c = visibleCards(o).get(Number(id));
    if (lay && c) {
      const lab = (c.advancements || [])[Number(lay) - 1];
      return lab ? layer(lab).type.name : cardName(c);
    }
    return cardName(c);
  }
  if (ref.startsWith("vale.")) {
    const me = o.viewer !== null && o.viewer !== undefined ? o.players[o.viewer] : null;
    const v = me && me.vales[Number(ref.split(".")[1]) - 1];
    return v ? v.name : ref;
  }
  if (ref.startsWith("soil.")) return t("action.soil", { slot: t(`slot.${ref.slice(5)}`) });
  const m = ref.match(/^(\d)\.(\d)$/);
  if (m) {
    const c = (o.commons[m[1]] || [])[Number(m[2]) - 1];
    return c ? `${c.name} (${c.slots.map((x) => t(`slot.${x}`)).join(" + ")})` : ref;
  }
  if (/^seat\.?\d$/.test(ref) || /^p\d$/.test(ref)) return playerName(Number(ref.replace(/\D/g, "")) - 1);
  const ld = leaderBySlugOrName(ref);
  if (ld) return ld.name;
  return t(`arg.${ref}`) !== `arg.${ref}` ? t(`arg.${ref}`) : ref.replace(/_/g, " ");
}

/** An action in words ("Buy Stag (middle) for 3 mana"). */
export function describe(o, action) {
  const [verb, ...args] = action.split(" ");
  const prices = (o.turn && o.turn.prices) || {};
  if (verb === "buy") {
    const what = refName(o, args[0]);
    const price = prices[action];
    if (args[1] === "on") return t("action.buy_on", { what, card: refName(o, args[2]), price: price ?? "?" });
    return price === undefined ? t("action.buy_free", { what }) : t("action.buy", { what, price });
  }
  if (verb === "vale") {
    const [row, i] = (args[0] || "").split(".");
    const v = (o.vale_rows[row] || [])[Number(i) - 1];
    return t("action.vale", { what: v ? v.name : args[0] });
  }
  if (verb === "finish") return t(o.phase === "harvest" && !o.pending ? "action.end_harvest" : "action.finish_turn");
  const key = `action.${verb}`;
  const named = args.map((a) => refName(o, a));
  const text = t(key, { what: named.join(" "), a: named[0] ?? "", b: named[1] ?? "" });
  return text === key ? [verb, ...named].join(" ") : sentence(text);
}
