// Applying a version's delta to a view (protocol 2, docs/protocol.md).  An op is
// [path, value] (set), [path] (delete) or [path, start, count, items] (splice a list).

/** Apply `ops` to `doc` in place; returns the document (a new one if an op replaced the root). */
export function applyOps(doc, ops) {
  for (const op of ops) {
    const path = op[0];
    if (!path.length && op.length === 2) { doc = op[1]; continue; }
    let target = doc;
    for (let i = 0; i < path.length - 1; i++) target = target[path[i]];
    const last = path[path.length - 1];
    if (op.length === 4) {
      const list = path.length ? target[last] : target;
      list.splice(op[1], op[2], ...op[3]);
    } else if (op.length === 2) {
      target[last] = op[1];
    } else if (Array.isArray(target)) {
      target.splice(last, 1);
    } else {
      delete target[last];
    }
  }
  return doc;
}

/** Apply a log change [first, entries] to a log (a list of entries ordered by `i`). */
export function applyLog(log, change) {
  if (!change) return log;
  const [first, entries] = change;
  let keep = log.length;
  while (keep > 0 && log[keep - 1].i >= first) keep--;
  log.length = keep;
  log.push(...entries);
  return log;
}
