//! Twin of mysticvale/engine/game.py: one game driven by `legal_actions` / `apply_action`,
//! with the Python engine's messages for an action that is not legal.
#![forbid(unsafe_code)]

use crate::actions::Notation;
use crate::errors::py_repr;
use crate::flow;
use crate::state::State;

/// The game's phase as `Game.phase` says it ("over" once the game is over).
pub fn phase(st: &State) -> &'static str {
    if st.over {
        "over"
    } else {
        st.turn.phase
    }
}

/// Apply `action` if it is one of `legal` (the current legal actions): record it in the
/// history and run the rules that follow. Otherwise the state is unchanged and the error
/// is `IllegalActionError`'s message, as `Game.apply_action` words it.
pub fn apply_action(st: &mut State, action: &Notation, legal: &[Notation]) -> Result<(), String> {
    if !legal.contains(action) {
        return Err(why_illegal(st, action, legal));
    }
    st.history.push(action.to_string().into());
    flow::apply_action(st, action);
    Ok(())
}

/// Why an action is not legal now (Python's `Game._why_illegal`).
pub fn why_illegal(st: &State, action: &Notation, legal: &[Notation]) -> String {
    if st.over {
        return format!("{action} is not legal: the game is over");
    }
    let who = flow::acting_player(st).map_or_else(|| "-".to_owned(), |p| (p + 1).to_string());
    let same: Vec<String> = legal.iter().filter(|a| a.verb == action.verb).map(ToString::to_string).collect();
    let hint = if same.is_empty() {
        let shown: Vec<String> = legal.iter().take(12).map(ToString::to_string).collect();
        let more = if legal.len() > 12 { " ..." } else { "" };
        format!("; legal now: {}{more}", shown.join(", "))
    } else {
        let shown = &same[..same.len().min(12)];
        format!("; legal {} actions now: {}", py_repr(action.verb.word()), shown.join(", "))
    };
    format!("{action} is not legal now (player {who} to act, phase {}){hint}", phase(st))
}

/// Set up a new game (the twin of `game.new_game` once Python has checked its options):
/// the state of `setup::new_state`, then the first turn's start (or, with `leaders`, the
/// leaders' deal and choices before it), and the rules work that follows until the first
/// decision. `Err` is `ValueError`'s message (a player count outside 2-4, leaders without
/// enough leader cards).
pub fn new_game(
    cat: std::sync::Arc<crate::catalogue::Catalogue>,
    ruleset: &'static crate::rulesets::RuleSet,
    players: u8,
    seed: crate::rng::Seed,
    leaders: bool,
    finish_turn: bool,
) -> Result<State, String> {
    let mut st = if leaders {
        crate::leaders::new_state_with_leaders(cat, ruleset, players, seed, finish_turn)?
    } else {
        let mut st = crate::setup::new_state(cat, ruleset, players, seed, true)?;
        st.finish_turn = finish_turn;
        let first = st.first_player;
        flow::start_turn(&mut st, first);
        st
    };
    flow::run(&mut st);
    Ok(st)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::catalogue::Catalogue;
    use crate::rng::Seed;

    fn cat(name: &str) -> std::sync::Arc<Catalogue> {
        let path = format!("{}/tests/fixtures/catalogue_{name}.json", env!("CARGO_MANIFEST_DIR"));
        Catalogue::shared(&std::fs::read_to_string(path).unwrap(), name).unwrap()
    }

    fn yucata() -> &'static crate::rulesets::RuleSet {
        crate::rulesets::get_ruleset("yucata").unwrap()
    }

    #[test]
    fn a_new_game_waits_for_the_first_player_s_planting() {
        let st = new_game(cat("base"), yucata(), 3, Seed::from(7u64), false, true).unwrap();
        assert!(st.finish_turn && !st.over);
        assert_eq!(st.turn.phase, "planting");
        assert_eq!(flow::acting_player(&st), Some(st.first_player));
        assert!(st.steps.is_empty() && st.pending.is_empty());
        let legal: Vec<String> = flow::legal_for_phase(&st).iter().map(ToString::to_string).collect();
        assert_eq!(legal, ["push", "pass"]);
    }

    #[test]
    fn with_leaders_the_first_decision_is_a_leader_choice() {
        let st = new_game(cat("base+twilight_garden"), yucata(), 2, Seed::from(3u64), true, false).unwrap();
        let pd = st.pending.last().unwrap();
        assert_eq!(&*pd.kind, "choose_leader");
        assert!(st.players.iter().all(|p| p.dealt_leaders.len() == 2));
    }

    #[test]
    fn bad_set_ups_say_what_is_wrong() {
        let err = new_game(cat("base"), yucata(), 5, Seed::from(1u64), false, false).unwrap_err();
        assert_eq!(err, "Mystic Vale is for 2 to 4 players, not 5");
        let err = new_game(cat("base"), yucata(), 2, Seed::from(1u64), true, false).unwrap_err();
        assert!(err.starts_with("leaders come with the Twilight Garden set"), "{err}");
    }

    #[test]
    fn an_illegal_action_is_refused_with_python_s_words_and_changes_nothing() {
        let mut st = new_game(cat("base"), yucata(), 2, Seed::from(7u64), false, false).unwrap();
        let before = crate::serialize::dumps(&st);
        let legal = flow::legal_for_phase(&st);
        let finish: Notation = "finish".parse().unwrap();
        let err = apply_action(&mut st, &finish, &legal).unwrap_err();
        let who = st.first_player + 1;
        assert_eq!(
            err,
            format!("finish is not legal now (player {who} to act, phase planting); legal now: push, pass")
        );
        assert_eq!(crate::serialize::dumps(&st), before);
        let pass: Notation = "pass".parse().unwrap();
        apply_action(&mut st, &pass, &legal).unwrap();
        assert_eq!(st.history.iter().map(|h| h.to_string()).collect::<Vec<_>>(), ["pass"]);
        assert_eq!(phase(&st), "harvest");
    }
}
