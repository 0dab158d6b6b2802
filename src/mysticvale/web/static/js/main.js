// Mystic Vale browser client: the entry point.  Loads the messages, then shows the lobby (/) or a
// table (/games/{id}?token=T).
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
  if (m) startTable(decodeURIComponent(m[1]), new URLSearchParams(location.search).get("token"));
  else renderLobby();
}

main();
