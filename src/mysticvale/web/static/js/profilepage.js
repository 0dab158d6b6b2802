// A person's profile page, /people/{id} (issue 21): their rating from games between people (with
// what the number means), games played and won (in all, against people, against each kind of
// bot), and their finished games with the places, scores and rating changes, each with a replay.
// Reached by clicking a name (lobby, open tables, other profiles) or "Your profile" in the menu.

import { h, $ } from "./dom.js";
import { t, language } from "./i18n.js";
import { api } from "./api.js";
import { icon } from "./icons.js";
import { person, personKey } from "./people.js";
import { installProfile } from "./profile.js";
import { tableTitle, botName, personLink } from "./tablename.js";

const PAGE = 20;

/** Show the profile of the person `id`. */
export async function renderProfilePage(id) {
  const me = person();
  const mine = !!(me && me.id === id);
  document.title = t("title.profile_loading");
  $("#topinfo").textContent = t("profile.heading");
  if (personKey()) installProfile({});
  $("#app").replaceChildren(h("p", { class: "muted" }, t("profile.loading")));
  let p;
  try {
    p = await api("GET", `/api/people/${encodeURIComponent(id)}/profile?finished=${PAGE}`);
  } catch (e) {
    $("#app").replaceChildren(h("section", { class: "panel welcome" },
      h("h1", {}, t(e.status === 404 ? "profile.nobody" : "profile.failed", { why: e.message })),
      h("p", {}, h("a", { href: "/" }, t("end.lobby")))));
    return;
  }
  document.title = t("title.profile", { name: p.name });
  $("#topinfo").textContent = p.name;
  const games = h("ul", { class: "games finished-games", id: "finished-games" }, p.finished.map((g) => finishedRow(g)));
  const more = h("button", { type: "button", id: "more-games", hidden: !p.more, onclick: async () => {
    more.disabled = true;
    try {
      const next = await api("GET", `/api/people/${encodeURIComponent(id)}/profile?finished=${PAGE}&offset=${games.children.length}`);
      next.finished.forEach((g) => games.append(finishedRow(g)));
      more.hidden = !next.more;
    } finally {
      more.disabled = false;
    }
  } }, t("profile.more"));
  $("#app").replaceChildren(h("div", { class: "profile-page" },
    h("section", { class: "panel profile-top", id: "profile-top" },
      h("h1", {}, p.name, mine ? h("span", { class: "muted you-mark" }, ` ${t("player.you")}`) : null),
      h("p", { class: "muted small" }, t("profile.since", { date: day(p.since) })),
      h("p", {}, h("a", { href: "/" }, t("profile.to_lobby")))),
    ratingPanel(p),
    statsPanel(p),
    h("section", { class: "panel games-panel", id: "profile-games" }, h("h2", {}, t("profile.finished")),
      p.finished.length ? games : h("p", { class: "muted" }, t(mine ? "profile.no_games_you" : "profile.no_games")),
      more)));
}

function day(unix) {
  return new Date(unix * 1000).toLocaleDateString(language(), { year: "numeric", month: "long", day: "numeric" });
}

function ratingPanel(p) {
  const r = p.rating;
  return h("section", { class: "panel rating-panel", id: "profile-rating" },
    h("h2", {}, t("rating.heading")),
    r ? h("div", { class: "rating-big" },
      h("span", { class: "rating-value", id: "rating-value" }, String(r.value)),
      h("span", { class: "rating-games" }, t("rating.games", { n: r.games })),
      r.provisional ? h("span", { class: "tag provisional", title: t("rating.provisional_title") }, t("rating.provisional")) : null)
      : h("p", { id: "rating-value", class: "rating-none" }, t("rating.none")),
    h("p", { class: "small muted rating-explain" }, t("rating.explain")));
}

function rate(won, games) {
  return games ? `${Math.round((100 * won) / games)} %` : "–";
}

function statsPanel(p) {
  const row = (label, games, won, cls) => h("tr", { class: cls }, h("th", { scope: "row" }, label),
    h("td", {}, String(games)), h("td", {}, String(won)), h("td", {}, rate(won, games)));
  return h("section", { class: "panel", id: "profile-stats" }, h("h2", {}, t("profile.games")),
    h("table", { class: "stats" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, t("profile.played")),
        h("th", { scope: "col" }, t("profile.won")), h("th", { scope: "col" }, t("profile.rate")))),
      h("tbody", {},
        row(t("profile.all"), p.games.played, p.games.won, "all"),
        row(t("profile.vs_people"), p.against_people.games, p.against_people.won, "people"),
        p.against_bots.map((b) => row(t("profile.vs_bot", { bot: botName(b.bot) }), b.games, b.won, "bot")))),
    h("p", { class: "small muted" }, t("profile.stats_explain")));
}

function placeText(g) {
  if (g.won) return g.players.filter((x) => x.won).length > 1 ? t("profile.shared_win") : t("profile.win");
  return t("profile.place", { n: g.place, of: g.players.length });
}

function finishedRow(g) {
  const when = new Date(g.finished_at * 1000);
  const change = g.rating_change;
  const players = g.players.map((x) => h("span", { class: `chip${x.you ? " you" : ""}${x.won ? " winner" : ""}${x.bot ? " bot" : ""}` },
    x.bot ? botName(x.bot) : personLink(x.person, x.name || t("player.name", { n: x.seat + 1 })),
    x.score !== null && x.score !== undefined ? h("span", { class: "score", title: t("profile.score_title") }, " ", icon("vp"), x.score) : null));
  const meta = [g.sets.map((s) => t(`set.${s}`)).join(" + "), g.ruleset ? t(`ruleset.${g.ruleset}`) : null,
    g.rounds ? t("profile.rounds", { n: g.rounds }) : null].filter(Boolean).join(" · ");
  return h("li", { class: `game-row finished ${g.won ? "won" : "lost"}`, dataset: { id: g.id } },
    h("div", { class: "game-head" },
      h("span", { class: "game-title" }, tableTitle(g.name, g.players)),
      h("span", { class: "muted small game-meta" }, meta)),
    h("div", { class: "game-players" }, players),
    h("div", { class: "game-foot" },
      h("span", { class: `status result ${g.won ? "won" : ""}` }, placeText(g)),
      g.rated && change !== null ? h("span", { class: `rating-change ${change >= 0 ? "up" : "down"}`, title: t("rating.change_title") },
        `${change >= 0 ? "+" : "−"}${Math.abs(change)}`) : h("span", { class: "muted small" }, t("profile.unrated")),
      h("time", { class: "muted small", datetime: when.toISOString() }, when.toLocaleDateString(language())),
      h("a", { class: "button replay-game", href: `/games/${encodeURIComponent(g.id)}/replay?seat=${g.seat}` }, t("replay.open"))));
}
