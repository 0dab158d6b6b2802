// The table's client state: the view being shown, its log, and what the player is doing with the
// page (armed deck, open dialog, pinned field, chosen tab).  Rules stay on the server.

export const T = {
  id: null,              // game id
  token: null,           // seat token (null: spectator)
  conn: null,            // transport.Connection
  view: null,            // the view of the version shown (protocol 2)
  seq: -1,               // the version shown
  log: [],               // log entries of the version shown
  lastBy: null,          // who made the version shown
  busy: false,           // an action or undo is on its way
  armedSeq: null,        // the deck was clicked once at this version (two-click push)
  armTimer: null,
  pendingArm: false,     // a deck click came at this version while an action was on its way (or during
                         // playback): arm the deck at the next version
  autoTimer: null,       // a planned automatic reveal
  autoSentSeq: null,
  fieldSeat: null,       // the field shown when pinned
  pinned: false,
  overlay: null,         // open dialog: "settings", "deck:1", "chooser", "end", ...
  chooser: null,         // {title, actions}
  endClosed: false,
  tab: "field",          // phone: the tab shown
  tabPlacedSeq: null,    // phone: the version whose decision was placed (table.js placeDecision)
  undoneSeq: null,       // the version made by this seat's undo (said in the action bar)
  summaryClosedAt: null, // the version at which the player closed the "since your last turn" box
  summaryOpen: null,     // whether the player opened (true) or folded (false) that box; null: as the screen suits
  seenAtOpen: -1,        // last log entry seen when the page opened / at the player's last action
  knownCards: new Map(), // card views seen (ids of leaders, for everyone once face up)
  renders: 0,
  playing: false,        // other players' versions are being played back
};

/** The observation shown. */
export const obs = () => T.view && T.view.observation;
/** This client's seat (null: spectator). */
export const mySeat = () => (T.view ? T.view.seat : null);
/** Whether it is this seat's decision in the version shown (and nothing is being played back). */
export function myDecision() {
  return !!(T.view && T.view.seat !== null && T.view.seat !== undefined && (T.view.legal_actions || []).length);
}
