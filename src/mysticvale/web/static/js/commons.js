// The commons: three rows of advancements, Fertile Soil, and the two rows of vales.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { advancementFace, valeFace } from "./cards.js";
import { zoomable } from "./zoom.js";
import { offer } from "./widgets.js";
import { stat } from "./field.js";

const ROMAN = ["", "I", "II", "III"];

function rowHead(level, deckCount, key) {
  return h("div", { class: "row-label" }, h("span", { class: "lvl-badge" }, ROMAN[level]),
    h("span", { class: "muted" }, t(key, { n: deckCount })));
}

export function commonsPanel(ctx) {
  const { o, groups, offered } = ctx;
  const advRows = ["1", "2", "3"].map((row) => h("div", { class: "row", dataset: { row } },
    rowHead(Number(row), o.advancement_decks[row] ?? 0, "commons.deck"),
    h("div", { class: "row-cards" }, (o.commons[row] || []).map((c, i) => {
      if (!c) return h("div", { class: "face empty-face small" }, t("commons.empty"));
      const face = advancementFace(c.label);
      face.dataset.commons = `${row}.${i + 1}`;
      zoomable(face, { label: c.label });
      return offer(face, groups.commons[`${row}.${i + 1}`], offered, t("commons.buy_title", { name: c.name }),
        { preview: c.label });
    }))));
  const soil = h("div", { class: "row soil-row" },
    h("div", { class: "row-label", title: t("commons.soil_title", { n: o.fertile_soil_cost }) },
      h("span", { class: "lvl-badge soil-badge" }, t("commons.soil_short")),
      h("span", { class: "muted" }, t("commons.soil_cost", { n: o.fertile_soil_cost }))),
    h("div", { class: "row-cards" }, ["top", "middle", "bottom"].map((sl) => {
      const label = `Fertile Soil@${sl}`;
      const face = advancementFace(label, { flip: false });
      const el = h("div", { class: "soil", dataset: { soil: sl } }, face,
        h("span", { class: "soil-left" }, t("commons.soil_left", { n: o.fertile_soil[sl] ?? 0 })));
      zoomable(el, { label });
      return offer(el, groups.soil[sl], offered, t("commons.buy_title", { name: t("action.soil", { slot: t(`slot.${sl}`) }) }),
        { preview: label });
    })));
  const valeRows = ["1", "2"].map((row) => h("div", { class: "row vale-row", dataset: { valeRow: row } },
    rowHead(Number(row), o.vale_decks[row] ?? 0, "commons.vale_deck"),
    h("div", { class: "row-cards" }, (o.vale_rows[row] || []).map((v, i) => {
      if (!v) return h("div", { class: "face empty-face small" }, t("commons.empty"));
      const face = valeFace(v);
      zoomable(face, { vale: v });
      return offer(face, groups.vales[`${row}.${i + 1}`], offered, t("commons.vale_title", { name: v.name }));
    }))));
  return h("section", { id: "supply", class: "panel", dataset: { tab: "commons" } },
    h("div", { class: "supply-head" }, h("h3", {}, t("commons.title")),
      stat("vp", t("commons.vp_pool", { n: o.vp_pool }), { id: "vp-pool-c" })),
    h("div", { class: "adv-rows" }, advRows, soil),
    h("h3", {}, t("commons.vales")),
    h("div", { class: "vale-rows" }, valeRows));
}
