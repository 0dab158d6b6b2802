// The lobby: the person's games from the server, live (your turn first, then running, then
// finished; with the invitation links of the seats nobody has claimed yet for the creator), the
// open tables anyone may join (js/tables.js), and the form to create a game (its table's name,
// public or private; seats for the creator, invited friends, open seats and bots; card sets;
// rules).  The identity comes first: a new browser is asked for a name (js/welcome.js).

import { h, $, $$ } from "./dom.js";
import { t, has, playerName, list, language } from "./i18n.js";
import { api } from "./api.js";
import { banner, clearBanner } from "./banner.js";
import {
  person, personKey, forgetPerson, whoAmI, keyRefused, migrateOldGames, listMyGames, getMyGame, createGame,
  getSettings, LobbySocket, patchTable,
} from "./people.js";
import { askName, seatLabel } from "./welcome.js";
import { kindName } from "./seats.js";
import { installProfile, closeProfile, copyButton } from "./profile.js";
import { gamesChanged, soundFromServer } from "./notify.js";
import { openTablesPanel, setOpenTables, openTableChanged, openTableGone, fetchOpenTables } from "./tables.js";
import { tableTitle, ratingBadge, personLink } from "./tablename.js";
import { houseCardsField } from "./housecards.js";

const SETS = ["base", "vale_of_magic", "twilight_garden"];
/** Longest table name (server/tables_directory.py NAME_MAX). */
const NAME_MAX = 40;
const RULESETS = ["yucata", "english", "german"];
const THINK = ["0.2", "0.5", "1", "3"];
const STATUSES = ["your_turn", "running", "finished"];
const SECTION = { your_turn: "lobby.section_your_turn", running: "lobby.section_running", finished: "lobby.section_finished" };

const games = new Map();           // game id -> MyGame row
let socket = null;
let clock = null;
let fresh = null;                  // the game just created (highlighted once)

/** The bots to offer: {levels: [{name, rating}], others: [names]}: the levels a player chooses by
 *  strength (GET /api/bots, gentlest first, issue 20) and the bots themselves, for comparison. */
async function botChoices() {
  try {
    const b = await api("GET", "/api/bots");
    const levels = Array.isArray(b && b.levels) ? b.levels.filter((l) => l && typeof l.name === "string") : [];
    const named = new Set(levels.map((l) => l.name));
    const names = Array.isArray(b && b.bots) ? b.bots.filter((n) => typeof n === "string") : [];
    if (levels.length || names.length) return { levels, others: names.filter((n) => !named.has(n)) };
  } catch { /* the server may not list bots: use the known names */ }
  return { levels: [], others: ["greedy", "ismcts", "random"] };
}

/** The line under a seat's choice saying what its bot is: a level's name, rating and description. */
function botAbout(kind, levels) {
  const lv = levels.find((l) => l.name === kind);
  if (lv) {
    const description = has(`bots.level.${kind}`) ? t(`bots.level.${kind}`) : "";
    return typeof lv.rating === "number"
      ? t("lobby.level_about", { name: kindName(kind), rating: lv.rating, description })
      : t("lobby.level_about_unrated", { name: kindName(kind), description });
  }
  return has(`lobby.bot_about.${kind}`) ? t(`lobby.bot_about.${kind}`) : "";
}

const absolute = (url) => (url ? new URL(url, location.origin).href : "");

/** The replay of a finished game, from the person's seat. */
function replayLink(g) {
  const seat = typeof g.seat === "number" ? `?seat=${g.seat}` : "";
  return `/games/${encodeURIComponent(g.id)}/replay${seat}`;
}

/** The link that opens a row's table: the person's seat (token in the fragment) or the spectator view. */
function tableLink(g) {
  return g.token ? `${absolute(g.url)}#token=${encodeURIComponent(g.token)}` : absolute(g.url);
}

// ------------------------------------------------------------------ the page

/** Show the lobby.  `restored`: a personal link was just opened (its key taken from the address). */
export async function renderLobby({ restored = false, message = "" } = {}) {
  stopLive();
  document.title = t("title.lobby");
  $("#topinfo").textContent = t("lobby.title");
  $("#topactions").replaceChildren();
  if (!personKey() || message) {
    await askName({ message });
  } else {
    try {
      const me = await whoAmI();
      if (restored) banner(t("people.welcome_back", { name: me.name }), "info");
    } catch (e) {
      if (keyRefused(e)) {
        forgetPerson();
        await askName({ message: t(restored ? "people.link_invalid" : "people.key_invalid") });
      } else {
        banner(t("people.offline", { why: e.message }));      // go on with the name kept here
      }
    }
  }
  await migrateOldGames().catch(() => { /* tried again next time */ });
  installProfile({ onKeyChanged: () => { if (socket) socket.restart(); }, onKeyRefused: lostKey });
  const soundSync = soundFromServer();      // a choice made on this page before the answer stands
  getSettings().then((st) => soundSync(!!st.sound)).catch(() => { /* the sound setting stays as kept here */ });

  const bots = await botChoices();
  const list_ = h("section", { id: "your-games", class: "panel games-panel" },
    h("div", { class: "panel-head" }, h("h2", {}, t("lobby.your_games")),
      h("span", { id: "lobby-live", class: "live down", title: t("lobby.live_title") }, t("lobby.connecting"))),
    h("div", { id: "games-list" }, h("p", { class: "muted" }, t("lobby.loading"))));
  $("#app").replaceChildren(h("div", { class: "lobby people-lobby" },
    h("div", { class: "lobby-main" }, list_, openTablesPanel()), createForm(bots)));
  fetchOpenTables();

  games.clear();
  try {
    for (const g of await listMyGames()) games.set(g.id, g);
    gamesChanged([...games.values()], { complete: true, ...noticeOptions });
  } catch (e) {
    if (keyRefused(e)) { lostKey(); return; }
    banner(t("lobby.list_failed", { why: e.message }));
  }
  renderGames();
  startLive();
}

/** The key was refused (replaced on another device): back to the name panel, saying why. */
function lostKey() {
  stopLive();
  closeProfile();
  clearBanner();             // ("welcome back" of a personal link no longer holds)
  forgetPerson();
  renderLobby({ message: t("people.key_invalid") });
}

const noticeOptions = { label: (g) => tableTitle(g.name, g.players), link: tableLink };

function startLive() {
  socket = new LobbySocket({
    onGames: (rows) => {
      games.clear();
      rows.forEach((g) => games.set(g.id, g));
      gamesChanged(rows, { complete: true, ...noticeOptions });
      renderGames();
    },
    onGame: (row) => {
      games.set(row.id, row);
      gamesChanged([row], noticeOptions);
      renderGames(row.id);
    },
    onStatus: (live) => {
      const el = $("#lobby-live");
      if (!el) return;
      el.className = live ? "live" : "live down";
      el.textContent = t(live ? "lobby.live" : "lobby.reconnecting");
    },
    onRefused: lostKey,
    onTables: setOpenTables,
    onTable: openTableChanged,
    onTableGone: openTableGone,
  }).start();
  clock = setInterval(updateTimes, 30_000);
}

function stopLive() {
  if (socket) socket.stop();
  socket = null;
  clearInterval(clock);
}

// ------------------------------------------------------------------ the games list

const rank = (g) => STATUSES.indexOf(g.status);
const ordered = () => [...games.values()].sort((a, b) => rank(a) - rank(b) || b.updated_at - a.updated_at || (a.id < b.id ? -1 : 1));

/** Draw the list (`changed`: the one game that changed, redrawn alone when the order stays). */
function renderGames(changed = null) {
  const el = $("#games-list");
  if (!el) return;
  const rows = ordered();
  const waiting = rows.filter((g) => g.status === "your_turn").length;
  document.title = waiting ? t("notify.title_lobby", { n: waiting }) : t("title.lobby");
  const order = rows.map((g) => `${g.id}:${g.status}`).join(" ");
  if (changed && el.dataset.order === order) {
    const old = el.querySelector(`.game-row[data-id="${CSS.escape(changed)}"]`);
    if (old) { old.replaceWith(gameRow(games.get(changed))); return; }
  }
  el.dataset.order = order;
  if (!rows.length) {
    el.replaceChildren(h("div", { class: "empty" }, h("p", {}, t("lobby.no_games")), h("p", { class: "muted small" }, t("lobby.no_games_hint"))));
    return;
  }
  el.replaceChildren(...STATUSES.map((status) => {
    const these = rows.filter((g) => g.status === status);
    if (!these.length) return null;
    return h("section", { class: `game-section ${status}`, dataset: { status } },
      h("h3", {}, t(SECTION[status], { n: these.length })),
      h("ul", { class: "games" }, these.map(gameRow)));
  }).filter(Boolean));
  if (fresh) {
    const row = el.querySelector(`.game-row[data-id="${CSS.escape(fresh)}"]`);
    if (row) { row.classList.add("fresh"); row.scrollIntoView({ block: "nearest" }); fresh = null; }
  }
}

/** "Ben's turn · round 3, Harvest", "Won by Anna" ... */
function statusText(g) {
  const phase = t(`phase.${g.phase}`);
  if (g.over) {
    const names = (g.winners || []).map((s) => { const p = g.players.find((x) => x.seat === s); return p ? seatLabel(p) : playerName(s); });
    return names.length ? t("lobby.status_won", { who: list(names) }) : t("lobby.over");
  }
  if (g.status === "your_turn") return t("lobby.status_your_turn", { round: g.round, phase });
  const p = g.players.find((x) => x.seat === g.current_player);
  if (!p) return t("lobby.status_round", { round: g.round, phase });
  if (!p.bot && !p.claimed) return t(p.open ? "lobby.status_open" : "lobby.status_invited", { name: playerName(p.seat), round: g.round, phase });
  return t("lobby.status_turn", { name: seatLabel(p), round: g.round, phase });
}

/** Last activity as "5 minutes ago" in the page's language. */
function ago(unix) {
  const secs = Math.round(unix - Date.now() / 1000);
  if (Math.abs(secs) < 45) return t("lobby.just_now");
  const fmt = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(secs) >= size || unit === "minute") return fmt.format(Math.round(secs / size), unit);
  }
  return "";
}

function timeEl(unix) {
  const when = new Date(unix * 1000);
  return h("time", { class: "ago", datetime: when.toISOString(), dataset: { at: unix }, title: when.toLocaleString(language()) }, ago(unix));
}

function updateTimes() {
  $$("#games-list time.ago").forEach((el) => { el.textContent = ago(Number(el.dataset.at)); });
}

function playerChip(g, p) {
  const turn = !g.over && p.seat === g.current_player;
  const cls = ["chip", p.you && "you", p.bot && "bot", !p.bot && !p.claimed && (p.open ? "open" : "invited"), turn && "turn",
    (g.winners || []).includes(p.seat) && g.over && "winner"].filter(Boolean).join(" ");
  // a person's name opens their profile; their rating beside it (issue 21)
  const label = p.person ? personLink(p.person, seatLabel(p)) : seatLabel(p);
  return h("span", { class: cls, dataset: { seat: p.seat }, title: playerName(p.seat) },
    label, p.you ? ` ${t("player.you")}` : "", ratingBadge(p.rating));
}

function linkRow(label, url, aria) {
  return h("li", { class: "invite" },
    h("span", { class: "invite-label" }, label),
    h("input", { class: "link", readonly: true, value: url, "aria-label": aria, onfocus: (ev) => ev.target.select() }),
    copyButton(url, { class: "small" }));
}

function gameRow(g) {
  const sets = g.sets.map((x) => t(`set.${x}`)).join(" + ");
  const meta = [sets, g.ruleset ? t(`ruleset.${g.ruleset}`) : null, g.leaders ? t("lobby.with_leaders") : null].filter(Boolean).join(" · ");
  const open = t(g.status === "your_turn" ? "lobby.play" : g.over ? "lobby.view" : "lobby.open");
  const invites = g.creator ? [
    ...g.invitations.map((inv) => linkRow(t("lobby.invite_label", { name: playerName(inv.seat) }), absolute(inv.url),
      t("lobby.invite_for", { name: playerName(inv.seat) }))),
    ...g.players.filter((p) => p.open && !p.claimed).map((p) => linkRow(t("lobby.open_label", { name: playerName(p.seat) }),
      absolute(g.url), t("lobby.open_for", { name: playerName(p.seat) }))),
  ] : [];
  const title = tableTitle(g.name, g.players);
  const replay = g.over ? h("a", { class: "button replay-game", href: replayLink(g) }, t("replay.open")) : null;
  const edit = g.creator && !g.over ? h("button", { type: "button", class: "small edit-table", title: t("tables.edit_title"),
    "aria-label": t("tables.edit_title"), onclick: (ev) => editTable(g, ev.currentTarget.closest(".game-row")) }, "✎") : null;
  return h("li", { class: `game-row ${g.status}`, dataset: { id: g.id, status: g.status } },
    h("div", { class: "game-head" },
      h("a", { class: "game-title", href: tableLink(g), title: t("lobby.game", { id: g.id }) }, title), edit,
      g.public ? h("span", { class: "tag public-tag", title: t("tables.public_title") }, t("tables.public_tag")) : null,
      h("span", { class: "muted small game-meta" }, meta)),
    h("div", { class: "game-players" }, g.players.map((p) => playerChip(g, p))),
    h("div", { class: "game-foot" },
      h("span", { class: "status" }, statusText(g)),
      h("span", { class: "muted small" }, timeEl(g.updated_at)),
      g.chat_messages ? h("span", { class: "muted small chat-count" }, t("lobby.chat_count", { n: g.chat_messages })) : null,
      replay,
      h("a", { class: `button open-game${g.status === "your_turn" ? " primary" : ""}`, href: tableLink(g) }, open)),
    invites.length ? h("div", { class: "game-invites" },
      h("p", { class: "small muted" }, t("lobby.invites_explain")),
      h("ul", { class: "invites" }, invites)) : null);
}

/** The host's small form in a game's row: the table's name, and public or private. */
function editTable(g, rowEl) {
  if (!rowEl || rowEl.querySelector(".table-edit")) return;
  const input = h("input", { type: "text", class: "table-name-input", maxlength: NAME_MAX, value: g.name || "",
    placeholder: tableTitle(null, g.players), "aria-label": t("tables.name_label") });
  const pub = h("input", { type: "checkbox", class: "table-public", checked: !!g.public });
  const note = h("span", { class: "small warn", role: "alert", hidden: true });
  const form = h("form", { class: "table-edit" },
    h("label", {}, t("tables.name_label"), " ", input),
    h("label", { class: "check" }, pub, t("tables.public_short")),
    h("button", { type: "submit", class: "small primary" }, t("tables.save")),
    h("button", { type: "button", class: "small", onclick: () => { form.remove(); } }, t("tables.cancel")),
    note);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const res = await patchTable(g.id, { name: input.value.trim() || null, public: pub.checked });
      games.set(g.id, { ...g, name: res.name, public: res.public });
      renderGames(g.id);
    } catch (e) {
      if (keyRefused(e) && e.status === 401) { lostKey(); return; }
      note.textContent = t("tables.save_failed", { why: e.message });
      note.hidden = false;
    }
  });
  rowEl.querySelector(".game-head").after(form);
  input.focus();
}

// ------------------------------------------------------------------ creating a game

function createForm(bots) {
  const kinds = [...bots.levels.map((l) => l.name), ...bots.others];
  const defaultBot = kinds.includes("wanderer") ? "wanderer" : kinds.includes("greedy") ? "greedy" : kinds[0];
  const seatRows = h("div", { id: "seat-rows" });
  const playersSel = h("select", { id: "players", name: "players" },
    [2, 3, 4].map((n) => h("option", { value: n }, t("lobby.players_n", { n }))));

  function seatRow(seat) {
    // seat 1 is the creator's (or a bot); every other seat: a friend's invitation, an open seat, or a bot
    const people = seat === 0
      ? [h("option", { value: "human" }, t("lobby.you_named", { name: (person() || {}).name || "" }))]
      : [h("option", { value: "human" }, t("lobby.invite")), h("option", { value: "open" }, t("lobby.open_seat"))];
    // The levels first, by strength, each with its rating; then the bots themselves (issue 20).
    const option = (b, text) => h("option", { value: b, selected: seat > 0 && b === defaultBot }, text);
    const levelOptions = bots.levels.map((l) => option(l.name, typeof l.rating === "number"
      ? t("lobby.level_option", { name: kindName(l.name), rating: l.rating })
      : t("lobby.level_option_unrated", { name: kindName(l.name) })));
    const otherOptions = bots.others.map((b) => option(b, t("lobby.bot", { bot: kindName(b) })));
    const kind = h("select", { name: `seat-${seat}`, "aria-label": t("lobby.seat_kind", { name: playerName(seat) }) },
      people,
      levelOptions.length ? h("optgroup", { label: t("lobby.levels") }, levelOptions) : null,
      otherOptions.length ? (levelOptions.length ? h("optgroup", { label: t("lobby.other_bots") }, otherOptions) : otherOptions) : null);
    const think = h("select", { name: `think-${seat}`, "aria-label": t("lobby.strength", { name: playerName(seat) }) },
      THINK.map((v) => h("option", { value: v, selected: v === "0.5" }, t(`lobby.think.${v}`))));
    const about = h("p", { class: "small muted seat-about", id: `seat-about-${seat}` });
    kind.setAttribute("aria-describedby", about.id);
    const sync = () => {
      think.hidden = kind.value !== "ismcts";
      about.textContent = botAbout(kind.value, bots.levels);
      about.hidden = !about.textContent;
    };
    kind.addEventListener("change", sync);
    sync();
    return h("div", { class: "seat-row" }, h("span", { class: "seat-label" }, playerName(seat)), kind, think, about);
  }
  function syncSeats() {
    const n = Number(playersSel.value);
    while (seatRows.children.length < n) seatRows.append(seatRow(seatRows.children.length));
    while (seatRows.children.length > n) seatRows.lastChild.remove();
  }
  playersSel.addEventListener("change", syncSeats);
  syncSeats();

  // The table: its name (by default the people's names) and who may join (issue 21).
  const nameInput = h("input", { type: "text", id: "table-name", name: "table_name", maxlength: NAME_MAX,
    autocomplete: "off", "aria-describedby": "table-name-hint" });
  const visibility = h("div", { class: "visibility", role: "radiogroup", "aria-label": t("tables.visibility") },
    ["private", "public"].map((v) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "visibility", value: v, checked: v === "private" }),
      h("span", {}, h("strong", {}, t(`tables.${v}`)), h("span", { class: "small muted" }, t(`tables.${v}_hint`))))));
  function syncName() {
    const me = (person() || {}).name || "";
    const players = [];
    for (const sel of seatRows.querySelectorAll("select[name^='seat-']")) {
      const v = sel.value;
      if (sel.name === "seat-0" && v === "human") players.push({ name: me });
      else if (v !== "human" && v !== "open") players.push({ bot: v });
    }
    nameInput.placeholder = tableTitle(null, players);
  }
  visibility.addEventListener("change", () => {
    // A public table is for strangers: its friends' seats become open seats (they may be set back).
    if (visibility.querySelector("input:checked").value !== "public") return;
    for (const sel of seatRows.querySelectorAll("select[name^='seat-']")) {
      if (sel.name !== "seat-0" && sel.value === "human") sel.value = "open";
    }
  });
  seatRows.addEventListener("change", syncName);
  playersSel.addEventListener("change", syncName);
  syncName();

  // The host's own card values (issue 21), checked for the sets chosen.
  const chosenSets = () => {
    const sets = ["base", ...[...document.querySelectorAll("#create-form input[name=sets]:checked")].map((x) => x.value).filter((x) => x !== "base")];
    const leaders = document.querySelector("#create-form input[name=leaders]");
    if (leaders && leaders.checked && !sets.includes("twilight_garden")) sets.push("twilight_garden");
    return sets;
  };
  const house = houseCardsField(chosenSets);

  const form = h("form", { id: "create-form", class: "panel" },
    h("h2", {}, t("lobby.new_game")),
    h("fieldset", { class: "table-options" }, h("legend", {}, t("tables.table")),
      h("label", { for: "table-name" }, t("tables.name_label")), nameInput,
      h("p", { class: "small muted", id: "table-name-hint" }, t("tables.name_hint")),
      visibility),
    h("label", {}, t("lobby.players"), " ", playersSel),
    h("fieldset", {}, h("legend", {}, t("lobby.seats")), seatRows,
      h("p", { class: "small muted seat-hint" }, t("lobby.seat_hint"))),
    h("fieldset", {}, h("legend", {}, t("lobby.sets")),
      SETS.map((v) => h("label", { class: "check" },
        h("input", { type: "checkbox", name: "sets", value: v, checked: v === "base", disabled: v === "base" }), t(`set.${v}`)))),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "leaders" }), t("lobby.leaders")),
    h("label", {}, t("lobby.ruleset"), " ",
      h("select", { name: "ruleset", id: "ruleset" }, RULESETS.map((r) => h("option", { value: r }, t(`ruleset.${r}`))))),
    house.el,
    h("button", { type: "submit", class: "primary", id: "create-btn" }, t("lobby.create")));
  form.addEventListener("change", (ev) => { if (ev.target.name === "sets" || ev.target.name === "leaders") house.recheck(); });
  form.addEventListener("submit", (ev) => { ev.preventDefault(); submitGame(form, house); });
  return form;
}

async function submitGame(form, house) {
  const fd = new FormData(form);
  const players = Number(fd.get("players") ?? form.querySelector("#players").value);
  const sets = ["base", ...fd.getAll("sets").filter((x) => x !== "base")];
  const bots = {};
  const openSeats = [];
  for (let seat = 0; seat < players; seat++) {
    const kind = fd.get(`seat-${seat}`);
    if (kind === "open") openSeats.push(seat);
    else if (kind && kind !== "human") bots[String(seat)] = kind === "ismcts" ? `${kind}:${fd.get(`think-${seat}`)}` : kind;
  }
  if (Object.keys(bots).length === players) { banner(t("lobby.need_person")); return; }
  const leaders = fd.get("leaders") === "on";
  if (leaders && !sets.includes("twilight_garden")) sets.push("twilight_garden");
  const isPublic = fd.get("visibility") === "public";
  if (isPublic && !openSeats.length) { banner(t("tables.need_open_seat")); return; }
  const payload = { players, sets, leaders, ruleset: fd.get("ruleset"), bots, open_seats: openSeats, public: isPublic };
  const name = String(fd.get("table_name") || "").trim();
  if (name) payload.name = name;
  if (fd.get("seat-0") === "human") payload.creator_seat = 0;
  const file = form.querySelector("#house-file");
  if (file && file.files && file.files.length) {
    // a file that is still being checked, or has problems, is not played with silently
    if (!house.text()) { banner(t("house.not_ready")); return; }
    payload.house_cards = house.text();
  }
  const btn = $("#create-btn");
  btn.disabled = true;
  try {
    const res = await createGame(payload);
    clearBanner();
    const others = res.seats.filter((x) => !x.bot && !x.name);
    const mine = res.seats.find((x) => x.token && x.name);
    if (!others.length && mine) {             // bots only besides me: to the table at once
      location.href = absolute(mine.url);
      return;
    }
    fresh = res.id;
    form.querySelector("#table-name").value = "";     // the next table gets a name of its own
    try {
      const row = await getMyGame(res.id);
      games.set(row.id, row);
      gamesChanged([row], noticeOptions);
    } catch { /* the lobby socket brings it */ }
    renderGames();
    const made = games.get(res.id);
    const title = made ? tableTitle(made.name, made.players) : res.id;
    banner(t(isPublic ? "tables.created_public" : "lobby.created_invite", { id: title, name: title }), "info");
  } catch (e) {
    if (keyRefused(e)) { lostKey(); return; }         // a new game has no token: a 403 is the key's
    if (e.body && Array.isArray(e.body.problems)) { house.refused(e.body.problems); banner(t("house.not_ready")); return; }
    banner(e.status === 409 ? t("tables.host_too_many") : t("lobby.create_failed", { why: e.message }));
  } finally {
    btn.disabled = false;
  }
}
