//! Search against brute force: alpha-beta (with and without its table, with
//! and without quiescence) against plain minimax on random positions of every
//! game; expectimax against a hand enumeration of rolls and against an exact
//! two-sided bear-off computed here.

use super::alphabeta::{self, captured, draws_by_repetition, terminal_value, win_at, Config, MAX_QUIESCENCE};
use super::eval::{Aborted, Builtin, FnEval};
use super::expectimax;
use crate::core::{rng_from_seed, Player, ToAct};
use crate::game::Rules;
use crate::games::alquerque::{Alquerque, Board, Removal};
use crate::games::backgammon::Backgammon;
use crate::games::draughts::{preset, DraughtsRules};
use crate::games::tablut::TablutRules;
use rand::RngExt;

fn leaf<R: Rules>(r: &R, s: &R::State, me: Player) -> f32 {
    r.heuristic(s, me).clamp(-1.0, 1.0)
}

/// Which positions of the tree draw by repetition (their keys, met twice in
/// the game) and what such a draw is worth: `-contempt` to the searching
/// player `root`, `+contempt` to its opponent.
struct Draws<'a> {
    keys: &'a [u64],
    root: Player,
    contempt: f32,
}

impl Draws<'_> {
    fn value(&self, me: Player) -> f32 {
        if me == self.root {
            -self.contempt
        } else {
            self.contempt
        }
    }
}

/// What the search does at its horizon.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Horizon {
    /// The evaluation.
    Leaf,
    /// Capture quiescence.
    Captures,
    /// Capture and threat quiescence.
    Threats,
}

impl Horizon {
    fn config(self) -> (bool, bool) {
        (self != Horizon::Leaf, self == Horizon::Threats)
    }
}

/// Plain minimax over complete turns, values for `me` at `ply` turns below
/// the root; a position in `draws` is a draw.
fn minimax<R: Rules>(r: &R, s: &R::State, me: Player, depth: u32, ply: u32, q: Horizon, draws: &Draws) -> f32 {
    match r.to_act(s) {
        ToAct::Terminal => terminal_value(r, s, me, ply),
        ToAct::Player(m) if m != me => -minimax(r, s, m, depth, ply, q, draws),
        ToAct::Player(_) if draws_by_repetition(r, s, draws.keys) => draws.value(me),
        ToAct::Player(_) if depth == 0 => match q {
            Horizon::Leaf => leaf(r, s, me),
            _ => quiesce(r, s, me, ply, MAX_QUIESCENCE, q == Horizon::Threats, draws),
        },
        ToAct::Player(_) => {
            let mut kids = Vec::new();
            r.next_states(s, &mut kids);
            kids.iter().map(|c| minimax(r, c, me, depth - 1, ply + 1, q, draws)).fold(f32::NEG_INFINITY, f32::max)
        }
        ToAct::Chance => unreachable!("deterministic games only"),
    }
}

/// Quiescence without pruning: stand pat unless every turn captures, then the
/// captures. With `threats`: a mover that wins at once has won; a threatened
/// mover searches every turn and may not stand; turns that threaten are
/// searched with the captures.
fn quiesce<R: Rules>(r: &R, s: &R::State, me: Player, ply: u32, q: u32, threats: bool, draws: &Draws) -> f32 {
    match r.to_act(s) {
        ToAct::Terminal => terminal_value(r, s, me, ply),
        ToAct::Player(m) if m != me => -quiesce(r, s, m, ply, q, threats, draws),
        ToAct::Player(_) if draws_by_repetition(r, s, draws.keys) => draws.value(me),
        ToAct::Player(_) if threats && r.wins_at_once(s) => win_at(ply + 1),
        ToAct::Player(_) if q == 0 => leaf(r, s, me),
        ToAct::Player(_) => {
            let mut kids = Vec::new();
            r.next_states(s, &mut kids);
            let threatened = threats && r.threatened(s);
            let caps = kids.iter().filter(|c| captured(r, s, c, me) > 0).count();
            let stand = if !threatened && caps < kids.len() { leaf(r, s, me) } else { f32::NEG_INFINITY };
            let follow = |c: &&R::State| threatened || captured(r, s, c, me) > 0 || (threats && r.threatened(c));
            kids.iter().filter(follow).map(|c| quiesce(r, c, me, ply + 1, q - 1, threats, draws)).fold(stand, f32::max)
        }
        ToAct::Chance => unreachable!("deterministic games only"),
    }
}

/// Positions reached by random complete turns from the start (not terminal).
fn random_positions<R: Rules>(r: &R, count: usize, max_turns: usize, seed: u64) -> Vec<R::State> {
    let mut rng = rng_from_seed(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = r.initial_state(&mut rng);
        let turns = rng.random_range(0..max_turns);
        for _ in 0..turns {
            let mut kids = Vec::new();
            r.next_states(&s, &mut kids);
            if kids.is_empty() {
                break;
            }
            let next = kids[rng.random_range(0..kids.len())].clone();
            if r.to_act(&next) == ToAct::Terminal {
                break;
            }
            s = next;
        }
        if matches!(r.to_act(&s), ToAct::Player(_)) {
            out.push(s);
        }
    }
    out
}

/// Alpha-beta's root value equals minimax's at every depth up to `max_depth`
/// (`max_q_depth` with quiescence), with and without the table, with and
/// without iterative deepening; and its best turn achieves that value.
fn check_against_minimax<R: Rules>(r: &R, positions: usize, max_depth: u32, max_q_depth: u32, seed: u64) {
    check_positions(r, positions, 40, max_depth, max_q_depth, seed)
}

fn check_positions<R: Rules>(r: &R, positions: usize, max_turns: usize, max_depth: u32, max_q_depth: u32, seed: u64) {
    for s in random_positions(r, positions, max_turns, seed) {
        check_position(r, &s, max_depth, max_q_depth, &[], 0.0);
    }
}

fn check_position<R: Rules>(r: &R, s: &R::State, max_depth: u32, max_q_depth: u32, rep: &[u64], contempt: f32) {
    let me = r.to_act(s).player().unwrap();
    let draws = Draws { keys: rep, root: me, contempt };
    let turns = r.turns(s);
    let text = r.to_position(s);
    for depth in 1..=max_depth {
        for q in [Horizon::Leaf, Horizon::Captures, Horizon::Threats]
            .into_iter()
            .filter(|&q| q == Horizon::Leaf || depth <= max_q_depth)
        {
            for (tt, iterative) in [(0, false), (1 << 12, false), (1 << 12, true)] {
                let (quiescence, threats) = q.config();
                let cfg = Config {
                    depth,
                    time: None,
                    tt_entries: tt,
                    quiescence,
                    iterative,
                    repeated: rep.to_vec(),
                    contempt,
                    threats,
                };
                let got = alphabeta::search(r, s, &cfg, &mut Builtin).unwrap();
                // Iterative deepening stops early on a forced win: compare at the depth it reached.
                assert!(got.depth == depth || (iterative && got.depth < depth && got.value > 1.0));
                // The root is the present position: only the positions after it can repeat.
                let want = turns
                    .iter()
                    .map(|t| minimax(r, &t.state, me, got.depth - 1, 1, q, &draws))
                    .fold(f32::NEG_INFINITY, f32::max);
                assert_eq!(got.value, want, "{text} depth {depth} q {q:?} tt {tt} iterative {iterative}");
                let best = &turns[got.best.unwrap()].state;
                assert_eq!(minimax(r, best, me, got.depth - 1, 1, q, &draws), want, "{text}: the best turn's value");
            }
        }
    }
}

/// Alpha-beta equals minimax when some positions of the tree would be a third
/// occurrence (a draw): the repetition keys of a random sample of the
/// positions one and two turns ahead, and, so that a draw matters, of the turn
/// the built-in evaluation rates best.
/// A draw is worth `-contempt` to the searching player.
/// Returns at how many positions the root's value differs from the search
/// without the draws (contempt 0), or with the draws worth 0 (a contempt).
fn check_against_minimax_with_repetitions<R: Rules>(
    r: &R,
    positions: usize,
    max_depth: u32,
    seed: u64,
    contempt: f32,
) -> usize {
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    let mut changed = 0;
    for s in random_positions(r, positions, 40, seed) {
        let me = r.to_act(&s).player().unwrap();
        let mut kids = Vec::new();
        r.next_states(&s, &mut kids);
        let mut near: Vec<R::State> = kids.clone();
        for k in &kids {
            r.next_states(k, &mut near);
        }
        let mut rep: Vec<u64> =
            near.iter().filter(|_| rng.random_range(0..4) == 0).filter_map(|c| r.repetition_key(c)).collect();
        let best = kids
            .iter()
            .filter(|c| r.to_act(c) != ToAct::Terminal)
            .max_by(|a, b| leaf(r, a, me).total_cmp(&leaf(r, b, me)));
        if let Some(k) = best.and_then(|b| r.repetition_key(b)) {
            rep.push(k);
        }
        rep.sort_unstable();
        rep.dedup();
        let base = if contempt == 0.0 { Vec::new() } else { rep.clone() };
        let plain = alphabeta::search(
            r,
            &s,
            &Config { depth: max_depth, quiescence: false, repeated: base, ..Config::default() },
            &mut Builtin,
        )
        .unwrap();
        let cfg = Config { depth: max_depth, quiescence: false, repeated: rep.clone(), contempt, ..Config::default() };
        let with = alphabeta::search(r, &s, &cfg, &mut Builtin).unwrap();
        if plain.value != with.value {
            changed += 1;
        }
        check_position(r, &s, max_depth, max_depth, &rep, contempt);
    }
    changed
}

#[test]
fn alphabeta_equals_minimax_in_the_draughts_presets_without_soplo() {
    for (i, p) in [preset::INTERNATIONAL, preset::BRAZILIAN, preset::RUSSIAN, preset::CHECKERS].into_iter().enumerate()
    {
        check_against_minimax(&DraughtsRules::new(p), 2, 3, 2, 100 + i as u64);
    }
}

#[test]
fn alphabeta_equals_minimax_in_the_soplo_presets_with_huffs_and_force() {
    // Every huff counts as a capture and combines with every following move:
    // with flying kings on the board the unpruned quiescence tree explodes,
    // so brute force runs on positions of the first 16 turns.
    for (i, p) in [preset::TABLERO, preset::DAMAS, preset::DAMAS_10X10].into_iter().enumerate() {
        check_positions(&DraughtsRules::new(p), 2, 16, 2, 1, 110 + i as u64);
    }
}

#[test]
fn alphabeta_equals_minimax_in_kharbaga_and_zamma() {
    for (i, (board, removal)) in [
        (Board::Kharbaga, Removal::Immediate),
        (Board::Kharbaga, Removal::Deferred),
        (Board::Zamma, Removal::Immediate),
    ]
    .into_iter()
    .enumerate()
    {
        check_against_minimax(&Alquerque::new(board, removal), 3, 2, 2, 200 + i as u64);
    }
}

#[test]
fn alphabeta_equals_minimax_in_tablut() {
    check_against_minimax(&TablutRules::with(true), 3, 2, 1, 300);
}

/// Positions after up to 80 random turns (later than the 40 of the test
/// above, so that the king meets the edges): threat quiescence equals its
/// brute force and changes the value of some.
#[test]
fn threat_quiescence_equals_its_brute_force_in_tablut() {
    let r = TablutRules::with(true);
    let mut changed = 0;
    for s in random_positions(&r, 16, 80, 310).into_iter().skip(4) {
        check_position(&r, &s, 1, 1, &[], 0.0);
        let at = |threats| {
            alphabeta::search(&r, &s, &Config { depth: 1, threats, ..Config::default() }, &mut Builtin).unwrap().value
        };
        changed += (at(true) != at(false)) as usize;
    }
    assert!(changed > 0, "threats changed no value: the test positions do not exercise them");
}

/// The king one move from an edge square with both corners of its line
/// open (tuichi): a win in two turns that depth 1 sees only with threats.
#[test]
fn threat_quiescence_sees_a_fork_of_the_corners_past_the_horizon() {
    let r = TablutRules::with(true);
    let s = r.from_position("4M4/9/9/4M4/9/9/9/2K6/9 s").unwrap();
    let search = |depth, threats| {
        alphabeta::search(&r, &s, &Config { depth, threats, ..Config::default() }, &mut Builtin).unwrap()
    };
    let plain = search(1, false);
    assert!(plain.value <= 1.0, "depth 1 without threats must not see the win: {}", plain.value);
    let with = search(1, true);
    // The threat (turn 1), any answer (turn 2), the escape (turn 3).
    assert_eq!(with.value, win_at(3), "the fork is a win one turn past the horizon");
    // The win is real: a three-turn search finds it without threats.
    assert!(search(3, false).value > 1.0);
    let best = &r.turns(&s)[with.best.unwrap()];
    assert!(r.threatened(&best.state), "the chosen move {} makes the threat", best.notation);
}

#[test]
fn alphabeta_equals_minimax_in_the_toy_pile_game() {
    // Passing keeps the pile: positions repeat, which the table must survive.
    check_against_minimax(&crate::testing::toy::PileRules::new(9), 4, 5, 5, 400);
}

#[test]
fn a_position_met_twice_is_a_draw_to_the_search_in_tablut_and_zamma() {
    // The draws changed the root's value somewhere (the comparison can fail).
    assert!(check_against_minimax_with_repetitions(&TablutRules::with(true), 4, 2, 77, 0.0) > 0);
    assert!(
        check_against_minimax_with_repetitions(&Alquerque::new(Board::Zamma, Removal::Immediate), 4, 2, 78, 0.0) > 0
    );
}

#[test]
fn a_repetition_draw_costs_the_searcher_its_contempt_in_tablut_and_zamma() {
    // Draws worth -0.3 to the searcher and +0.3 to its opponent, anywhere in the tree.
    for contempt in [0.3, -0.3] {
        assert!(check_against_minimax_with_repetitions(&TablutRules::with(true), 4, 2, 77, contempt) > 0);
        assert!(
            check_against_minimax_with_repetitions(
                &Alquerque::new(Board::Zamma, Removal::Immediate),
                4,
                2,
                78,
                contempt
            ) > 0
        );
    }
}

#[test]
fn alphabeta_prunes() {
    let r = DraughtsRules::new(preset::RUSSIAN);
    let s = r.initial(0);
    let cfg = Config { depth: 5, time: None, tt_entries: 1 << 16, quiescence: false, ..Config::default() };
    let got = alphabeta::search(&r, &s, &cfg, &mut Builtin).unwrap();
    let full = r.perft(&s, 5) + r.perft(&s, 4) + r.perft(&s, 3) + r.perft(&s, 2) + r.perft(&s, 1);
    assert!(got.nodes * 3 < full, "{} nodes searched, minimax visits {full}", got.nodes);
}

#[test]
fn alphabeta_refuses_games_with_chance() {
    let r = Backgammon::new(1, false);
    let s = r.initial_state(&mut rng_from_seed(1));
    let got = alphabeta::search(&r, &s, &Config::default(), &mut Builtin);
    assert_eq!(got.unwrap_err(), alphabeta::Failure::Chance);
}

#[test]
fn a_failing_evaluation_stops_the_search() {
    let r = DraughtsRules::new(preset::CHECKERS);
    let s = r.initial(0);
    let mut calls = 0;
    let mut eval = FnEval(|_: &DraughtsRules, _: &_, _| {
        calls += 1;
        if calls > 10 {
            Err(Aborted)
        } else {
            Ok(0.0)
        }
    });
    let got = alphabeta::search(&r, &s, &Config { depth: 4, ..Config::default() }, &mut eval);
    assert_eq!(got.unwrap_err(), alphabeta::Failure::Aborted);
}

#[test]
fn a_time_limit_still_answers_with_a_completed_depth() {
    let r = DraughtsRules::new(preset::INTERNATIONAL);
    let s = r.initial(0);
    let cfg = Config { depth: 40, time: Some(std::time::Duration::from_millis(50)), ..Config::default() };
    let got = alphabeta::search(&r, &s, &cfg, &mut Builtin).unwrap();
    assert!(got.best.is_some() && got.depth >= 1 && got.depth < 40);
    assert!(got.elapsed.as_secs_f64() < 2.0, "stopped after {:?}", got.elapsed);
}

#[test]
fn a_quicker_win_is_preferred() {
    // Pile of 2: taking both wins now; taking one or passing lets the game go on.
    let r = crate::testing::toy::PileRules::new(2);
    let s = r.initial_state(&mut rng_from_seed(0));
    let got = alphabeta::search(&r, &s, &Config { depth: 6, ..Config::default() }, &mut Builtin).unwrap();
    let turns = r.turns(&s);
    assert_eq!(r.to_act(&turns[got.best.unwrap()].state), ToAct::Terminal);
    assert!(got.value > 1.0);
}

// ----- expectimax and backgammon -----

use crate::games::backgammon::{self as bg, board::Side, Phase};
use std::collections::HashMap;

/// A single-game backgammon state with `p0` to roll, sides in their own numbering.
fn bearoff_state(p0: &[u8], p1: &[u8]) -> bg::State {
    let side = |points: &[u8]| {
        let mut s: Side = [0; 26];
        for &p in points {
            s[p as usize] += 1;
        }
        s[0] = 15 - points.len() as u8;
        s
    };
    let mut s = Backgammon::new(1, true).opening_state([0, 0], 1);
    s.board = [side(p0), side(p1)];
    s.phase = Phase::ToRoll;
    s.turn = Player::P0;
    s
}

/// Value for `me` by hand: rolls enumerated here, every complete move of the
/// rules tried, the built-in evaluation at chance nodes after `k` rolls.
fn enumerate(r: &Backgammon, s: &bg::State, me: Player, k: u32) -> f64 {
    match r.to_act(s) {
        ToAct::Terminal => r.returns(s)[me.index()] as f64,
        ToAct::Chance if k == 0 => r.heuristic(s, me) as f64,
        ToAct::Chance => {
            let mut total = 0.0;
            for hi in 1..=6u8 {
                for lo in 1..=hi {
                    let mut next = *s;
                    r.apply(&mut next, bg::roll_action(hi, lo), &mut rng_from_seed(0));
                    total += if hi == lo { 1.0 } else { 2.0 } / 36.0 * enumerate(r, &next, me, k - 1);
                }
            }
            total
        }
        ToAct::Player(m) => {
            let best = r.turns(s).iter().map(|t| enumerate(r, &t.state, m, k)).fold(f64::NEG_INFINITY, f64::max);
            if m == me {
                best
            } else {
                -best
            }
        }
    }
}

#[test]
fn expectimax_equals_an_enumeration_of_rolls_on_small_bearoffs() {
    let r = Backgammon::new(1, true);
    let mut rng = rng_from_seed(7);
    for _ in 0..6 {
        let mut pick = |n: usize| (0..n).map(|_| rng.random_range(1..=6u8)).collect::<Vec<u8>>();
        let (a, b) = (pick(4), pick(5));
        let s = bearoff_state(&a, &b);
        for k in 0..=2 {
            let cfg = expectimax::Config { plies: k, filter: 0 };
            let got = expectimax::search(&r, &s, &cfg, &mut Builtin).unwrap();
            let want = enumerate(&r, &s, Player::P0, k);
            assert!((got.value as f64 - want).abs() < 1e-5, "{a:?} vs {b:?} plies {k}: {} != {want}", got.value);
        }
        // From a rolled position the best move's value is the best enumerated one.
        let mut rolled = s;
        r.apply(&mut rolled, bg::roll_action(4, 2), &mut rng_from_seed(0));
        let got = expectimax::search(&r, &rolled, &expectimax::Config { plies: 1, filter: 0 }, &mut Builtin).unwrap();
        let want = enumerate(&r, &rolled, Player::P0, 1);
        assert!((got.value as f64 - want).abs() < 1e-5);
        assert!((enumerate(&r, &r.turns(&rolled)[got.best.unwrap()].state, Player::P0, 1) - want).abs() < 1e-5);
    }
}

/// Exact winning chances of the player on roll in a pure bear-off, by a
/// dynamic programme over the 21 rolls with its own move rules (in a bear-off
/// every die is playable while a checker is left: a die moves a checker
/// down, bears off from its own point, or bears off the highest checker when
/// larger than every point held).
fn exact_wins(me: &[u8], opp: &[u8], memo: &mut HashMap<(Vec<u8>, Vec<u8>), f64>) -> f64 {
    if me.is_empty() {
        return 1.0;
    }
    if opp.is_empty() {
        return 0.0;
    }
    let key = (me.to_vec(), opp.to_vec());
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    fn play(pos: &[u8], dice: &[u8], ends: &mut Vec<Vec<u8>>) {
        if dice.is_empty() || pos.is_empty() {
            let mut e = pos.to_vec();
            e.sort_unstable();
            ends.push(e);
            return;
        }
        let (d, rest) = (dice[0], &dice[1..]);
        let high = *pos.iter().max().unwrap();
        for i in 0..pos.len() {
            let p = pos[i];
            let mut next = pos.to_vec();
            if p > d {
                next[i] = p - d;
            } else if p == d || (d > high && p == high) {
                next.remove(i);
            } else {
                continue;
            }
            play(&next, rest, ends);
        }
    }
    let mut total = 0.0;
    for hi in 1..=6u8 {
        for lo in 1..=hi {
            let mut ends = Vec::new();
            if hi == lo {
                play(me, &[hi; 4], &mut ends);
            } else {
                play(me, &[hi, lo], &mut ends);
                play(me, &[lo, hi], &mut ends);
            }
            let best = ends.iter().map(|e| 1.0 - exact_wins(opp, e, memo)).fold(0.0, f64::max);
            total += if hi == lo { 1.0 } else { 2.0 } / 36.0 * best;
        }
    }
    memo.insert(key, total);
    total
}

#[test]
fn race_equities_of_one_or_two_checkers_match_an_exact_bearoff() {
    let r = Backgammon::new(1, true);
    let mut memo = HashMap::new();
    let mut sides: Vec<Vec<u8>> = (1..=6).map(|p| vec![p]).collect();
    for a in 1..=6u8 {
        for b in a..=6 {
            sides.push(vec![a, b]);
        }
    }
    let mut checked = 0;
    for me in &sides {
        for opp in &sides {
            let want = 2.0 * exact_wins(me, opp, &mut memo) - 1.0;
            let s = bearoff_state(me, opp);
            for plies in 0..=1 {
                let got = expectimax::search(&r, &s, &expectimax::Config { plies, filter: 0 }, &mut Builtin).unwrap();
                assert!(
                    (got.value as f64 - want).abs() < 1e-5,
                    "{me:?} vs {opp:?} plies {plies}: {} != {want}",
                    got.value
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 27 * 27);
    // Spot values by hand: on roll with one checker on the 1 point always
    // wins; with one on the 6 point against one on the 1 point it wins only by
    // bearing off at once: 22 non-double rolls total 6 or more, and the
    // doubles from 2-2 up, 27 of 36.
    assert!((exact_wins(&[1], &[1], &mut memo) - 1.0).abs() < 1e-12);
    assert!((exact_wins(&[6], &[1], &mut memo) - 27.0 / 36.0).abs() < 1e-12);
}

#[test]
fn the_race_formula_favours_the_shorter_race_and_the_player_on_roll() {
    use crate::games::backgammon::eval::{normal_cdf, race_wins};
    assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7 && (normal_cdf(1.96) - 0.975).abs() < 1e-4);
    let even = race_wins(100.0, 100.0);
    assert!(even > 0.5 && even < 0.65, "on roll in an even 100-pip race: {even}");
    assert!(race_wins(90.0, 100.0) > even && race_wins(110.0, 100.0) < even);
}

/// kharbaga: `b8-a7` leaves the opponent without a move, a win at once;
/// `c7-c5` wins too, but turns later, found by the capture quiescence. A win
/// is worth more the sooner it comes, wherever the search finds it.
#[test]
fn alphabeta_prefers_the_win_at_once_to_a_later_win_found_by_quiescence() {
    let r = Alquerque::new(Board::Kharbaga, Removal::Immediate);
    let s = r.from_position("www1w/ww1w/1w3/www1/b1W1w/4/5/4/5 w").unwrap();
    let turns = r.turns(&s);
    let at = |n: &str| turns.iter().position(|t| t.notation == n).unwrap();
    let me = r.to_act(&s).player().unwrap();
    assert_eq!(r.to_act(&turns[at("b8-a7")].state), ToAct::Terminal);
    let draws = Draws { keys: &[], root: me, contempt: 0.0 };
    let slower = minimax(&r, &turns[at("c7-c5")].state, me, 0, 1, Horizon::Captures, &draws);
    assert!(slower > 1.0 && slower < win_at(1), "c7-c5 wins, later: {slower}");
    for depth in 1..=4 {
        for tt in [0, 1 << 12] {
            let got = alphabeta::search(&r, &s, &Config { depth, tt_entries: tt, ..Config::default() }, &mut Builtin)
                .unwrap();
            assert_eq!(turns[got.best.unwrap()].notation, "b8-a7", "depth {depth} tt {tt}");
            assert_eq!(got.value, win_at(1));
        }
    }
}

#[test]
fn a_stop_hook_gives_up_alpha_beta_and_expectimax_and_a_silent_one_changes_nothing() {
    use super::eval::{never, Stoppable};
    use std::sync::atomic::{AtomicU32, Ordering};
    let r = DraughtsRules::new(preset::INTERNATIONAL);
    let s = r.initial(0);
    let cfg = Config { depth: 3, ..Config::default() };
    let plain = alphabeta::search(&r, &s, &cfg, &mut Builtin).unwrap();
    let silent = alphabeta::search(&r, &s, &cfg, &mut Stoppable::new(Builtin, &never)).unwrap();
    assert_eq!((plain.best, plain.value, plain.nodes), (silent.best, silent.value, silent.nodes));
    // Asked every Stoppable::EVERY evaluations; the search gives up at the first "stop".
    let asked = AtomicU32::new(0);
    let stop = || asked.fetch_add(1, Ordering::Relaxed) >= 2;
    let got =
        alphabeta::search(&r, &s, &Config { depth: 40, ..Config::default() }, &mut Stoppable::new(Builtin, &stop));
    assert_eq!(got.unwrap_err(), alphabeta::Failure::Aborted);
    assert_eq!(asked.load(Ordering::Relaxed), 3);
    let bg = Backgammon::new(1, false);
    let rolled = bg.initial_state(&mut rng_from_seed(1));
    let always = || true;
    let got = expectimax::search(
        &bg,
        &rolled,
        &expectimax::Config { plies: 2, filter: 0 },
        &mut Stoppable::new(Builtin, &always),
    );
    assert!(got.is_err());
}
