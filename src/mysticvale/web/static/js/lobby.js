// The lobby: create a game (seats, bots, sets, rules), invitation links, and the games this device
// holds a seat for.

import { h, $ } from "./dom.js";
import { t, playerName, list } from "./i18n.js";
import { api } from "./api.js";
import { banner, clearBanner } from "./banner.js";
import { myGames, rememberGame, forgetGame } from "./storage.js";

const SETS = ["base", "vale_of_magic", "twilight_garden"];
const THINK = ["0.2", "0.5", "1", "3"];

async function botNames() {
  try {
    const b = await api("GET", "/api/bots");
    const names = Array.isArray(b) ? b : b && b.bots;
    if (Array.isArray(names) && names.length) return names.map((n) => (typeof n === "string" ? n : n.name));
  } catch { /* the server may not list bots: use the known names */ }
  return ["greedy", "ismcts", "random"];
}

export async function renderLobby() {
  document.title = t("title.lobby");
  $("#topinfo").textContent = t("lobby.title");
  $("#topactions").replaceChildren();
  const bots = await botNames();
  const defaultBot = bots.includes("greedy") ? "greedy" : bots[0];
  const seatRows = h("div", { id: "seat-rows" });
  const playersSel = h("select", { id: "players", name: "players" },
    [2, 3, 4].map((n) => h("option", { value: n }, t("lobby.players_n", { n }))));

  function seatRow(seat) {
    const kind = h("select", { name: `seat-${seat}`, "aria-label": t("lobby.seat_kind", { name: playerName(seat) }) },
      h("option", { value: "human" }, t(seat === 0 ? "lobby.you" : "lobby.person")),
      bots.map((b) => h("option", { value: b, selected: seat > 0 && b === defaultBot }, t("lobby.bot", { bot: b }))));
    const think = h("select", { name: `think-${seat}`, "aria-label": t("lobby.strength", { name: playerName(seat) }) },
      THINK.map((v) => h("option", { value: v, selected: v === "0.5" }, t(`lobby.think.${v}`))));
    const sync = () => { think.hidden = !kind.value.startsWith("ismcts"); };
    kind.addEventListener("change", sync);
    sync();
    return h("div", { class: "seat-row" }, h("span", { class: "seat-label" }, playerName(seat)), kind, think);
  }
  function syncSeats() {
    const n = Number(playersSel.value);
    while (seatRows.children.length < n) seatRows.append(seatRow(seatRows.children.length));
    while (seatRows.children.length > n) seatRows.lastChild.remove();
  }
  playersSel.addEventListener("change", syncSeats);
  syncSeats();

  const form = h("form", { id: "create-form", class: "panel" },
    h("h2", {}, t("lobby.new_game")),
    h("label", {}, t("lobby.players"), " ", playersSel),
    h("fieldset", {}, h("legend", {}, t("lobby.sets")),
      SETS.map((v) => h("label", { class: "check" },
        h("input", { type: "checkbox", name: "sets", value: v, checked: v === "base", disabled: v === "base" }), t(`set.${v}`)))),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "leaders" }), t("lobby.leaders")),
    h("label", {}, t("lobby.ruleset"), " ",
      h("select", { name: "ruleset" }, ["yucata", "english"].map((r) => h("option", { value: r }, t(`ruleset.${r}`))))),
    h("fieldset", {}, h("legend", {}, t("lobby.seats")), seatRows),
    h("button", { type: "submit", class: "primary", id: "create-btn" }, t("lobby.create")));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); createGame(form); });

  const created = h("section", { id: "created", class: "panel", hidden: true });
  const games = h("section", { id: "your-games", class: "panel" }, h("h2", {}, t("lobby.your_games")), h("div", { id: "games-list" }));
  $("#app").replaceChildren(h("div", { class: "lobby" }, form, created, games));
  refreshGamesList();
}

async function createGame(form) {
  const fd = new FormData(form);
  const players = Number(fd.get("players") ?? form.querySelector("#players").value);
  const sets = ["base", ...fd.getAll("sets").filter((s) => s !== "base")];
  const bots = {};
  for (let s = 0; s < players; s++) {
    const kind = fd.get(`seat-${s}`);
    if (kind && kind !== "human") bots[String(s)] = kind.startsWith("ismcts") ? `${kind}:${fd.get(`think-${s}`)}` : kind;
  }
  if (Object.keys(bots).length === players) { banner(t("lobby.need_person")); return; }
  const leaders = fd.get("leaders") === "on";
  if (leaders && !sets.includes("twilight_garden")) sets.push("twilight_garden");
  const payload = { players, sets, leaders, ruleset: fd.get("ruleset"), bots };
  const btn = $("#create-btn");
  btn.disabled = true;
  try {
    const res = await api("POST", "/api/games", payload);
    clearBanner();
    showCreated(res);
  } catch (e) {
    banner(t("lobby.create_failed", { why: e.message }));
  } finally {
    btn.disabled = false;
  }
}

const absolute = (url) => (url ? new URL(url, location.origin).href : "");

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h("textarea", { class: "offscreen" }, text);
    document.body.append(area);
    area.select();
    try { document.execCommand("copy"); } catch { /* the link stays visible to copy by hand */ }
    area.remove();
  }
  if (button) { button.textContent = t("lobby.copied"); setTimeout(() => { button.textContent = t("lobby.copy"); }, 1500); }
}

function showCreated(res) {
  const humans = res.seats.filter((s) => s.token);
  const mine = humans[0];
  rememberGame({ id: res.id, seat: mine ? mine.seat : null, token: mine ? mine.token : null,
    invites: res.seats.map((s) => ({ seat: s.seat, url: s.url, bot: s.bot || null, token: s.token || null })),
    spectator_url: res.spectator_url || null });
  const box = $("#created");
  box.hidden = false;
  box.replaceChildren(
    h("h2", {}, t("lobby.created", { id: res.id })),
    h("ul", { class: "invites" }, res.seats.map((s) => {
      if (s.bot) return h("li", {}, t("lobby.seat_bot", { name: playerName(s.seat), bot: s.bot }));
      const url = absolute(s.url);
      const isMine = mine && s.seat === mine.seat;
      const copy = h("button", { type: "button", class: "copy", onclick: (ev) => copyText(url, ev.target) }, t("lobby.copy"));
      return h("li", { class: "invite", dataset: { seat: s.seat } },
        h("span", {}, `${playerName(s.seat)}${isMine ? ` ${t("player.you")}` : ""}: `),
        h("input", { class: "link", readonly: true, value: url, "aria-label": t("lobby.invite_for", { name: playerName(s.seat) }),
          onfocus: (ev) => ev.target.select() }),
        copy,
        isMine ? h("a", { class: "button primary", href: s.url }, t("lobby.open_mine")) : null);
    })),
    res.spectator_url ? h("p", {}, t("lobby.spectators"), " ",
      h("a", { href: res.spectator_url, class: "spectator-link" }, absolute(res.spectator_url))) : null);
  refreshGamesList();
}

function refreshGamesList() {
  const el = $("#games-list");
  if (!el) return;
  const games = myGames();
  if (!games.length) { el.replaceChildren(h("p", { class: "muted" }, t("lobby.no_games"))); return; }
  const rows = games.map((g) => {
    const href = `/games/${encodeURIComponent(g.id)}` + (g.token ? `#token=${encodeURIComponent(g.token)}` : "");
    const status = h("span", { class: "status muted" }, "…");
    const row = h("li", { class: "game-row", dataset: { id: g.id } },
      h("a", { href }, t("lobby.game", { id: g.id })),
      h("span", { class: "muted" }, g.seat === null || g.seat === undefined ? ` ${t("lobby.as_spectator")} ` : ` ${t("lobby.as", { name: playerName(g.seat) })} `),
      status,
      h("button", { type: "button", class: "small", title: t("lobby.remove_title"),
        onclick: () => { forgetGame(g.id, g.token); refreshGamesList(); } }, t("lobby.remove")));
    api("GET", `/api/games/${encodeURIComponent(g.id)}/summary`).then((s) => {
      if (s.over) {
        status.textContent = (s.winners || []).length ? t("lobby.over_won", { who: list(s.winners.map(playerName)) }) : t("lobby.over");
      } else if (s.current_player === g.seat) {
        status.textContent = t("lobby.your_turn", { round: s.round, phase: t(`phase.${s.phase}`) });
        row.classList.add("your-turn");
      } else {
        const bot = (s.seats || []).find((x) => x.seat === s.current_player && x.bot);
        status.textContent = t(bot ? "lobby.bot_turn" : "lobby.their_turn", { name: s.current_player === null ? "—" : playerName(s.current_player),
          bot: bot ? bot.bot : "", round: s.round, phase: t(`phase.${s.phase}`) });
      }
      status.classList.remove("muted");
    }).catch((e) => { status.textContent = e.status === 404 ? t("lobby.gone") : e.message; });
    return row;
  });
  el.replaceChildren(h("ul", { class: "games" }, rows));
}
