//! Rule tests: a named hand-built position per rule of draughts.md.
use super::preset::{self as presets, Preset};
use super::rules::{DraughtsRules, State, DRAW, ONGOING, WIN0, WIN1};
use crate::core::{rng_from_seed, Action, Applied};
use crate::game::Rules;
use crate::testing::check_random_games;

fn rules(p: Preset) -> DraughtsRules {
    DraughtsRules::new(p)
}

fn pos(r: &DraughtsRules, text: &str) -> State {
    r.from_position(text).unwrap_or_else(|e| panic!("{e}"))
}

fn moves(r: &DraughtsRules, s: &State) -> Vec<String> {
    let mut v: Vec<String> = r.turns(s).into_iter().map(|t| t.notation).collect();
    v.sort();
    v
}

fn play(r: &DraughtsRules, s: &State, text: &str) -> State {
    let path = r.parse_turn(s, text).unwrap_or_else(|e| panic!("{e}"));
    let mut st = *s;
    let mut rng = rng_from_seed(0);
    for a in path {
        r.apply(&mut st, a, &mut rng);
    }
    st
}

fn after(r: &DraughtsRules, s: &State, text: &str) -> String {
    r.to_position(&play(r, s, text))
}

#[test]
fn random_games_invariants_every_preset() {
    for p in presets::PRESETS {
        let r = rules(*p);
        let rep = check_random_games(&r, 300, 40, 400, 7);
        assert!(rep.terminated > 0, "{}: {rep:?}", p.id);
    }
}
