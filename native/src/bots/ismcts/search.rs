//! One ISMCTS iteration (Python's `ISMCTS._iterate`) and its rollout (`_rollout`).
#![forbid(unsafe_code)]

use super::tree::{self, NodeId, Tree, ROOT};
use super::Ismcts;
use crate::actions::Notation;
use crate::flow::{acting_player, apply_action, legal_for_phase};
use crate::state::State;

/// Decisions a rollout plays at most (Python's 400).
const ROLLOUT_STEPS: u32 = 400;

impl Ismcts {
    /// Sample a determinization of what `seat` knows in `st`, descend and grow `t` in it,
    /// play on and back up the scores.
    pub(super) fn iterate(&mut self, st: &State, seat: u8, t: &mut Tree, stop_turn: i64) -> Result<(), String> {
        let mut g = crate::determinize::determinize(st, Some(seat), &mut self.rng, &self.determinize);
        // The sample's history is never read: do not copy it along.
        g.history.clear();
        let mut node: NodeId = ROOT;
        let mut path: Vec<NodeId> = Vec::new();
        let mut expanded = false;
        while !g.over {
            let legal = legal_for_phase(&g);
            if legal.len() == 1 {
                apply_action(&mut g, &legal[0]);
                continue;
            }
            let Some(p) = acting_player(&g).filter(|_| !legal.is_empty()) else {
                return Err("ismcts: no seat can act in a sampled game that is not over".to_owned());
            };
            // The sample is this iteration's own world: its turn counter (public anyway) is
            // no peek at hidden information.
            if !path.is_empty() && g.turn_number >= stop_turn {
                break;
            }
            if t.node(node).pref.is_none() {
                // Progressive bias: the greedy rules' choice here is tried first.
                let k = self.rollout.choose(&g, p, &legal);
                t.node_mut(node).pref = legal.get(k).cloned();
            }
            let kids: Vec<Option<NodeId>> = legal.iter().map(|a| t.node(node).child(a)).collect();
            let mut untried: Vec<usize> = Vec::new();
            for (i, kid) in kids.iter().enumerate() {
                match kid {
                    Some(id) => t.node_mut(*id).avail += 1,
                    None => untried.push(i),
                }
            }
            let pref: Option<Notation> = t.node(node).pref.clone();
            if !untried.is_empty() {
                let pick = match untried.iter().copied().find(|&i| pref.as_ref() == Some(&legal[i])) {
                    Some(i) => i,
                    None if untried.len() > 1 => {
                        let r = self.rng.below(&self.expand, untried.len() as u64);
                        untried[usize::try_from(r).unwrap_or(0)]
                    }
                    None => untried[0],
                };
                let child = t.add_child(node, legal[pick].clone(), p);
                apply_action(&mut g, &legal[pick]);
                path.push(child);
                expanded = true;
                break;
            }
            // UCB1 over the children available in this determinization (every legal action
            // has one now, so `cands` and `kids` share their indices).
            let cands: Vec<(&tree::Node, bool)> = kids
                .iter()
                .zip(&legal)
                .filter_map(|(kid, a)| kid.map(|id| (t.node(id), pref.as_ref() == Some(a))))
                .collect();
            let Some(best) = tree::select(&cands, self.o.c, self.o.prior) else {
                return Err(format!("ismcts found no action to descend to (c = {})", self.o.c));
            };
            let Some(id) = kids[best] else {
                return Err("ismcts: a tried action without its node".to_owned());
            };
            apply_action(&mut g, &legal[best]);
            node = id;
            path.push(node);
        }
        if expanded {
            self.rollout_from(&mut g, stop_turn);
        }
        let rewards = self.score(&g);
        for id in path {
            let nd = t.node_mut(id);
            nd.visits += 1;
            if let Some(r) = nd.player.and_then(|p| rewards.get(usize::from(p))) {
                nd.reward += r;
            }
        }
        Ok(())
    }

    /// Play on with the greedy rules until `stop_turn` or the end of the game.
    fn rollout_from(&mut self, g: &mut State, stop_turn: i64) {
        let mut steps = 0;
        while !g.over && steps < ROLLOUT_STEPS {
            let legal = legal_for_phase(g);
            if legal.len() == 1 {
                apply_action(g, &legal[0]);
                continue;
            }
            if g.turn_number >= stop_turn {
                return;
            }
            let Some(p) = acting_player(g).filter(|_| !legal.is_empty()) else { return };
            let k = self.rollout.choose(g, p, &legal);
            let Some(a) = legal.get(k) else { return };
            apply_action(g, a);
            steps += 1;
        }
    }
}
