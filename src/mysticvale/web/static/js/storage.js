// What this device remembers: settings, the games it holds a seat for, and per game the last log
// entry its player has seen (to mark what is new).

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

const GAMES_KEY = "mysticvale.games";

export function myGames() { return load(GAMES_KEY, []); }

/** Remember a game this device holds a seat token for (or a spectator link when token is null). */
export function rememberGame(entry) {
  const games = myGames();
  const old = games.find((g) => g.id === entry.id && g.token === entry.token) || {};
  const rest = games.filter((g) => !(g.id === entry.id && g.token === entry.token));
  rest.unshift(Object.assign({ created: new Date().toISOString() }, old, entry));
  save(GAMES_KEY, rest.slice(0, 50));
}

export function forgetGame(id, token) {
  save(GAMES_KEY, myGames().filter((g) => !(g.id === id && g.token === token)));
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
