// Mystic Vale browser client: the entry point.  Loads the messages, then shows the lobby (/) or a
// table (/games/{id}#token=T: the seat token in the fragment, which no server log sees).
//
// Modules by concern: state and transport (state.js, transport.js, patch.js, api.js), card faces
// (cards.js, icons.js, catalogue.js, zoom.js), table layout (table.js, field.js, commons.js,
// players.js), dialogs (dialogs.js, endscreen.js), log and playback (log.js, playback.js), numbers
// (numbers.js), settings (settings.js, storage.js), texts (i18n.js, messages/*.json), lobby (lobby.js).

import { loadMessages } from "./i18n.js";
import { installIcons } from "./icons.js";
import { settings, applyToPage } from "./settings.js";
import { renderLobby } from "./lobby.js";
import { startTable } from "./table.js";

async function main() {
  const wanted = settings.language || (navigator.language || "en").slice(0, 2);
  await loadMessages(wanted);
  installIcons();
  applyToPage();
  const m = location.pathname.match(/^\/games\/([^/]+)\/?$/);
  if (m) {
    startTable(decodeURIComponent(m[1]), seatToken());
    // Another seat's link of the same game opened in this tab changes only the fragment: open it.
    window.addEventListener("hashchange", () => location.reload());
  }
  else renderLobby();
}

/** The seat token of a table link: `#token=T` (an old `?token=T` link is moved into the fragment). */
function seatToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) return fromHash;
  const query = new URLSearchParams(location.search);
  const old = query.get("token");
  if (old) {
    query.delete("token");
    const rest = query.toString();
    history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}#token=${encodeURIComponent(old)}`);
  }
  return old;
}

main();
