//! Option `reward` (points, match, equity through the Kazaross-XG2 table) on
//! hand-built ends of games, and option `rules="reglamento"` (the seed's rule
//! set) on hand-built positions, against a naive generator and in random games.

use super::board::{BearOff, Enter, OpenPoint, Pos, Variant, BAR, OFF};
use super::movegen::shuts_out;
use super::position;
use super::*;
use crate::core::{rng_from_seed, Action, Player, ToAct};
use crate::game::Rules;
use crate::testing::check_random_games;
use rand::RngExt;
use std::collections::BTreeSet;

fn with(n: u16, cube: bool, reglamento: bool, reward: Reward) -> Backgammon {
    Backgammon::new(n, true).with_cube(cube, false).with_variant(reglamento, reward)
}

fn reg() -> Backgammon {
    with(1, false, true, Reward::Points)
}

fn std_rules() -> Backgammon {
    with(1, false, false, Reward::Points)
}

// ---------------------------------------------------------------- rewards

/// Player `w` bears off its last checker from its 1-point with a 6-5, in a
/// game of a match at `score` with the cube at `cube_log2` (owned by `w`
/// when turned) and the Crawford flag `crawford`. The loser has `loser_off`
/// checkers off (0: a gammon), the rest on its 13-point.
fn win_now(r: &Backgammon, w: Player, score: [u16; 2], cube_log2: u8, crawford: bool, loser_off: u8) -> State {
    let mut s = r.opening_state(score, r.match_length);
    let mut a = [0u8; 26];
    a[1] = 1;
    a[OFF] = 14;
    let mut b = [0u8; 26];
    b[13] = 15 - loser_off;
    b[OFF] = loser_off;
    s.board[w.index()] = a;
    s.board[w.other().index()] = b;
    s.turn = w;
    s.cube = cube_log2;
    s.owner = if cube_log2 > 0 { w as i8 } else { -1 };
    s.crawford = crawford;
    assert!(r.set_roll(&mut s, 6, 5));
    let a = CheckerMove { from: 1, die: 6 }.action();
    assert!(r.is_legal(&s, a));
    r.apply(&mut s, a, &mut rng_from_seed(0));
    s
}

fn close(got: [f32; 2], want0: f64) {
    assert!((got[0] as f64 - want0).abs() < 1e-6 && (got[1] as f64 + want0).abs() < 1e-6, "got {got:?}, want {want0}");
}

#[test]
fn reward_points_is_the_default_and_unchanged() {
    // A gammon of a single game pays 2; the end of a 3-point match pays 1.
    let r = with(1, false, false, Reward::Points);
    close(r.returns(&win_now(&r, Player::P0, [0, 0], 0, false, 0)), 2.0);
    let r = with(3, false, false, Reward::Points);
    close(r.returns(&win_now(&r, Player::P1, [0, 1], 0, false, 0)), -1.0);
}

#[test]
fn reward_match_pays_the_match_result_only() {
    // A single game won with a gammon is one match won: 1, not 2.
    let r = with(1, false, false, Reward::Match);
    close(r.returns(&win_now(&r, Player::P0, [0, 0], 0, false, 0)), 1.0);
    // In a longer match nothing is terminal before the match is decided.
    let r = with(5, true, false, Reward::Match);
    let s = win_now(&r, Player::P0, [0, 0], 0, false, 1);
    assert_eq!((r.to_act(&s), s.phase, s.score), (ToAct::Chance, Phase::Opening, [1, 0]), "the next game's opening");
    assert_eq!(r.returns(&s), [0.0, 0.0]);
}

#[test]
fn reward_equity_without_the_cube_uses_the_pre_crawford_table() {
    // 5-point match at 0-0 (0.5); player 0 wins a gammon: 3-away v 5-away, 0.64795.
    let r = with(5, false, false, Reward::Equity);
    let s = win_now(&r, Player::P0, [0, 0], 0, false, 0);
    assert_eq!((s.phase, s.score), (Phase::Over, [2, 0]), "every game ends the episode");
    close(r.returns(&s), 0.64795 - 0.5);
    // At 4-3 (1-away v 2-away; no post-Crawford entries without the cube:
    // 0.67736), player 1 wins a single: 1-away each, 0.5.
    let s = win_now(&r, Player::P1, [4, 3], 0, false, 1);
    close(r.returns(&s), -(0.5 - (1.0 - 0.67736)));
}

#[test]
fn reward_equity_reaching_match_point_makes_the_next_game_crawford() {
    // Cube match to 5 at 2-2 (3-away each, 0.5): player 0 wins a doubled
    // single, 4-2: 1-away v 3-away before the Crawford game, pre-Crawford 0.75076.
    let r = with(5, true, false, Reward::Equity);
    let s = win_now(&r, Player::P0, [2, 2], 1, false, 1);
    assert_eq!(s.score, [4, 2]);
    close(r.returns(&s), 0.75076 - 0.5);
}

#[test]
fn reward_equity_after_the_crawford_game_uses_the_post_crawford_table() {
    let r = with(5, true, false, Reward::Equity);
    // The Crawford game at 4-2 (player 1 3-away v 1-away, 0.24924): player 1
    // wins a single, 4-3: post-Crawford 2-away v 1-away, 0.48803.
    let s = win_now(&r, Player::P1, [4, 2], 0, true, 1);
    close(r.returns(&s), -(0.48803 - 0.24924));
    // A post-Crawford game at 4-3 (player 1 post-Crawford 0.48803): player 1
    // wins the match with a doubled single.
    let s = win_now(&r, Player::P1, [4, 3], 1, false, 1);
    assert_eq!(s.score, [4, 5]);
    close(r.returns(&s), -(1.0 - 0.48803));
    // The same game won by player 0 (1-away, 1 - 0.48803) ends the match too.
    let s = win_now(&r, Player::P0, [4, 3], 0, false, 1);
    close(r.returns(&s), 1.0 - (1.0 - 0.48803));
    // A post-Crawford game at 4-2 won by player 1 with a gammon: 4-4, 0.5
    // after; before, 3-away v 1-away post-Crawford: 0.32264.
    let s = win_now(&r, Player::P1, [4, 2], 0, false, 0);
    close(r.returns(&s), -(0.5 - 0.32264));
}

#[test]
fn reward_equity_of_a_dropped_double() {
    // 5-point match at 1-0 (4-away v 5-away, 0.57732): player 1 doubles,
    // player 0 drops: 1-1, 4-away each (0.5).
    let r = with(5, true, false, Reward::Equity);
    let mut s = r.opening_state([1, 0], 5);
    s.turn = Player::P0;
    r.pass_turn(&mut s);
    assert_eq!((s.turn, s.phase), (Player::P1, Phase::Cube));
    for a in [DOUBLE, DROP] {
        r.apply(&mut s, Action(a as u32), &mut rng_from_seed(0));
    }
    assert_eq!((s.phase, s.score), (Phase::Over, [1, 1]));
    close(r.returns(&s), 0.5 - 0.57732);
}

#[test]
fn reward_equity_game_over_strings_round_trip_and_refuse_bad_scores() {
    let r = with(5, true, false, Reward::Equity);
    for (w, score, cube, crawford, off) in [(Player::P0, [2, 2], 1, false, 1), (Player::P1, [4, 2], 0, true, 0)] {
        let s = win_now(&r, w, score, cube, crawford, off);
        let text = r.to_position(&s);
        let back = r.from_position(&text).unwrap();
        assert_eq!(back, s, "{text}");
        assert_eq!(r.returns(&back), r.returns(&s));
        // Without reward "equity" a finished game below the match length is
        // not a state (between games the string is "no game started").
        assert!(with(5, true, false, Reward::Points).from_position(&text).is_err());
    }
    // The winner's score must include the points of the game (a gammon: 2).
    let s = win_now(&r, Player::P0, [0, 0], 0, false, 0);
    let mut m = position::parse_match_id(r.to_position(&s).split(':').nth(1).unwrap(), true).unwrap();
    m.score = [1, 0];
    let text = format!("{}:{}", r.to_position(&s).split(':').next().unwrap(), position::match_id(&m));
    let err = r.from_position(&text).unwrap_err().to_string();
    assert!(err.contains("includes the game's points"), "{err}");
    // Matches longer than the table.
    let long = with(26, true, false, Reward::Points);
    let text = long.to_position(&long.opening_state([0, 0], 26));
    let err = with(26, true, false, Reward::Equity).from_position(&text).unwrap_err().to_string();
    assert!(err.contains("Kazaross-XG2"), "{err}");
}

#[test]
fn random_games_with_each_reward() {
    for (n, cube, reward) in
        [(1, false, Reward::Match), (5, false, Reward::Equity), (7, true, Reward::Equity), (3, true, Reward::Match)]
    {
        for explicit in [false, true] {
            let r = Backgammon::new(n, explicit).with_cube(cube, false).with_variant(false, reward);
            let report = check_random_games(&r, 200, if explicit { 10 } else { 0 }, 5000, 7 + n as u64);
            assert_eq!(report.unfinished, 0, "{report:?}");
        }
    }
    // Equity rewards are zero-sum and at most the whole match.
    let r = with(7, true, false, Reward::Equity);
    for g in 0..100u64 {
        let mut rng = rng_from_seed(g);
        let mut s = r.initial_state(&mut rng);
        while r.to_act(&s) != ToAct::Terminal {
            let mut mask = vec![false; r.spec().num_actions];
            r.legal_mask(&s, &mut mask);
            let legal: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
            r.apply(&mut s, Action(legal[rng.random_range(0..legal.len())] as u32), &mut rng);
        }
        let v = r.returns(&s);
        assert!(v[0] + v[1] == 0.0 && v[0].abs() > 0.0 && v[0].abs() <= 1.0, "{v:?}");
    }
}

// ---------------------------------------------------------------- reglamento

/// The reglamento read as `v` says, with `bar_backgammon` `bar`.
fn reading(v: Variant, bar: bool) -> Backgammon {
    reg().with_readings(v, bar)
}

/// The reglamento's defaults but for one reading.
fn bear_off(b: BearOff) -> Backgammon {
    reading(Variant { bear_off: b, ..Variant::REGLAMENTO }, true)
}

fn open_point(o: OpenPoint) -> Backgammon {
    reading(Variant { open_point: o, ..Variant::REGLAMENTO }, true)
}

fn enter(e: Enter) -> Backgammon {
    reading(Variant { enter: e, ..Variant::REGLAMENTO }, true)
}

/// Player 0 on roll under `r`: `me`, `opp` as (point, count) in player 0's
/// numbering; the rest of each side borne off.
fn setup(
    r: &Backgammon,
    me: &[(usize, u8)],
    my_bar: u8,
    opp: &[(usize, u8)],
    opp_bar: u8,
    dice: (u8, u8),
) -> (State, bool) {
    let mut s = r.opening_state([0, 0], 1);
    let mut a = [0u8; 26];
    let mut b = [0u8; 26];
    for &(q, n) in me {
        a[q] += n;
    }
    for &(q, n) in opp {
        b[25 - q] += n;
    }
    a[BAR] = my_bar;
    b[BAR] = opp_bar;
    a[OFF] = 15 - a[1..].iter().sum::<u8>();
    b[OFF] = 15 - b[1..].iter().sum::<u8>();
    s.board = [a, b];
    s.turn = Player::P0;
    let playable = r.set_roll(&mut s, dice.0, dice.1);
    (s, playable)
}

fn turns(r: &Backgammon, s: &State) -> BTreeSet<String> {
    r.turns(s).into_iter().map(|t| t.notation).collect()
}

fn firsts(r: &Backgammon, s: &State) -> BTreeSet<String> {
    let mut mask = vec![false; r.spec().num_actions];
    r.legal_mask(s, &mut mask);
    (0..NUM_ACTIONS).filter(|&i| mask[i]).map(|i| r.action_to_string(s, Action(i as u32))).collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn play(r: &Backgammon, s: &State, from: u8, die: u8) -> State {
    let mut u = *s;
    let a = CheckerMove { from, die }.action();
    assert!(r.is_legal(&u, a), "{from}/{die} at {}", r.to_position(s));
    r.apply(&mut u, a, &mut rng_from_seed(0));
    u
}

/// Whether each turn of `s` ends with the opponent shut out under `r`'s rules.
fn ends_shut(r: &Backgammon, s: &State) -> Vec<bool> {
    r.turns(s).iter().map(|t| shuts_out(r.variant, &Pos { me: t.state.board[0], opp: t.state.board[1] })).collect()
}

#[test]
fn reglamento_defaults_are_the_natural_readings() {
    let r = reg();
    assert_eq!(r.variant, Variant::REGLAMENTO);
    assert_eq!(
        (r.variant.enter, r.variant.bear_off, r.variant.open_point, r.bar_backgammon),
        (Enter::Open, BearOff::AtLeast, OpenPoint::NextTurn, true)
    );
    assert_eq!(std_rules().variant, Variant::STANDARD);
}

#[test]
fn reglamento_opening_roll_only_decides_who_starts() {
    let r = reg();
    let mut s = r.initial_state(&mut rng_from_seed(0));
    assert_eq!(s.phase, Phase::Opening);
    assert_eq!(r.chance_outcomes(&s).len(), 30);
    r.apply(&mut s, opening_action(2, 5), &mut rng_from_seed(0));
    // Player 1 starts and rolls again: a chance node with the 21 rolls, doubles included.
    assert_eq!((r.to_act(&s), s.turn, s.roll), (ToAct::Chance, Player::P1, [0, 0]));
    assert_eq!(r.chance_outcomes(&s).len(), 21);
    r.apply(&mut s, roll_action(6, 6), &mut rng_from_seed(0));
    assert_eq!((r.to_act(&s), s.left()), (ToAct::Player(Player::P1), &[6u8, 6, 6, 6][..]));
    // Standard rules: the opening dice are the starter's roll.
    let st = Backgammon::new(1, true);
    let mut t = st.initial_state(&mut rng_from_seed(0));
    st.apply(&mut t, opening_action(2, 5), &mut rng_from_seed(0));
    assert_eq!((st.to_act(&t), t.roll), (ToAct::Player(Player::P1), [5, 2]));
    // Sampled dice: the starter's own roll is made at once.
    let sampled = Backgammon::new(1, false).with_variant(true, Reward::Points);
    let s = sampled.initial_state(&mut rng_from_seed(3));
    assert_eq!(s.phase, Phase::Move);
}

#[test]
fn reglamento_no_double_before_the_starters_first_roll() {
    // Docs: "with the cube no double comes before the starter's first roll".
    let cube = with(5, true, true, Reward::Points);
    for (d0, d1) in [(4, 1), (2, 6)] {
        let mut s = cube.opening_state([0, 0], 5);
        let mut rng = rng_from_seed(9);
        cube.apply(&mut s, opening_action(d0, d1), &mut rng);
        let starter = if d0 > d1 { Player::P0 } else { Player::P1 };
        assert_eq!(s.turn, starter);
        // The starter rolls: a chance node, not a roll/double decision.
        assert_eq!((cube.to_act(&s), s.phase), (ToAct::Chance, Phase::ToRoll));
        assert!(!cube.is_legal(&s, Action(DOUBLE as u32)));
        // Docs: the string says the starter is to roll, not to decide on the cube.
        let text = cube.to_position(&s);
        assert!(text.ends_with(":roll"), "{text}");
        assert_eq!(cube.from_position(&text).unwrap(), s);
        cube.apply(&mut s, roll_action(3, 1), &mut rng);
        assert_eq!((cube.to_act(&s), s.phase, s.cube, s.owner), (ToAct::Player(starter), Phase::Move, 0, -1));
        // After the starter's turn the opponent may double.
        let t = cube.turns(&s).remove(0).state;
        assert_eq!((t.turn, t.phase), (starter.other(), Phase::Cube));
    }
    // Sampled dice: the first state is the starter's own roll, the cube untouched.
    let sampled = Backgammon::new(5, false).with_cube(true, false).with_variant(true, Reward::Points);
    for seed in 0..20 {
        let s = sampled.initial_state(&mut rng_from_seed(seed));
        assert_eq!((s.phase, s.cube, s.owner), (Phase::Move, 0, -1));
    }
    // The same at the start of a later game of the match.
    let cube = with(5, true, true, Reward::Points);
    let s = win_now(&cube, Player::P1, [0, 0], 0, false, 1);
    assert_eq!((s.phase, s.score), (Phase::Opening, [0, 1]));
    let mut s = s;
    cube.apply(&mut s, opening_action(6, 5), &mut rng_from_seed(0));
    assert_eq!((cube.to_act(&s), s.phase), (ToAct::Chance, Phase::ToRoll));
}

#[test]
fn reglamento_entry_only_on_a_point_without_opposing_checkers() {
    // Player 0 on the bar rolls 5-3: its 20-point holds an opposing blot,
    // its 22-point is empty.
    let me = [(6, 5), (8, 3), (13, 5), (24, 1)];
    let opp = [(20, 1), (1, 2), (12, 5)];
    for r in [reg(), enter(Enter::Empty)] {
        let (s, _) = setup(&r, &me, 1, &opp, 0, (5, 3));
        assert_eq!(firsts(&r, &s), set(&["bar/22"]));
    }
    let (t, _) = setup(&std_rules(), &me, 1, &opp, 0, (5, 3));
    assert_eq!(firsts(&std_rules(), &t), set(&["bar/20", "bar/22"]), "standard: the blot is hit");
}

#[test]
fn reglamento_enter_own_point_true_enters_where_its_own_checkers_stand() {
    // Player 0 on the bar, its own checker on its 20-point, rolls 5-5.
    let me = [(6, 5), (8, 3), (13, 5), (20, 1)];
    let (s, _) = setup(&reg(), &me, 1, &[(1, 2), (12, 5)], 0, (5, 5));
    assert_eq!(firsts(&reg(), &s), set(&["bar/20"]));
    // Literal "desocupadas": that point is occupied, no 5 enters: a forced pass.
    let r = enter(Enter::Empty);
    let (_, playable) = setup(&r, &me, 1, &[(1, 2), (12, 5)], 0, (5, 5));
    assert!(!playable);
    // With 5-3 only the 3 enters (the empty 22-point), then the 5 plays on.
    let (s, _) = setup(&r, &me, 1, &[(1, 2), (12, 5)], 0, (5, 3));
    assert_eq!(firsts(&r, &s), set(&["bar/22"]));
    assert!(turns(&r, &s).iter().all(|m| m.starts_with("bar/22")), "{:?}", turns(&r, &s));
}

#[test]
fn reglamento_an_opposing_checker_on_every_entry_point_loses_the_turn() {
    let opp = [(19, 1), (20, 1), (21, 1), (22, 1), (23, 1), (24, 1), (1, 9)];
    let (_, playable) = setup(&reg(), &[(6, 5), (8, 3), (13, 6)], 1, &opp, 0, (6, 1));
    assert!(!playable, "a forced pass");
    let (_, playable) = setup(&std_rules(), &[(6, 5), (8, 3), (13, 6)], 1, &opp, 0, (6, 1));
    assert!(playable, "standard: blots are hit");
}

#[test]
fn reglamento_bear_off_at_least_takes_any_checker_a_die_reaches() {
    // All home: one checker on the 6-point, one on the 2-point; roll 3-2.
    let (s, _) = setup(&reg(), &[(6, 1), (2, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert_eq!(firsts(&reg(), &s), set(&["6/3", "6/4", "2/off", "2/off(3)"]));
    // 2/off with the 3 while the 6 stands higher, then 6/4.
    assert!(turns(&reg(), &s).contains("6/4 2/off"));
    let (t, _) = setup(&bear_off(BearOff::OnePoint), &[(6, 1), (2, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert_eq!(
        firsts(&bear_off(BearOff::OnePoint), &t),
        set(&["6/3", "6/4", "2/off"]),
        "one_point: a 3 does not bear off the 2 below a 6"
    );
    let (t, _) = setup(&std_rules(), &[(6, 1), (2, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert_eq!(firsts(&std_rules(), &t), set(&["6/3", "6/4", "2/off"]));
    // 6-5 with checkers on 5 and 4 and 6: both dice bear off, the 6 any of them.
    let (s, _) = setup(&reg(), &[(6, 1), (5, 1), (4, 1)], 0, &[(20, 2)], 0, (6, 5));
    assert_eq!(firsts(&reg(), &s), set(&["6/off", "6/1", "5/off", "5/off(6)", "4/off(5)", "4/off(6)"]));
    // Only with every checker home.
    let (s, _) = setup(&reg(), &[(7, 1), (2, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert!(firsts(&reg(), &s).iter().all(|m| !m.contains("off")));
}

#[test]
fn reglamento_bear_off_one_point_takes_the_one_point_with_any_die() {
    let r = bear_off(BearOff::OnePoint);
    let (s, _) = setup(&r, &[(6, 1), (1, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert_eq!(firsts(&r, &s), set(&["6/3", "6/4", "1/off(3)", "1/off(2)"]));
    assert!(turns(&r, &s).contains("6/3 1/off"));
    let (t, _) = setup(&std_rules(), &[(6, 1), (1, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert_eq!(firsts(&std_rules(), &t), set(&["6/3", "6/4"]), "standard: a 6 is still on the board");
    // Only in the home board with every checker home.
    let (s, _) = setup(&r, &[(7, 1), (1, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert!(firsts(&r, &s).iter().all(|m| !m.contains("off")));
}

/// Player 1 on the bar; player 0 holds its whole home board, the 6-point
/// with a single checker; 6-5 to play.
const CLOSED: [(usize, u8); 8] = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 1), (8, 2), (13, 2)];

#[test]
fn reglamento_the_opponent_is_obliged_to_open_a_point() {
    // The board is closed at the start of the turn: in both readings the
    // turn must leave a point open when a legal turn does: only moves
    // playing 6/1 with the 5.
    for o in [OpenPoint::NextTurn, OpenPoint::AvoidClosing] {
        let r = open_point(o);
        let opp = [(24, 2), (18, 3)];
        let (s, _) = setup(&r, &CLOSED, 0, &opp, 1, (6, 5));
        assert_eq!(s.obliged, o == OpenPoint::NextTurn);
        assert_eq!(turns(&r, &s), set(&["13/7 6/1", "8/2 6/1"]));
        assert_eq!(firsts(&r, &s), set(&["13/7", "8/2", "6/1"]));
        let (t, _) = setup(&std_rules(), &CLOSED, 0, &opp, 1, (6, 5));
        assert!(turns(&std_rules(), &t).contains("13/8 13/7"), "{:?}", turns(&std_rules(), &t));
        // Mid-turn: after 13/7 only 6/1 remains (7/2 would keep the board closed).
        let u = play(&r, &s, 13, 6);
        assert_eq!(firsts(&r, &u), set(&["6/1"]));
        // The string of the mid-turn state reads back to the same obligation;
        // "next_turn" marks it (the position alone cannot tell).
        let text = r.to_position(&u);
        assert_eq!(text.ends_with(":6+open"), o == OpenPoint::NextTurn, "{text}");
        let back = r.from_position(&text).unwrap();
        assert_eq!(back, u);
        assert_eq!(firsts(&r, &back), set(&["6/1"]));
    }
}

#[test]
fn reglamento_next_turn_remembers_how_the_turn_began() {
    // The same position and die left mid-turn, reached from a closed board
    // (6/1 played with the 5) and from an open one (18/13 played with the
    // 5): after the closed start the 6 may not close the board again (12/6);
    // after the open start it may. Player 1 is on the bar.
    let r = reg();
    let opp = [(24, 2), (19, 3)];
    let closed_start = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 1), (12, 1), (13, 2)];
    let open_start = [(1, 3), (2, 2), (3, 2), (4, 2), (5, 2), (12, 1), (13, 1), (18, 1)];
    let (a, _) = setup(&r, &closed_start, 0, &opp, 1, (6, 5));
    let (b, _) = setup(&r, &open_start, 0, &opp, 1, (6, 5));
    assert!(a.obliged && !b.obliged);
    let (a, b) = (play(&r, &a, 6, 5), play(&r, &b, 18, 5));
    assert_eq!((a.board, a.left()), (b.board, b.left()));
    assert!(!firsts(&r, &a).contains("12/6") && firsts(&r, &a).contains("13/7"), "{:?}", firsts(&r, &a));
    assert!(firsts(&r, &b).contains("12/6"), "{:?}", firsts(&r, &b));
    // The strings differ by the mark, and each reads back to its own mask.
    let (ta, tb) = (r.to_position(&a), r.to_position(&b));
    assert_eq!(ta, format!("{tb}+open"));
    assert_eq!(r.from_position(&ta).unwrap(), a);
    assert_eq!(r.from_position(&tb).unwrap(), b);
    // "avoid_closing" forbids 12/6 after either start.
    let r = open_point(OpenPoint::AvoidClosing);
    let (b, _) = setup(&r, &open_start, 0, &opp, 1, (6, 5));
    let b = play(&r, &b, 18, 5);
    assert!(!firsts(&r, &b).contains("12/6"));
    // The mark is refused where it has no meaning.
    let err = r.from_position(&ta).unwrap_err().to_string();
    assert!(err.contains("open_point='next_turn'"), "{err}");
    let err = std_rules().from_position(&ta).unwrap_err().to_string();
    assert!(err.contains("open_point='next_turn'"), "{err}");
}

#[test]
fn reglamento_obligation_lapses_when_no_turn_opens_a_point() {
    // Every home point holds two; sixes cannot move a home checker: every
    // legal turn keeps the board closed, so all of them stay legal.
    let me = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (13, 3)];
    for r in [reg(), open_point(OpenPoint::AvoidClosing)] {
        let (s, _) = setup(&r, &me, 0, &[(24, 2)], 1, (6, 6));
        let (t, _) = setup(&std_rules(), &me, 0, &[(24, 2)], 1, (6, 6));
        assert_eq!(turns(&r, &s), turns(&std_rules(), &t));
        assert!(ends_shut(&r, &s).iter().all(|&shut| shut));
    }
}

#[test]
fn reglamento_closing_the_last_point_or_hitting_and_closing() {
    // Player 1 on the bar, player 0's 6-point the only empty home point:
    // 8/6 would close it. Or nobody on the bar yet and an opposing blot on
    // the 6-point: hitting it and staying there would shut player 1 out.
    let me = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (8, 2), (13, 3)];
    for (opp, bar) in [(&[(24, 2)][..], 1), (&[(24, 2), (6, 1)][..], 0)] {
        // "avoid_closing": not while another turn avoids it.
        let r = open_point(OpenPoint::AvoidClosing);
        let (s, _) = setup(&r, &me, 0, opp, bar, (2, 1));
        let shut = ends_shut(&r, &s);
        assert!(!shut.is_empty() && shut.iter().all(|&shut| !shut), "{:?}", turns(&r, &s));
        assert!(turns(&r, &s).contains("8/6 6/5") || turns(&r, &s).contains("8/5"), "{:?}", turns(&r, &s));
        // "next_turn": the board was open at the start of the turn: closing is allowed.
        let (s, _) = setup(&reg(), &me, 0, opp, bar, (2, 1));
        assert!(!s.obliged);
        assert!(turns(&reg(), &s).contains("8/6 6/5") || turns(&reg(), &s).contains("8/6*/5"));
        assert!(ends_shut(&reg(), &s).iter().any(|&shut| shut), "{:?}", turns(&reg(), &s));
        let (t, _) = setup(&std_rules(), &me, 0, opp, bar, (2, 1));
        assert_eq!(turns(&reg(), &s), turns(&std_rules(), &t), "next_turn closes as the standard game");
    }
}

#[test]
fn reglamento_next_turn_obliges_the_turn_after_closing() {
    // Player 0 closes its board on player 1 (on the bar) with 8/6 6/5; player
    // 1 cannot enter and passes; player 0's next turn must open a point.
    let r = reg();
    let me = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (8, 2), (13, 3)];
    let (s, _) = setup(&r, &me, 0, &[(24, 2)], 1, (2, 1));
    let turn = r
        .turns(&s)
        .into_iter()
        .find(|t| shuts_out(r.variant, &Pos { me: t.state.board[0], opp: t.state.board[1] }))
        .expect("closing is legal");
    let mut u = turn.state;
    assert_eq!((u.turn, u.phase), (Player::P1, Phase::ToRoll));
    r.apply(&mut u, roll_action(4, 3), &mut rng_from_seed(0));
    // Shut out: the roll passes, player 0 rolls 6-5 with the obligation.
    assert_eq!((u.turn, u.phase), (Player::P0, Phase::ToRoll));
    r.apply(&mut u, roll_action(6, 5), &mut rng_from_seed(0));
    assert!(u.obliged);
    let ends = ends_shut(&r, &u);
    assert!(!ends.is_empty() && ends.iter().all(|&shut| !shut), "{:?}", turns(&r, &u));
}

#[test]
fn reglamento_open_point_with_literal_entry_counts_the_opponents_own_checkers() {
    // enter_own_point=False: player 1's own checkers on its entry points
    // block it too. Player 0 holds its points 1..5 (the 5-point with one
    // checker); player 1, on the bar, has two checkers on player 0's
    // 6-point: shut out under the literal reading only.
    let me = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 1), (8, 2), (13, 3)];
    let opp = [(6, 2)];
    let lit = enter(Enter::Empty);
    let (s, _) = setup(&lit, &me, 0, &opp, 1, (4, 1));
    assert!(s.obliged, "literal: the opponent's own checkers fill its last entry point");
    let (t, _) = setup(&reg(), &me, 0, &opp, 1, (4, 1));
    assert!(!t.obliged, "own points are open to the opponent by default");
    // Obliged: the turn must leave an entry point free of every checker
    // (move the checker off the 5-point and not back).
    let ends = ends_shut(&lit, &s);
    assert!(!ends.is_empty() && ends.iter().all(|&shut| !shut), "{:?}", turns(&lit, &s));
    assert!(turns(&lit, &s).contains("8/7 5/1") && !turns(&lit, &s).contains("13/9 13/12"), "{:?}", turns(&lit, &s));
    let free = turns(&reg(), &t);
    assert!(free.is_superset(&turns(&lit, &s)) && free.len() > turns(&lit, &s).len(), "{free:?}");
}

#[test]
fn reglamento_bar_backgammon_reads_the_bar_as_in_the_winners_board() {
    // Player 0 bears off its last checker; player 1 has none off, one on
    // the bar and the rest on its 13-point (outside player 0's home board).
    for (bar, points) in [(true, 3), (false, 2)] {
        let r = reading(Variant::REGLAMENTO, bar);
        let mut s = r.opening_state([0, 0], 1);
        let mut a = [0u8; 26];
        a[1] = 1;
        a[OFF] = 14;
        let mut b = [0u8; 26];
        b[13] = 14;
        b[BAR] = 1;
        s.board = [a, b];
        assert!(r.set_roll(&mut s, 6, 5));
        r.apply(&mut s, CheckerMove { from: 1, die: 6 }.action(), &mut rng_from_seed(0));
        assert_eq!((s.phase, s.last_points), (Phase::Over, points));
        close(r.returns(&s), points as f64);
        // A checker in the winner's home board makes a backgammon either way.
        let mut t = r.opening_state([0, 0], 1);
        let mut b2 = b;
        b2[BAR] = 0;
        b2[20] = 1;
        t.board = [a, b2];
        assert!(r.set_roll(&mut t, 6, 5));
        r.apply(&mut t, CheckerMove { from: 1, die: 6 }.action(), &mut rng_from_seed(0));
        assert_eq!(t.last_points, 3);
        // And the string of the finished game reads back to the same points.
        assert_eq!(r.from_position(&r.to_position(&s)).unwrap().last_points, points);
    }
    assert!(std_rules().bar_backgammon);
}

// The naive generator of tests.rs (brute force over die orders, independent
// of movegen) under the reglamento's rules.
use super::tests::{naive_from, naive_moves_in, Naive};

/// The readings checked against the naive generator.
pub(super) fn readings() -> Vec<Variant> {
    let mut out = Vec::new();
    for enter in [Enter::Open, Enter::Empty] {
        for bear_off in [BearOff::AtLeast, BearOff::OnePoint] {
            for open_point in [OpenPoint::NextTurn, OpenPoint::AvoidClosing] {
                out.push(Variant { enter, bear_off, open_point });
            }
        }
    }
    out
}

#[test]
fn reglamento_movegen_matches_a_naive_generator_in_random_games() {
    let mut total = 0;
    for (k, v) in readings().into_iter().enumerate() {
        let r = reading(v, true);
        let mut checked = 0;
        let mut obliged = 0;
        let mut mid = 0;
        for g in 0..40u64 {
            let mut rng = rng_from_seed(500 + g + 1000 * k as u64);
            let mut s = r.initial_state(&mut rng);
            for _ in 0..600 {
                match r.to_act(&s) {
                    ToAct::Terminal => break,
                    ToAct::Chance => {
                        let o = r.chance_outcomes(&s);
                        let a = o[rng.random_range(0..o.len())].0;
                        r.apply(&mut s, a, &mut rng);
                    }
                    ToAct::Player(_) => {
                        let full = (s.nleft == 4) || (s.nleft == 2 && s.roll[0] != s.roll[1]);
                        let view =
                            |st: &State| Pos { me: st.board[s.turn.index()], opp: st.board[s.turn.other().index()] };
                        if full {
                            let ours: BTreeSet<Naive> =
                                r.turns(&s).iter().map(|t| naive_from(&view(&t.state))).collect();
                            let (want, filtered) = naive_moves_in(&naive_from(&s.pos()), (s.roll[0], s.roll[1]), v);
                            assert_eq!(ours, want, "{v:?} at {}", r.to_position(&s));
                            // Decision by decision through the mask, the same turns.
                            let mut paths = BTreeSet::new();
                            crate::game::for_each_turn_path(&r, &s, &mut |_, end| {
                                paths.insert(naive_from(&view(end)));
                            });
                            assert_eq!(paths, want, "{v:?} mask paths at {}", r.to_position(&s));
                            checked += 1;
                            obliged += filtered as u32;
                        } else {
                            // Mid-turn strings keep the turn's obligation.
                            let back = r.from_position(&r.to_position(&s)).unwrap();
                            assert_eq!(back, s, "{v:?} at {}", r.to_position(&s));
                            mid += 1;
                        }
                        let mut mask = vec![false; NUM_ACTIONS];
                        r.legal_mask(&s, &mut mask);
                        let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i]).collect();
                        r.apply(&mut s, Action(legal[rng.random_range(0..legal.len())] as u32), &mut rng);
                    }
                }
            }
        }
        assert!(checked > 1_000 && mid > 500, "{v:?}: {checked} turns, {mid} mid-turn");
        assert!(obliged > 0, "{v:?}: no random position met the obligation");
        total += checked;
    }
    assert!(total > 10_000, "{total}");
}

#[test]
fn reglamento_random_games_and_string_round_trips() {
    // Every reading; `bar_backgammon=False` (scoring only) with the defaults.
    let cases = readings().into_iter().map(|v| (v, true)).chain([(Variant::REGLAMENTO, false)]);
    for (v, bar) in cases {
        {
            for (n, cube, explicit, games) in [(1, false, false, 30), (1, false, true, 30), (5, true, true, 8)] {
                let r = Backgammon::new(n, explicit)
                    .with_cube(cube, false)
                    .with_variant(true, Reward::Points)
                    .with_readings(v, bar);
                let report = check_random_games(&r, games, if explicit { 20 } else { 0 }, 5000, 11 + n as u64);
                assert_eq!(report.unfinished, 0, "{v:?} {report:?}");
                assert_eq!(report.terminated, games);
            }
        }
    }
}

// ---------------------------------------------------------------- beavers

fn money(beavers: bool) -> Backgammon {
    Backgammon::new(0, true).with_cube(true, false).with_beavers(beavers)
}

/// Player 1 has doubled a money game at `cube_log2` (centred or player 1's); player 0 decides.
fn doubled_by_p1(r: &Backgammon, cube_log2: u8) -> State {
    let mut s = r.opening_state([0, 0], 0);
    s.turn = Player::P0;
    s.cube = cube_log2;
    s.owner = if cube_log2 > 0 { 1 } else { -1 };
    r.pass_turn(&mut s);
    r.apply(&mut s, Action(DOUBLE as u32), &mut rng_from_seed(0));
    assert_eq!((s.phase, r.to_act(&s)), (Phase::Doubled, ToAct::Player(Player::P0)));
    s
}

fn cube_moves(r: &Backgammon, s: &State) -> Vec<String> {
    r.turns(s).into_iter().map(|t| t.notation).collect()
}

#[test]
fn beaver_is_offered_only_with_the_option() {
    assert_eq!(money(false).spec().num_actions, CUBE_NUM_ACTIONS);
    assert_eq!(money(true).spec().num_actions, CUBE_NUM_ACTIONS + 1);
    assert_eq!(cube_moves(&money(false), &doubled_by_p1(&money(false), 0)), ["take", "drop"]);
    let r = money(true);
    let s = doubled_by_p1(&r, 0);
    assert_eq!(cube_moves(&r, &s), ["take", "drop", "beaver"]);
    assert_eq!(r.perft(&s, 1), 3);
    assert_eq!(money(false).perft(&doubled_by_p1(&money(false), 0), 1), 2);
    assert_eq!(r.parse_turn(&s, "beaver").unwrap(), vec![Action(BEAVER as u32)]);
    assert!(money(false).parse_turn(&doubled_by_p1(&money(false), 0), "beaver").is_err());
}

#[test]
fn beaver_redoubles_at_once_and_the_beaverer_keeps_the_cube() {
    let r = money(true);
    let mut s = doubled_by_p1(&r, 0);
    r.apply(&mut s, Action(BEAVER as u32), &mut rng_from_seed(0));
    // Cube 4 owned by player 0; the doubler (player 1) rolls, without a cube decision.
    assert_eq!((s.cube_value(), s.owner, s.turn, s.phase), (4, 0, Player::P1, Phase::ToRoll));
    assert_eq!(r.to_act(&s), ToAct::Chance);
    // The Match ID carries it as gnubg's cube fields: value 4, owner 0, player 1 on roll.
    let text = r.to_position(&s);
    let m = position::parse_match_id(text.split(':').nth(1).unwrap(), true).unwrap();
    assert_eq!((m.cube, m.owner, m.turn, m.doubled), (2, 0, 1, false));
    assert_eq!(r.from_position(&text).unwrap(), s);
    // A gammon won afterwards is worth 2 x 4.
    let mut w = s;
    let mut a = [0u8; 26];
    a[1] = 1;
    a[OFF] = 14;
    let mut b = [0u8; 26];
    b[13] = 15;
    w.board = [a, b];
    w.turn = Player::P0;
    assert!(r.set_roll(&mut w, 2, 1));
    r.apply(&mut w, CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
    close(r.returns(&w), 8.0);
    // Past gnubg's largest cube (4096) no beaver: a double to 4096 can only be taken or dropped.
    let s = doubled_by_p1(&r, 11);
    assert_eq!(cube_moves(&r, &s), ["take", "drop"]);
    assert_eq!(cube_moves(&r, &doubled_by_p1(&r, 10)), ["take", "drop", "beaver"]);
}

#[test]
fn random_money_games_with_beavers() {
    for explicit in [false, true] {
        let r = Backgammon::new(0, explicit).with_cube(true, true).with_beavers(true);
        let report = check_random_games(&r, 300, if explicit { 20 } else { 0 }, 5000, 99);
        assert_eq!(report.unfinished, 0, "{report:?}");
    }
}

// ---------------------------------------------------------------- the agents' evaluation

/// Exact winning chances of the player on roll in a bear-off of `me`
/// against `opp` (checkers on points 1..6, each side's own numbering), by
/// recursion over the 21 rolls with the naive generator of tests.rs under `v`.
fn naive_bearoff_wins(
    me: [u8; 6],
    opp: [u8; 6],
    v: Variant,
    memo: &mut std::collections::HashMap<([u8; 6], [u8; 6]), f64>,
) -> f64 {
    if me.iter().all(|&n| n == 0) {
        return 1.0;
    }
    if opp.iter().all(|&n| n == 0) {
        return 0.0;
    }
    if let Some(&w) = memo.get(&(me, opp)) {
        return w;
    }
    let mut board = Naive { pts: [0; 25], bar: 0, opp_bar: 0, off: 0 };
    for q in 1..=6 {
        board.pts[q] = me[q - 1] as i8;
        board.pts[25 - q] -= opp[q - 1] as i8;
    }
    let mut total = 0.0;
    for (hi, lo, prob) in super::eval::rolls() {
        let (ends, _) = naive_moves_in(&board, (hi, lo), v);
        let best = ends
            .iter()
            .map(|end| {
                let after: [u8; 6] = std::array::from_fn(|i| end.pts[i + 1].max(0) as u8);
                1.0 - naive_bearoff_wins(opp, after, v, memo)
            })
            .fold(0.0, f64::max);
        total += prob * best;
    }
    memo.insert((me, opp), total);
    total
}

#[test]
fn evaluation_small_bearoffs_are_exact_under_each_bear_off_rule() {
    use super::eval::{on_roll_wins_in, EXACT_CHECKERS};
    let mut sides = Vec::new();
    for k in 0..4096usize {
        let c: [u8; 6] = std::array::from_fn(|i| (k >> (2 * i) & 3) as u8);
        let n = c.iter().map(|&x| x as u32).sum::<u32>();
        if (1..=EXACT_CHECKERS.min(2)).contains(&n) {
            sides.push(c);
        }
    }
    let pos = |me: [u8; 6], opp: [u8; 6]| {
        let mut p = Pos { me: [0; 26], opp: [0; 26] };
        p.me[1..=6].copy_from_slice(&me);
        p.opp[1..=6].copy_from_slice(&opp);
        p.me[OFF] = 15 - me.iter().sum::<u8>();
        p.opp[OFF] = 15 - opp.iter().sum::<u8>();
        p
    };
    let mut freer = 0;
    for (rule, v) in [
        (BearOff::Standard, Variant::STANDARD),
        (BearOff::OnePoint, Variant { bear_off: BearOff::OnePoint, ..Variant::REGLAMENTO }),
        (BearOff::AtLeast, Variant::REGLAMENTO),
    ] {
        let mut memo = std::collections::HashMap::new();
        for &me in &sides {
            for &opp in &sides {
                let want = naive_bearoff_wins(me, opp, v, &mut memo);
                let got = on_roll_wins_in(&pos(me, opp), rule);
                assert!((got - want).abs() < 1e-9, "{rule:?}: {me:?} v {opp:?}: {got} != {want}");
                if rule == BearOff::AtLeast && want > on_roll_wins_in(&pos(me, opp), BearOff::Standard) + 1e-9 {
                    freer += 1;
                }
            }
        }
    }
    // The freer rule changes the chances of some positions (e.g. 6 and 2 against 2 and 1).
    assert!(freer > 0);
    // The game's built-in heuristic uses the table of its own rules.
    let r = reg();
    let (s, _) = setup(&r, &[(6, 1), (2, 1)], 0, &[(24, 1), (23, 1)], 0, (3, 2));
    let p = s.pos();
    assert!((r.heuristic(&s, Player::P0) as f64 - (2.0 * on_roll_wins_in(&p, BearOff::AtLeast) - 1.0)).abs() < 1e-6);
    assert!(
        (std_rules().heuristic(&s, Player::P0) as f64 - (2.0 * on_roll_wins_in(&p, BearOff::Standard) - 1.0)).abs()
            < 1e-6
    );
}

#[test]
fn explicit_chance_and_search_keep_the_readings() {
    // Expectimax searches the explicit-chance copy of the rules: it must read the seed the same way.
    for v in readings() {
        for bar in [true, false] {
            let r = Backgammon::new(1, false).with_variant(true, Reward::Points).with_readings(v, bar);
            let e = r.explicit_chance().unwrap();
            assert_eq!((e.variant, e.bar_backgammon, e.reglamento, e.explicit), (v, bar, true, true));
        }
    }
    // One checker on the 6-point, one on the 1-point, 3-2 to play, the
    // opponent far behind: the reglamento bears the 1 off with the 2 or the
    // 3 (one checker left), which the standard game forbids (the 6 is higher).
    let cfg = crate::search::expectimax::Config { plies: 1, filter: 8 };
    for (r, off) in [(reg(), 14), (bear_off(BearOff::OnePoint), 14), (std_rules(), 13)] {
        let (s, _) = setup(&r, &[(6, 1), (1, 1)], 0, &[(13, 2)], 0, (3, 2));
        let out = crate::search::expectimax::search(&r, &s, &cfg, &mut crate::search::eval::Builtin).unwrap();
        let best = &r.turns(&s)[out.best.unwrap()];
        assert_eq!(best.state.board[0][OFF], off, "{}", best.notation);
    }
}

// ---------------------------------------------------------------- perft

/// The board of `n`'s opponent, from its side.
fn naive_flip(n: &Naive) -> Naive {
    let mut pts = [0i8; 25];
    for (q, v) in pts.iter_mut().enumerate().skip(1) {
        *v = -n.pts[25 - q];
    }
    let on_board: i8 = pts.iter().filter(|&&x| x > 0).sum::<i8>() + n.opp_bar;
    Naive { pts, bar: n.opp_bar, opp_bar: n.bar, off: 15 - on_board }
}

/// perft of the mover of `b` to play `dice` under `v`, by the naive generator (single game, no cube).
fn naive_perft_move(b: &Naive, dice: (u8, u8), v: Variant, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (ends, _) = naive_moves_in(b, dice, v);
    if depth == 1 {
        return ends.len() as u64;
    }
    ends.iter().map(|e| if e.off == 15 { 1 } else { naive_perft_roll(&naive_flip(e), v, depth - 1) }).sum()
}

/// perft of the mover of `b` about to roll (a roll without a move: one child, the pass).
fn naive_perft_roll(b: &Naive, v: Variant, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for (hi, lo, _) in super::eval::rolls() {
        if naive_moves_in(b, (hi, lo), v).0.iter().all(|e| e == b) {
            total += if depth == 1 { 1 } else { naive_perft_roll(&naive_flip(b), v, depth - 2) };
        } else {
            total += naive_perft_move(b, (hi, lo), v, depth - 1);
        }
    }
    total
}

/// The positions of tests/data/perft/backgammon.reglamento.txt: player 0 to
/// play a closed board against player 1 on the bar (6-5); to play 2-1 with
/// the last home point open and player 1 on the bar; and a bear-off against
/// a bear-off (4-2).
fn perft_positions(r: &Backgammon) -> Vec<State> {
    let opp = [(24, 2), (19, 3), (17, 3), (12, 4)];
    let closed = setup(r, &CLOSED, 0, &opp, 1, (6, 5)).0;
    let closing = setup(r, &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (8, 2), (13, 3)], 0, &opp, 1, (2, 1)).0;
    let race = setup(r, &[(6, 2), (5, 2), (3, 3), (1, 2)], 0, &[(19, 2), (20, 3), (22, 2), (24, 1)], 0, (4, 2)).0;
    vec![closed, closing, race]
}

#[test]
fn reglamento_perft_matches_the_naive_generator_and_the_table() {
    let table = include_str!("../../../tests/data/perft/backgammon.reglamento.txt");
    for v in readings().into_iter().filter(|v| v.enter == Enter::Open) {
        let r = reading(v, true);
        for s in perft_positions(&r) {
            // tests/perft.rs checks the table's counts; these are its positions.
            assert!(table.contains(&format!("position {}\n", r.to_position(&s))), "{}", r.to_position(&s));
            let b = naive_from(&s.pos());
            for depth in 1..=3 {
                assert_eq!(
                    r.perft(&s, depth),
                    naive_perft_move(&b, (s.roll[0], s.roll[1]), v, depth),
                    "{v:?} perft({depth}) at {}",
                    r.to_position(&s)
                );
            }
            // The same position to roll.
            let mut t = s;
            t.clear_dice();
            t.phase = Phase::ToRoll;
            for depth in 1..=2 {
                assert_eq!(
                    r.perft(&t, depth),
                    naive_perft_roll(&b, v, depth),
                    "{v:?} perft({depth}) at {}",
                    r.to_position(&t)
                );
            }
            if std::env::var("LUDOTECA_PRINT_PERFT").is_ok() {
                eprintln!("{v:?} {} {:?}", r.to_position(&s), (1..=4).map(|d| r.perft(&s, d)).collect::<Vec<_>>());
            }
        }
    }
}
