// Making things on the table offer actions: one action is sent on click, several open a chooser.

import { h } from "./dom.js";
import { describe } from "./actions.js";
import { obs } from "./state.js";

let handlers = { send: () => {}, choose: () => {} };

/** Connect the widgets to the table: send(action) and choose(title, actions, opts). */
export function setHandlers(h_) { handlers = h_; }

/** Offer `actions` on `el`; `offered` collects what is offered somewhere. */
export function offer(el, actions, offered, title, chooserOpts = {}) {
  if (!actions || !actions.length) return el;
  actions.forEach((a) => offered.add(a));
  el.classList.add("clickable");
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  const o = obs();
  if (actions.length === 1) {
    el.dataset.action = actions[0];
    el.title = describe(o, actions[0]);
    el.setAttribute("aria-label", describe(o, actions[0]));
  } else {
    el.dataset.actions = JSON.stringify(actions);
    el.title = title || actions.map((a) => describe(o, a)).join(" / ");
    el.setAttribute("aria-label", el.title);
  }
  const go = (ev) => {
    ev.stopPropagation();
    if (actions.length === 1) handlers.send(actions[0]);
    else handlers.choose(title || el.title, actions, chooserOpts);
  };
  el.addEventListener("click", go);
  el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(ev); } });
  return el;
}

/** A button that sends `action`. */
export function actionButton(action, offered, { cls = "", id = null, label = null } = {}) {
  offered.add(action);
  return h("button", { type: "button", class: `act ${cls}`.trim(), id, dataset: { action },
    onclick: (ev) => { ev.stopPropagation(); handlers.send(action); } }, label || describe(obs(), action));
}
