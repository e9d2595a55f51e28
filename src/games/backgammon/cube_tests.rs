//! The doubling cube (option `cube`): who may double, take and drop, the
//! cube on the points of a game, Crawford and post-Crawford, Jacoby, and the
//! cube fields of the Match ID (compared with IDs gnubg wrote).

use super::board::{BAR, OFF};
use super::position::{self, GameState};
use super::*;
use crate::core::{rng_from_seed, Action, Applied, Player, ToAct};
use crate::game::Rules;
use rand::RngExt;

fn cube_rules(n: u16) -> Backgammon {
    Backgammon::new(n, true).with_cube(true, false)
}

fn act(r: &Backgammon, s: &mut State, a: usize) -> Applied {
    assert!(r.is_legal(s, Action(a as u32)), "{a} not legal in {s:?}");
    r.apply(s, Action(a as u32), &mut rng_from_seed(0))
}

fn legal(r: &Backgammon, s: &State) -> Vec<usize> {
    let mut mask = vec![false; r.spec().num_actions];
    r.legal_mask(s, &mut mask);
    (0..mask.len()).filter(|&i| mask[i]).collect()
}

/// Player `p` to roll (before any cube decision) in a game of a match at `score`.
fn to_roll(r: &Backgammon, p: Player, score: [u16; 2]) -> State {
    let mut s = r.opening_state(score, r.match_length);
    s.turn = p.other();
    r.pass_turn(&mut s);
    s
}

/// Player 0 wins the next bear-off: one checker left on its 1-point; the
/// opponent keeps `opp_off` checkers borne off (0: a gammon) and has 15 - off
/// on its 13-point (or on the bar when `bar`).
fn about_to_win(r: &Backgammon, opp_off: u8, bar: bool, score: [u16; 2]) -> State {
    let mut s = r.opening_state(score, r.match_length);
    let mut a = [0u8; 26];
    a[1] = 1;
    a[OFF] = 14;
    let mut b = [0u8; 26];
    b[if bar { BAR } else { 13 }] = 15 - opp_off;
    b[OFF] = opp_off;
    s.board = [a, b];
    s.turn = Player::P0;
    s.phase = Phase::ToRoll;
    s
}

#[test]
fn cube_actions_exist_only_with_the_option() {
    assert_eq!(Backgammon::new(5, true).spec().num_actions, NUM_ACTIONS);
    assert_eq!(cube_rules(5).spec().num_actions, NUM_ACTIONS + 4);
    assert_eq!(cube_rules(5).spec().observation_shape, vec![OBS_LEN + 9]);
    // Without the cube a player to roll is a chance node, as before.
    let plain = Backgammon::new(5, true);
    assert_eq!(plain.to_act(&to_roll(&plain, Player::P1, [0, 0])), ToAct::Chance);
}

#[test]
fn player_to_roll_may_double_when_the_cube_is_centred_or_theirs() {
    let r = cube_rules(5);
    let s = to_roll(&r, Player::P1, [0, 0]);
    assert_eq!(s.phase, Phase::Cube);
    assert_eq!(r.to_act(&s), ToAct::Player(Player::P1));
    assert_eq!(legal(&r, &s), vec![ROLL, DOUBLE]);
    // Rolling: a chance node (explicit dice), the same turn.
    let mut t = s;
    assert_eq!(act(&r, &mut t, ROLL), Applied::TurnOver);
    assert_eq!((t.phase, r.to_act(&t)), (Phase::ToRoll, ToAct::Chance));
    // Doubling: the opponent decides.
    let mut d = s;
    act(&r, &mut d, DOUBLE);
    assert_eq!(r.to_act(&d), ToAct::Player(Player::P0));
    assert_eq!(legal(&r, &d), vec![TAKE, DROP]);
    // Take: cube 2 owned by the taker; the doubler rolls (and may not redouble).
    let mut k = d;
    act(&r, &mut k, TAKE);
    assert_eq!((k.cube_value(), k.owner, k.turn, k.phase), (2, 0, Player::P1, Phase::ToRoll));
    // The owner may redouble on their next turn; the other player may not.
    let mut own = k;
    own.turn = Player::P0;
    own.phase = Phase::ToRoll;
    assert!(r.may_double(&own));
    let mut other = k;
    other.phase = Phase::ToRoll;
    assert!(!r.may_double(&other));
    own.turn = Player::P1;
    r.pass_turn(&mut own);
    assert_eq!(own.phase, Phase::Cube);
    act(&r, &mut own, DOUBLE);
    act(&r, &mut own, TAKE);
    assert_eq!((own.cube_value(), own.owner), (4, 1));
}

#[test]
fn a_drop_loses_the_cube_value_before_the_double() {
    let r = cube_rules(0);
    let mut s = to_roll(&r, Player::P1, [0, 0]);
    s.cube = 2; // cube 4, owned by player 1
    s.owner = 1;
    act(&r, &mut s, DOUBLE);
    act(&r, &mut s, DROP);
    assert_eq!(s.phase, Phase::Over);
    assert_eq!(r.returns(&s), [-4.0, 4.0]);
    assert_eq!(s.score, [0, 4]);
    // Written as "game over by a dropped double" (100), read back alike.
    let text = r.to_position(&s);
    assert_eq!(position::parse_match_id(text.split(':').nth(1).unwrap(), true).unwrap().state, GameState::Dropped);
    let back = r.from_position(&text).unwrap();
    assert_eq!(r.returns(&back), [-4.0, 4.0]);
    // Its 4 points are the cube's, not a gammon's or a backgammon's.
    let board = super::text::board_text(&s, true);
    assert!(board.contains("the last game: O won 4 points") && !board.contains("gammon ("), "{board}");
}

#[test]
fn the_cube_multiplies_single_games_gammons_and_backgammons() {
    let r = cube_rules(0);
    for (off, bar, points) in [(3, false, 1.0), (0, false, 2.0), (0, true, 3.0)] {
        let mut s = about_to_win(&r, off, bar, [0, 0]);
        s.cube = 1;
        s.owner = 1;
        assert!(r.set_roll(&mut s, 2, 1));
        r.apply(&mut s, super::board::CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
        assert_eq!(r.returns(&s), [2.0 * points, -2.0 * points], "off {off} bar {bar}");
    }
}

#[test]
fn jacoby_counts_gammons_only_once_the_cube_was_turned() {
    let r = Backgammon::new(0, true).with_cube(true, true);
    let win = |cube: u8, owner: i8| {
        let mut s = about_to_win(&r, 0, true, [0, 0]);
        s.cube = cube;
        s.owner = owner;
        assert!(r.set_roll(&mut s, 2, 1));
        r.apply(&mut s, super::board::CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
        r.returns(&s)[0]
    };
    assert_eq!(win(0, -1), 1.0, "a backgammon with a centred cube counts 1");
    assert_eq!(win(1, 1), 6.0, "turned cube: backgammon 3 x 2");
    // Without Jacoby a centred-cube backgammon counts 3.
    let plain = cube_rules(0);
    let mut s = about_to_win(&plain, 0, true, [0, 0]);
    assert!(plain.set_roll(&mut s, 2, 1));
    plain.apply(&mut s, super::board::CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
    assert_eq!(plain.returns(&s)[0], 3.0);
}

#[test]
fn crawford_game_follows_the_first_game_that_reaches_match_point_minus_one() {
    let r = cube_rules(5);
    // 3-0, player 0 wins a single game: 4-0, the next game is the Crawford game.
    let mut s = about_to_win(&r, 3, false, [3, 0]);
    assert!(r.set_roll(&mut s, 2, 1));
    r.apply(&mut s, super::board::CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
    assert_eq!((s.phase, s.score, s.crawford), (Phase::Opening, [4, 0], true));
    // In the Crawford game nobody may double.
    let c = to_roll(&r, Player::P1, [4, 0]);
    let mut c2 = c;
    c2.crawford = true;
    r.pass_turn(&mut c2);
    r.pass_turn(&mut c2);
    assert_eq!(c2.phase, Phase::ToRoll);
    // Player 1 wins the Crawford game with a gammon (cube 1): 4-2, post-Crawford.
    let mut t = about_to_win(&r, 0, false, [4, 0]);
    t.crawford = true;
    t.board.swap(0, 1);
    t.turn = Player::P1;
    assert!(r.set_roll(&mut t, 2, 1));
    r.apply(&mut t, super::board::CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
    assert_eq!((t.score, t.crawford), ([4, 2], false));
    assert!(t.post_crawford());
    // Post-Crawford: the trailer may double.
    let mut p = t;
    p.turn = Player::P0;
    r.pass_turn(&mut p);
    assert_eq!(p.phase, Phase::Cube);
    // Another post-Crawford game keeps the flag off.
    let mut u = about_to_win(&r, 3, false, [4, 2]);
    u.board.swap(0, 1);
    u.turn = Player::P1;
    assert!(r.set_roll(&mut u, 2, 1));
    r.apply(&mut u, super::board::CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
    assert_eq!((u.score, u.crawford), ([4, 3], false));
}

#[test]
fn no_crawford_game_when_a_player_jumps_past_match_point_minus_one_or_the_cube_is_off() {
    let r = cube_rules(5);
    let mut s = about_to_win(&r, 0, false, [2, 0]);
    s.cube = 1;
    s.owner = 1;
    assert!(r.set_roll(&mut s, 2, 1));
    r.apply(&mut s, super::board::CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
    assert_eq!(s.phase, Phase::Over, "2 + gammon x 2 = 6 >= 5");
    assert_eq!(r.returns(&s), [1.0, -1.0]);
    let plain = Backgammon::new(5, true);
    let mut t = about_to_win(&plain, 3, false, [3, 0]);
    assert!(plain.set_roll(&mut t, 2, 1));
    plain.apply(&mut t, super::board::CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
    assert!(!t.crawford);
}

#[test]
fn a_dead_cube_may_not_be_turned() {
    // As gnubg answers `double` (1.1.0a16): allowed iff the cube value is
    // below the doubler's away score.
    let r = cube_rules(1);
    assert_eq!(to_roll(&r, Player::P0, [0, 0]).phase, Phase::ToRoll);
    for (cube, n, me, opp, ok) in [
        (1, 3, 0, 2, true),
        (1, 3, 2, 0, false),
        (2, 5, 0, 0, true),
        (2, 5, 2, 0, false),
        (3, 9, 0, 0, true),
        (2, 3, 0, 0, false),
    ] {
        let r = cube_rules(n);
        let mut s = to_roll(&r, Player::P0, [me, opp]);
        s.cube = cube;
        s.owner = 0;
        assert_eq!(r.may_double(&s), ok, "cube {} match {n} score {me}-{opp}", 1 << cube);
    }
}

#[test]
fn match_arithmetic_to_the_end_of_matches() {
    // Random cube games in matches of several lengths: scores only grow by
    // the points of a game times the cube, the match ends exactly when a
    // player reaches the length, and the Crawford flag is where the rule says.
    for n in [2u16, 3, 5, 7] {
        let r = Backgammon::new(n, false).with_cube(true, false);
        for seed in 0..6u64 {
            let mut rng = rng_from_seed(seed);
            let mut s = r.initial_state(&mut rng);
            let mut reached: Option<u32> = None;
            let mut games = 0u32;
            let mut steps = 0;
            while s.phase != Phase::Over && steps < 200_000 {
                steps += 1;
                let before = s;
                let acts = legal(&r, &s);
                let a = acts[rng.random_range(0..acts.len())];
                r.apply(&mut s, Action(a as u32), &mut rng);
                if s.score != before.score {
                    games += 1;
                    let won = (s.score[0] + s.score[1]) - (before.score[0] + before.score[1]);
                    assert_eq!(won, s.last_points);
                    assert_eq!(won as u32 % before.cube_value(), 0);
                    if s.phase != Phase::Over {
                        let at_minus_one = s.score.iter().any(|&x| x + 1 == n);
                        if reached.is_none() && at_minus_one {
                            reached = Some(games);
                            assert!(s.crawford, "n {n} seed {seed}: first game at match point minus one is Crawford");
                        } else {
                            assert!(!s.crawford);
                        }
                    }
                }
                if s.crawford {
                    assert!(!r.may_double(&s) && s.cube == 0);
                }
            }
            assert_eq!(s.phase, Phase::Over);
            assert!(s.score.iter().any(|&x| x >= n));
            assert!(s.score.iter().filter(|&&x| x >= n).count() == 1);
        }
    }
}

#[test]
fn match_id_cube_fields_match_gnubg() {
    // IDs written by gnubg 1.1.0a16 (human players, `set dice`, `move`,
    // `double`, `take`, `drop`), with the positions gnubg showed.
    let r = cube_rules(3);
    // 3-point match, player 0 doubled after its opponent's 3-1 (8/5 6/5):
    // on roll 0, to decide 1, double offered.
    let s = r.from_position("sGfwATDgc/ABMA:MBlgAAAAAAAE").unwrap();
    assert_eq!((s.phase, s.turn, r.to_act(&s)), (Phase::Doubled, Player::P0, ToAct::Player(Player::P1)));
    assert_eq!(r.to_position(&s), "sGfwATDgc/ABMA:MBlgAAAAAAAA");
    // Money game, cube 2 owned by player 1, player 0 to roll.
    let m = cube_rules(0);
    let s = m.from_position("sGfwATDgc/ABMA:EQEAAAAAAAAA").unwrap();
    assert_eq!((s.cube_value(), s.owner, s.turn, s.phase), (2, 1, Player::P0, Phase::ToRoll));
    assert_eq!(m.to_position(&s), "sGfwATDgc/ABMA:EQEAAAAAAAAA");
    // Player 1 (owner) redoubles to 4: on roll 1, to decide 0.
    let s = m.from_position("4HPwAyCwZ/ABMA:UREAAAAAAAAA").unwrap();
    assert_eq!((s.phase, s.turn, s.cube_value()), (Phase::Doubled, Player::P1, 2));
    assert_eq!(m.to_position(&s), "4HPwAyCwZ/ABMA:UREAAAAAAAAA");
    let mut t = s;
    act(&m, &mut t, TAKE);
    assert_eq!((t.cube_value(), t.owner), (4, 0));
    // Without the option the same strings are refused, naming the cube.
    let e = Backgammon::new(3, true).from_position("sGfwATDgc/ABMA:MBlgAAAAAAAE").unwrap_err().to_string();
    assert!(e.contains("cube=True"), "{e}");
}

#[test]
fn bad_cube_match_ids_are_rejected_with_reasons() {
    let r = cube_rules(5);
    let write = |f: &dyn Fn(&mut position::MatchId)| {
        let mut m = position::parse_match_id("cAmgAAAAAAAE", true).unwrap();
        f(&mut m);
        format!("4HPwATDgc/ABMA:{}", position::match_id(&m))
    };
    let cases: Vec<(String, &str)> = vec![
        (write(&|m| m.crawford = true), "Crawford flag set"),
        (write(&|m| m.cube = 13), "largest cube"),
        (write(&|m| m.owner = 2), "cube owner 2"),
        (write(&|m| m.doubled = true), "player to decide is the player on roll"),
        (
            write(&|m| {
                m.doubled = true;
                m.decide = 0;
                m.owner = 0
            }),
            "may not double",
        ),
        (
            write(&|m| {
                m.doubled = true;
                m.decide = 0;
                m.dice = [3, 1]
            }),
            "only before the roll",
        ),
    ];
    for (text, want) in cases {
        let e = r.from_position(&text).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e} (wanted {want})");
    }
}

#[test]
fn cube_notation_reads_gnubg_words() {
    let r = cube_rules(5);
    let s = to_roll(&r, Player::P0, [0, 0]);
    assert_eq!(r.turns(&s).iter().map(|t| t.notation.clone()).collect::<Vec<_>>(), vec!["roll", "double"]);
    assert_eq!(r.parse_turn(&s, "double").unwrap(), vec![Action(DOUBLE as u32)]);
    let mut d = s;
    act(&r, &mut d, DOUBLE);
    assert_eq!(r.parse_turn(&d, "pass").unwrap(), vec![Action(DROP as u32)]);
    assert_eq!(r.parse_turn(&d, "Take").unwrap(), vec![Action(TAKE as u32)]);
    let e = r.parse_turn(&d, "double").unwrap_err().to_string();
    assert!(e.contains("take, drop"), "{e}");
    assert_eq!(r.action_to_string(&d, Action(DROP as u32)), "drop");
}

#[test]
fn perft_counts_cube_decisions() {
    let r = cube_rules(5);
    let s = to_roll(&r, Player::P0, [0, 0]);
    // roll -> 21 rolls; double -> take (-> 21 rolls) or drop (a new game's opening: 30).
    assert_eq!(r.perft(&s, 1), 2);
    assert_eq!(r.perft(&s, 2), 21 + 2);
    assert_eq!(
        r.perft(&s, 3),
        r.perft(
            &{
                let mut t = s;
                t.phase = Phase::ToRoll;
                t
            },
            2
        ) + 21
            + 30
    );
}

#[test]
fn random_cube_games_keep_the_invariants() {
    for (n, jacoby) in [(0u16, false), (0, true), (5, false)] {
        let r = Backgammon::new(n, false).with_cube(true, jacoby);
        crate::testing::check_random_games(&r, 30, 0, 5000, 7 + n as u64);
        let e = Backgammon::new(n, true).with_cube(true, jacoby);
        crate::testing::check_random_games(&e, 12, 3, 5000, 8 + n as u64);
    }
}

#[test]
fn built_in_evaluation_doubles_from_the_doubling_point_and_takes_to_the_take_point() {
    use super::eval::{heuristic, on_roll_wins, DOUBLE_POINT, TAKE_POINT};
    let r = Backgammon::new(0, false).with_cube(true, false);
    let mut rng = rng_from_seed(5);
    let (mut cube_nodes, mut doubled_nodes, mut doubles, mut takes) = (0, 0, 0, 0);
    for _ in 0..60 {
        let mut s = r.initial_state(&mut rng);
        while s.phase != Phase::Over {
            let children: Vec<(usize, State)> =
                r.turns(&s).into_iter().map(|t| (t.actions[0].index(), t.state)).collect();
            let me = s.decider();
            let value = |a: usize| heuristic(&children.iter().find(|c| c.0 == a).unwrap().1, me);
            match s.phase {
                Phase::Cube => {
                    cube_nodes += 1;
                    let p = on_roll_wins(&s.pos());
                    let double = value(DOUBLE) > value(ROLL);
                    assert_eq!(double, p >= DOUBLE_POINT, "p {p}");
                    doubles += double as u32;
                }
                Phase::Doubled => {
                    doubled_nodes += 1;
                    let p = on_roll_wins(&s.pos());
                    let take = value(TAKE) > value(DROP);
                    assert_eq!(take, 1.0 - p > TAKE_POINT, "doubler's p {p}");
                    takes += take as u32;
                }
                _ => {}
            }
            let acts = legal(&r, &s);
            let a = acts[rng.random_range(0..acts.len())];
            r.apply(&mut s, Action(a as u32), &mut rng);
        }
    }
    assert!(
        cube_nodes > 100 && doubled_nodes > 20 && doubles > 0 && takes > 0,
        "{cube_nodes} {doubled_nodes} {doubles} {takes}"
    );
}

#[test]
fn chance_player_is_the_player_about_to_roll_whose_side_the_chance_observation_takes() {
    // Every chance phase (the opening roll of each game of a match, the roll
    // after a turn or after a taken double) in money play, a match with the
    // cube and a match without it.
    use super::observe::{MY_POINTS, OPP_POINTS, PER_POINT};
    let variants = [cube_rules(0), cube_rules(3), Backgammon::new(3, true)];
    for (k, r) in variants.iter().enumerate() {
        let mut chance_nodes = [0u32; 2];
        let mut obs = vec![0.0; r.spec().observation_len()];
        for g in 0..30u64 {
            let mut rng = rng_from_seed(70 + g);
            let mut s = r.initial_state(&mut rng);
            for _ in 0..3000 {
                let who = r.chance_player(&s);
                match r.to_act(&s) {
                    ToAct::Terminal => {
                        assert_eq!(who, None);
                        break;
                    }
                    ToAct::Chance => {
                        let p = who.expect("every chance node has a roller");
                        assert_eq!(p, s.turn);
                        chance_nodes[(s.phase == Phase::Opening) as usize] += 1;
                        r.observe(&s, &mut obs);
                        for q in 1..=24 {
                            let at = (q - 1) * PER_POINT + PER_POINT - 1;
                            assert_eq!(obs[MY_POINTS + at], s.board[p.index()][q] as f32 / 15.0);
                            assert_eq!(obs[OPP_POINTS + at], s.board[p.other().index()][25 - q] as f32 / 15.0);
                        }
                        let o = r.chance_outcomes(&s);
                        r.apply(&mut s, o[rng.random_range(0..o.len())].0, &mut rng);
                    }
                    ToAct::Player(_) => {
                        assert_eq!(who, None);
                        let l = legal(r, &s);
                        r.apply(&mut s, Action(l[rng.random_range(0..l.len())] as u32), &mut rng);
                    }
                }
            }
        }
        // [rolls after a turn, opening rolls]
        assert!(chance_nodes[0] > 50 && chance_nodes[1] >= 30, "variant {k}: {chance_nodes:?}");
    }
}
