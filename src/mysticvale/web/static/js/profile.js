// The person's menu in the top bar (issue 15): the name, and a panel to change it, copy the
// personal link that restores the identity on another device, make a new key, and choose how to be
// told that it is one's turn (browser notifications, a sound, e-mail where the server sends it).

import { h, s, $ } from "./dom.js";
import { t } from "./i18n.js";
import { refusalText } from "./api.js";
import { person, rename, replaceKey, signOutEverywhere, personalLink, getSettings, patchSettings, resendConfirmation, keyRefused } from "./people.js";
import {
  notificationPermission, notificationsOn, askNotifications, setNotifications, chooseSound, soundFromServer, soundOn, chime,
} from "./notify.js";
import { NAME_MAX } from "./welcome.js";
import { languageField } from "./dialogs.js";
import { chosenLanguage } from "./settings.js";

/** When each text was last copied: a button drawn again by a live update (the lobby redraws a
 *  game's row when the game changes) keeps saying "Copied" for the rest of the moment. */
const copiedAt = new Map();
const COPIED_MS = 1500;

/** The label of a copy button for `text`: "Copied" for a moment after it was copied, else "Copy". */
export function copyLabel(text) {
  const at = copiedAt.get(text);
  return at !== undefined && Date.now() - at < COPIED_MS ? t("lobby.copied") : t("lobby.copy");
}

/** A copy button for `text` (a string, or a function that gives the text when clicked: a link
 *  that may change), with class `copy` and any `extra` attributes. */
export function copyButton(text, extra = {}) {
  const current = typeof text === "function" ? text : () => text;
  const button = h("button", Object.assign({ type: "button", onclick: () => copyText(current(), button) }, extra,
    { class: ["copy", extra.class].filter(Boolean).join(" ") }), copyLabel(current()));
  const at = copiedAt.get(current());
  if (at !== undefined && Date.now() - at < COPIED_MS) {
    setTimeout(() => { button.textContent = copyLabel(current()); }, COPIED_MS - (Date.now() - at));
  }
  return button;
}

/** Copy `text` to the clipboard (or by the old way where the clipboard API is refused); the
 *  button says "Copied" for a moment. */
export async function copyText(text, button) {
  copiedAt.set(text, Date.now());
  if (button) button.textContent = t("lobby.copied");
  setTimeout(() => {
    if (copiedAt.has(text) && Date.now() - copiedAt.get(text) >= COPIED_MS) copiedAt.delete(text);
    if (button) button.textContent = copyLabel(text);
  }, COPIED_MS);
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h("textarea", { class: "offscreen" }, text);
    document.body.append(area);
    area.select();
    try { document.execCommand("copy"); } catch { /* the link stays visible to copy by hand */ }
    area.remove();
  }
}

let hooks = { onKeyChanged: () => {}, onKeyRefused: () => {} };

const personIcon = () => s("svg", { class: "icon", viewBox: "0 0 24 24", width: "1.1em", height: "1.1em", "aria-hidden": "true" },
  s("circle", { cx: 12, cy: 8, r: 4.2, fill: "currentColor" }),
  s("path", { d: "M3.5 21c.8-4.6 4.2-7 8.5-7s7.7 2.4 8.5 7Z", fill: "currentColor" }));

/** Put the person's button into the top bar.  `onKeyChanged()` after a new key, `onKeyRefused()`
 *  when the server no longer knows the key. */
export function installProfile(options) {
  hooks = Object.assign(hooks, options);
  const p = person();
  const btn = h("button", { type: "button", id: "person-btn", "aria-haspopup": "dialog", "aria-expanded": "false",
    title: t("people.menu_title"), onclick: () => toggle() },
  personIcon(), h("span", { id: "person-name-top" }, p && p.name ? p.name : "…"), h("span", { class: "caret", "aria-hidden": "true" }, "▾"));
  $("#topactions").replaceChildren(btn);
}

/** Show the person's current name in the top bar. */
export function showName() {
  const el = $("#person-name-top");
  const p = person();
  if (el && p && p.name) el.textContent = p.name;
}

export function closeProfile() {
  const panel = $("#profile");
  if (panel) panel.remove();
  const btn = $("#person-btn");
  if (btn) btn.setAttribute("aria-expanded", "false");
  document.removeEventListener("keydown", onKey);
  document.removeEventListener("pointerdown", onOutside, true);
}

function onKey(ev) { if (ev.key === "Escape") closeProfile(); }
function onOutside(ev) {
  if (!ev.target.closest("#profile, #person-btn")) closeProfile();
}

function toggle() {
  if ($("#profile")) { closeProfile(); return; }
  const panel = h("section", { id: "profile", class: "panel profile-panel", role: "dialog", "aria-label": t("people.profile") });
  document.body.append(panel);
  $("#person-btn").setAttribute("aria-expanded", "true");
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", onOutside, true);
  fill(panel);
}

/** A short line under a part of the panel: what was done, or what went wrong. */
function note() {
  const el = h("p", { class: "note small", role: "status", hidden: true });
  el.say = (text, kind = "ok") => { el.textContent = text; el.className = `note small ${kind}`; el.hidden = false; };
  return el;
}

function refused(e) {
  if (!keyRefused(e)) return false;
  closeProfile();
  hooks.onKeyRefused();
  return true;
}

function fill(panel) {
  const p = person() || {};
  panel.replaceChildren(
    h("div", { class: "profile-head" },
      h("h2", {}, t("people.profile")),
      h("button", { type: "button", class: "small close", "aria-label": t("people.close"), onclick: closeProfile }, "×")),
    mineSection(p), nameSection(p), linkSection(), noticeSection(),
    h("div", { class: "profile-part", id: "language-part" }, languageField()));
}

/** A way to one's own profile (issue 21), with the rating once it is read. */
function mineSection(p) {
  if (!p.id) return null;
  const rating = h("span", { class: "muted small", id: "my-rating" });
  fetch(`/api/people/${encodeURIComponent(p.id)}/profile?finished=0`).then((r) => (r.ok ? r.json() : null)).then((me) => {
    if (!me) return;
    rating.textContent = me.rating ? t("rating.yours", { n: me.rating.value, games: me.games.played })
      : t("rating.yours_none", { games: me.games.played });
  }).catch(() => { /* the link is enough */ });
  return h("div", { class: "profile-part" },
    h("a", { href: `/people/${encodeURIComponent(p.id)}`, id: "my-profile-link", class: "button" }, t("profile.yours")),
    " ", rating);
}

function nameSection(p) {
  const input = h("input", { id: "rename-input", type: "text", maxlength: NAME_MAX, value: p.name || "", required: true,
    autocomplete: "nickname", "aria-label": t("people.your_name") });
  const msg = note();
  const form = h("form", { class: "profile-row", id: "rename-form" }, input,
    h("button", { type: "submit", id: "rename-btn" }, t("people.rename")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) { msg.say(t("people.name_empty"), "warn"); return; }
    try {
      const me = await rename(name);
      input.value = me.name;
      showName();
      msg.say(t("people.renamed", { name: me.name }));
    } catch (e) {
      if (!refused(e)) msg.say(t("people.name_failed", { why: refusalText(e) }), "warn");
    }
  });
  return h("div", { class: "profile-part" }, h("h3", {}, t("people.your_name")), form, msg);
}

function linkSection() {
  const field = h("input", { id: "personal-link", class: "link", type: "password", readonly: true, value: personalLink(),
    "aria-label": t("people.link_label"), onfocus: (ev) => ev.target.select() });
  const show = h("button", { type: "button", class: "small", id: "show-link", "aria-pressed": "false",
    onclick: () => {
      const visible = field.type === "password";
      field.type = visible ? "text" : "password";
      show.textContent = t(visible ? "people.hide_link" : "people.show_link");
      show.setAttribute("aria-pressed", String(visible));
    } }, t("people.show_link"));
  const copy = copyButton(() => field.value, { id: "copy-link" });
  const msg = note();
  const renew = h("button", { type: "button", id: "new-key", class: "small", onclick: async () => {
    if (!window.confirm(t("people.new_key_confirm"))) return;
    renew.disabled = true;
    try {
      await replaceKey();
      field.value = personalLink();
      msg.say(t("people.new_key_done"));
      hooks.onKeyChanged();
    } catch (e) {
      if (!refused(e)) msg.say(t("people.new_key_failed", { why: e.message }), "warn");
    } finally {
      renew.disabled = false;
    }
  } }, t("people.new_key"));
  const signOut = h("button", { type: "button", id: "sign-out-everywhere", class: "small", onclick: async () => {
    if (!window.confirm(t("people.sign_out_confirm"))) return;
    signOut.disabled = true;
    try {
      await signOutEverywhere();
      field.value = personalLink();
      msg.say(t("people.sign_out_done"));
      hooks.onKeyChanged();
    } catch (e) {
      if (!refused(e)) msg.say(t("people.sign_out_failed", { why: e.message }), "warn");
    } finally {
      signOut.disabled = false;
    }
  } }, t("people.sign_out"));
  return h("div", { class: "profile-part" },
    h("h3", {}, t("people.link_heading")),
    h("p", { class: "small" }, t("people.link_explain")),
    h("div", { class: "profile-row" }, field, show, copy),
    h("p", { class: "small muted" }, t("people.link_secret")),
    h("p", { class: "small" }, renew, " ", h("span", { class: "muted" }, t("people.new_key_explain"))),
    h("p", { class: "small" }, signOut, " ", h("span", { class: "muted" }, t("people.sign_out_explain"))),
    msg);
}

function noticeSection() {
  const part = h("div", { class: "profile-part", id: "notify-part" }, h("h3", {}, t("notify.heading")),
    h("p", { class: "small muted" }, t("notify.always")));
  part.append(browserRow());
  const sound = h("input", { type: "checkbox", id: "sound-on", checked: soundOn() });
  const soundMsg = note();
  sound.addEventListener("change", async () => {
    chooseSound(sound.checked);
    if (sound.checked) chime();
    try {
      await patchSettings({ sound: sound.checked });
    } catch (e) {
      if (!refused(e)) soundMsg.say(t("notify.save_failed", { why: e.message }), "warn");
    }
  });
  part.append(h("div", { class: "profile-row" },
    h("label", { class: "check" }, sound, t("notify.sound")),
    h("button", { type: "button", class: "small", id: "sound-test", onclick: () => chime() }, t("notify.sound_test"))), soundMsg);
  const mail = h("div", { id: "email-part" });
  part.append(mail);
  // The box opens with this browser's own setting; the server's (another device's choice)
  // replaces it when it comes, unless the person has clicked the box meanwhile.
  const fromServer = soundFromServer();
  getSettings().then((st) => {
    if (fromServer(!!st.sound)) sound.checked = !!st.sound;
    if (st.email_available) mail.replaceChildren(emailRows(st));
  }).catch((e) => { if (!refused(e)) soundMsg.say(t("notify.load_failed", { why: e.message }), "warn"); });
  return part;
}

/** Browser notifications: asked for only here, by a click. */
function browserRow() {
  const row = h("div", { class: "profile-row", id: "browser-notify" });
  const draw = () => {
    const state = notificationPermission();
    if (state === "granted") {
      const box = h("input", { type: "checkbox", id: "browser-on", checked: notificationsOn(),
        onchange: () => setNotifications(box.checked) });
      row.replaceChildren(h("label", { class: "check" }, box, t("notify.browser_on")));
    } else if (state === "default") {
      row.replaceChildren(h("button", { type: "button", id: "ask-notify", onclick: async () => { await askNotifications(); draw(); } },
        t("notify.browser_ask")), h("span", { class: "small muted" }, t("notify.browser_ask_explain")));
    } else {
      row.replaceChildren(h("span", { class: "small muted" }, t(state === "denied" ? "notify.browser_denied" : "notify.browser_unsupported")));
    }
  };
  draw();
  return row;
}

/** E-mail "your turn" messages (only on a server that sends e-mail). */
function emailRows(st) {
  const address = h("input", { type: "email", id: "email-input", value: st.email || "", maxlength: 320, autocomplete: "email",
    placeholder: t("notify.email_placeholder"), "aria-label": t("notify.email") });
  const turns = h("input", { type: "checkbox", id: "email-turns", checked: !!st.email_turns });
  const msg = note();
  const state = h("p", { class: "small", id: "email-state" });
  const showState = (x) => {
    state.replaceChildren();
    if (!x.email) return;
    if (x.email_confirmed) { state.append(t("notify.email_confirmed", { email: x.email })); return; }
    // Sent only when the SMTP server took it; else it is tried again later, or was given up.
    const said = x.confirmation_sent || x.confirmation === "sent" ? "notify.email_sent"
      : x.confirmation === "retrying" || x.confirmation === "queued" ? "notify.email_retrying"
        : x.confirmation === "failed" ? "notify.email_not_sent" : "notify.email_unconfirmed";
    state.classList.toggle("warn", said === "notify.email_retrying" || said === "notify.email_not_sent");
    state.append(t(said, { email: x.email }), " ",
      h("button", { type: "button", class: "small", id: "email-resend", onclick: async () => {
        try { showState(await resendConfirmation()); } catch (e) { if (!refused(e)) msg.say(t("notify.save_failed", { why: refusalText(e) }), "warn"); }
      } }, t("notify.email_resend")));
  };
  showState(st);
  const form = h("form", { id: "email-form" },
    h("label", { for: "email-input" }, t("notify.email")),
    h("div", { class: "profile-row" }, address),
    h("label", { class: "check" }, turns, t("notify.email_turns")),
    h("div", { class: "profile-row" }, h("button", { type: "submit", id: "email-save" }, t("notify.email_save"))),
    state, msg);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const email = address.value.trim() || null;
    try {
      // The e-mails come in the person's language; one who never chose gets the page's language.
      const language = st.language ? {} : { language: chosenLanguage() };
      const res = await patchSettings({ email, email_turns: email ? turns.checked : false, ...language });
      st.language = res.language;
      turns.checked = res.email_turns;
      showState(res);
      msg.say(t("notify.saved"));
    } catch (e) {
      if (!refused(e)) msg.say(t("notify.save_failed", { why: e.message }), "warn");
    }
  });
  return form;
}
