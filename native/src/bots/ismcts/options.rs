//! The ISMCTS bot's options (the keyword arguments of Python's `ISMCTS.__init__`), read
//! from an arena spec's `key=value` parts and checked in Python's order with its messages.
#![forbid(unsafe_code)]

use crate::bots::greedy::Value;
use crate::errors::py_repr;

/// How a position at the end of an iteration is scored (Python's `value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// The fitted value model's win chances (`"model"`, the default).
    Model,
    /// A logistic of the greedy bot's position value (`"greedy"`).
    Greedy,
    /// The learned value network's win chances (`"net"`).
    Net,
}

/// The options of an ISMCTS bot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Seconds per decision; 0 = no time limit.
    pub think: f64,
    /// Iterations per decision; `None` = until the time is up.
    pub iterations: Option<u64>,
    /// Turns ended before an iteration is scored.
    pub horizon: i64,
    /// The UCB exploration constant.
    pub c: f64,
    /// With `value = greedy`: the VP difference worth about a quarter of a win (`None`:
    /// `"auto"`, the calibrated scale).
    pub scale: Option<f64>,
    /// The progressive-bias bonus of the greedy rules' choice.
    pub prior: f64,
    /// The most visited move replaces the greedy choice only with `margin` times its visits.
    pub margin: f64,
    /// How positions are scored.
    pub value: ValueKind,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            think: 0.5,
            iterations: None,
            horizon: 3,
            c: 0.5,
            scale: None,
            prior: 0.3,
            margin: 1.5,
            value: ValueKind::Model,
        }
    }
}

/// Python's message for `value < 0` with a text value.
const STR_LT_INT: &str = "'<' not supported between instances of 'str' and 'int'";

/// `v < 0` or `v < 1` as Python compares a number with an int (`Err` for a text).
fn less(v: &Value, bound: i64) -> Result<bool, String> {
    match v {
        Value::Int(i) => Ok(*i < bound),
        Value::Float(f) => Ok(*f < bound as f64),
        Value::Text(_) => Err(STR_LT_INT.to_owned()),
    }
}

/// Python's `int(v)` of a number that passed its range check.
fn int(v: &Value) -> Result<i64, String> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Float(f) if f.is_nan() => Err("cannot convert float NaN to integer".to_owned()),
        Value::Float(f) if f.is_infinite() => Err("cannot convert float infinity to integer".to_owned()),
        // A float that large is no sensible budget; saturate as Python's would be huge.
        Value::Float(f) => Ok(f.trunc() as i64),
        Value::Text(t) => Err(format!("invalid literal for int() with base 10: {}", py_repr(t))),
    }
}

/// Python's truth of a number (`not think`).
fn truthy(v: &Value) -> bool {
    match v {
        Value::Int(i) => *i != 0,
        Value::Float(f) => *f != 0.0,
        Value::Text(t) => !t.is_empty(),
    }
}

impl Options {
    /// The options of a bot spec's `key=value` parts (Python's `parse_bot` then
    /// `ISMCTS(seed, **opts)`), with Python's messages for a bad one.
    pub fn parse(parts: &[&str], spec: &str) -> Result<Options, String> {
        let mut think = Value::Float(0.5);
        let mut iterations: Option<Value> = None;
        let mut horizon = Value::Int(3);
        let mut c = Value::Float(0.5);
        let mut scale = Value::Text("auto".to_owned());
        let mut prior = Value::Float(0.3);
        let mut margin = Value::Float(1.5);
        let mut value = Value::Text("model".to_owned());
        for p in parts {
            let Some((k, v)) = p.split_once('=') else {
                return Err(format!("bot option {} in {} must look like key=value", py_repr(p), py_repr(spec)));
            };
            let v = Value::read(v.trim());
            match k.trim() {
                "think" => think = v,
                "iterations" => iterations = Some(v),
                "horizon" => horizon = v,
                "c" => c = v,
                "scale" => scale = v,
                "prior" => prior = v,
                "margin" => margin = v,
                "value" => value = v,
                "seed" => return Err(crate::bots::SEED_TWICE.into()),
                other => {
                    return Err(format!("ISMCTS.__init__() got an unexpected keyword argument {}", py_repr(other)))
                }
            }
        }
        if less(&think, 0)? {
            return Err(format!("think must be >= 0 seconds, not {}", think.repr()));
        }
        if let Some(it) = &iterations {
            if less(it, 1)? {
                return Err(format!("iterations must be at least 1, not {}", it.repr()));
            }
        }
        if !truthy(&think) && !iterations.as_ref().is_some_and(truthy) {
            return Err("give ismcts a budget: think > 0 seconds and/or iterations >= 1".to_owned());
        }
        if less(&horizon, 1)? {
            return Err(format!("horizon must be at least 1 turn, not {}", horizon.repr()));
        }
        let think_given = think;
        let think = think_given.float()?;
        if !think.is_finite() {
            // (nan passes `think < 0`; either would search for ever)
            return Err(format!("think must be a finite number of seconds, not {}", think_given.repr()));
        }
        let iterations = match &iterations {
            Some(it) => Some(u64::try_from(int(it)?).unwrap_or(u64::MAX)),
            None => None,
        };
        let horizon = int(&horizon)?;
        let c = c.float()?;
        let scale = match &scale {
            Value::Text(t) if t == "auto" => None,
            Value::Text(_) => return Err(format!("scale must be a number of VP or 'auto', not {}", scale.repr())),
            v => {
                let f = v.float()?;
                if f > 0.0 {
                    Some(f)
                } else {
                    return Err(format!("scale must be more than 0 VP, not {}", v.repr()));
                }
            }
        };
        let prior = prior.float()?;
        let margin = margin.float()?;
        let value = match &value {
            Value::Text(t) if t == "model" => ValueKind::Model,
            Value::Text(t) if t == "greedy" => ValueKind::Greedy,
            Value::Text(t) if t == "net" => {
                crate::bots::value_net::Net::shipped()?;
                ValueKind::Net
            }
            other => return Err(format!("value must be 'model', 'greedy' or 'net', not {}", other.repr())),
        };
        Ok(Options { think, iterations, horizon, c, scale, prior, margin, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(parts: &[&str]) -> String {
        Options::parse(parts, "ismcts:x").err().unwrap_or_default()
    }

    #[test]
    fn options_read_as_the_python_bot_takes_them() {
        let o = Options::parse(&["think=0", "iterations=40", "value=greedy", "scale=4", "horizon=1"], "x");
        let want = Options {
            think: 0.0,
            iterations: Some(40),
            horizon: 1,
            scale: Some(4.0),
            value: ValueKind::Greedy,
            ..Options::default()
        };
        assert_eq!(o, Ok(want));
        assert_eq!(Options::parse(&[], "ismcts"), Ok(Options::default()));
        assert_eq!(Options::parse(&["value=net"], "x").map(|o| o.value), Ok(ValueKind::Net));
        assert_eq!(Options::parse(&["iterations=2.7"], "x").map(|o| o.iterations), Ok(Some(2)));
    }

    #[test]
    fn bad_options_give_pythons_messages() {
        assert_eq!(err(&["think=-1"]), "think must be >= 0 seconds, not -1");
        assert_eq!(err(&["iterations=0"]), "iterations must be at least 1, not 0");
        assert_eq!(err(&["think=0"]), "give ismcts a budget: think > 0 seconds and/or iterations >= 1");
        assert_eq!(err(&["horizon=0"]), "horizon must be at least 1 turn, not 0");
        assert_eq!(err(&["scale=big"]), "scale must be a number of VP or 'auto', not 'big'");
        assert_eq!(err(&["scale=0"]), "scale must be more than 0 VP, not 0");
        assert_eq!(err(&["scale=-0.5"]), "scale must be more than 0 VP, not -0.5");
        assert_eq!(err(&["value=best"]), "value must be 'model', 'greedy' or 'net', not 'best'");
        assert_eq!(err(&["c=x"]), "could not convert string to float: 'x'");
        assert_eq!(err(&["speed=2"]), "ISMCTS.__init__() got an unexpected keyword argument 'speed'");
        assert_eq!(err(&["think=slow"]), STR_LT_INT);
        // Python checks the options in its own order, not the spec's.
        assert_eq!(err(&["horizon=0", "think=-1"]), "think must be >= 0 seconds, not -1");
    }
}
