// HTTP with plain error messages.

import { has, t } from "./i18n.js";

/** The server's message from an error response body, as one readable line. */
export function errorText(status, body) {
  if (body && typeof body === "object") {
    const d = body.detail ?? body.message ?? body.error;
    if (typeof d === "string") return d;
    if (Array.isArray(d)) {
      return d.map((e) => (e.loc ? `${e.loc.filter((x) => x !== "body").join(".")}: ` : "") + (e.msg || JSON.stringify(e))).join("; ");
    }
    if (d) return JSON.stringify(d);
  }
  if (typeof body === "string" && body) return body.slice(0, 300);
  return `HTTP ${status}`;
}

/** A JSON request (`token`: the seat token, `key`: the personal key, each sent as a header); throws
 *  an Error with `.status` and the server's message when it fails. */
export async function api(method, path, payload, { token, key } = {}) {
  let resp;
  const headers = payload ? { "Content-Type": "application/json" } : {};
  // Secrets travel in headers, never in a URL (URLs reach logs and referrers).
  if (token) headers["X-Seat-Token"] = token;
  if (key) headers["X-Player-Key"] = key;
  try {
    resp = await fetch(path, {
      method,
      headers,
      body: payload ? JSON.stringify(payload) : undefined,
    });
  } catch (e) {
    const err = new Error(e.message);
    err.status = 0;
    err.network = true;
    throw err;
  }
  const text = await resp.text();
  let body = text;
  try { body = text ? JSON.parse(text) : null; } catch { /* keep text */ }
  if (!resp.ok) {
    const err = new Error(errorText(resp.status, body));
    err.status = resp.status;
    if (body && typeof body === "object" && typeof body.reason === "string") {
      err.reason = body.reason;
      err.params = body.params && typeof body.params === "object" ? body.params : {};
    }
    err.body = body;              // (the whole answer: e.g. a house-cards file's `problems`)
    throw err;
  }
  return body;
}

/** Why the server refused, in the page's language: the message `refusal.<reason>` when the answer
 *  named its rule (an error with `.reason`, from api() or a socket's error message), else the
 *  server's own (English) words. */
export function refusalText(e) {
  const reason = e && e.reason;
  if (typeof reason === "string" && has(`refusal.${reason}`)) return t(`refusal.${reason}`, e.params || {});
  return (e && e.message) || "";
}
