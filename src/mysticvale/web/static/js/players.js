// The players: names (seats.js), tokens, mana token, decay showing, cards, score estimate, vales,
// leader, and the buttons for each player's deck, field and vales (file 000's player info rows).

import { h } from "./dom.js";
import { t, playerName } from "./i18n.js";
import { icon } from "./icons.js";
import { valeFace, cardFace } from "./cards.js";
import { leaderOfCard } from "./catalogue.js";
import { zoomable } from "./zoom.js";
import { offer } from "./widgets.js";
import { scoreEstimate } from "./numbers.js";
import { stat, drawPileCount } from "./field.js";
import { T } from "./state.js";
import { seatInfo, anyClaimed, namedByBot, botBadge } from "./seats.js";
import { helpFooter } from "./help.js";
import { personAt, personLink, ratingBadge } from "./tablename.js";

/** Whether a vale's ability was used this turn. */
export function valeUsed(o, seat, v) {
  const used = o.turn && o.turn.used;
  return Array.isArray(used) && o.turn.player === seat && used.some((k) => String(k).startsWith(`v${v.id}.`));
}

/** A tag for a seat nobody holds yet: "open seat" (anyone with the link may take it) or, in a game
 *  among people, "invited" (its invitation link has not been opened). */
function seatTag(seat, bot) {
  const s = seatInfo(seat);
  if (!s || bot || s.claimed) return null;
  if (s.open) return h("span", { class: "seat-tag open", title: t("seats.open_title") }, t("seats.open"));
  if (anyClaimed()) return h("span", { class: "seat-tag invited", title: t("seats.invited_title") }, t("seats.invited"));
  return null;
}

/** A seat's name; a person's opens their profile (in a new tab: the table stays open). */
function nameOf(seat) {
  const who = personAt(seat);
  return who ? personLink(who.person, playerName(seat), { newTab: true }) : playerName(seat);
}

/** A person's rating (issue 21), beside the name and its "(you)", not inside it. */
function ratingOf(seat) {
  const who = personAt(seat);
  return who ? ratingBadge(who.rating) : null;
}

export function botOf(view, seat) {
  const p = (view.players || []).find((x) => x.seat === seat);
  return p && p.bot ? p.bot : null;
}

/** The leader card of a player, when the viewer may know it: the owner always, everyone once it
 *  has been face up (file 003). */
export function leaderCardOf(o, seat) {
  const p = o.players[seat];
  const seen = new Set(o.seen_leaders || []);
  const candidates = [...(p.owned || []), ...(p.deck || []), ...(p.discard || []), ...(p.field || []),
    ...(p.on_deck ? [p.on_deck] : []), ...(p.set_aside || [])];
  for (const c of candidates) {
    if (leaderOfCard(c) && (seat === o.viewer || seen.has(c.id))) return c;
  }
  for (const id of seen) {
    const c = T.knownCards.get(id);
    if (c && c.owner === seat && leaderOfCard(c)) return c;
  }
  return null;
}

/** The button to a player's vales with their number; vales bought this turn count apart, "+X" (file
 *  000: their ability is not available yet, "so those cards are ... given as +X in the number of
 *  cards"). */
function valesButton(p, onVales) {
  const fresh = p.vales.filter((v) => v.bought_this_turn).length;
  const old = p.vales.length - fresh;
  return h("button", { type: "button", class: "small vales-btn", dataset: { vales: old, new: fresh },
    title: fresh ? `${t("player.vales_title")} — ${t("player.vales_new_title", { n: fresh })}` : t("player.vales_title"),
    onclick: () => onVales(p.seat) }, fresh ? t("player.vales_plus", { n: old, x: fresh }) : t("player.vales", { n: old }));
}

function playerRow(ctx, p, { onDeck, onField, onVales }) {
  const { o, view, groups, offered } = ctx;
  const me = p.seat === ctx.me;
  const bot = botOf(view, p.seat);
  const acting = o.acting_player === p.seat && !o.over;
  const tokenActs = me && groups.simple.token ? [groups.simple.token] : null;
  const token = offer(h("span", { class: `mana-token ${p.mana_token_active ? "up" : "down"}`, id: me ? "my-token" : null,
    title: t(p.mana_token_active ? "player.token_up" : "player.token_down") },
  icon(p.mana_token_active ? "token_up" : "token_down"), " ", t(p.mana_token_active ? "player.token_up_short" : "player.token_down_short")),
  tokenActs, offered);
  const est = scoreEstimate(p);
  const vales = p.vales.map((v, i) => {
    const face = valeFace(v, { used: valeUsed(o, p.seat, v), isNew: v.bought_this_turn, cls: "mini" });
    zoomable(face, { vale: v });
    return offer(face, me ? groups.myVale[`vale.${i + 1}`] : null, offered, v.name);
  });
  const leader = leaderCardOf(o, p.seat);
  let leaderEl = null;
  if (leader) {
    const info = leaderOfCard(leader);
    const face = cardFace(leader, { flip: false, cls: "mini" });
    zoomable(face, { card: leader });
    leaderEl = h("div", { class: "leader-mini", title: t(`leader.${info.side}`) }, face,
      h("span", { class: "small" }, icon("leader"), " ", info.name, " · ", t(`leader.${info.side}`)));
  }
  return h("div", { class: `player${acting ? " current" : ""}${me ? " me" : ""}`,
    dataset: { seat: p.seat, decay: p.decay, vp: p.vp_tokens } },
  h("div", { class: "player-head" },
    bot ? botBadge(bot) : null,
    h("strong", { class: "pname", title: bot ? t("seats.bot_title", { bot }) : null }, nameOf(p.seat), me ? ` ${t("player.you")}` : ""),
    ratingOf(p.seat),
    bot && !namedByBot(p.seat) ? h("span", { class: "bot-tag", title: t("player.bot_title", { bot }) }, t("player.bot", { bot })) : null,
    seatTag(p.seat, bot),
    p.star ? h("span", { class: "star", title: t("player.star") }, icon("star")) : null,
    acting && bot ? h("span", { class: "thinking" }, t("player.thinking")) : null,
    acting && !bot && !me ? h("span", { class: "thinking" }, t("player.deciding")) : null,
    h("span", { class: "views" },
      h("button", { type: "button", class: "small", title: t("player.deck_title"), onclick: () => onDeck(p.seat) }, icon("deck"), " ", t("player.deck")),
      h("button", { type: "button", class: "small", title: t("player.field_title"), onclick: () => onField(p.seat) }, t("player.field")),
      valesButton(p, onVales))),
  h("div", { class: "player-stats" },
    stat("vp", t("player.vp_tokens", { n: p.vp_tokens }), { title: t("player.vp_tokens_title") }),
    p.curse_tokens ? stat("curse", t("player.curses", { n: p.curse_tokens })) : null,
    stat("decay", t("player.decay", { n: p.decay }), { title: t("player.decay_title") }),
    token,
    est ? h("span", { class: "estimate", title: t("player.estimate_title", { tokens: est.parts.vp_tokens, adv: est.parts.advancements,
      vales: est.parts.vales, neg: -est.parts.negative_vp, curses: -est.parts.curse_tokens }) + (est.partial ? ` ${t("player.estimate_partial_title")}` : "") },
    t(est.partial ? "player.estimate_partial" : "player.estimate", { n: est.total })) : null),
  h("div", { class: "player-counts muted" }, t("player.counts", { deck: drawPileCount(p), discard: p.discard_count,
    field: p.field.length, owned: p.owned_count })),
  vales.length || leaderEl ? h("div", { class: "player-cards" }, leaderEl, h("div", { class: "vales" }, vales)) : null);
}

export function playersPanel(ctx, handlers) {
  return h("section", { id: "players", class: "panel", dataset: { tab: "players" } },
    h("h3", { class: "tab-title" }, t("players.title")),
    ctx.o.players.map((p) => playerRow(ctx, p, handlers)),
    helpFooter());
}
