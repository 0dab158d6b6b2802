// House cards (issue 21): a host who owns the printed cards plays with their own card values.
//
// In the lobby: a file field in the new-game form.  The file (the catalogue format of
// docs/catalogue.md) is checked by the server at once (POST /api/house-cards/check) and every
// problem is listed with its line; a good file says how many of its values differ from the shipped
// ones, and the game is created with it (`house_cards`).  At the table: a notice for every seat
// ("Played with the host's card values") that opens the list of the values that differ (the game's
// catalogue carries that list, made by server/house_cards.py).

import { h } from "./dom.js";
import { t, has, list } from "./i18n.js";
import { api } from "./api.js";
import { catalogue } from "./catalogue.js";
import { dialog } from "./dialogs.js";
import { clearBanner } from "./banner.js";

/** Largest file the server accepts (server/house_cards.py MAX_BYTES). */
const MAX_BYTES = 96 * 1024;

/** A problem in the page's language, with its line when it has one: ours by their code, the
 *  catalogue validator's by theirs (`check`, cards/problems.py), in English only if this page
 *  has no words for it. */
export function problemText(p) {
  const key = `house.problem.${p.code}`;
  let text = p.message;
  if (p.code === "catalogue") {
    if (p.check && has(`house.check.${p.check}`)) text = checkText(p);
  } else if (has(key)) {
    text = t(key, { ...(p.args || {}), message: p.message });
  }
  return p.line ? t("house.line", { line: p.line, message: text }) : text;
}

/** Where in the file a validator problem is: "advancement 'Stag', ability 2". */
function whereText(w) {
  if (!w || !has(`house.where.${w.kind}`)) return "";
  let out = t(`house.where.${w.kind}`, { name: w.name ?? "" });
  if (w.ability != null) out = t("house.where.ability", { where: out, n: w.ability });
  if (w.side != null) out = t("house.where.part", { where: out, side: t(`house.where.side.${w.side}`), n: w.part });
  return out;
}

/** A validator problem's sentence; the card it is about leads it, or stands inside it where
 *  the message places `{where}` ("advancement 'Stag' is in two sets"). */
function checkText(p) {
  const where = whereText(p.where);
  const msg = t(`house.check.${p.check}`, p.args || {});
  if (msg.includes("{where}")) return msg.replace("{where}", where);
  return where ? t("house.check.at", { where, message: msg }) : msg;
}

/** The lobby's field: `getSets()` gives the sets chosen in the form.  Returns {el, text()}:
 *  text() is the accepted file's text, or null (no file, or one with problems). */
export function houseCardsField(getSets) {
  let accepted = null;
  let checking = 0;
  const input = h("input", { type: "file", id: "house-file", accept: ".toml,text/plain,application/toml" });
  const result = h("div", { id: "house-result", role: "status", "aria-live": "polite" });
  const remove = h("button", { type: "button", class: "small", id: "house-remove", hidden: true,
    onclick: () => { input.value = ""; accepted = null; result.replaceChildren(); remove.hidden = true; } }, t("house.remove"));

  function showProblems(name, problems) {
    result.replaceChildren(...[h("p", { class: "house-bad" }, t("house.problems", { n: problems.length, file: name })),
      h("ul", { class: "house-problems small" }, problems.slice(0, 30).map((p) => h("li", {}, problemText(p)))),
      problems.length > 30 ? h("p", { class: "small muted" }, t("house.more", { n: problems.length - 30 })) : null].filter(Boolean));
  }

  async function check() {
    accepted = null;
    remove.hidden = true;
    const file = input.files && input.files[0];
    if (!file) { result.replaceChildren(); return; }
    remove.hidden = false;
    if (file.size > MAX_BYTES) {
      showProblems(file.name, [{ code: "too_large", line: null, args: { size: file.size, max: MAX_BYTES }, message: "" }]);
      return;
    }
    const mine = ++checking;
    result.replaceChildren(h("p", { class: "muted small" }, t("house.checking")));
    let text;
    try {
      text = await file.text();
    } catch {
      showProblems(file.name, [{ code: "not_utf8", line: null, message: "" }]);
      return;
    }
    try {
      const res = await api("POST", "/api/house-cards/check", { sets: getSets(), text });
      if (mine !== checking) return;
      accepted = text;
      clearBanner();                  // (a "not loaded" banner of the file before is out of date)
      const n = res.differences.length;
      result.replaceChildren(h("p", { class: "house-ok" }, "✓ ",
        t(n ? "house.ok" : "house.ok_same", { file: file.name, set: t(`set.${res.set}`), cards: res.cards, n })));
    } catch (e) {
      if (mine !== checking) return;
      const problems = e.body && Array.isArray(e.body.problems) ? e.body.problems : [{ code: "", line: null, message: e.message }];
      showProblems(file.name, problems);
    }
  }
  input.addEventListener("change", check);
  const el = h("fieldset", { class: "house-cards" }, h("legend", {}, t("house.legend")),
    h("p", { class: "small muted" }, t("house.hint")),
    h("label", { for: "house-file" }, t("house.file_label")), " ", input, " ", remove, result);
  return {
    el,
    text: () => accepted,
    /** Check again (the sets changed: a file for a set no longer chosen is refused). */
    recheck: () => { if (input.files && input.files[0]) check(); },
    /** Problems the server found when the game was created. */
    refused: (problems) => showProblems((input.files && input.files[0] && input.files[0].name) || "", problems),
  };
}

/** Whether this table plays with the host's card values. */
export function playsHouseCards(view) {
  return !!(view && view.options && (view.options.house_cards || []).length);
}

/** The table's notice for every seat, or null: one line, and a button that shows what differs. */
export function houseNotice(view, onShow) {
  if (!playsHouseCards(view)) return null;
  const sets = list(view.options.house_cards.map((s) => t(`set.${s}`)));
  return h("div", { id: "house-notice", class: "tour-offer", role: "note" },
    h("span", {}, t("house.notice", { sets })),
    h("span", { class: "tour-offer-buttons" },
      h("button", { type: "button", class: "small", id: "house-show", onclick: onShow }, t("house.show"))));
}

function valueText(field, value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "boolean") return t(value ? "house.yes" : "house.no");
  if (field === "symbols" && typeof value === "object") {
    const words = Object.entries(value).filter(([, n]) => n).map(([k, n]) => t(`symbol.count.${k}`, { n }));
    return words.length ? list(words) : t("house.none");
  }
  if (field === "text") return value ? `„${value}“` : t("house.none");
  return String(value);
}

/** One difference as a table row: card, value, shipped, host's. */
function differenceRow(d) {
  if (d.field === "card") {
    return h("tr", {}, h("td", {}, d.name), h("td", { colspan: 3 }, t(d.house ? "house.only_house" : "house.only_shipped")));
  }
  const field = has(`value.${d.field}`) ? t(`value.${d.field}`) : d.field;
  return h("tr", {}, h("td", {}, d.name), h("td", {}, field), h("td", {}, valueText(d.field, d.shipped)),
    h("td", {}, valueText(d.field, d.house)));
}

/** The dialog of the values that differ from the shipped ones. */
export function houseDialog(view, close) {
  const house = (catalogue() && catalogue().house) || { differences: [] };
  const diffs = house.differences || [];
  const sets = list((view.options.house_cards || []).map((s) => t(`set.${s}`)));
  return dialog("house", t("house.dialog_title"), close,
    h("p", {}, t("house.dialog_intro", { sets })),
    diffs.length
      ? h("table", { class: "scores house-diffs" },
        h("thead", {}, h("tr", {}, ["card", "value", "shipped", "house"].map((k) => h("th", { scope: "col" }, t(`house.col.${k}`))))),
        h("tbody", {}, diffs.map(differenceRow)))
      : h("p", { class: "muted" }, t("house.none_differ")));
}
