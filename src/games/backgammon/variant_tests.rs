//! Option `reward` (points, match, equity through the Kazaross-XG2 table) on
//! hand-built ends of games, and option `rules="reglamento"` (the seed's rule
//! set) on hand-built positions, against a naive generator and in random games.

use super::board::{Pos, BAR, OFF};
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
    for (n, cube, reward) in [(1, false, Reward::Match), (5, false, Reward::Equity), (7, true, Reward::Equity), (3, true, Reward::Match)] {
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

/// Player 0 on roll under `r`: `me`, `opp` as (point, count) in player 0's
/// numbering; the rest of each side borne off.
fn setup(r: &Backgammon, me: &[(usize, u8)], my_bar: u8, opp: &[(usize, u8)], opp_bar: u8, dice: (u8, u8)) -> (State, bool) {
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
    // With the cube no double comes before the starter's first roll.
    let cube = with(5, true, true, Reward::Points);
    let mut s = cube.initial_state(&mut rng_from_seed(0));
    cube.apply(&mut s, opening_action(4, 1), &mut rng_from_seed(0));
    assert_eq!((cube.to_act(&s), s.phase), (ToAct::Chance, Phase::ToRoll));
}

#[test]
fn reglamento_entry_only_on_a_point_without_opposing_checkers() {
    // Player 0 on the bar rolls 5-3: its 20-point holds an opposing blot,
    // its 22-point is empty.
    let me = [(6, 5), (8, 3), (13, 5), (24, 1)];
    let opp = [(20, 1), (1, 2), (12, 5)];
    let (s, _) = setup(&reg(), &me, 1, &opp, 0, (5, 3));
    assert_eq!(firsts(&reg(), &s), set(&["bar/22"]));
    let (t, _) = setup(&std_rules(), &me, 1, &opp, 0, (5, 3));
    assert_eq!(firsts(&std_rules(), &t), set(&["bar/20", "bar/22"]), "standard: the blot is hit");
    // A point holding the entering player's own checkers is open to it.
    let (s, _) = setup(&reg(), &[(6, 5), (8, 3), (13, 5), (20, 1)], 1, &[(1, 2), (12, 5)], 0, (5, 5));
    assert!(firsts(&reg(), &s).contains("bar/20"));
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
fn reglamento_a_checker_on_the_one_point_bears_off_with_any_die() {
    let (s, _) = setup(&reg(), &[(6, 1), (1, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert_eq!(firsts(&reg(), &s), set(&["6/3", "6/4", "1/off(3)", "1/off(2)"]));
    assert!(turns(&reg(), &s).contains("6/3 1/off"));
    let (t, _) = setup(&std_rules(), &[(6, 1), (1, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert_eq!(firsts(&std_rules(), &t), set(&["6/3", "6/4"]), "standard: a 6 is still on the board");
    // Only in the home board with every checker home.
    let (s, _) = setup(&reg(), &[(7, 1), (1, 1)], 0, &[(20, 2)], 0, (3, 2));
    assert!(firsts(&reg(), &s).iter().all(|m| !m.contains("off")));
}

#[test]
fn reglamento_the_opponent_is_obliged_to_open_a_point() {
    // Player 1 is on the bar; player 0 holds its whole home board, the
    // 6-point with a single checker. Rolling 6-5 it must leave a point empty
    // when a legal turn does: only moves playing 6/1 with the 5.
    let r = reg();
    let me = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 1), (8, 2), (13, 2)];
    let opp = [(24, 2), (18, 3)];
    let (s, _) = setup(&r, &me, 0, &opp, 1, (6, 5));
    assert_eq!(turns(&r, &s), set(&["13/7 6/1", "8/2 6/1"]));
    assert_eq!(firsts(&r, &s), set(&["13/7", "8/2", "6/1"]));
    let (t, _) = setup(&std_rules(), &me, 0, &opp, 1, (6, 5));
    assert!(turns(&std_rules(), &t).contains("13/8 13/7"), "{:?}", turns(&std_rules(), &t));
    // Mid-turn: after 13/7 only 6/1 remains (7/2 would keep the board closed).
    let mut u = s;
    r.apply(&mut u, CheckerMove { from: 13, die: 6 }.action(), &mut rng_from_seed(0));
    assert_eq!(firsts(&r, &u), set(&["6/1"]));
    // The string of the mid-turn state reads back to the same obligation.
    let back = r.from_position(&r.to_position(&u)).unwrap();
    assert_eq!(firsts(&r, &back), set(&["6/1"]));
}

#[test]
fn reglamento_obligation_lapses_when_no_turn_opens_a_point() {
    // Every home point holds two; sixes cannot move a home checker: every
    // legal turn keeps the board closed, so all of them stay legal.
    let me = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (13, 3)];
    let (s, _) = setup(&reg(), &me, 0, &[(24, 2)], 1, (6, 6));
    let (t, _) = setup(&std_rules(), &me, 0, &[(24, 2)], 1, (6, 6));
    assert_eq!(turns(&reg(), &s), turns(&std_rules(), &t));
    assert!(r_all_shut_out(&reg(), &s));
}

fn r_all_shut_out(r: &Backgammon, s: &State) -> bool {
    r.turns(s).iter().all(|t| {
        let p = Pos { me: t.state.board[0], opp: t.state.board[1] };
        shuts_out(&p)
    })
}

#[test]
fn reglamento_may_not_close_the_last_point_or_hit_and_close_when_avoidable() {
    // Player 1 on the bar, player 0's 6-point the only empty home point:
    // 8/6 would close it; the turn must not.
    let me = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (8, 2), (13, 3)];
    // Nobody on the bar yet, an opposing blot on the 6-point: hitting it and
    // staying there would shut player 1 out; other turns exist.
    for (opp, bar) in [(&[(24, 2)][..], 1), (&[(24, 2), (6, 1)][..], 0)] {
        let (s, _) = setup(&reg(), &me, 0, opp, bar, (2, 1));
        let ends = |r: &Backgammon, s: &State| -> Vec<bool> {
            r.turns(s).iter().map(|t| shuts_out(&Pos { me: t.state.board[0], opp: t.state.board[1] })).collect()
        };
        let mine = ends(&reg(), &s);
        assert!(!mine.is_empty() && mine.iter().all(|&shut| !shut), "{:?}", turns(&reg(), &s));
        let (t, _) = setup(&std_rules(), &me, 0, opp, bar, (2, 1));
        assert!(ends(&std_rules(), &t).iter().any(|&shut| shut), "standard: 8/6 may close");
        assert!(turns(&reg(), &s).contains("8/6 6/5") || turns(&reg(), &s).contains("8/5"), "{:?}", turns(&reg(), &s));
    }
}

// The naive generator of tests.rs (brute force over die orders, independent
// of movegen) under the reglamento's rules.
use super::tests::{naive_from, naive_moves_in, Naive};

fn naive_moves(b: &Naive, dice: (u8, u8)) -> (BTreeSet<Naive>, bool) {
    naive_moves_in(b, dice, true)
}

#[test]
fn reglamento_movegen_matches_a_naive_generator_in_random_games() {
    let r = reg();
    let mut checked = 0;
    let mut obliged = 0;
    for g in 0..150u64 {
        let mut rng = rng_from_seed(500 + g);
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
                    if full {
                        let ours: BTreeSet<Naive> = r
                            .turns(&s)
                            .iter()
                            .map(|t| naive_from(&Pos { me: t.state.board[s.turn.index()], opp: t.state.board[s.turn.other().index()] }))
                            .collect();
                        let (want, filtered) = naive_moves(&naive_from(&s.pos()), (s.roll[0], s.roll[1]));
                        assert_eq!(ours, want, "at {}", r.to_position(&s));
                        checked += 1;
                        obliged += filtered as u32;
                    }
                    let mut mask = vec![false; NUM_ACTIONS];
                    r.legal_mask(&s, &mut mask);
                    let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i]).collect();
                    r.apply(&mut s, Action(legal[rng.random_range(0..legal.len())] as u32), &mut rng);
                }
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
    assert!(obliged > 0, "no random position met the obligation");
}

#[test]
fn reglamento_random_games_and_string_round_trips() {
    for (n, cube, explicit, games) in [(1, false, false, 500), (1, false, true, 500), (5, true, false, 100), (5, true, true, 100)] {
        let r = Backgammon::new(n, explicit).with_cube(cube, false).with_variant(true, Reward::Points);
        let report = check_random_games(&r, games, if explicit { 20 } else { 0 }, 5000, 11 + n as u64);
        assert_eq!(report.unfinished, 0, "{report:?}");
        assert_eq!(report.terminated, games);
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
