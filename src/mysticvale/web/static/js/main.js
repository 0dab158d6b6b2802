// Mystic Vale browser client: the entry point.  Loads the messages, then shows the lobby (/) or a
// table (/games/{id}#token=T: the seat token in the fragment, which no server log sees).
//
// Modules by concern: state and transport (state.js, transport.js, patch.js, api.js), card faces
// (cards.js, icons.js, catalogue.js, zoom.js), table layout (table.js, field.js, commons.js,
// players.js), dialogs (dialogs.js, endscreen.js), log and playback (log.js, playback.js), numbers
// (numbers.js), settings (settings.js, storage.js), texts (i18n.js, messages/*.json), lobby (lobby.js),
// people (people.js: name, key, lobby socket; welcome.js: the name panel and claiming a seat;
// profile.js: the person's menu; notify.js: "your turn" badge, sound and notifications), a place
// where people meet (tables.js: open tables; tablename.js: table names; profilepage.js: profiles
// with ratings; replay.js: finished games step by step).

import { loadMessages } from "./i18n.js";
import { installIcons } from "./icons.js";
import { chosenLanguage, applyToPage, adoptLanguage, settings } from "./settings.js";
import { renderLobby } from "./lobby.js";
import { startTable } from "./table.js";
import { adoptKeyFromHash, personKey, getSettings, LobbySocket } from "./people.js";
import { seatForTable } from "./welcome.js";
import { atTable, gamesChanged, soundFromServer } from "./notify.js";
import { tabSeat, setTabSeat } from "./storage.js";
import { tableTitle } from "./tablename.js";

async function main() {
  const restored = adoptKeyFromHash();        // a personal link (/#key=K): kept, and gone from the address
  await followPersonsLanguage(restored);
  await loadMessages(chosenLanguage());
  installIcons();
  applyToPage();
  const m = location.pathname.match(/^\/games\/([^/]+)\/?$/);
  const replay = location.pathname.match(/^\/games\/([^/]+)\/replay\/?$/);
  const profile = location.pathname.match(/^\/people\/([^/]+)\/?$/);
  if (replay) {                                   // issue 21: a finished game, step by step
    const { startReplay } = await import("./replay.js");
    startReplay(decodeURIComponent(replay[1]));
  } else if (profile) {                           // issue 21: a person's profile
    const { renderProfilePage } = await import("./profilepage.js");
    renderProfilePage(decodeURIComponent(profile[1]));
  } else if (m) {
    const id = decodeURIComponent(m[1]);
    // An invitation is claimed under the person's name first (a new browser is asked for one); a
    // link without a token opens the person's own seat, or offers the open seats.
    const token = await seatForTable(id, seatToken(id));
    setTabSeat(id, token);                        // a reload opens the same seat (the address has no token)
    startTable(id, token);
    watchOtherGames(id);
    // Another seat's link of the same game opened in this tab changes only the fragment: open it.
    window.addEventListener("hashchange", () => location.reload());
  }
  else renderLobby({ restored });
}

/** A device with no language choice of its own takes the one the person keeps on the server
 *  (chosen on another device): asked once per device and person (again when a personal link brings
 *  a person).  A page that has just taken a personal link waits for the answer, as it waits for the
 *  person's games: the language is what that device is opened to find out (a slow server, as on a
 *  loaded machine, must not open it in the wrong one).  Otherwise never for longer than a moment. */
async function followPersonsLanguage(restored) {
  if (!personKey() || settings.language || (settings.languageAsked && !restored)) return;
  try {
    const st = await (restored ? getSettings()
      : Promise.race([getSettings(), new Promise((_, no) => setTimeout(() => no(new Error("slow")), 1500))]));
    adoptLanguage(st.language);
  } catch { /* asked again on the next page */ }
}

/** At a table: the person's other games still badge the icon and notify when it becomes their turn. */
function watchOtherGames(id) {
  if (!personKey()) return;
  atTable(id);
  const soundSync = soundFromServer();      // a choice made on this page before the answer stands
  getSettings().then((st) => soundSync(!!st.sound)).catch(() => { /* the copy kept here stays */ });
  const options = { label: (g) => tableTitle(g.name, g.players), link: (g) => `/games/${encodeURIComponent(g.id)}` };
  new LobbySocket({
    onGames: (rows) => gamesChanged(rows, { complete: true, ...options }),
    onGame: (row) => gamesChanged([row], options),
  }).start();
}

/** The seat token of a table link, `#token=T` (or an old `?token=T`), taken out of the address at
 *  once, as the personal key is (people.js adoptKeyFromHash): a token left in the address bar is seen
 *  by whoever looks at the screen and kept in the history.  Without one in the link: the token this
 *  tab opened the game with before (a reload). */
function seatToken(id) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const token = hash.get("token") || query.get("token");
  if (!token) return tabSeat(id);
  hash.delete("token");
  query.delete("token");
  const q = query.toString(), f = hash.toString();
  history.replaceState(null, "", `${location.pathname}${q ? `?${q}` : ""}${f ? `#${f}` : ""}`);
  return token;
}

main();
