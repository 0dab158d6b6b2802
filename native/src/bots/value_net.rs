//! Twin of mysticvale/bots/value_net.py: the learned position evaluation, a small network
//! over the value model's features, with the same outputs as Python's numpy to 1e-9.
//!
//! For seat `p` the input is `p`'s features and those of its strongest rival (the other seat
//! of highest value-model strength, the bonus of the seat on move included), whether `p` or
//! that rival is on move, the VP pool, the rounds the greedy bot expects to be left, the
//! number of players, both seats' places in the turn order from the start player and the
//! value model's own logit; standardized, through rectified hidden
//! layers, to one logit. The weights are the package's own file
//! (`src/mysticvale/bots/data/value_net.json`), built into the core.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use serde::Deserialize;

use super::greedy::view::rounds_left;
use super::value_model::{finished_shares, ValueModel, FEATURES, MOVE, SCALE, WEIGHTS};
use crate::state::State;

/// The number of inputs (Python's `len(INPUTS)`).
pub const INPUTS: usize = 2 * FEATURES.len() + 8;
/// The version of a weights file this core reads (Python's `FORMAT`).
pub const FORMAT: u32 = 1;
/// The weights that ship in the package.
const SHIPPED: &str = include_str!("../../../src/mysticvale/bots/data/value_net.json");

#[derive(Deserialize)]
struct LayerFile {
    weights: Vec<Vec<f64>>,
    bias: Vec<f64>,
}

#[derive(Deserialize)]
struct NetFile {
    format: u32,
    inputs: Vec<String>,
    mean: Vec<f64>,
    scale: Vec<f64>,
    layers: Vec<LayerFile>,
}

/// One layer: `weights[i * outputs + j]` from input `i` to output `j`, and the biases.
#[derive(Debug, Clone, PartialEq)]
struct Layer {
    weights: Vec<f64>,
    outputs: usize,
    bias: Vec<f64>,
}

/// The network's weights (Python's `Net`).
#[derive(Debug, Clone, PartialEq)]
pub struct Net {
    mean: Vec<f64>,
    scale: Vec<f64>,
    layers: Vec<Layer>,
}

impl Net {
    /// The network of a weights file's text; `Err` saying what is wrong.
    pub fn from_json(text: &str) -> Result<Net, String> {
        let f: NetFile = serde_json::from_str(text).map_err(|e| format!("not a value network file ({e})"))?;
        if f.format != FORMAT {
            return Err(format!("not a value network file of format {FORMAT} (format {})", f.format));
        }
        if f.inputs.len() != INPUTS {
            return Err(format!("the network reads {} inputs, not this version's {INPUTS}", f.inputs.len()));
        }
        if f.mean.len() != INPUTS || f.scale.len() != INPUTS {
            return Err(format!("the standardization must have {INPUTS} means and scales"));
        }
        if f.scale.iter().any(|s| s.is_nan() || *s <= 0.0) {
            return Err("every input's scale must be more than 0".to_owned());
        }
        if f.layers.is_empty() {
            return Err("a network needs at least one layer".to_owned());
        }
        let mut width = INPUTS;
        let mut layers = Vec::with_capacity(f.layers.len());
        for (i, lay) in f.layers.into_iter().enumerate() {
            let outputs = lay.bias.len();
            if lay.weights.len() != width || lay.weights.iter().any(|row| row.len() != outputs) {
                return Err(format!("layer {} does not fit the one before it", i + 1));
            }
            layers.push(Layer { weights: lay.weights.into_iter().flatten().collect(), outputs, bias: lay.bias });
            width = outputs;
        }
        if width != 1 {
            return Err(format!("the last layer must give one logit, not {width}"));
        }
        let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
        if !finite(&f.mean) || !finite(&f.scale) || !layers.iter().all(|l| finite(&l.weights) && finite(&l.bias)) {
            return Err("a weight is not a finite number".to_owned());
        }
        Ok(Net { mean: f.mean, scale: f.scale, layers })
    }

    /// The network that ships in the package (read once).
    pub fn shipped() -> Result<&'static Net, String> {
        static NET: OnceLock<Result<Net, String>> = OnceLock::new();
        NET.get_or_init(|| Net::from_json(SHIPPED).map_err(|e| format!("the shipped value network: {e}")))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The logit of one row of inputs (Python's `Net.logits`).
    pub fn logit(&self, x: &[f64; INPUTS]) -> f64 {
        let mut h: Vec<f64> = x.iter().zip(&self.mean).zip(&self.scale).map(|((v, m), s)| (v - m) / s).collect();
        let last = self.layers.len() - 1;
        for (i, lay) in self.layers.iter().enumerate() {
            let mut out = lay.bias.clone();
            for (k, &v) in h.iter().enumerate() {
                let row = &lay.weights[k * lay.outputs..(k + 1) * lay.outputs];
                for (o, w) in out.iter_mut().zip(row) {
                    *o += v * w;
                }
            }
            if i < last {
                for o in &mut out {
                    *o = o.max(0.0);
                }
            }
            h = out;
        }
        h.first().copied().unwrap_or(0.0)
    }

    /// The win chance of one row of inputs (Python's `Net.chances`).
    pub fn chance(&self, x: &[f64; INPUTS]) -> f64 {
        let z = self.logit(x).clamp(-60.0, 60.0);
        1.0 / (1.0 + (-z).exp())
    }
}

/// The network's inputs for every seat of one position (Python's `net_inputs`).
pub fn inputs(features: &[[f64; 11]], mover: Option<u8>, pool: f64, rounds: f64, first: u8) -> Vec<[f64; INPUTS]> {
    let n = features.len();
    let on_move: Vec<f64> = (0..n).map(|q| if mover == Some(q as u8) { 1.0 } else { 0.0 }).collect();
    let u_move: Vec<f64> = features
        .iter()
        .zip(&on_move)
        .map(|(f, m)| f[0] + f[1..].iter().zip(WEIGHTS).map(|(x, w)| x * w).sum::<f64>() + MOVE * m)
        .collect();
    let scale = (SCALE.0 + SCALE.1 * pool.max(0.0)).max(0.5);
    let k = FEATURES.len();
    (0..n)
        .map(|p| {
            // The strongest other seat; the first of equals.
            let mut rival = if p == 0 { 1 } else { 0 };
            for q in (0..n).filter(|&q| q != p) {
                if u_move[q] > u_move[rival] {
                    rival = q;
                }
            }
            let rival = rival.min(n - 1);
            let logit = ((u_move[p] - u_move[rival]) / scale).clamp(-60.0, 60.0);
            let mut row = [0.0; INPUTS];
            row[..k].copy_from_slice(&features[p]);
            row[k..2 * k].copy_from_slice(&features[rival]);
            // The places in the turn order, counted from the start player.
            let order = |q: usize| ((q + n - usize::from(first) % n) % n) as f64;
            row[2 * k..].copy_from_slice(&[
                on_move[p],
                on_move[rival],
                pool,
                rounds,
                n as f64,
                order(p),
                order(rival),
                logit,
            ]);
            row
        })
        .collect()
}

/// Each seat's chance of winning by the network (a finished game: 1 / 0 / shared), its
/// features read by `model` (Python's `ValueNet.win_chances`).
pub fn win_chances(net: &Net, model: &mut ValueModel, st: &State) -> Vec<f64> {
    let n = st.players.len();
    if st.over {
        return finished_shares(st);
    }
    let feats: Vec<[f64; 11]> = (0..n as u8).map(|p| model.seat_features(st, p)).collect();
    let mover = crate::flow::acting_player(st);
    let rows = inputs(&feats, mover, st.vp_pool.max(0) as f64, rounds_left(st), st.first_player);
    rows.iter().map(|x| net.chance(x)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_network_reads() {
        let net = Net::shipped().expect("the shipped weights parse");
        assert_eq!(net.mean.len(), INPUTS);
        let x = [0.0; INPUTS];
        let p = net.chance(&x);
        assert!(p > 0.0 && p < 1.0);
    }

    #[test]
    fn bad_files_are_refused_with_what_is_wrong() {
        assert!(Net::from_json("[]").unwrap_err().starts_with("not a value network file"));
        let good = SHIPPED.replacen("\"format\": 1", "\"format\": 7", 1);
        assert_eq!(Net::from_json(&good).unwrap_err(), "not a value network file of format 1 (format 7)");
        let mut v: serde_json::Value = serde_json::from_str(SHIPPED).expect("json");
        v["layers"][0]["bias"] = serde_json::json!([0.0]);
        assert_eq!(Net::from_json(&v.to_string()).unwrap_err(), "layer 1 does not fit the one before it");
    }

    #[test]
    fn the_rival_is_the_strongest_other_seat_and_the_first_of_equals() {
        let mut f = [[0.0; 11]; 3];
        f[1][0] = 5.0;
        f[2][0] = 5.0;
        let rows = inputs(&f, None, 10.0, 4.0, 2);
        assert_eq!(rows[0][11], 5.0, "seat 0's rival is seat 1, the first of two equals");
        assert_eq!(rows[1][11], 5.0, "seat 1's rival is seat 2");
        assert_eq!(rows[2][11], 5.0);
        // places in the turn order from the start player (seat 2): 1, 2, 0
        assert_eq!([rows[0][27], rows[1][27], rows[2][27]], [1.0, 2.0, 0.0]);
        assert_eq!(rows[0][28], 2.0, "seat 0's rival, seat 1, is last in the order");
        // the on-move bonus makes seat 2 the rival of seat 0
        let mut f = [[0.0; 11]; 3];
        f[1][0] = 1.0;
        let rows = inputs(&f, Some(2), 10.0, 4.0, 0);
        assert_eq!(rows[0][2 * 11 + 1], 1.0, "the rival (seat 2) is on move");
    }
}
