//! The search tree of the ISMCTS bot (Python's `_Node`): nodes in one arena, each child
//! reached by an action (keyed by the action, as Python keys by its notation), with the
//! selection rule (UCB1 with availability counts and a progressive-bias bonus) and the
//! final choice at the root (most visits, then mean reward, then the legal list's order;
//! the greedy choice kept unless clearly beaten).
#![forbid(unsafe_code)]

use crate::actions::Notation;

/// A node's index in its [`Tree`].
pub type NodeId = usize;

/// The root's index.
pub const ROOT: NodeId = 0;

/// One node: the statistics of the action that led to it.
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Children by the action that reaches them, in the order they were added.
    pub children: Vec<(Notation, NodeId)>,
    /// Iterations that passed through this node.
    pub visits: u64,
    /// Iterations in which its action was available at its parent.
    pub avail: u64,
    /// The sum of the scores of the seat that chose its action.
    pub reward: f64,
    /// The seat whose action led here (`None` at the root).
    pub player: Option<u8>,
    /// The greedy rules' choice here (the progressive bias), once computed.
    pub pref: Option<Notation>,
}

impl Node {
    /// The child reached by `a`.
    pub fn child(&self, a: &Notation) -> Option<NodeId> {
        self.children.iter().find(|(k, _)| k == a).map(|&(_, id)| id)
    }

    /// The mean reward (0 before any visit).
    pub fn mean(&self) -> f64 {
        if self.visits > 0 {
            self.reward / self.visits as f64
        } else {
            0.0
        }
    }
}

/// The tree of one decision.
#[derive(Debug)]
pub struct Tree {
    /// Every node; the root first.
    pub nodes: Vec<Node>,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree { nodes: vec![Node::default()] }
    }
}

impl Tree {
    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// The node `id`, to change.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id]
    }

    /// Add a child of `parent` reached by `a`, chosen by `player`, available once.
    pub fn add_child(&mut self, parent: NodeId, a: Notation, player: u8) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node { avail: 1, player: Some(player), ..Node::default() });
        self.nodes[parent].children.push((a, id));
        id
    }
}

/// UCB1 with availability counts and the progressive-bias bonus of the preferred action:
/// `mean + c * sqrt(ln(avail) / visits) (+ prior / (visits + 1))`, in Python's f64
/// operations and order.
pub fn ucb(ch: &Node, c: f64, prior: f64, preferred: bool) -> f64 {
    let visits = ch.visits as f64;
    let mut u = ch.reward / visits + c * ((ch.avail as f64).ln() / visits).sqrt();
    if preferred {
        u += prior / (visits + 1.0);
    }
    u
}

/// The index (in `cands`) of the candidate with the highest UCB value, the first found at
/// a tie, none above -1 (Python starts its best at -1.0): `None`.
pub fn select(cands: &[(&Node, bool)], c: f64, prior: f64) -> Option<usize> {
    let mut best = -1.0;
    let mut pick = None;
    for (i, &(ch, preferred)) in cands.iter().enumerate() {
        let u = ucb(ch, c, prior, preferred);
        if u > best {
            best = u;
            pick = Some(i);
        }
    }
    pick
}

/// The move played: among the root's `stats` (action's index in the legal list, visits,
/// mean reward) the most visited, ties broken by mean reward and then by the legal list's
/// order; but the greedy choice `pref` (its index) stays unless the best has `margin`
/// times its visits. `None` when there are no statistics.
pub fn best_move(stats: &[(usize, u64, f64)], pref: Option<usize>, margin: f64) -> Option<usize> {
    let mut best: Option<(usize, u64, f64)> = None;
    for &s in stats {
        let better = match best {
            None => true,
            Some(b) => (s.1, s.2) > (b.1, b.2) || ((s.1, s.2) == (b.1, b.2) && s.0 < b.0),
        };
        if better {
            best = Some(s);
        }
    }
    let best = best?;
    if let Some(p) = pref.and_then(|p| stats.iter().find(|s| s.0 == p)) {
        if best.0 != p.0 && (best.1 as f64) < margin * p.1 as f64 {
            return Some(p.0);
        }
    }
    Some(best.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(visits: u64, avail: u64, reward: f64) -> Node {
        Node { visits, avail, reward, ..Node::default() }
    }

    #[test]
    fn ucb_is_pythons_arithmetic() {
        // Python: 1.5 / 3 + 0.5 * math.sqrt(math.log(7) / 3) == 0.9034...
        let ch = node(3, 7, 1.5);
        let want = 1.5 / 3.0 + 0.5 * (7f64.ln() / 3.0).sqrt();
        assert_eq!(ucb(&ch, 0.5, 0.3, false).to_bits(), want.to_bits());
        assert_eq!(ucb(&ch, 0.5, 0.3, true).to_bits(), (want + 0.3 / 4.0).to_bits());
        // Available once: no exploration term.
        assert_eq!(ucb(&node(1, 1, 0.25), 0.5, 0.0, false), 0.25);
    }

    #[test]
    fn selection_takes_the_first_of_equal_values_and_the_bias_counts() {
        let (a, b, c) = (node(2, 4, 1.0), node(2, 4, 1.0), node(2, 4, 1.2));
        assert_eq!(select(&[(&a, false), (&b, false)], 0.5, 0.3), Some(0));
        assert_eq!(select(&[(&a, false), (&b, true)], 0.5, 0.3), Some(1));
        assert_eq!(select(&[(&a, false), (&b, false), (&c, false)], 0.5, 0.3), Some(2));
        // The bonus fades with visits: 0.3 / (2 + 1) = 0.1 is less than d's lead of 0.2.
        let d = node(2, 4, 1.4);
        assert_eq!(select(&[(&d, false), (&a, true)], 0.5, 0.3), Some(0));
        assert_eq!(select(&[], 0.5, 0.3), None);
        // Nothing above Python's starting -1.0 (a negative c): none.
        assert_eq!(select(&[(&node(1, 9, 0.0), false)], -10.0, 0.0), None);
    }

    #[test]
    fn the_root_choice_ties_and_margin() {
        // Most visits wins.
        assert_eq!(best_move(&[(0, 3, 0.9), (1, 5, 0.1)], None, 1.5), Some(1));
        // Equal visits: the higher mean; equal both: the earlier in the legal list.
        assert_eq!(best_move(&[(0, 4, 0.4), (1, 4, 0.6)], None, 1.5), Some(1));
        assert_eq!(best_move(&[(2, 4, 0.5), (1, 4, 0.5)], None, 1.5), Some(1));
        // The greedy choice stays unless beaten by margin times its visits.
        assert_eq!(best_move(&[(0, 5, 0.5), (1, 4, 0.5)], Some(1), 1.5), Some(1));
        assert_eq!(best_move(&[(0, 6, 0.5), (1, 4, 0.5)], Some(1), 1.5), Some(0));
        // A preferred move the root never tried does not count.
        assert_eq!(best_move(&[(0, 6, 0.5)], Some(3), 1.5), Some(0));
        assert_eq!(best_move(&[], Some(0), 1.5), None);
    }

    #[test]
    fn children_are_found_by_their_action() {
        let mut t = Tree::default();
        let a = Notation { verb: crate::actions::Verb::Pass, args: Vec::new() };
        let id = t.add_child(ROOT, a.clone(), 1);
        assert_eq!(t.node(ROOT).child(&a), Some(id));
        assert_eq!((t.node(id).avail, t.node(id).player), (1, Some(1)));
    }
}
