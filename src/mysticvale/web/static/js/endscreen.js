// The end of the game: every row of the scoring labelled, the tie-break said in words, the winner,
// a rematch with the same seats and bots.  Reopenable from the top bar after closing.

import { h } from "./dom.js";
import { t, list, playerName } from "./i18n.js";
import { icon } from "./icons.js";
import { dialog } from "./dialogs.js";
import { botOf } from "./players.js";
import { namedByBot } from "./seats.js";

const ROWS = [
  ["vp_tokens", "vp"], ["advancements", "vp"], ["vales", "vp"], ["negative_vp", "curse"], ["curse_tokens", "curse"],
];

export function endDialog(view, close, { onRematch, rematchBusy, replay = true }) {
  const o = view.observation;
  const scores = o.scores || [];
  const winners = o.winners || [];
  const me = view.seat;
  const name = (s) => `${playerName(s)}${s === me ? ` ${t("player.you")}` : ""}`;
  const title = winners.length ? t(winners.length > 1 ? "end.shared" : "end.won", { who: list(winners.map(name)) }) : t("end.over");
  const known = new Set(ROWS.map((r) => r[0]).concat(["total", "tiebreak"]));
  const extra = scores.length ? Object.keys(scores[0]).filter((k) => !known.has(k)) : [];
  const rows = [...ROWS, ...extra.map((k) => [k, null])];
  const table = h("table", { class: "scores" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("end.source")),
      // A bot's seat is named after its bot ("Random bot"): no second line saying it again.
      scores.map((_, s) => h("th", { scope: "col", class: `player-col${winners.includes(s) ? " winner" : ""}` }, name(s),
        botOf(view, s) && !namedByBot(s) ? h("div", { class: "muted small" }, t("player.bot", { bot: botOf(view, s) })) : null)))),
    h("tbody", {},
      rows.map(([k, ic]) => h("tr", { dataset: { row: k } },
        h("th", { scope: "row" }, ic ? icon(ic) : null, " ", t(`end.row.${k}`)),
        scores.map((sc) => h("td", {}, String(sc[k] ?? 0))))),
      h("tr", { class: "total", dataset: { row: "total" } }, h("th", { scope: "row" }, t("end.row.total")),
        scores.map((sc, s) => h("td", { class: winners.includes(s) ? "winner" : "" }, String(sc.total)))),
      scores.length && scores[0].tiebreak !== undefined ? h("tr", { class: "tiebreak", dataset: { row: "tiebreak" } },
        h("th", { scope: "row" }, t("end.row.tiebreak"), h("div", { class: "muted small" }, t("end.row.tiebreak_help"))),
        scores.map((sc) => h("td", {}, String(sc.tiebreak)))) : null));
  const canRematch = me !== null && me !== undefined;
  return dialog("end", title, close,
    table,
    h("p", { class: "muted small" }, t("end.how")),
    h("div", { class: "end-buttons" },
      view.rematch && !canRematch ? h("a", { class: "button primary", id: "rematch-watch",
        href: `/games/${encodeURIComponent(view.rematch)}` }, t("end.rematch_watch")) : null,
      canRematch ? h("button", { type: "button", class: "primary", id: "rematch", disabled: rematchBusy, onclick: onRematch },
        t(view.rematch ? "end.rematch_open" : "end.rematch")) : null,
      // issue 21: look back through the game, step by step, from this seat
      replay && view.game_id ? h("a", { class: "button", id: "replay-link",
        href: `/games/${encodeURIComponent(view.game_id)}/replay${canRematch ? `?seat=${me}` : ""}` }, t("replay.open")) : null,
      h("a", { href: "/", class: "button" }, t("end.lobby"))));
}
