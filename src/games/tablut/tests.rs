//! One named hand-built position per rule of spec tablut.md, end conditions
//! through the session, random-game invariants, and a naive independent move
//! counter that cross-checks the engine's perft and masks.

use super::action::{encode, MOVE_ACTIONS, NUM_ACTIONS};
use super::board::*;
use super::notation::parse_legal;
use super::position;
use super::state::{State, Status, MUSCOVITES, SWEDES};
use super::TablutRules;
use crate::core::{rng_from_seed, Action, Player, ToAct};
use crate::game::Rules;
use crate::options::OptValue;
use crate::registry;
use rand::RngExt;

/// A position from a diagram: nine rows, rank 9 first, `.` empty.
fn diagram(rows: &str, side: char) -> State {
    let lines: Vec<&str> = rows.split_whitespace().collect();
    assert_eq!(lines.len(), 9, "diagram needs 9 rows");
    let mut ranks = Vec::new();
    for line in lines {
        assert_eq!(line.len(), 9, "row {line}");
        let mut out = String::new();
        let mut empty = 0;
        for c in line.chars() {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        ranks.push(out);
    }
    position::parse(&format!("{} {side}", ranks.join("/"))).unwrap()
}

fn at(s: &State, name: &str) -> char {
    let sq = Square::parse(name).unwrap().index();
    if s.king as usize == sq {
        'K'
    } else if s.swedes & bit(sq) != 0 {
        'S'
    } else if s.muscovites & bit(sq) != 0 {
        'M'
    } else {
        '.'
    }
}

fn legal(s: &State, mv: &str) -> bool {
    parse_legal(s, mv).is_ok()
}

/// Plays a legal move and returns the new position.
fn play(s: &State, mv: &str) -> State {
    let m = parse_legal(s, mv).unwrap_or_else(|e| panic!("{e}"));
    let mut next = *s;
    next.play(m.from.index(), m.to.index());
    next
}

// ---- Board, sides, moves ----

#[test]
fn start_position_swedes_move_first() {
    let s = State::start();
    assert_eq!(s.side_to_move(), SWEDES);
    assert_eq!(s.piece_counts(), [9, 16]);
    assert_eq!(s.king(), Some(Square::THRONE));
    let rules = TablutRules::with(true);
    assert_eq!(rules.to_act(&s), ToAct::Player(Player::P0));
    assert_eq!(rules.spec().num_actions, 1300);
    assert_eq!(rules.spec().observation_shape, vec![8, 9, 9]);
}

#[test]
fn pieces_move_like_rooks_and_do_not_jump() {
    let s = diagram("......... ......... ......... ......... ....K.... ......... ..M.S.... ......... .......M.", 's');
    assert!(legal(&s, "e3-e1") && legal(&s, "e3-i3") && legal(&s, "e3-d3") && legal(&s, "e3-e4"));
    assert!(!legal(&s, "e3-b3"), "may not jump the Muscovite on c3");
    assert!(!legal(&s, "e3-c3"), "may not land on a piece");
    assert!(!legal(&s, "e3-f4"), "no diagonal moves");
    assert!(!legal(&s, "e3-e6"), "may not jump the king");
    // The king moves like a rook too, any distance.
    assert!(legal(&s, "e5-a5") && legal(&s, "e5-e9") && legal(&s, "e5-e4"));
}

#[test]
fn soldiers_pass_over_the_empty_throne_but_may_not_stop_on_it() {
    let s = diagram("......... ......... ......... ......... ......... ......... ....S.... ......... .K.M.....", 's');
    assert!(legal(&s, "e3-e9"), "pass over the empty throne");
    assert!(legal(&s, "e3-e6"));
    assert!(!legal(&s, "e3-e5"), "a soldier may not stop on the throne");
    let m = diagram("......... ......... ......... ......... M........ ......... ......... ......... .K.......", 'm');
    assert!(legal(&m, "a5-i5"), "a Muscovite passes over the empty throne");
    assert!(!legal(&m, "a5-e5"), "a Muscovite may not stop on the throne");
    // The occupied throne blocks like any piece.
    let s = diagram("......... ......... ......... ......... M...K.... ......... ......... ......... .........", 'm');
    assert!(legal(&s, "a5-d5") && !legal(&s, "a5-f5"));
}

#[test]
fn king_may_leave_and_return_to_the_throne() {
    let s = State::start();
    let s = play(&s, "e4-b4");
    let s = play(&s, "a6-b6");
    let s = play(&s, "e5-e4");
    assert_eq!(at(&s, "e5"), '.');
    let s = play(&s, "b6-c6");
    assert!(legal(&s, "e4-e5"), "the king may return to the throne");
    let s = play(&s, "e4-e5");
    assert_eq!(at(&s, "e5"), 'K');
}

#[test]
fn only_the_king_may_stop_on_a_corner() {
    let s = diagram("......... ......... ......... ......... ....K.... ......... S........ ......... .......M.", 's');
    assert!(legal(&s, "a3-a2") && !legal(&s, "a3-a1"), "soldier may not stop on a corner");
    let m = play(&s, "a3-a2");
    assert!(legal(&m, "h1-g1") && !legal(&m, "h1-i1"), "Muscovite may not stop on a corner");
    let k = diagram("......... ......... ......... ......... ......... ......... K........ ......... ......M..", 's');
    assert!(legal(&k, "a3-a1"), "the king may");
}

// ---- Captures ----

#[test]
fn custodial_capture_by_either_side() {
    // A Swede lands on e4: the Muscovite on e3 is between it and the Swede on e2.
    let s = diagram("......... ......... ......... ........K ......... .S....... ....M.... ....S.... .........", 's');
    let n = play(&s, "b4-e4");
    assert_eq!(at(&n, "e3"), '.', "Muscovite between e4 and e2 is captured");
    assert_eq!(n.piece_counts(), [3, 0]);
    // Muscovites capture a soldier between two Muscovites.
    let m = diagram("......... ......... ......... ........K ......... .M....... ....S.... ....M.... .........", 'm');
    let n = play(&m, "b4-e4");
    assert_eq!(at(&n, "e3"), '.');
    assert_eq!(n.piece_counts(), [1, 2]);
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let s = diagram(".......K. ......... ......... ......... ......... ......... ...M.M... ....S.... ......M..", 's');
    let n = play(&s, "e2-e3");
    assert_eq!(at(&n, "e3"), 'S', "a soldier that steps between two Muscovites is safe");
    // A later Muscovite move elsewhere does not capture it either.
    let n = play(&n, "g1-h1");
    assert_eq!(at(&n, "e3"), 'S');
    // Same for a Muscovite stepping between two Swedes.
    let m = diagram(".......K. ......... ......... ......... ......... ......... ...S.S... ....M.... ......S..", 'm');
    let n = play(&m, "e2-e3");
    assert_eq!(at(&n, "e3"), 'M');
}

#[test]
fn several_soldiers_captured_by_one_move() {
    let s = diagram("......... .......K. ......... ......... ..S...... ..M...... SM.MS.... ......... ..S...M..", 's');
    let n = play(&s, "c1-c3");
    for sq in ["b3", "d3", "c4"] {
        assert_eq!(at(&n, sq), '.', "{sq} captured");
    }
    assert_eq!(n.piece_counts(), [5, 1]);
}

#[test]
fn armed_king_captures_as_the_moving_piece() {
    let s = diagram("......... ......... ..K...... ......... ......... ...MS.... ......... .......M. .........", 's');
    let n = play(&s, "c7-c4");
    assert_eq!(at(&n, "d4"), '.', "the king captures d4 against the soldier on e4");
}

#[test]
fn armed_king_is_the_far_side_anvil() {
    let s = diagram("......... ......... ......... ......... ......... ......... .....MK.. ......... ....S..M.", 's');
    let n = play(&s, "e1-e3");
    assert_eq!(at(&n, "f3"), '.', "f3 is between the soldier on e3 and the king on g3");
    // The king on the throne is an anvil too (the occupied throne is the king).
    let s = diagram("......... ......... S........ ....M.... ....K.... ......... ......... ......... .......M.", 's');
    let n = play(&s, "a7-e7");
    assert_eq!(at(&n, "e6"), '.', "e6 is between the soldier on e7 and the king on the throne");
}

#[test]
fn corner_is_hostile_to_both_sides() {
    // A Muscovite between a Swede and the empty corner a1.
    let s = diagram("......... ......... ......... ......... ....K.... ......... ...S..... M........ .......M.", 's');
    let n = play(&s, "d3-a3");
    assert_eq!(at(&n, "a2"), '.', "a2 is captured against the corner a1");
    // A Swede between a Muscovite and the empty corner a1.
    let m = diagram("......... ......... ......... ......... ....K.... ..M...... ......... ......... .S.......", 'm');
    let n = play(&m, "c4-c1");
    assert_eq!(at(&n, "b1"), '.', "b1 is captured against the corner a1");
}

#[test]
fn empty_throne_is_not_hostile() {
    // A Muscovite on e4 with the empty throne behind it survives a Swede landing on e3.
    let s = diagram(".......K. ......... ......... ......... ......... ....M.... S........ ......... .........", 's');
    let n = play(&s, "a3-e3");
    assert_eq!(at(&n, "e4"), 'M');
    // A Swede on d5 next to the empty throne survives a Muscovite landing on c5.
    let m = diagram(".......K. ......... ......... ......... ...S..... ......... ..M...... ......... .........", 'm');
    let n = play(&m, "c3-c5");
    assert_eq!(at(&n, "d5"), 'S');
    // The king on the throne is no anvil against his own soldiers.
    let m = diagram("......... ......... M........ ....S.... ....K.... ......... ......... ......... .........", 'm');
    let n = play(&m, "a7-e7");
    assert_eq!(at(&n, "e6"), 'S');
}

#[test]
fn the_edge_never_sandwiches_a_soldier() {
    let m = diagram(".......K. ......... ......... ......... S........ ......... ......... ......... .M.......", 'm');
    let n = play(&m, "b1-b5");
    assert_eq!(at(&n, "a5"), 'S');
    let s = diagram(".......K. ......... ......... ......... M........ ......... ......... ......... .S.......", 's');
    let n = play(&s, "b1-b5");
    assert_eq!(at(&n, "a5"), 'M');
}

// ---- King capture: the four cases and their near-misses ----

const CASE1: &str = "......... ......... ..M...... ......... ......... ......... .MKM..... ..M...... .........";

#[test]
fn king_captured_case1_four_muscovites() {
    let s = diagram(CASE1, 'm');
    let n = play(&s, "c7-c4");
    assert_eq!(n.king(), None);
    assert_eq!(n.status(), Status::KingCaptured);
    assert_eq!(n.winner(), Some(MUSCOVITES));
    assert_eq!(n.side_to_move(), SWEDES, "the side flips after the last move");
    assert!(!position::format(&n).contains('K'));
}

#[test]
fn king_not_captured_case1_near_misses() {
    // One attacker missing (c2 empty).
    let s = diagram("......... ......... ..M...... ......... ......... ......... .MKM..... ......... .........", 'm');
    assert_eq!(at(&play(&s, "c7-c4"), "c3"), 'K');
    // A Swede in place of one attacker.
    let s = diagram("......... ......... ..M...... ......... ......... ......... .MKM..... ..S...... .........", 'm');
    let n = play(&s, "c7-c4");
    assert_eq!(at(&n, "c3"), 'K');
    assert_eq!(n.status(), Status::Ongoing);
}

#[test]
fn king_stepping_between_muscovites_is_safe_until_a_muscovite_lands_next_to_him() {
    let s = diagram("......... .......M. ..K...... ......... ......... M........ .M.M..... ..M...... ......S..", 's');
    let n = play(&s, "c7-c3");
    assert_eq!(at(&n, "c3"), 'K', "the king may step between Muscovites");
    let n = play(&n, "h8-h7");
    assert_eq!(at(&n, "c3"), 'K', "a Muscovite move elsewhere captures nothing");
    let n = play(&n, "g1-g2");
    let n = play(&n, "a4-c4");
    assert_eq!(n.king(), None, "a Muscovite landing next to him completes case 1");
}

#[test]
fn surrounded_king_is_not_captured_by_a_move_elsewhere() {
    let s = diagram("......... .......M. ......... ......... ......... ..M...... .MKM..... ..M...... .........", 'm');
    let n = play(&s, "h8-h7");
    assert_eq!(at(&n, "c3"), 'K');
    assert_eq!(n.status(), Status::NoMoves, "the boxed-in king has no move: the Swedes lose");
    assert_eq!(n.winner(), Some(MUSCOVITES));
}

#[test]
fn king_captured_case2_on_the_edge_by_three() {
    let s = diagram("......... ......... ......... ......... ...M..... ......... ......... ......... ..MKM....", 'm');
    let n = play(&s, "d5-d2");
    assert_eq!(n.king(), None);
}

#[test]
fn king_not_captured_case2_near_misses() {
    // One attacker missing.
    let s = diagram("......... ......... ......... ......... ...M..... ......... ......... ......... ..MK.....", 'm');
    assert_eq!(at(&play(&s, "d5-d2"), "d1"), 'K');
    // A Swede in place of one attacker.
    let s = diagram("......... ......... ......... ......... ...M..... ......... ......... ......... ..MKS....", 'm');
    assert_eq!(at(&play(&s, "d5-d2"), "d1"), 'K');
    // An edge square not next to a corner needs three: two are not enough.
    let s = diagram("......... ......... ......... ......... ......... ......... ......... ......... .M.K...M.", 'm');
    assert_eq!(at(&play(&s, "h1-e1"), "d1"), 'K');
}

#[test]
fn king_captured_case3_next_to_the_throne_by_three() {
    let s = diagram("......... ......... ......... ...M..... ..MK..... M........ ......... ......... .........", 'm');
    assert_eq!(play(&s, "a4-d4").king(), None);
    // Below the throne as well: king e4, Muscovites d4 f4, one lands on e3.
    let s = diagram("......... ......... ......... ......... ......... ...MKM... ......... ....M.... .........", 'm');
    assert_eq!(play(&s, "e2-e3").king(), None);
}

#[test]
fn king_not_captured_case3_near_misses() {
    // One attacker missing (d6 empty).
    let s = diagram("......... ......... ......... ......... ..MK..... M........ ......... ......... .........", 'm');
    assert_eq!(at(&play(&s, "a4-d4"), "d5"), 'K');
    // A Swede in place of one attacker.
    let s = diagram("......... ......... ......... ...S..... ..MK..... M........ ......... ......... .........", 'm');
    assert_eq!(at(&play(&s, "a4-d4"), "d5"), 'K');
    // Three Muscovites around the king on the throne are not enough (case 1 needs four).
    let s = diagram("......... ......... ......... ....M.... ...MK.... ........M ......... ......... .........", 'm');
    assert_eq!(at(&play(&s, "i4-e4"), "e5"), 'K');
    // d4 is diagonal to the throne, not next to it: three Muscovites (c4 d3, e4 arriving) are not enough.
    let s = diagram("......... ......... ......... ......... ......... ..MK....M ...M..... ......... .........", 'm');
    assert_eq!(at(&play(&s, "i4-e4"), "d4"), 'K');
}

#[test]
fn king_on_the_throne_captured_by_four() {
    let s = diagram("......... ......... ......... ....M.... ...MK...M ....M.... ......... ......... .........", 'm');
    assert_eq!(play(&s, "i5-f5").king(), None);
}

#[test]
fn king_captured_case4_next_to_a_corner_by_two() {
    let s = diagram("......... ......... ......... ......... .M....... ......... ......... ......... .KM......", 'm');
    assert_eq!(play(&s, "b5-b2").king(), None);
    // a2, next to the same corner along the other edge.
    let s = diagram("......... ......... ......... ......... ......... ......... M........ K...M.... .........", 'm');
    assert_eq!(play(&s, "e2-b2").king(), None);
}

#[test]
fn king_not_captured_case4_near_misses() {
    // A Swede in place of one attacker.
    let s = diagram("......... ......... ......... ......... .M....... ......... ......... ......... .KS......", 'm');
    assert_eq!(at(&play(&s, "b5-b2"), "b1"), 'K');
    // One attacker missing.
    let s = diagram("......... ......... ......... ......... .M....... ......... ......... ......... .K.......", 'm');
    assert_eq!(at(&play(&s, "b5-b2"), "b1"), 'K');
}

#[test]
fn only_a_muscovite_move_captures_the_king() {
    // The king's hostile squares complete, but the last move is a Swedish one.
    let s = diagram("......... ......... ......... ......... .M....... ......... ......... .M....... .KM....S.", 's');
    let n = play(&s, "h1-d1");
    assert_eq!(at(&n, "b1"), 'K');
}

// ---- The move that ends the game is played in full ----

#[test]
fn king_reaching_a_corner_wins_and_still_captures() {
    let s = diagram("......... ......... ......... ......... ......... ......... S........ M........ ....K..M.", 's');
    let n = play(&s, "e1-a1");
    assert_eq!(n.status(), Status::KingEscaped);
    assert_eq!(n.winner(), Some(SWEDES));
    assert_eq!(at(&n, "a2"), '.', "the winning move still captures a2 against a3");
    assert_eq!(n.side_to_move(), MUSCOVITES, "the side flips after the last move");
    let text = position::format(&n);
    assert_eq!(text, "9/9/9/9/9/9/S8/9/K6M1 m", "the king stays on his corner");
    let rules = TablutRules::with(true);
    assert_eq!(rules.to_act(&n), ToAct::Terminal);
    assert_eq!(rules.returns(&n), [1.0, -1.0]);
    assert_eq!(rules.from_position(&text).unwrap(), n);
}

#[test]
fn move_capturing_the_king_also_captures_soldiers() {
    let s = diagram("......... ......... ......... ..M...... ..S...... M........ .MKM..... ..M...... .........", 'm');
    let n = play(&s, "a4-c4");
    assert_eq!(n.king(), None);
    assert_eq!(at(&n, "c5"), '.', "c5 captured against c6 by the same move");
    let rules = TablutRules::with(true);
    assert_eq!(rules.returns(&n), [-1.0, 1.0]);
    assert_eq!(position::format(&n), "9/9/9/2M6/9/2M6/1M1M5/2M6/9 s");
    assert_eq!(rules.from_position("9/9/9/2M6/9/2M6/1M1M5/2M6/9 s").unwrap(), n);
}

// ---- No legal move ----

#[test]
fn muscovites_without_a_move_lose() {
    let s = diagram("......... ......... ......... ......... .S..K.... ......... ......... ......... .MS......", 's');
    let n = play(&s, "b5-b2");
    assert_eq!(at(&n, "b1"), 'M', "the edge does not sandwich b1");
    assert_eq!(n.status(), Status::NoMoves);
    assert_eq!(n.winner(), Some(SWEDES));
    assert_eq!(TablutRules::with(true).returns(&n), [1.0, -1.0]);
    // No Muscovites at all, Muscovites to move: lost as well.
    let s = position::parse("9/9/9/9/4K4/9/9/9/9 m").unwrap();
    assert_eq!(s.winner(), Some(SWEDES));
}

#[test]
fn swedes_without_a_move_lose() {
    let s = diagram("......... .......M. ....M.... ...MSM... ...MK.M.. ....M.... ......... ......... .........", 'm');
    let n = play(&s, "g5-f5");
    assert_eq!(at(&n, "e5"), 'K', "f5 lands next to the king on the throne but e6 is a Swede");
    assert_eq!(n.status(), Status::NoMoves);
    assert_eq!(n.winner(), Some(MUSCOVITES));
    assert_eq!(TablutRules::with(true).returns(&n), [-1.0, 1.0]);
}

// ---- Raichi and tuichi ----

#[test]
fn raichi_and_tuichi_count_open_corners() {
    let tuichi =
        diagram(".......M. ......... ......... ......... K........ ......... ......... ......... .M.......", 'm');
    assert_eq!(tuichi.king_corner_routes(), 2);
    let raichi =
        diagram(".......M. ......... M........ ......... K........ ......... ......... ......... .M.......", 'm');
    assert_eq!(raichi.king_corner_routes(), 1);
    let rank =
        diagram(".......M. ......... ......... ......... ......... ......... ......... ......... ..K...M..", 'm');
    assert_eq!(rank.king_corner_routes(), 1, "a1 open, i1 blocked by g1");
    assert_eq!(State::start().king_corner_routes(), 0);
    let rules = TablutRules::with(true);
    let mut info = [0i32];
    rules.write_info(&tuichi, &mut info);
    assert_eq!(info, [2]);
    let mut obs = vec![0.0; 8 * 81];
    rules.observe(&raichi, &mut obs);
    assert!(obs[6 * 81..7 * 81].iter().all(|&v| v == 1.0), "raichi plane on");
    assert!(obs[7 * 81..].iter().all(|&v| v == 0.0), "tuichi plane off");
    rules.observe(&tuichi, &mut obs);
    assert!(obs[6 * 81..].iter().all(|&v| v == 1.0));
    assert!(obs[3 * 81..4 * 81].iter().all(|&v| v == 1.0), "Muscovites to move");
}

#[test]
fn king_corner_routes_reported_in_session_info() {
    let game = registry::make("tablut", &[]).unwrap();
    let mut st = game.clone().new_state(0);
    assert_eq!(st.info(), vec![("king_corner_routes", 0)]);
    let mut st2 = game.state_from_string("9/9/9/9/K8/9/9/9/1M7 m").unwrap();
    assert_eq!(st2.info(), vec![("king_corner_routes", 2)]);
    st2.play("b1-b2").unwrap();
    assert_eq!(st2.info(), vec![("king_corner_routes", 2)]);
    st.play("e3-a3").unwrap();
    assert_eq!(st.info(), vec![("king_corner_routes", 0)]);
}

// ---- Repetition ----

fn shuffle(st: &mut Box<dyn crate::dynamic::DynState>) {
    for mv in ["e3-c3", "a4-b4", "c3-e3", "b4-a4"] {
        st.play(mv).unwrap();
    }
}

#[test]
fn third_repetition_draws_through_the_session() {
    let game = registry::make("tablut", &[]).unwrap();
    let mut st = game.new_state(0);
    shuffle(&mut st);
    assert_eq!(st.to_act(), ToAct::Player(Player::P0), "second occurrence: play on");
    for mv in ["e3-c3", "a4-b4", "c3-e3"] {
        st.play(mv).unwrap();
    }
    assert_eq!(st.to_act(), ToAct::Player(Player::P1));
    st.play("b4-a4").unwrap();
    assert_eq!(st.to_act(), ToAct::Terminal, "third occurrence of the start with the Swedes to move");
    assert_eq!(st.returns(), [0.0, 0.0]);
    assert!(st.apply(0).is_err());
}

#[test]
fn repetition_draw_off_plays_on() {
    let game = registry::make("tablut", &[("repetition_draw".into(), OptValue::Bool(false))]).unwrap();
    let mut st = game.new_state(0);
    for _ in 0..5 {
        shuffle(&mut st);
    }
    assert_eq!(st.to_act(), ToAct::Player(Player::P0));
    assert_eq!(st.turns_played(), 20);
}

#[test]
fn registry_entry_and_options() {
    let game = registry::make("tablut", &[]).unwrap();
    assert_eq!(game.spec().num_actions, 1300);
    assert_eq!(game.spec().observation_shape, vec![8, 9, 9]);
    assert_eq!(game.entry().max_turns, super::MAX_TURNS);
    assert!(game.spec().offers);
    let e = registry::make("tablut", &[("repetition_draw".into(), OptValue::Int(1))]).err().unwrap();
    assert!(e.to_string().contains("expected a bool"), "{e}");
    let st = game.new_state(0);
    assert_eq!(st.to_string(), position::START);
    assert_eq!(st.action_to_string(1296).unwrap(), "resign");
    assert_eq!(st.action_to_string(22 * 16 + 6).unwrap(), "e3-h3");
    assert_eq!(st.string_to_action("e3-h3").unwrap(), Action(22 * 16 + 6));
    assert!(st.action_to_string(1300).is_err());
    assert!(st.legal_moves().contains(&"e3-h3".to_string()));
}

// ---- Random games and an independent naive engine ----

#[test]
fn random_games_keep_the_invariants() {
    let rules = TablutRules::with(true);
    let report = crate::testing::check_random_games(&rules, 2000, 100, 400, 0x7AB1);
    eprintln!("{report:?}");
    assert_eq!(report.games, 2000);
    assert!(report.terminated > 0, "{report:?}");
}

/// The rules written out directly on a char grid, by brute force over all
/// (from, to) pairs, with the four king-capture cases tested one by one as
/// the spec words them, to cross-check the bitboard engine.
mod naive {
    pub type Grid = [[u8; 9]; 9]; // [rank][file]
    pub type Mv = ((i32, i32), (i32, i32)); // ((file, rank), (file, rank))

    pub fn from_state(s: &super::State) -> (Grid, u8) {
        let text = super::position::format(s);
        let (board, side) = text.split_once(' ').unwrap();
        let mut g = [[b'.'; 9]; 9];
        for (i, row) in board.split('/').enumerate() {
            let mut f = 0;
            for c in row.bytes() {
                if c.is_ascii_digit() {
                    f += (c - b'0') as usize;
                } else {
                    g[8 - i][f] = c;
                    f += 1;
                }
            }
        }
        (g, side.as_bytes()[0])
    }

    fn corner(f: i32, r: i32) -> bool {
        (f == 0 || f == 8) && (r == 0 || r == 8)
    }

    fn on(f: i32, r: i32) -> bool {
        (0..9).contains(&f) && (0..9).contains(&r)
    }

    fn find_king(g: &Grid) -> Option<(i32, i32)> {
        (0..9).flat_map(|r| (0..9).map(move |f| (f, r))).find(|&(f, r)| g[r as usize][f as usize] == b'K')
    }

    pub fn over(g: &Grid, side: u8) -> bool {
        match find_king(g) {
            None => true,
            Some((f, r)) if corner(f, r) => true,
            _ => moves(g, side).is_empty(),
        }
    }

    pub fn moves(g: &Grid, side: u8) -> Vec<Mv> {
        let mut out = Vec::new();
        let mine: &[u8] = if side == b's' { b"SK" } else { b"M" };
        for fr in 0..9 {
            for ff in 0..9 {
                let p = g[fr as usize][ff as usize];
                if !mine.contains(&p) {
                    continue;
                }
                for tr in 0..9 {
                    for tf in 0..9 {
                        if (tf, tr) == (ff, fr) || (tf != ff && tr != fr) || g[tr as usize][tf as usize] != b'.' {
                            continue;
                        }
                        if (corner(tf, tr) || (tf, tr) == (4, 4)) && p != b'K' {
                            continue;
                        }
                        let (df, dr) = ((tf - ff).signum(), (tr - fr).signum());
                        let (mut f, mut r) = (ff + df, fr + dr);
                        let mut clear = true;
                        while (f, r) != (tf, tr) {
                            clear &= g[r as usize][f as usize] == b'.';
                            f += df;
                            r += dr;
                        }
                        if clear {
                            out.push(((ff, fr), (tf, tr)));
                        }
                    }
                }
            }
        }
        out
    }

    pub fn apply(g: &Grid, side: u8, mv: Mv) -> (Grid, u8) {
        let mut g = *g;
        let ((ff, fr), (tf, tr)) = mv;
        g[tr as usize][tf as usize] = g[fr as usize][ff as usize];
        g[fr as usize][ff as usize] = b'.';
        let (enemy, friends): (u8, &[u8]) = if side == b's' { (b'M', b"SK") } else { (b'S', b"M") };
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nf, nr, xf, xr) = (tf + df, tr + dr, tf + 2 * df, tr + 2 * dr);
            if on(nf, nr) && g[nr as usize][nf as usize] == enemy && on(xf, xr) {
                let far = g[xr as usize][xf as usize];
                if corner(xf, xr) || friends.contains(&far) {
                    g[nr as usize][nf as usize] = b'.';
                }
            }
        }
        if side == b'm' {
            if let Some((kf, kr)) = find_king(&g) {
                if (kf - tf).abs() + (kr - tr).abs() == 1 {
                    let nbs: Vec<(i32, i32)> = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                        .iter()
                        .map(|(df, dr)| (kf + df, kr + dr))
                        .filter(|&(f, r)| on(f, r))
                        .collect();
                    let m = |&(f, r): &(i32, i32)| g[r as usize][f as usize] == b'M';
                    let edge = nbs.len() == 3;
                    let case1 = nbs.len() == 4 && nbs.iter().all(m);
                    let case2 = edge && nbs.iter().all(m);
                    let case3 = nbs.contains(&(4, 4)) && nbs.iter().filter(|&&n| n != (4, 4)).all(m);
                    let by_corner = nbs.iter().any(|&(f, r)| corner(f, r));
                    let case4 = edge && by_corner && nbs.iter().filter(|&&(f, r)| !corner(f, r)).all(m);
                    if case1 || case2 || case3 || case4 {
                        g[kr as usize][kf as usize] = b'.';
                    }
                }
            }
        }
        (g, if side == b's' { b'm' } else { b's' })
    }

    pub fn perft(g: &Grid, side: u8, depth: u32) -> u64 {
        if depth == 0 || over(g, side) {
            return 1;
        }
        moves(g, side)
            .into_iter()
            .map(|mv| {
                let (n, s) = apply(g, side, mv);
                perft(&n, s, depth - 1)
            })
            .sum()
    }
}

#[test]
fn perft_matches_a_naive_independent_counter() {
    let s = State::start();
    let (g, side) = naive::from_state(&s);
    for depth in 1..=3 {
        assert_eq!(s.perft(depth), naive::perft(&g, side, depth), "perft({depth}) from the start");
    }
    assert_eq!(s.perft(3), 225_224);
    // The middle-game positions of tests/data/perft/tablut.txt.
    for text in [
        "3MMM1M1/4MS3/M2SS1S2/4S3M/MMS1KM2M/3MS3M/6S2/4M4/3MM4 s",
        "2M1MM3/5S3/3MS4/2M1K2SM/M1M2S1SM/MS4S2/4M1SMM/5M3/2M2M3 s",
        "3M1M3/6MM1/MK4M1M/2S2SS1M/5M2S/6S2/M4MSS1/5MM2/2M3M2 s",
    ] {
        let s = position::parse(text).unwrap();
        let (g, side) = naive::from_state(&s);
        for depth in 1..=3 {
            assert_eq!(s.perft(depth), naive::perft(&g, side, depth), "perft({depth}) of {text}");
        }
    }
}

#[test]
fn masks_and_results_match_the_naive_engine_along_random_games() {
    let rules = TablutRules::with(true);
    let mut mask = vec![false; NUM_ACTIONS];
    for game in 0..150u64 {
        let mut rng = rng_from_seed(game);
        let mut s = State::start();
        for _ in 0..250 {
            let (g, side) = naive::from_state(&s);
            let mut want = vec![false; NUM_ACTIONS];
            if !naive::over(&g, side) {
                for ((ff, fr), (tf, tr)) in naive::moves(&g, side) {
                    want[encode((fr * 9 + ff) as usize, (tr * 9 + tf) as usize)] = true;
                }
            }
            rules.legal_mask(&s, &mut mask);
            assert_eq!(mask, want, "mask at {}", position::format(&s));
            assert_eq!(rules.to_act(&s) == ToAct::Terminal, naive::over(&g, side));
            let legal: Vec<usize> = (0..MOVE_ACTIONS).filter(|&a| mask[a]).collect();
            if legal.is_empty() {
                break;
            }
            for (b, &ok) in mask.iter().enumerate() {
                assert_eq!(rules.is_legal(&s, Action(b as u32)), ok, "is_legal({b}) at {}", position::format(&s));
            }
            let a = legal[rng.random_range(0..legal.len())];
            let (from, to) = super::action::decode(a);
            let mv = (((from % 9) as i32, (from / 9) as i32), ((to % 9) as i32, (to / 9) as i32));
            let (ng, nside) = naive::apply(&g, side, mv);
            rules.apply(&mut s, Action(a as u32), &mut rng);
            assert_eq!(naive::from_state(&s), (ng, nside), "after {a} the engines disagree");
        }
    }
}

#[test]
fn random_games_reach_every_end_of_the_rules() {
    let rules = TablutRules::with(true);
    let mut mask = vec![false; NUM_ACTIONS];
    let (mut escaped, mut captured, mut blocked) = (0, 0, 0);
    for game in 0..3000u64 {
        let mut rng = rng_from_seed(1_000_000 + game);
        let mut s = State::start();
        for _ in 0..1000 {
            if s.is_over() {
                break;
            }
            rules.legal_mask(&s, &mut mask);
            let legal: Vec<usize> = (0..MOVE_ACTIONS).filter(|&a| mask[a]).collect();
            rules.apply(&mut s, Action(legal[rng.random_range(0..legal.len())] as u32), &mut rng);
        }
        match s.status() {
            Status::KingEscaped => escaped += 1,
            Status::KingCaptured => captured += 1,
            Status::NoMoves => blocked += 1,
            Status::Ongoing => {}
        }
    }
    eprintln!("escaped {escaped}, captured {captured}, blocked {blocked}");
    assert!(escaped > 0 && captured > 0, "escaped {escaped}, captured {captured}, blocked {blocked}");
}

#[test]
fn illegal_actions_are_refused_through_the_session() {
    let game = registry::make("tablut", &[]).unwrap();
    let mut st = game.new_state(0);
    let before = st.to_string();
    let e = st.apply(22 * 16 + 11).unwrap_err().to_string(); // e3-e5: blocked, and the throne
    assert!(e.contains("illegal action 363 (e3-e5)"), "{e}");
    assert!(st.apply(1300).unwrap_err().to_string().contains("[0, 1300)"));
    assert!(st.apply(-1).is_err());
    assert!(st.apply(1296).is_err(), "resign is off by default");
    assert!(st.play("e5-e4").is_err(), "the throne's neighbour e4 is occupied");
    assert_eq!(st.to_string(), before, "refused actions leave the state unchanged");
    let game = registry::make("tablut", &[("resign".into(), OptValue::Bool(true))]).unwrap();
    let mut st = game.new_state(0);
    st.apply(1296).unwrap();
    assert_eq!(st.returns(), [-1.0, 1.0], "the Swedes resigned");
}

#[test]
fn batch_rollout_reports_king_corner_routes() {
    use crate::batch::OwnedOut;
    let game = registry::make("tablut", &[]).unwrap();
    let mut batch = game.new_batch(32, 5);
    let mut out = OwnedOut::new(batch.as_ref());
    batch.reset(None, &mut out.view());
    batch.rollout(300, &mut out.view());
    assert_eq!(out.info.len(), 32);
    assert!(out.info.iter().all(|&v| (0..=2).contains(&v)));
    assert!(out.obs.iter().all(|&v| v == 0.0 || v == 1.0));
    for i in 0..32 {
        let st = batch.state(i);
        assert_eq!(st.info()[0].1, out.info[i] as i64, "env {i}");
    }
}
