//! Rule tests: one hand-built position per rule of spec/backgammon.md, the
//! opening move counts against a naive generator, strings, perft, random games.

use super::board::{BearOff, Enter, OpenPoint, Pos, Variant, BAR, OFF, START};
use super::position::{GameState, MatchId};
use super::state::State;
use super::*;
use crate::core::rng_from_seed;
use crate::testing::check_random_games;
use rand::RngExt;
use std::collections::BTreeSet;

fn rules() -> Backgammon {
    Backgammon::new(1, false)
}

fn explicit(n: u16) -> Backgammon {
    Backgammon::new(n, true)
}

/// A position with player 0 on roll: `me` and `opp` list (point, count) in
/// player 0's numbering (opponent bar via `opp_bar`); the rest is borne off.
fn setup(me: &[(usize, u8)], my_bar: u8, opp: &[(usize, u8)], opp_bar: u8, dice: (u8, u8)) -> State {
    let r = explicit(1);
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
    assert!(r.set_roll(&mut s, dice.0, dice.1), "setup has no legal move");
    s
}

fn moves(s: &State) -> Vec<String> {
    let mut v: Vec<String> = rules().turns(s).into_iter().map(|t| t.notation).collect();
    v.sort();
    v
}

fn first_actions(s: &State) -> Vec<String> {
    let r = rules();
    let mut mask = vec![false; NUM_ACTIONS];
    r.legal_mask(s, &mut mask);
    (0..NUM_ACTIONS).filter(|&i| mask[i]).map(|i| r.action_to_string(s, Action(i as u32))).collect()
}

/// A Match ID in play, cube 1 centred, no double.
fn match_in_play(turn: u8, dice: [u8; 2], match_length: u16, score: [u16; 2]) -> MatchId {
    MatchId {
        cube: 0,
        owner: 3,
        turn,
        crawford: false,
        decide: turn,
        doubled: false,
        state: GameState::Playing,
        dice,
        match_length,
        score,
    }
}

const OPENING_ID: &str = "4HPwATDgc/ABMA";

#[test]
fn opening_position_id_and_chance_node() {
    let r = explicit(1);
    let s = r.initial_state(&mut rng_from_seed(0));
    assert_eq!(r.to_act(&s), ToAct::Chance);
    let text = r.to_position(&s);
    assert!(text.starts_with("4HPwATDgc/ABMA:"), "{text}");
    let m = position::parse_match_id(text.split(':').nth(1).unwrap(), false).unwrap();
    assert_eq!(m.state, GameState::NoGame);
    assert_eq!(m.dice, [0, 0]);
    assert_eq!(m.match_length, 1);
    assert_eq!(r.chance_outcomes(&s).len(), 30);
    assert_eq!(r.from_position(&text).unwrap(), s);
}

#[test]
fn match_id_matches_gnubg_output() {
    // gnubg.match_id(cube_info(), pos_info(turn, 0, 0, 1, dice)), money game: match length 0.
    let write = |turn, dice| position::match_id(&match_in_play(turn, dice, 0, [0, 0]));
    // gnubg gives "MAkXAAAAAAAA" when its cube info says player 0 is on move
    // (bit 6) and the posinfo turn is 1 (bit 11); in play both bits agree.
    assert_eq!(write(1, [6, 5]), "cAkXAAAAAAAA");
    let m = position::parse_match_id("MAkXAAAAAAAA", false).unwrap_err();
    assert!(m.contains("differ"), "{m}");
    // Padding bits (66..71) are ignored when reading.
    let plain = position::match_id(&match_in_play(0, [3, 1], 5, [2, 4]));
    let mut bytes = position::base64_decode(&plain, 9, "x").unwrap();
    bytes[8] |= 0b1111_1100;
    let padded = position::base64_encode(&bytes);
    assert_ne!(padded, plain);
    assert_eq!(position::parse_match_id(&padded, false).unwrap(), position::parse_match_id(&plain, false).unwrap());
}

#[test]
fn position_string_round_trip_and_dice_order() {
    let r = rules();
    let s = setup(&[(6, 5), (8, 3), (13, 5), (24, 2)], 0, &[(19, 5), (17, 3), (12, 5), (1, 2)], 0, (3, 1));
    let text = r.to_position(&s);
    assert_eq!(text.split(':').next().unwrap(), OPENING_ID);
    assert_eq!(r.from_position(&text).unwrap(), s);
    // Dice written smaller first are accepted.
    let m = position::parse_match_id(text.split(':').nth(1).unwrap(), false).unwrap();
    let swapped = format!("{}:{}", OPENING_ID, position::match_id(&MatchId { dice: [1, 3], ..m }));
    assert_eq!(r.to_position(&r.from_position(&swapped).unwrap()), text);
    // Mid-turn: the dice already played are a third field.
    let mut mid = s;
    r.apply(&mut mid, CheckerMove { from: 8, die: 3 }.action(), &mut rng_from_seed(0));
    let text = r.to_position(&mid);
    assert!(text.ends_with(":3"), "{text}");
    let back = r.from_position(&text).unwrap();
    assert_eq!(back.left(), &[1]);
    assert_eq!(first_actions(&back), first_actions(&mid));
}

#[test]
fn position_key_holds_the_player_not_on_turn_first() {
    let r = rules();
    // gnubg.position_id((not on roll, on roll)) with one checker of the 24-point
    // on the bar: "4HPwATDgc/ABUA" when it is the player on roll's, else "4HPwAVDgc/ABMA".
    let s = setup(&[(6, 5), (8, 3), (13, 5), (24, 1)], 1, &OPP_START, 0, (3, 1));
    assert_eq!(r.to_position(&s).split(':').next().unwrap(), "4HPwATDgc/ABUA");
    let s = setup(&START_LIST, 0, &[(19, 5), (17, 3), (12, 5), (1, 1)], 1, (3, 1));
    assert_eq!(r.to_position(&s).split(':').next().unwrap(), "4HPwAVDgc/ABMA");
}

#[test]
fn bad_position_strings_are_rejected_with_reasons() {
    let r = rules();
    let ok = r.to_position(&setup(&START_LIST, 0, &OPP_START, 0, (3, 1)));
    let (pid, mid) = ok.split_once(':').unwrap();
    let cases: Vec<(String, &str)> = vec![
        (pid.to_string(), "expected '<position id>:<match id>'"),
        (format!("{}:{mid}", &pid[..13]), "14 Base64 characters"),
        (format!("4HPwATDgc/AB!A:{mid}"), "not Base64"),
        (format!("//////////////:{mid}"), "more than 15 checkers"),
        (format!("{pid}:{}", position::match_id(&match_in_play(0, [3, 1], 0, [0, 0]))), "match length 0"),
        (format!("{pid}:{mid}:9"), "digits 1..6"),
        (format!("{pid}:{mid}:31"), "expected 1 to 1 dice"),
        (format!("{pid}:{mid}:5"), "not one of the roll"),
    ];
    for (text, want) in cases {
        let e = r.from_position(&text).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e} (wanted {want})");
    }
    // A die of 7 (bits 15-17 all set).
    let mut bytes = position::base64_decode(mid, 9, "x").unwrap();
    bytes[1] |= 0x80;
    bytes[2] |= 0x03;
    let e = r.from_position(&format!("{pid}:{}", position::base64_encode(&bytes))).unwrap_err().to_string();
    assert!(e.contains("a die of 7"), "{e}");
    // Cube not 1.
    let mut bytes = position::base64_decode(mid, 9, "x").unwrap();
    bytes[0] |= 1;
    let e = r.from_position(&format!("{pid}:{}", position::base64_encode(&bytes))).unwrap_err().to_string();
    assert!(e.contains("cube value 2"), "{e}");
    // Both sides on one point: player 0 has a checker on its 1-point where player 1 has its 24-point.
    let s = setup(&[(1, 1)], 0, &[(2, 1)], 0, (6, 5));
    let mut t = s;
    t.board[1][24] = 1;
    t.board[1][OFF] -= 1;
    let e = r.from_position(&r.to_position(&t)).unwrap_err().to_string();
    assert!(e.contains("both players have checkers on one point"), "{e}");
}

const START_LIST: [(usize, u8); 4] = [(6, 5), (8, 3), (13, 5), (24, 2)];
const OPP_START: [(usize, u8); 4] = [(19, 5), (17, 3), (12, 5), (1, 2)];

#[test]
fn rule_opening_roll_higher_die_starts_with_both_dice() {
    let r = rules();
    for seed in 0..200 {
        let s = r.initial_state(&mut rng_from_seed(seed));
        assert_eq!(s.phase, Phase::Move);
        assert_ne!(s.roll[0], s.roll[1], "ties are rolled again");
        assert_eq!(s.board, [START; 2]);
    }
    let e = explicit(1);
    let s = e.initial_state(&mut rng_from_seed(0));
    for (a, p) in e.chance_outcomes(&s) {
        assert!((p - 1.0 / 30.0).abs() < 1e-12);
        let (d0, d1) = ((a.0 / 6 + 1) as u8, (a.0 % 6 + 1) as u8);
        let mut t = s;
        e.apply(&mut t, a, &mut rng_from_seed(0));
        assert_eq!(t.turn, if d0 > d1 { Player::P0 } else { Player::P1 });
        assert_eq!(t.roll, [d0.max(d1), d0.min(d1)]);
    }
}

#[test]
fn rule_hitting_a_blot_and_blocked_points() {
    let r = rules();
    // 13/8 hits the blot on 8; 13/10 lands on a point held by two: blocked.
    let s = setup(&[(13, 1), (6, 1)], 0, &[(8, 1), (10, 2), (20, 12)], 0, (5, 3));
    let mut t = s;
    r.apply(&mut t, CheckerMove { from: 13, die: 5 }.action(), &mut rng_from_seed(0));
    assert_eq!(t.board[1][BAR], 1, "the hit checker is on the bar");
    assert_eq!(t.board[1][25 - 8], 0);
    assert!(!first_actions(&s).contains(&"13/10".to_string()));
}

#[test]
fn rule_one_checker_two_dice_needs_an_open_landing_point_between() {
    // 13 with 5-3: 13/8 is blocked, so 13/5 must go 13/10 10/5.
    let s = setup(&[(13, 1)], 0, &[(8, 2), (20, 13)], 0, (5, 3));
    assert_eq!(moves(&s), vec!["13/10 10/5"]);
    assert_eq!(first_actions(&s), vec!["13/10"]);
}

#[test]
fn rule_enter_from_the_bar_first_with_blocked_points() {
    // Points 25-6=19 .. 25-1=24 for entering; opponent holds 19, 20, 21, 22 (dice 6,5,4,3).
    let s = setup(&[(13, 5), (6, 4)], 1, &[(19, 2), (20, 2), (21, 2), (22, 2), (1, 2)], 0, (6, 2));
    // Only 2 enters (bar/23), then the 6 may be played by any checker.
    assert!(first_actions(&s).iter().all(|a| a == "bar/23"), "{:?}", first_actions(&s));
    assert!(moves(&s).contains(&"bar/23 13/7".to_string()));
    // Both dice blocked: the entering checker cannot come in.
    let r = explicit(1);
    let mut t = s;
    assert!(!r.set_roll(&mut t, 6, 5));
}

#[test]
fn rule_two_on_the_bar_must_both_enter_before_other_moves() {
    let s = setup(&[(13, 5), (6, 4)], 2, &[(19, 2), (1, 2)], 0, (5, 3));
    assert_eq!(moves(&s), vec!["bar/22 bar/20"]);
}

#[test]
fn rule_only_one_die_usable_plays_it() {
    // 6-1: only the 1 can be played (every 6 lands on an opponent point).
    let s = setup(&[(8, 1)], 0, &[(2, 2), (1, 2)], 0, (6, 1));
    assert_eq!(moves(&s), vec!["8/7"]);
}

#[test]
fn rule_larger_die_when_either_but_not_both() {
    // A lone checker on 12, opponent on 1: 12/6 or 12/7 alone, never both (6/1, 7/1 blocked).
    let s = setup(&[(12, 1)], 0, &[(1, 2)], 0, (6, 5));
    assert_eq!(moves(&s), vec!["12/6"]);
    assert_eq!(first_actions(&s), vec!["12/6"]);
    // When a two-dice move exists it must be played instead.
    let s = setup(&[(9, 1)], 0, &[(4, 2), (2, 2), (1, 2)], 0, (6, 5));
    assert_eq!(moves(&s), vec!["9/3 3/off"]);
}

#[test]
fn rule_smaller_die_when_the_larger_cannot_be_used() {
    // 6 is blocked for the lone checker, the 5 is playable, then the 6 is blocked again.
    let s = setup(&[(12, 1)], 0, &[(6, 2), (1, 2)], 0, (6, 5));
    assert_eq!(moves(&s), vec!["12/7"]);
}

#[test]
fn rule_doubles_play_four_or_as_many_as_possible() {
    // 4-4 from 24 with 16 and 12 blocked after two steps: 24/20 20/16? blocked -> partial.
    let s = setup(&[(24, 1)], 0, &[(16, 2)], 0, (4, 4));
    assert_eq!(moves(&s), vec!["24/20"]);
    let s = setup(&[(24, 1), (13, 1)], 0, &[(16, 2), (5, 2)], 0, (4, 4));
    // 13/9 9/5 blocked: 24/20, 13/9 only (two of the four dice).
    assert_eq!(moves(&s), vec!["24/20 13/9"]);
    // Full four moves when possible.
    let s = setup(&START_LIST, 0, &OPP_START, 0, (5, 5));
    assert!(moves(&s).iter().all(|m| m.split(' ').count() == 4));
    assert_eq!(moves(&s).len(), 4);
}

#[test]
fn rule_bear_off_with_a_higher_die_from_the_highest_point() {
    let s = setup(&[(4, 1), (2, 1)], 0, &[(20, 2)], 0, (6, 5));
    // 6 bears off from 4 (the highest), then 5 bears off from 2.
    assert_eq!(moves(&s), vec!["4/off 2/off"]);
    // A higher die may not bear off from a lower point while a higher one is occupied.
    let s = setup(&[(5, 1), (2, 1)], 0, &[(20, 2)], 0, (4, 3));
    let ms = moves(&s);
    assert!(
        !ms.iter().any(|m| m.contains("2/off")) || ms.iter().any(|m| m.contains("5/1") || m.contains("5/2")),
        "{ms:?}"
    );
    assert!(ms.contains(&"5/1 2/off".to_string()) || ms.contains(&"5/2 2/off".to_string()), "{ms:?}");
    assert!(!ms.contains(&"5/off 2/off".to_string()));
}

#[test]
fn rule_bear_off_blocked_by_a_checker_outside_home() {
    let s = setup(&[(8, 1), (6, 2), (2, 1)], 0, &[(20, 2)], 0, (6, 2));
    let ms = moves(&s);
    // 8/2 brings it home; then 2 bears off from 2... but first 6 cannot bear off from 6 while 8 is out.
    assert!(!first_actions(&s).contains(&"6/off".to_string()), "{:?}", first_actions(&s));
    assert!(ms.contains(&"8/2 2/off".to_string()), "{ms:?}");
    // 8/6 6/off reaches the same position and is listed once.
    assert_eq!(ms, vec!["8/2 2/off", "8/2 6/4"]);
    let r = rules();
    let a = r.parse_turn(&s, "8/6 6/off").unwrap();
    assert_eq!(r.action_to_string(&s, a[0]), "8/6");
}

#[test]
fn rule_hit_during_bear_off() {
    // The opponent has a blot on our 3-point; 6-3: 6/off and 6/3 hitting are both possible.
    let s = setup(&[(6, 2), (5, 1)], 0, &[(3, 1), (20, 2)], 0, (6, 3));
    let r = rules();
    let ms = r.turns(&s);
    let hit = ms.iter().find(|t| t.notation == "6/3 6/off").expect("6/3 6/off is legal");
    assert_eq!(hit.state.board[1][BAR], 1, "the blot is hit");
}

#[test]
fn rule_last_checker_must_use_both_dice() {
    // Spec: lone checker on 5, opponent blots on 4, 3 and 2, 5-1: only 5/4 4/off (hitting).
    let s = setup(&[(5, 1)], 0, &[(4, 1), (3, 1), (2, 1), (20, 2)], 0, (5, 1));
    assert_eq!(moves(&s), vec!["5/4 4/off"]);
    assert_eq!(first_actions(&s), vec!["5/4"]);
}

#[test]
fn rule_gammon_and_backgammon_scores() {
    let r = rules();
    let win = |opp: &[(usize, u8)], opp_bar: u8| {
        let mut s = setup(&[(1, 1)], 0, opp, opp_bar, (2, 1));
        r.apply(&mut s, CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
        assert_eq!(r.to_act(&s), ToAct::Terminal);
        assert_eq!(s.turn, Player::P1, "the turn passes to the loser");
        r.returns(&s)
    };
    // Single: the loser has borne off one checker.
    assert_eq!(win(&[(20, 14)], 0), [1.0, -1.0]);
    // Gammon: none borne off, none in our home board.
    assert_eq!(win(&[(20, 15)], 0), [2.0, -2.0]);
    // Backgammon: none borne off and one in our home board, or on the bar.
    assert_eq!(win(&[(20, 14), (3, 1)], 0), [3.0, -3.0]);
    assert_eq!(win(&[(20, 14)], 1), [3.0, -3.0]);
}

#[test]
fn rule_game_over_string_has_turn_with_loser_and_score() {
    let r = rules();
    let mut s = setup(&[(1, 1)], 0, &[(20, 15)], 0, (2, 1));
    r.apply(&mut s, CheckerMove { from: 1, die: 2 }.action(), &mut rng_from_seed(0));
    let text = r.to_position(&s);
    let m = position::parse_match_id(text.split(':').nth(1).unwrap(), false).unwrap();
    assert_eq!(m.state, GameState::Over);
    assert_eq!(m.turn, 1);
    assert_eq!(m.dice, [0, 0]);
    assert_eq!(m.score, [2, 0]);
    let back = r.from_position(&text).unwrap();
    assert_eq!(r.returns(&back), [2.0, -2.0]);
    assert_eq!(r.to_position(&back), text);
}

#[test]
fn rule_forced_pass_is_automatic() {
    // Explicit chance: player 0 on the bar against a closed board rolls and passes at once.
    let r = explicit(1);
    let mut s = r.opening_state([0, 0], 1);
    s.board = [
        {
            let mut a = [0u8; 26];
            a[13] = 5;
            a[BAR] = 1;
            a[OFF] = 9;
            a
        },
        {
            let mut b = [0u8; 26];
            b[1..=6].fill(2);
            b[10] = 3;
            b
        },
    ];
    s.phase = Phase::ToRoll;
    s.turn = Player::P0;
    let text = r.to_position(&s);
    let mut t = r.from_position(&text).unwrap();
    assert_eq!(r.to_act(&t), ToAct::Chance);
    let applied = r.apply(&mut t, roll_action(6, 5), &mut rng_from_seed(0));
    assert_eq!(applied, Applied::MidTurn);
    assert_eq!(r.to_act(&t), ToAct::Chance, "player 1 rolls next");
    assert_eq!(t.turn, Player::P1);
    // A rolled-and-blocked string is read with the pass already made (docs,
    // "rolled without a move"): the opponent to roll...
    let mut blocked = s;
    r.set_roll(&mut blocked, 6, 5);
    let read = r.from_position(&r.to_position(&blocked)).unwrap();
    assert_eq!((read.turn, read.phase, read.roll), (Player::P1, Phase::ToRoll, [0, 0]));
    assert_eq!(read.board, s.board);
    // ... 'pass' is never a move to play, and perft counts the pass as the roll's one child.
    assert_eq!(r.perft(&s, 2), 21);
    // Sampled mode: after the roll the turn passes and the opponent's dice are rolled.
    let sampled = rules();
    let mut u = sampled.from_position(&text).unwrap();
    sampled.apply(&mut u, roll_action(6, 5), &mut rng_from_seed(1));
    assert_eq!(sampled.to_act(&u), ToAct::Player(Player::P1));
}

#[test]
fn notation_accepts_any_order_and_equivalent_token_sets() {
    let r = rules();
    let s = setup(&START_LIST, 0, &OPP_START, 0, (6, 5));
    let a = r.parse_turn(&s, "24/18 18/13").unwrap();
    let b = r.parse_turn(&s, "18/13 24/18").unwrap();
    let c = r.parse_turn(&s, "24/18 18/13").unwrap();

    let end = |path: &[Action]| {
        let mut t = s;
        let mut rng = rng_from_seed(0);
        for &x in path {
            assert!(r.is_legal(&t, x));
            r.apply(&mut t, x, &mut rng);
        }
        t.board
    };
    assert_eq!(end(&a), end(&b));
    assert_eq!(end(&a), end(&c));
    // Another token set reaching the same position as 13/7 7/2.
    let d = r.parse_turn(&s, "13/8 8/2").unwrap();
    assert_eq!(end(&d), end(&r.parse_turn(&s, "7/2 13/7").unwrap()));
    assert!(moves(&s).iter().any(|m| m.contains("24/")));
    // Listed once per position.
    assert_eq!(moves(&s).iter().filter(|m| *m == "13/7 7/2" || *m == "13/8 8/2").count(), 1);
}

#[test]
fn bad_notation_is_rejected() {
    let r = rules();
    let s = setup(&START_LIST, 0, &OPP_START, 0, (6, 5));
    for (text, want) in [
        ("", "empty move"),
        ("24/12", "not a legal move"),
        ("24/18/12", "not a legal move"),
        ("25/20 13/8", "bad token"),
        ("13/18 8/3", "higher to lower"),
        ("13/off 8/3", "not a legal move"),
        ("24/18", "plays 2 dice"),
        ("13/7 13/7", "not a legal move"),
        ("pass", "pass automatically"),
        ("24/18 13/8 8/3", "not a legal move"),
    ] {
        let e = r.parse_turn(&s, text).unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: {e} (wanted {want})");
    }
}

#[test]
fn compact_forms_players_type_are_the_strict_moves() {
    let r = rules();
    let end = |s: &State, text: &str| {
        let mut t = *s;
        for a in r.parse_turn(s, text).unwrap() {
            r.apply(&mut t, a, &mut rng_from_seed(0));
        }
        t
    };
    let s = setup(&START_LIST, 0, &OPP_START, 0, (6, 5));
    for (compact, strict) in [("24/13", "24/18 18/13"), ("24/18/13", "24/18 18/13"), ("13/7 13/8", "13/7 13/8")] {
        assert_eq!(end(&s, compact), end(&s, strict), "{compact}");
    }
    let double = setup(&START_LIST, 0, &OPP_START, 0, (6, 6));
    assert_eq!(end(&double, "24/18(2) 13/7(2)"), end(&double, "24/18 24/18 13/7 13/7"));
    // From the bar with 4-1 over an empty 21 and 24: bar/20 either way.
    let bar = setup(&[(6, 14)], 1, &OPP_START, 0, (4, 1));
    assert_eq!(end(&bar, "bar/20"), end(&bar, "bar/24 24/20"));
    let off = setup(&[(6, 2)], 0, &[(24, 2)], 0, (4, 2));
    assert_eq!(end(&off, "6/off"), end(&off, "6/2 2/off"));
}

#[test]
fn match_scoring_over_several_games() {
    let r = explicit(3);
    let mut rng = rng_from_seed(7);
    // Player 0 wins a gammon (2 points): the next game's opening chance node with score 2-0.
    let mut s = setup(&[(1, 1)], 0, &[(20, 15)], 0, (2, 1));
    s.match_length = 3;
    let a = CheckerMove { from: 1, die: 2 }.action();
    assert_eq!(r.apply(&mut s, a, &mut rng), Applied::TurnOver);
    assert_eq!(s.phase, Phase::Opening);
    assert_eq!(s.score, [2, 0]);
    assert_eq!(r.returns(&s), [0.0, 0.0]);
    let mut info = [0i32; 8];
    r.write_info(&s, &mut info);
    assert_eq!(&info[..5], &[2, 0, 3, 2, 0]);
    let text = r.to_position(&s);
    assert!(text.starts_with(OPENING_ID), "{text}");
    assert_eq!(r.from_position(&text).unwrap().score, [2, 0]);
    // Player 1 then wins a single game: 2-1, still no reward.
    let mut t = setup(&[(1, 1)], 0, &[(20, 14)], 0, (2, 1));
    t.match_length = 3;
    t.score = [2, 0];
    t.board.swap(0, 1);
    t.turn = Player::P1;
    r.set_roll(&mut t, 2, 1);
    r.apply(&mut t, a, &mut rng);
    assert_eq!(t.score, [2, 1]);
    assert_eq!(t.phase, Phase::Opening);
    // Player 0 wins the next single game: 3-1, match over, +1/-1.
    let mut u = setup(&[(1, 1)], 0, &[(20, 14)], 0, (2, 1));
    u.match_length = 3;
    u.score = [2, 1];
    r.apply(&mut u, a, &mut rng);
    assert_eq!(u.phase, Phase::Over);
    assert_eq!(u.score, [3, 1]);
    assert_eq!(r.returns(&u), [1.0, -1.0]);
    let text = r.to_position(&u);
    assert_eq!(r.to_position(&r.from_position(&text).unwrap()), text);
}

#[test]
fn chance_outcomes_and_mapping() {
    let r = explicit(1);
    let s = r.opening_state([0, 0], 1);
    let o = r.chance_outcomes(&s);
    assert_eq!(o.len(), 30);
    let mut t = s;
    r.apply(&mut t, opening_action(2, 5), &mut rng_from_seed(0));
    assert_eq!(t.turn, Player::P1);
    assert_eq!(t.roll, [5, 2]);
    let mut u = s;
    u.phase = Phase::ToRoll;
    let o = r.chance_outcomes(&u);
    assert_eq!(o.len(), 21);
    let p: f64 = o.iter().map(|x| x.1).sum();
    assert!((p - 1.0).abs() < 1e-12);
    assert_eq!(r.action_to_string(&u, roll_action(6, 6)), "roll 6-6");
}

// ---- naive, independent move generator (checks movegen) -------------------

/// Mover's view: `pts[q]` > 0 own checkers, < 0 opponent's; own bar, opponent bar, own off.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) struct Naive {
    pub(super) pts: [i8; 25],
    pub(super) bar: i8,
    pub(super) opp_bar: i8,
    pub(super) off: i8,
}

pub(super) fn naive_from(p: &Pos) -> Naive {
    let mut pts = [0i8; 25];
    for (q, v) in pts.iter_mut().enumerate().skip(1) {
        *v = p.me[q] as i8 - p.opp[25 - q] as i8;
    }
    Naive { pts, bar: p.me[BAR] as i8, opp_bar: p.opp[BAR] as i8, off: p.me[OFF] as i8 }
}

/// One checker move under `v` (the standard rules, or the seed's as read by
/// its options: enter only where no opposing checker, or no checker at all,
/// stands; bear off from the 1-point with any die, or with any die at least
/// the distance). Only the data of `v` is used, none of movegen's code.
fn naive_step(b: &Naive, from: usize, die: i32, v: Variant) -> Option<Naive> {
    let mut n = b.clone();
    if from == 25 {
        if b.bar == 0 {
            return None;
        }
        let there = b.pts[(25 - die) as usize];
        match v.enter {
            Enter::Hit => {}
            Enter::Open if there < 0 => return None,
            Enter::Empty if there != 0 => return None,
            Enter::Open | Enter::Empty => {}
        }
        n.bar -= 1;
    } else {
        if b.bar > 0 || b.pts[from] <= 0 {
            return None;
        }
        n.pts[from] -= 1;
    }
    let to = from as i32 - die;
    if to >= 1 {
        let t = to as usize;
        if b.pts[t] <= -2 {
            return None;
        }
        if b.pts[t] == -1 {
            n.pts[t] = 0;
            n.opp_bar += 1;
        }
        n.pts[t] += 1;
    } else {
        let all_home = b.bar == 0 && (7..=24).all(|q| b.pts[q] <= 0);
        if !all_home {
            return None;
        }
        // Exact, from the highest point with a larger die, or (reglamento)
        // from the 1-point with any die, or with any die at least the distance.
        let free = match v.bear_off {
            BearOff::Standard => false,
            BearOff::OnePoint => from == 1,
            BearOff::AtLeast => true,
        };
        if to < 0 && !free && ((from + 1)..=6).any(|q| b.pts[q] > 0) {
            return None;
        }
        n.off += 1;
    }
    Some(n)
}

/// Every end board of a legal complete move, by brute force over die orders.
fn naive_moves(b: &Naive, dice: (u8, u8)) -> BTreeSet<Naive> {
    naive_moves_in(b, dice, Variant::STANDARD).0
}

/// [`naive_moves`] of a whole turn from its start `b` under the rules `v`,
/// and whether the reglamento's obligation to open a point removed some.
pub(super) fn naive_moves_in(b: &Naive, dice: (u8, u8), v: Variant) -> (BTreeSet<Naive>, bool) {
    let list: Vec<i32> = if dice.0 == dice.1 { vec![dice.0 as i32; 4] } else { vec![dice.0 as i32, dice.1 as i32] };
    let mut results: Vec<(Naive, Vec<i32>)> = Vec::new();
    fn rec(b: &Naive, left: &[i32], used: &mut Vec<i32>, out: &mut Vec<(Naive, Vec<i32>)>, v: Variant) {
        out.push((b.clone(), used.clone()));
        for k in 0..left.len() {
            if left[..k].contains(&left[k]) {
                continue; // the same die value again: same moves
            }
            let mut rest = left.to_vec();
            let d = rest.remove(k);
            for from in 1..=25 {
                if let Some(n) = naive_step(b, from, d, v) {
                    used.push(d);
                    rec(&n, &rest, used, out, v);
                    used.pop();
                }
            }
        }
    }
    rec(b, &list, &mut Vec::new(), &mut results, v);
    let most = results.iter().map(|r| r.1.len()).max().unwrap();
    let mut keep: Vec<&(Naive, Vec<i32>)> = results.iter().filter(|r| r.1.len() == most).collect();
    if most == 1 && dice.0 != dice.1 {
        let larger = dice.0.max(dice.1) as i32;
        if keep.iter().any(|r| r.1[0] == larger) {
            keep.retain(|r| r.1[0] == larger);
        }
    }
    // The obligation: no turn ends with the opponent on the bar and no
    // entry point open to it, if another can; "next_turn": only when the
    // turn began so.
    let shut = |n: &Naive| {
        n.opp_bar > 0 && (1..=6).all(|q| if v.enter == Enter::Empty { n.pts[q] != 0 } else { n.pts[q] > 0 })
    };
    let applies = match v.open_point {
        OpenPoint::Never => false,
        OpenPoint::AvoidClosing => true,
        OpenPoint::NextTurn => shut(b),
    };
    let mut obliged = false;
    if applies && keep.iter().any(|r| !shut(&r.0)) {
        let before = keep.len();
        keep.retain(|r| !shut(&r.0));
        obliged = keep.len() < before;
    }
    (keep.into_iter().map(|r| r.0.clone()).collect(), obliged)
}

fn ours(s: &State) -> BTreeSet<Naive> {
    movegen::distinct_moves(&s.pos(), s.left()).iter().map(|(end, _)| naive_from(end)).collect()
}

#[test]
fn opening_move_counts_match_data_file_and_naive_generator() {
    let data = include_str!("../../../tests/data/backgammon_opening_moves.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut it = line.split_whitespace();
        let roll = it.next().unwrap();
        let want: usize = it.next().unwrap().parse().unwrap();
        let (a, b) = (roll.as_bytes()[0] - b'0', roll.as_bytes()[2] - b'0');
        let s = setup(&START_LIST, 0, &OPP_START, 0, (a, b));
        let got = ours(&s);
        assert_eq!(got.len(), want, "roll {roll}");
        assert_eq!(got, naive_moves(&naive_from(&s.pos()), (a, b)), "roll {roll}");
        assert_eq!(moves(&s).len(), want);
        checked += 1;
    }
    assert_eq!(checked, 21);
}

/// Every checker move the mask allows starts a legal complete move, and every
/// legal complete move (any order) starts with a masked move.
fn check_mask_against_paths(r: &Backgammon, s: &State) {
    let mut mask = vec![false; NUM_ACTIONS];
    r.legal_mask(s, &mut mask);
    let masked: BTreeSet<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i]).collect();
    let mut firsts = BTreeSet::new();
    crate::game::for_each_turn_path(r, s, &mut |path, _| {
        firsts.insert(path[0].index());
    });
    assert_eq!(masked, firsts, "at {}", r.to_position(s));
    // The complete paths reach exactly the naive generator's end positions.
    if s.left().len() == s.nleft as usize && (s.nleft == 4 || s.nleft == 2) {
        assert_eq!(ours(s), naive_moves(&naive_from(&s.pos()), (s.roll[0], s.roll[1])), "at {}", r.to_position(s));
    }
}

#[test]
fn movegen_matches_naive_generator_in_random_games() {
    let r = explicit(1);
    let sampled = rules();
    let mut positions = 0;
    for g in 0..120u64 {
        let mut rng = rng_from_seed(1000 + g);
        let mut s = r.initial_state(&mut rng);
        for _ in 0..400 {
            match r.to_act(&s) {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    let o = r.chance_outcomes(&s);
                    let a = o[rng.random_range(0..o.len())].0;
                    r.apply(&mut s, a, &mut rng);
                }
                ToAct::Player(_) => {
                    if s.nleft == 2 || s.nleft == 4 {
                        let full = s.nleft == 4 || s.roll[0] != s.roll[1];
                        if full {
                            check_mask_against_paths(&r, &s);
                            positions += 1;
                        }
                    } else if g % 10 == 0 {
                        check_mask_against_paths(&r, &s);
                    }
                    // Notation round trip for every listed move.
                    if g % 5 == 0 {
                        for t in sampled.turns(&s) {
                            let path = sampled.parse_turn(&s, &t.notation).unwrap();
                            let mut u = s;
                            for &a in &path {
                                assert!(r.is_legal(&u, a));
                                r.apply(&mut u, a, &mut rng_from_seed(0));
                            }
                            assert_eq!(u.board, t.state.board, "{} at {}", t.notation, r.to_position(&s));
                        }
                    }
                    let mut mask = vec![false; NUM_ACTIONS];
                    r.legal_mask(&s, &mut mask);
                    let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i]).collect();
                    let a = legal[rng.random_range(0..legal.len())];
                    r.apply(&mut s, Action(a as u32), &mut rng);
                }
            }
        }
    }
    assert!(positions > 4_000, "{positions}");
}

#[test]
fn random_games_sampled_and_explicit_single_and_match() {
    for (n, explicit_chance, games) in [(1, false, 1000), (1, true, 1000), (3, false, 300), (3, true, 300)] {
        let r = Backgammon::new(n, explicit_chance);
        // Deep checks (mask paths vs `turns`) need explicit chance: in sampled
        // mode the next dice are rolled at the end of each turn.
        let deep = if explicit_chance { 30 } else { 0 };
        let report = check_random_games(&r, games, deep, 5000, 42 + n as u64);
        assert_eq!(report.unfinished, 0, "{report:?}");
        assert_eq!(report.terminated, games);
    }
}

#[test]
fn fifteen_checkers_per_side_always() {
    let r = explicit(3);
    for g in 0..200u64 {
        let mut rng = rng_from_seed(g);
        let mut s = r.initial_state(&mut rng);
        while r.to_act(&s) != ToAct::Terminal {
            for side in &s.board {
                assert_eq!(side.iter().map(|&n| n as u32).sum::<u32>(), 15);
            }
            let mut mask = vec![false; NUM_ACTIONS];
            r.legal_mask(&s, &mut mask);
            let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i]).collect();
            r.apply(&mut s, Action(legal[rng.random_range(0..legal.len())] as u32), &mut rng);
        }
        assert!(s.score[0] >= 3 || s.score[1] >= 3);
    }
}

#[test]
fn observation_is_from_the_mover_and_complete() {
    let r = rules();
    let s = setup(&[(6, 5), (8, 3), (13, 5), (24, 1)], 1, &[(19, 5), (17, 3), (12, 5), (1, 2)], 0, (3, 1));
    let mut out = vec![f32::NAN; OBS_LEN];
    r.observe(&s, &mut out);
    assert!(out.iter().all(|v| v.is_finite()));
    fn at(out: &[f32], q: usize) -> &[f32] {
        &out[(q - 1) * observe::PER_POINT..q * observe::PER_POINT]
    }
    assert_eq!(at(&out, 6), &[1.0, 1.0, 1.0, 1.0, 5.0 / 15.0]);
    assert_eq!(at(&out, 24), &[1.0, 0.0, 0.0, 0.0, 1.0 / 15.0]);
    assert_eq!(out[observe::BARS], 1.0 / 15.0);
    assert_eq!(out[observe::DICE], 1.0);
    assert_eq!(out[observe::DICE + 2], 1.0);
    // Player 1's view of the same board, rotated: its checkers on its own points.
    let mut t = s;
    t.turn = Player::P1;
    r.observe(&t, &mut out);
    assert_eq!(at(&out, 6), &[1.0, 1.0, 1.0, 1.0, 5.0 / 15.0]);
    assert_eq!(at(&out[observe::OPP_POINTS..], 1), &[1.0, 0.0, 0.0, 0.0, 1.0 / 15.0]);
}

#[test]
fn perft_from_the_opening_roll() {
    let r = rules();
    let s = setup(&START_LIST, 0, &OPP_START, 0, (3, 1));
    assert_eq!(r.perft(&s, 1), 16);
    assert_eq!(r.perft(&s, 2), 16 * 21);
    // The generic perft (position-string dedup over `turns`) agrees.
    for d in 1..=3 {
        assert_eq!(r.perft(&s, d), crate::game::default_perft(&r, &s, d), "depth {d}");
    }
}

#[test]
fn gnubg_position_rolled_without_a_legal_move_is_read_with_the_pass_made() {
    // Written by gnubg 1.1.0a16 (`set board 27YBBwDg/wcAQA`, `set dice 6 5`):
    // player 1 on roll with a checker on the bar against player 0's closed
    // board, 6-5 rolled, no legal move.
    for r in [explicit(5), Backgammon::new(5, false), explicit(5).with_cube(true, false)] {
        let s = r.from_position("27YBBwDg/wcAQA:cAm3AAAAAAAE").unwrap();
        assert_eq!(s.turn, Player::P0, "the turn passed to the opponent");
        assert_eq!(s.roll, [0, 0]);
        assert_eq!(s.board[1][BAR], 1);
        let want = if r.cube { Phase::Cube } else { Phase::ToRoll };
        assert_eq!(s.phase, want);
        // What we write is the position after the pass, which reads back the same.
        assert_eq!(r.from_position(&r.to_position(&s)).unwrap(), s);
    }
    // The same with gnubg's other roll written there (6-1 before `set dice`).
    let s = explicit(5).from_position("27YBBwDg/wcAQA:cAmnAAAAAAAE").unwrap();
    assert_eq!((s.turn, s.phase), (Player::P0, Phase::ToRoll));
    // A mid-turn field that leaves no playable die also ends the turn:
    // player 0 has entered bar/19 with the 6 of 6-5; 19/14 and 13/8 are blocked.
    let r = explicit(1);
    let mut s = setup(&[(13, 1), (19, 1)], 0, &[(20, 2), (14, 2), (8, 2)], 0, (6, 5));
    s.left = [5, 0, 0, 0];
    s.nleft = 1;
    let text = r.to_position(&s);
    assert!(text.ends_with(":6"), "{text}");
    let read = r.from_position(&text).unwrap();
    assert_eq!((read.turn, read.phase), (Player::P1, Phase::ToRoll));
}

#[test]
fn the_packed_observation_is_the_full_one_packed() {
    // The packed writer puts each field at its offset from the state; the
    // reference packs the full observation by the compact planes' codes.
    use crate::game::{ObsFormat, ObsLayout};
    // Money play, a match with the cube (scores, Crawford, cube fields), a long match.
    for r in [explicit(0), explicit(5).with_cube(true, false), Backgammon::new(25, false).with_cube(true, true)] {
        let layout = ObsLayout::new(&r, ObsFormat::Packed);
        let mut rng = rng_from_seed(17);
        let (mut seen, mut phases) = (0, BTreeSet::new());
        let mut mask = vec![false; r.spec().num_actions];
        for _ in 0..40 {
            let mut s = r.initial_state(&mut rng);
            for _ in 0..400 {
                let mut full = vec![0.0; r.spec().observation_len()];
                r.observe(&s, &mut full);
                let mut compact = vec![0.0; layout.compact_len()];
                layout.gather(&full, &mut compact);
                let (mut want, mut got) = (vec![0u8; layout.len()], vec![0xAAu8; layout.len()]);
                layout.pack(&compact, &mut want);
                r.observe_packed(&s, &layout, &mut got);
                assert_eq!(got, want, "{}", r.to_position(&s));
                seen += 1;
                phases.insert(format!("{:?}", s.phase));
                r.legal_mask(&s, &mut mask);
                let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a]).collect();
                if legal.is_empty() {
                    break;
                }
                r.apply(&mut s, Action(legal[rng.random_range(0..legal.len())] as u32), &mut rng);
            }
        }
        assert!(seen > 5000 && phases.len() >= 4, "{seen} positions, phases {phases:?}");
    }
}
