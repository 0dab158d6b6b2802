// What this device remembers: settings, the person's secret key (issue 15), the seat links of games
// opened before this browser had a name (kept only until they are claimed for the person), and per
// game the last log entry its player has seen (to mark what is new).

/** A JSON value from localStorage, or `fallback` when missing or unreadable. */
export function load(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v === null ? fallback : v;
  } catch {
    return fallback;
  }
}

export function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: not remembered */ }
}

const PERSON_KEY = "mysticvale.person";

/** The person of this browser, `{key, id, name}`, or null before a name was picked. */
export function person() {
  const p = load(PERSON_KEY, null);
  return p && typeof p.key === "string" && p.key ? p : null;
}

/** The secret personal key (sent as the X-Player-Key header), or null. */
export function personKey() {
  const p = person();
  return p ? p.key : null;
}

/** Keep the person (a new key replaces the old one); `changes` may hold only some fields. */
export function savePerson(changes) {
  save(PERSON_KEY, Object.assign({}, person() || {}, changes));
}

export function forgetPerson() {
  try { localStorage.removeItem(PERSON_KEY); } catch { /* nothing kept */ }
}

// Seat links opened in this browser without a personal key.  Since issue 15 the server lists a
// person's games; this list is only a migration: the lobby claims each seat for the person once
// and drops it (js/people.js migrateOldGames).  Spectator links are never kept.
const GAMES_KEY = "mysticvale.games";

export function myGames() { return load(GAMES_KEY, []).filter((g) => g && g.id && g.token); }

/** Remember a seat link opened before this browser had a name (nothing when it has one: the seat
 *  was claimed for the person, and the server lists it). */
export function rememberGame(entry) {
  if (!entry || !entry.token || personKey()) return;
  const games = myGames();
  const old = games.find((g) => g.id === entry.id && g.token === entry.token) || {};
  const rest = games.filter((g) => !(g.id === entry.id && g.token === entry.token));
  rest.unshift(Object.assign({ created: new Date().toISOString() }, old, entry));
  save(GAMES_KEY, rest.slice(0, 50));
}

export function forgetGame(id, token) {
  const rest = myGames().filter((g) => !(g.id === id && g.token === token));
  if (rest.length) save(GAMES_KEY, rest);
  else try { localStorage.removeItem(GAMES_KEY); } catch { /* nothing kept */ }
}

// The seat token of each table opened in this tab (issue 22): the address bar loses the token once
// it is read (`/games/ID#token=T` becomes `/games/ID`), so a reload finds it here.  Per tab
// (sessionStorage), so two seats of one game in two tabs stay apart, and gone with the tab.
const SEAT_PREFIX = "mysticvale.seat.";

/** The seat token this tab opened game `id` with, or null. */
export function tabSeat(id) {
  try { return sessionStorage.getItem(SEAT_PREFIX + id); } catch { return null; }
}

/** Keep (or, with no token, forget) the seat token this tab opens game `id` with. */
export function setTabSeat(id, token) {
  try {
    if (token) sessionStorage.setItem(SEAT_PREFIX + id, token);
    else sessionStorage.removeItem(SEAT_PREFIX + id);
  } catch { /* private mode: a reload opens the game as the key allows */ }
}

const SEEN_KEY = "mysticvale.seen";

/** The index of the last log entry the player saw in this game (-1: none). */
export function lastSeen(gameId, seat) {
  const all = load(SEEN_KEY, {});
  const v = all[`${gameId}:${seat}`];
  return typeof v === "number" ? v : -1;
}

export function setLastSeen(gameId, seat, index) {
  const all = load(SEEN_KEY, {});
  all[`${gameId}:${seat}`] = index;
  const keys = Object.keys(all);
  if (keys.length > 100) delete all[keys[0]];
  save(SEEN_KEY, all);
}
