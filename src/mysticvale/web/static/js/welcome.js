// Before the lobby or a table (issue 15): the panel that asks a new person for a display name, and
// the way to a seat: an invitation link (`/games/{id}#token=T`) is claimed under the person's name
// before the table opens; a game link without a token offers the game's open seats.

import { h, $ } from "./dom.js";
import { t, playerName, list } from "./i18n.js";
import { banner } from "./banner.js";
import { isLevel, kindName } from "./seats.js";
import { botName } from "./tablename.js";
import { refusalText } from "./api.js";
import {
  personKey, forgetPerson, createPerson, whoAmI, keyRefused, getMyGame, claimSeat, seatsOf,
} from "./people.js";

/** Longest display name (server/people.py NAME_MAX). */
export const NAME_MAX = 24;

/** How a seat of `GET /api/games/{id}/seats` (or a MyGame player) is shown in a list of players
 *  (`short`: next to the seat's own label, so without "Player N"). */
export function seatLabel(s, { short = false } = {}) {
  if (s.bot) {
    // "Druid (bot)" (a level, issue 20), "Random bot", "ISMCTS bot (0.5 s)"
    const kind = String(s.bot).split(":")[0];
    return isLevel(kind) ? t("lobby.chip_level", { bot: kindName(kind) }) : botName(s.bot);
  }
  if (s.name) return s.name;
  if (short) return t(s.open ? "lobby.open_seat" : "lobby.invite");
  return t(s.open ? "lobby.chip_open" : "lobby.chip_invited", { name: playerName(s.seat) });
}

/** A text input for a display name. */
function nameInput(value = "") {
  return h("input", { id: "person-name", name: "name", type: "text", maxlength: NAME_MAX, required: true,
    autocomplete: "nickname", spellcheck: "false", value, placeholder: t("people.name_placeholder") });
}

/**
 * The name panel: a friendly first step with one field.  Resolves once this browser holds a
 * personal key for the name given.  `message` explains why it is shown again (a refused key);
 * `players` (seats of a game) says which game an invitation is for.
 */
export function askName({ heading = t("people.welcome"), intro = t("people.welcome_intro"), message = "",
  players = null, submit = t("people.continue") } = {}) {
  return new Promise((resolve) => {
    const input = nameInput();
    const error = h("p", { class: "warn", id: "name-error", role: "alert", hidden: !message }, message);
    const button = h("button", { type: "submit", class: "primary", id: "name-btn" }, submit);
    const form = h("form", { id: "name-form", class: "name-form" },
      h("label", { for: "person-name" }, t("people.your_name")),
      h("div", { class: "name-row" }, input, button));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) { error.textContent = t("people.name_empty"); error.hidden = false; return; }
      button.disabled = true;
      try {
        await createPerson(name);
        resolve();
      } catch (e) {
        error.textContent = t("people.name_failed", { why: refusalText(e) });
        error.hidden = false;
        button.disabled = false;
      }
    });
    $("#app").replaceChildren(h("section", { id: "name-panel", class: "panel welcome" },
      h("h1", {}, heading),
      h("p", {}, intro),
      players ? h("p", { class: "welcome-players" }, t("people.players", { players: list(players.map(seatLabel)) })) : null,
      error,
      form,
      h("p", { class: "muted small" }, t("people.no_password")),
      h("p", { class: "muted small" }, t("people.other_device"))));
    input.focus();
  });
}

/** Whether a game is played among named people (somebody claimed a seat, or a seat is open): only
 *  then does an invitation link ask for a name.  Games made without names (the API, old links) open
 *  as before. */
const amongPeople = (seats) => seats.some((s) => s.claimed || s.open);

/**
 * The seat token to open the table of game `id` with (null: as a spectator), once the person is
 * seated.  `token` is the link's seat token, if any.  May show the name panel or the open seats
 * first.
 */
export async function seatForTable(id, token) {
  if (token) {
    if (!personKey()) {
      let seats;
      try { seats = await seatsOf(id); } catch { return token; }            // the table tells what is wrong
      if (!amongPeople(seats) || !seats.some((s) => !s.bot && !s.claimed && !s.open)) return token;
      await askName({ heading: t("people.invited"), intro: t("people.invited_intro"), players: seats,
        submit: t("people.take_seat") });
    }
    return claimInvitation(id, token);
  }
  if (personKey()) {
    try {
      const mine = await getMyGame(id);                 // a seat of mine: open it, whatever link was used
      if (mine.token) return mine.token;
    } catch (e) {
      if (keyRefused(e)) forgetPerson();
    }
  }
  let seats;
  try { seats = await seatsOf(id); } catch { return null; }
  if (!seats.some((s) => s.open && !s.claimed)) return null;
  return offerOpenSeats(id, seats);
}

/** Claim the seat of an invitation for the person; the table opens with the token whatever the
 *  answer (a seat somebody else holds or a bad token is the table's to explain). */
async function claimInvitation(id, token) {
  try {
    const res = await claimSeat(id, { token });
    return res.token;
  } catch (e) {
    if (e.status === 403) {                            // the key or the token: ask who I am
      try {
        await whoAmI();
      } catch (e2) {
        if (keyRefused(e2)) {
          forgetPerson();
          await askName({ message: t("people.key_invalid"), submit: t("people.take_seat") });
          return claimInvitation(id, token);
        }
      }
    } else if (e.status === 409) {
      banner(t("people.claim_conflict", { why: e.message }), "info");
    }
    return token;
  }
}

/** The open seats of a game without a token in the link: take one (with a name first, in the same
 *  panel, for a browser without one) or just watch. */
function offerOpenSeats(id, seats) {
  return new Promise((resolve) => {
    const named = !!personKey();
    const input = named ? null : nameInput();
    const error = h("p", { class: "warn", role: "alert", hidden: true });
    const show = (text) => { error.textContent = text; error.hidden = false; };
    const take = async (seat, button) => {
      if (input && !input.value.trim()) { show(t("people.name_empty")); input.focus(); return; }
      button.disabled = true;
      try {
        if (!personKey()) await createPerson(input.value.trim());
        const res = await claimSeat(id, { seat });
        resolve(res.token);
      } catch (e) {
        button.disabled = false;
        if (e.reason) { show(t("people.name_failed", { why: refusalText(e) })); return; }   // the name was refused
        if (e.status !== 409) { show(t("people.claim_failed", { why: e.message })); return; }
        // somebody else was quicker: show the seats as they are now
        const now = await seatsOf(id).catch(() => null);
        if (now) render(now);
        show(t("people.seat_gone", { why: e.message }));
      }
    };
    const box = h("section", { id: "open-seats", class: "panel welcome" });
    function render(list_) {
      const rows = list_.map((s) => h("li", { class: "seat-offer", dataset: { seat: s.seat } },
        h("span", { class: "seat-label" }, playerName(s.seat)),
        h("span", { class: "seat-who" }, seatLabel(s, { short: true })),
        s.open && !s.claimed
          ? h("button", { type: "button", class: "primary take-seat", onclick: (ev) => take(s.seat, ev.currentTarget) }, t("people.take_this_seat"))
          : null));
      box.replaceChildren(
        h("h1", {}, t("people.open_heading", { id })),
        h("p", {}, t("people.open_intro")),
        input ? h("label", { class: "name-label" }, t("people.your_name"), input) : null,
        error,
        h("ul", { class: "seat-offers" }, rows),
        h("p", {}, h("button", { type: "button", id: "just-watch", onclick: () => resolve(null) }, t("people.just_watch"))));
    }
    render(seats);
    $("#app").replaceChildren(box);
  });
}
