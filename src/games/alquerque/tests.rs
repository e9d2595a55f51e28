//! Rule tests on hand-built positions, string and notation errors,
//! random-game invariants, and the cross-check against the naive reference.

use super::reference::{Pos, Reference};
use super::*;
use crate::core::{rng_from_seed, Action, Applied, Player, ToAct};
use crate::game::Rules;
use crate::registry;
use rand::RngExt;

fn rules(board: Board, removal: Removal) -> Alquerque {
    Alquerque::new(board, removal)
}

fn to_ref(r: &Alquerque, s: &State) -> Pos {
    let mut board = vec![0i8; 81];
    for l in 0..81u8 {
        if let Some((p, king)) = s.piece_at(Point(l)) {
            let v = if king { 2 } else { 1 };
            board[l as usize] = if p == Player::P0 { v } else { -v };
        }
    }
    let _ = r;
    Pos { board, black_to_move: s.side == Player::P0 }
}

const CONFIGS: [(Board, Removal); 4] = [
    (Board::Kharbaga, Removal::Immediate),
    (Board::Kharbaga, Removal::Deferred),
    (Board::Zamma, Removal::Immediate),
    (Board::Zamma, Removal::Deferred),
];

fn k(removal: Removal) -> Alquerque {
    rules(Board::Kharbaga, removal)
}
fn z(removal: Removal) -> Alquerque {
    rules(Board::Zamma, removal)
}
use Removal::{Deferred, Immediate};

fn pos(r: &Alquerque, text: &str) -> State {
    r.from_position(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Sorted notations of the legal turns.
fn moves(r: &Alquerque, s: &State) -> Vec<String> {
    let mut v: Vec<String> = r.turns(s).into_iter().map(|t| t.notation).collect();
    v.sort();
    v
}

fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays a complete turn and returns the resulting position string.
fn play(r: &Alquerque, s: &State, text: &str) -> State {
    let path = r.parse_turn(s, text).unwrap_or_else(|e| panic!("{e}"));
    let mut next = *s;
    let mut rng = rng_from_seed(0);
    for (i, &a) in path.iter().enumerate() {
        let applied = r.apply(&mut next, a, &mut rng);
        assert_eq!(applied == Applied::TurnOver, i + 1 == path.len(), "{text}: hop {i}");
    }
    next
}

#[test]
fn start_positions_are_the_spec_strings() {
    for (b, m) in CONFIGS {
        let r = rules(b, m);
        assert_eq!(r.to_position(&r.start), b.start());
        assert_eq!(r.piece_counts(&r.start), if b == Board::Kharbaga { [20, 20] } else { [40, 40] });
    }
    assert_eq!(k(Immediate).spec().num_actions, 2628);
    assert_eq!(z(Immediate).spec().num_actions, 5188);
    assert_eq!(moves(&k(Immediate), &k(Immediate).start), strs(&["d4-e5", "e3-e5", "f4-e5"]));
    assert_eq!(moves(&z(Immediate), &z(Immediate).start), strs(&["d4-e5", "e4-e5", "f4-e5"]));
}

#[test]
fn kharbaga_centre_point_pawn_steps_only_diagonally_forward() {
    let r = k(Immediate);
    // Black pawn on the centre d4, white pawn far away on a9.
    let s = pos(&r, "w4/4/5/4/5/1b2/5/4/5 b");
    assert_eq!(moves(&r, &s), strs(&["d4-c5", "d4-e5"]));
    // A grid point (e3) also steps straight forwards two lattice squares.
    let s = pos(&r, "w4/4/5/4/5/4/2b2/4/5 b");
    assert_eq!(moves(&r, &s), strs(&["e3-d4", "e3-e5", "e3-f4"]));
}

#[test]
fn pawn_steps_only_forwards_straight_or_diagonally_along_lines() {
    let r = z(Immediate);
    // e5 has diagonals, d5 has not; white pawn on a9 far away.
    let s = pos(&r, "w8/9/9/9/3bb4/9/9/9/9 b");
    assert_eq!(moves(&r, &s), strs(&["d5-d6", "e5-d6", "e5-e6", "e5-f6"]));
    // White moves down the board.
    let s = pos(&r, "9/9/9/9/4w4/9/9/9/8b w");
    assert_eq!(moves(&r, &s), strs(&["e5-d4", "e5-e4", "e5-f4"]));
}

#[test]
fn pawn_captures_by_short_leap_in_every_direction_including_backwards() {
    let r = z(Immediate);
    // Black pawn e5; white pawns behind (e4) and beside (d5): both are captures.
    let s = pos(&r, "8w/9/9/9/3wb4/4w4/9/9/9 b");
    assert_eq!(moves(&r, &s), strs(&["e5xc5", "e5xe3"]));
    // No leap without an empty landing point right behind.
    let s = pos(&r, "8w/9/9/9/9/9/4w4/4w4/4b4 b");
    assert_eq!(moves(&r, &s), strs(&["e1-d2", "e1-f2"]));
}

#[test]
fn capture_is_compulsory() {
    let r = z(Immediate);
    // Black could step forwards, but e5 can capture d5.
    let s = pos(&r, "8w/9/9/9/3wb4/9/9/9/b8 b");
    assert_eq!(moves(&r, &s), strs(&["e5xc5"]));
}

#[test]
fn mula_flies_along_lines_in_every_direction() {
    let r = k(Immediate);
    // Black mulá on the centre b2 (diagonals only), white pawn on i9.
    let s = pos(&r, "4w/4/5/4/5/4/5/B3/5 b");
    assert_eq!(moves(&r, &s), strs(&["b2-a1", "b2-a3", "b2-c1", "b2-c3", "b2-d4", "b2-e5", "b2-f6", "b2-g7", "b2-h8"]));
}

#[test]
fn mula_captures_from_afar_and_lands_on_any_empty_point_behind() {
    let r = z(Immediate);
    // Black mulá a1, white pawn d4 on the long diagonal, white pawn a9 out of reach.
    let s = pos(&r, "w8/9/9/9/9/3w5/9/9/B8 b");
    assert_eq!(moves(&r, &s), strs(&["a1xe5", "a1xf6", "a1xg7", "a1xh8", "a1xi9"]));
    // Not over two pieces in a row, not over an own piece.
    let s = pos(&r, "w8/9/9/9/4w4/3w5/9/9/B8 b");
    assert!(moves(&r, &s).iter().all(|m| m.contains('-')), "{:?}", moves(&r, &s));
}

#[test]
fn mula_may_change_direction_between_jumps() {
    let r = z(Immediate);
    // a1 x c3 (diagonal), then east along rank 5 or south down file f over f5.
    let s = pos(&r, "w8/9/9/9/5w3/9/2w6/9/B8 b");
    // From a1 over c3, landing e5 lets it turn east over f5.
    let m = moves(&r, &s);
    assert_eq!(m, strs(&["a1xe5xg5", "a1xe5xh5", "a1xe5xi5", "a1xf6xf1", "a1xf6xf2", "a1xf6xf3", "a1xf6xf4"]), "{m:?}");
}

#[test]
fn majority_rule_across_different_pieces() {
    let r = z(Immediate);
    // Pawn e3 can take one (e4); pawn a1 can take two (a2, then a4).
    let s = pos(&r, "8w/9/9/9/9/w3w4/4b4/w8/b8 b");
    assert_eq!(moves(&r, &s), strs(&["a1xa3xa5"]));
    // The mask of the first hop allows only the majority piece.
    let mut mask = vec![false; r.spec().num_actions];
    r.legal_mask(&s, &mut mask);
    assert_eq!(mask.iter().filter(|&&b| b).count(), 1);
}

#[test]
fn majority_counts_a_mula_as_one_piece() {
    let r = z(Immediate);
    // e5 may take the white mulá d5 (one piece) or the pawns e6 and e8 (two): it must take two.
    let s = pos(&r, "w8/4w4/9/4w4/3Wb4/9/9/9/9 b");
    assert_eq!(moves(&r, &s), strs(&["e5xe7xe9"]));
}

#[test]
fn equal_majorities_leave_the_choice_free() {
    let r = z(Immediate);
    let s = pos(&r, "8w/9/9/9/9/9/1w3w3/1b3b3/9 b");
    assert_eq!(moves(&r, &s), strs(&["b2xb4", "f2xf4"]));
}

#[test]
fn start_point_counts_as_empty_during_the_sequence() {
    for removal in [Immediate, Deferred] {
        let r = z(removal);
        // c1 takes c2, d3, e2, d1 around a square and lands back on c1; the
        // two orders reach the same position and are one move.
        let s = pos(&r, "8w/9/9/9/9/9/3w5/2w1w4/2bW5 b");
        let m = moves(&r, &s);
        if removal == Immediate {
            assert_eq!(m.len(), 1, "{m:?}");
        } else {
            // Re-jumps let the sequence end on any corner of the square.
            assert_eq!(m.len(), 4, "{m:?}");
        }
        assert!(m.contains(&"c1xc3xe3xe1xc1".to_string()) || m.contains(&"c1xe1xe3xc3xc1".to_string()), "{m:?}");
        let end = play(&r, &s, "c1xe1xe3xc3xc1");
        assert_eq!(r.to_position(&end), "8w/9/9/9/9/9/9/9/2b6 w");
    }
}

#[test]
fn immediate_removal_frees_the_point_for_the_rest_of_the_sequence() {
    let r = z(Immediate);
    // Mulá a3 takes c3 (landing e3), d4 (landing c5), then flies down file c
    // across the freed c3 to take c2.
    let s = pos(&r, "w8/9/9/9/9/3w5/B1w6/2w6/9 b");
    let m = moves(&r, &s);
    assert!(m.contains(&"a3xe3xc5xc1".to_string()), "{m:?}");
    assert!(m.iter().all(|x| x.matches('x').count() == 3), "{m:?}");
}

#[test]
fn deferred_removal_keeps_captured_pieces_blocking_until_the_end() {
    let r = z(Deferred);
    let s = pos(&r, "w8/9/9/9/9/3w5/B1w6/2w6/9 b");
    let m = moves(&r, &s);
    // c3 still stands: file c is blocked, the route across c3 to c1 is gone
    // (the three pieces fall another way, re-jumping d4).
    assert!(m.iter().all(|x| !x.ends_with("c1")), "{m:?}");
    assert!(m.contains(&"a3xd3xd5xd2xb2".to_string()), "{m:?}");
    // Mid-sequence the jumped piece is still on the board and listed.
    let mut st = s;
    let a = r.parse_turn(&s, &m[0]).unwrap();
    assert_eq!(r.apply(&mut st, a[0], &mut rng_from_seed(0)), Applied::MidTurn);
    let text = r.to_position(&st);
    assert!(text.contains(" capture=") && text.contains(" jumped=c3 jumps=a3x"), "{text}");
    assert_eq!(r.piece_counts(&st), [1, 4]);
    assert_eq!(r.to_position(&pos(&r, &text)), text);
}

#[test]
fn deferred_rejump_reaches_a_piece_otherwise_out_of_reach() {
    // Mulá a1 takes c3 landing d4 (e5 is its own); only re-jumping c3 to b2
    // brings it to file b, where b3 falls. White i7 stays out of reach.
    let text = "9/9/8w/9/4b4/9/1ww6/9/B8 b";
    let r = z(Immediate);
    assert_eq!(moves(&r, &pos(&r, text)), strs(&["a1xd4"]));
    let r = z(Deferred);
    let s = pos(&r, text);
    assert_eq!(
        moves(&r, &s),
        strs(&["a1xd4xb2xb4", "a1xd4xb2xb5", "a1xd4xb2xb6", "a1xd4xb2xb7", "a1xd4xb2xb8", "a1xd4xb2xb9"])
    );
    // After the first hop the same jump back is not offered to a1 (it leads
    // nowhere new), only the re-jump to b2.
    let mut st = s;
    let path = r.parse_turn(&s, "a1xd4xb2xb4").unwrap();
    let mut rng = rng_from_seed(0);
    assert_eq!(r.apply(&mut st, path[0], &mut rng), Applied::MidTurn);
    assert_eq!(r.to_position(&st), "9/9/8w/9/4b4/3B5/1ww6/9/9 b capture=d4 jumped=c3 jumps=a1xd4");
    let mut names = Vec::new();
    let mut mask = vec![false; r.spec().num_actions];
    r.legal_mask(&st, &mut mask);
    for (i, _) in mask.iter().enumerate().filter(|x| *x.1) {
        names.push(r.action_to_string(&st, Action(i as u32)));
    }
    assert_eq!(names, ["d4xb2"]);
    assert_eq!(r.apply(&mut st, path[1], &mut rng), Applied::MidTurn);
    assert_eq!(r.to_position(&st), "9/9/8w/9/4b4/9/1ww6/1B7/9 b capture=b2 jumped=c3 jumps=a1xd4,d4xb2");
    // The turn ends with the jump that captures the last new piece (b3),
    // although the mulá could still re-jump b3; c3, jumped twice, counts once.
    assert_eq!(r.apply(&mut st, path[2], &mut rng), Applied::TurnOver);
    assert_eq!(r.to_position(&st), "9/9/8w/9/4b4/1B7/9/9/9 w");
    assert_eq!(r.piece_counts(&st), [2, 1]);
}

#[test]
fn deferred_same_jump_is_not_made_twice() {
    let r = z(Deferred);
    // Mid-sequence at d4 with a1xd4 and d4xa1 made: only new jumps remain
    // from a1 (a1xd4 again is refused), so this string cannot exist...
    let e = r.from_position("9/9/8w/9/4b4/9/1ww6/9/B8 b capture=a1 jumped=c3 jumps=a1xd4,d4xa1").unwrap_err();
    assert!(e.to_string().contains("cannot go on"), "{e}");
    // ...and a string that repeats a jump is rejected.
    let e = r.from_position("9/9/8w/9/4b4/3B5/1ww6/9/9 b capture=d4 jumped=c3 jumps=a1xd4,d4xa1,a1xd4").unwrap_err();
    assert!(e.to_string().contains("twice"), "{e}");
}

#[test]
fn passing_through_the_far_rank_does_not_promote() {
    let r = z(Immediate);
    // c7 x c8 lands on c9 (far rank), then x d8 to e7: still a pawn.
    let s = pos(&r, "8w/2ww5/2b6/9/9/9/9/9/9 b");
    assert_eq!(moves(&r, &s), strs(&["c7xc9xe7"]));
    let end = play(&r, &s, "c7xc9xe7");
    assert_eq!(r.to_position(&end), "8w/9/4b4/9/9/9/9/9/9 w");
}

#[test]
fn promotion_when_the_turn_ends_on_the_far_rank() {
    let r = z(Immediate);
    let s = pos(&r, "8w/2w6/2b6/9/9/9/9/9/9 b");
    let end = play(&r, &s, "c7xc9");
    assert_eq!(r.to_position(&end), "2B5w/9/9/9/9/9/9/9/9 w");
    // By a step too, and for white on rank 1.
    let s = pos(&r, "9/3b5/9/9/9/9/9/9/9 b".replace("9/3b5", "w8/3b5").as_str());
    assert_eq!(r.to_position(&play(&r, &s, "d8-d9")), "w2B5/9/9/9/9/9/9/9/9 w");
    let s = pos(&r, "8B/9/9/9/9/9/9/4w4/9 w");
    assert_eq!(r.to_position(&play(&r, &s, "e2-e1")), "8B/9/9/9/9/9/9/9/4W4 b");
}

#[test]
fn mid_turn_mask_holds_only_the_capturing_piece_and_one_hop_per_decision() {
    let r = z(Immediate);
    let s = pos(&r, "w8/9/9/9/9/w3w4/4b4/w8/b8 b");
    let path = r.parse_turn(&s, "a1xa3xa5").unwrap();
    let mut st = s;
    assert_eq!(r.apply(&mut st, path[0], &mut rng_from_seed(0)), Applied::MidTurn);
    assert_eq!(r.to_act(&st), ToAct::Player(Player::P0));
    assert_eq!(r.to_position(&st), "w8/9/9/9/9/w3w4/b3b4/9/9 b capture=a3");
    let mut mask = vec![false; r.spec().num_actions];
    r.legal_mask(&st, &mut mask);
    let legal: Vec<String> =
        (0..mask.len()).filter(|&i| mask[i]).map(|i| r.action_to_string(&st, Action(i as u32))).collect();
    assert_eq!(legal, ["a3xa5"]);
    // The repetition key exists only at turn boundaries.
    assert!(r.repetition_key(&st).is_none());
    assert!(r.repetition_key(&s).is_some());
}

#[test]
fn a_player_without_pieces_loses() {
    let r = z(Immediate);
    let s = pos(&r, "8w/9/9/9/3wb4/9/9/9/9 b");
    let end = play(&r, &s, "e5xc5");
    assert_eq!(r.to_act(&end), ToAct::Player(Player::P1));
    let s = pos(&r, "9/9/9/9/2w1b4/9/9/9/9 w");
    assert_eq!(r.to_act(&s), ToAct::Player(Player::P1));
    let end = play(&r, &s, "c5-c4");
    assert_eq!(r.to_act(&end), ToAct::Player(Player::P0));
    // Capture of the last piece: white to move with nothing left.
    let s = pos(&r, "9/9/9/9/3wb4/9/9/9/9 b");
    let end = play(&r, &s, "e5xc5");
    assert_eq!(r.to_position(&end), "9/9/9/9/2b6/9/9/9/9 w");
    assert_eq!(r.to_act(&end), ToAct::Terminal);
    assert_eq!(r.returns(&end), [1.0, -1.0]);
}

#[test]
fn a_player_without_legal_move_loses() {
    let r = z(Immediate);
    // Black pawn a8 is blocked by white a9 and cannot leap off the board.
    let s = pos(&r, "w8/b8/9/9/9/9/9/9/9 b");
    assert_eq!(r.to_act(&s), ToAct::Terminal);
    assert_eq!(r.returns(&s), [-1.0, 1.0]);
    let mut mask = vec![true; r.spec().num_actions];
    r.legal_mask(&s, &mut mask);
    assert!(mask.iter().all(|&b| !b));
    assert_eq!(r.perft(&s, 3), 1);
}

#[test]
fn threefold_repetition_draws_through_the_session() {
    for id in ["kharbaga", "zamma"] {
        let game = registry::make(id, &[]).unwrap();
        let text = if id == "zamma" { "8W/9/9/9/9/9/9/9/B8 b" } else { "4W/4/5/4/5/4/5/4/B4 b" };
        let (b1, b2, w1, w2) = if id == "zamma" { ("a1", "a2", "i9", "i8") } else { ("a1", "a3", "i9", "i7") };
        let mut st = game.clone().state_from_string(text).unwrap();
        for cycle in 0..2 {
            for mv in [format!("{b1}-{b2}"), format!("{w1}-{w2}"), format!("{b2}-{b1}"), format!("{w2}-{w1}")] {
                assert_eq!(
                    st.to_act(),
                    ToAct::Player(if mv.starts_with('a') { Player::P0 } else { Player::P1 }),
                    "{id} {cycle}"
                );
                st.play(&mv).unwrap();
            }
        }
        assert_eq!(st.to_act(), ToAct::Terminal, "{id}: third occurrence draws");
        assert_eq!(st.returns(), [0.0, 0.0]);
    }
}

#[test]
fn draw_by_agreement_through_the_common_offer_actions() {
    use crate::options::OptValue;
    for (id, n) in [("kharbaga", 2628i64), ("zamma", 5188)] {
        let game = registry::make(id, &[("draw_offers".into(), OptValue::Bool(true))]).unwrap();
        assert_eq!(game.spec().num_actions as i64, n);
        let mut st = game.new_state(0);
        st.apply(n - 3).unwrap(); // offer_draw
        assert_eq!(st.to_act(), ToAct::Player(Player::P1));
        st.apply(n - 2).unwrap(); // accept_draw
        assert_eq!(st.to_act(), ToAct::Terminal);
        assert_eq!(st.returns(), [0.0, 0.0]);
        // Options: removal is a choice.
        assert!(registry::make(id, &[("removal".into(), OptValue::Str("later".into()))])
            .err()
            .unwrap()
            .to_string()
            .contains("immediate"));
        assert!(registry::make(id, &[("removal".into(), OptValue::Str("deferred".into()))]).is_ok());
    }
}

#[test]
fn actions_are_encoded_from_the_movers_point_of_view() {
    let r = z(Immediate);
    let s = r.start;
    // Black e4-e5: point e4 (ordinal 31), N, 1 step.
    let a = r.parse_turn(&s, "e4-e5").unwrap()[0];
    assert_eq!(a, Action(31 * 64));
    // White's mirror move e6-e5 is the same action from white's view.
    let s = pos(&r, "wwwwwwwww/wwwwwwwww/wwwwwwwww/wwwwwwwww/wwww1bbbb/bbbbbbbbb/bbbbbbbbb/bbbbbbbbb/bbbbbbbbb w");
    assert_eq!(r.parse_turn(&s, "e6-e5").unwrap()[0], Action(31 * 64));
    assert_eq!(r.parse_turn(&s, "f6-e5").unwrap()[0], Action(30 * 64 + 8)); // NE from white's view
    assert_eq!(r.action_to_string(&s, Action(30 * 64 + 8)), "f6-e5");
    // Kharbaga: e3-e5 is point e3 (ordinal 11), N, 1 step (one point along the line).
    let r = k(Immediate);
    assert_eq!(r.parse_turn(&r.start, "e3-e5").unwrap()[0], Action(11 * 64));
    // Mulá captures count every point travelled: a1 x d4 -> f6 is 5 steps NE.
    let r = z(Immediate);
    let s = pos(&r, "w8/9/9/9/9/3w5/9/9/B8 b");
    // point 0 (a1), direction NE (1), 5 steps: 0*64 + 1*8 + 4
    assert_eq!(r.parse_turn(&s, "a1xf6").unwrap()[0], Action(8 + 4));
}

#[test]
fn observation_is_from_the_movers_point_of_view() {
    let r = z(Deferred);
    let s = pos(&r, "9/9/8w/9/4b4/3B5/1ww6/9/9 b capture=d4 jumped=c3 jumps=a1xd4");
    let mut obs = vec![f32::NAN; 23 * 81];
    r.observe(&s, &mut obs);
    let at = |obs: &[f32], plane: usize, p: &str| obs[plane * 81 + Point::parse(p).unwrap().0 as usize];
    assert_eq!(at(&obs, 0, "e5"), 1.0);
    assert_eq!(at(&obs, 1, "d4"), 1.0);
    assert_eq!(at(&obs, 2, "c3"), 1.0);
    assert_eq!(at(&obs, 5, "d4"), 1.0);
    assert_eq!(at(&obs, 6, "c3"), 1.0);
    assert_eq!(at(&obs, 7 + 1, "a1"), 0.5f32.powi(2)); // a1 -> d4: NE, 3 steps
    assert_eq!(
        obs.iter().filter(|&&v| v != 0.0).count() - (81 + obs[15 * 81..].iter().filter(|&&v| v != 0.0).count()),
        8
    );
    // White to move sees itself at the bottom: white i7 is at a3 of its view.
    let s = pos(&r, "9/9/8w/9/4b4/9/9/9/9 w");
    r.observe(&s, &mut obs);
    assert_eq!(at(&obs, 0, "a3"), 1.0);
    assert_eq!(at(&obs, 2, "e5"), 1.0);
    // Kharbaga: the board plane marks 41 points; a centre has no orthogonal line planes.
    let r = k(Immediate);
    r.observe(&r.start, &mut obs);
    assert_eq!(obs[4 * 81..5 * 81].iter().sum::<f32>(), 41.0);
    assert_eq!(at(&obs, 15, "b2"), 0.0);
    assert_eq!(at(&obs, 16, "b2"), 1.0);
}

#[test]
fn bad_position_strings_are_rejected_with_clear_messages() {
    let r = k(Immediate);
    let cases = [
        ("", "expected"),
        ("wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/bbbbb", "expected"),
        ("wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/bbbbb x", "side to move"),
        ("wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb b", "9 ranks"),
        ("wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/bbbb b", "rank 1 must describe 5"),
        ("wwwww/wwww/wwwww/wwww/ww1bb/bbbbb/bbbbb/bbbb/bbbbb b", "rank 4 must describe 4"),
        ("wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/bbbbq b", "unexpected 'q'"),
        ("wwwww/wwww/wwwww/wwww/wwwbb/bbbb/bbbbb/bbbb/bbbbb b", "21 pieces"),
        ("b4/4/5/4/5/4/5/4/4w b", "should have been promoted"),
        ("4w/4/5/4/5/4/5/4/5 b", ""),
        ("5/4/5/4/5/4/5/4/4b b", "not to move) has no pieces"),
        ("4w/4/5/4/5/4/5/4/4b b capture=i1", "cannot go on"),
        ("4w/4/5/4/5/4/5/4/4b b capture=b1", "not a point"),
        ("4w/4/5/4/5/4/5/4/4b b capture=a1", "no piece on a1"),
        ("4w/4/5/4/5/4/5/4/4b b jumped=a1 jumps=a1xc3", "only with removal=deferred"),
        ("4w/4/5/4/5/4/5/4/4b b hello", "unexpected field"),
    ];
    for (text, want) in cases {
        match r.from_position(text) {
            Ok(_) => assert!(want.is_empty(), "{text:?} parsed"),
            Err(e) => assert!(!want.is_empty() && e.to_string().contains(want), "{text:?}: {e}"),
        }
    }
    let r = z(Deferred);
    let base = "9/9/8w/9/4b4/3B5/1ww6/9/9 b";
    for (fields, want) in [
        ("capture=d4", "come together"),
        ("capture=d4 jumped=c3", "come together"),
        ("capture=d4 jumped=b3,c3 jumps=a1xd4", "jumped= must list exactly"),
        ("capture=d4 jumped=c3 jumps=a1xd4,d4xb2", "do not make one chain"),
        ("capture=d4 jumped=c3 jumps=a1-d4", "expected <start>x<landing>"),
        ("capture=d4 jumped=d5 jumps=a1xd4", "no opponent piece"),
        ("capture=d4 jumped=c3 jumps=a2xd4", "not a capture along one line"),
    ] {
        let e = r.from_position(&format!("{base} {fields}")).unwrap_err();
        assert!(e.to_string().contains(want), "{fields}: {e}");
    }
}

#[test]
fn bad_notation_is_rejected_with_clear_messages() {
    let r = z(Immediate);
    let s = r.start;
    for (text, want) in [
        ("e4e5", "expected a move like"),
        ("e4-e5-e6", "expected a move like"),
        ("e4-j5", "not a point"),
        ("e4-e6", "not legal here"),
        ("e5-e6", "not legal here"),
    ] {
        let e = r.parse_turn(&s, text).unwrap_err();
        assert!(e.to_string().contains(want), "{text}: {e}");
    }
    let s = pos(&r, "w8/9/9/9/9/w3w4/4b4/w8/b8 b");
    for (text, want) in [
        ("a1xa3", "must go on"),
        ("a1-a3", "a capture"),
        ("a1xa3xa5xa7", "nothing may follow"),
        ("e3xe5", "not legal here"),
        ("a1xa3-a5", "expected a move like"),
    ] {
        let e = r.parse_turn(&s, text).unwrap_err();
        assert!(e.to_string().contains(want), "{text}: {e}");
    }
    assert_eq!(r.parse_turn(&s, " a1xa3xa5 ").unwrap().len(), 2);
}

#[test]
fn random_games_keep_the_invariants() {
    for (i, (b, m)) in CONFIGS.into_iter().enumerate() {
        let r = rules(b, m);
        // Deep checks (every masked hop completes a turn; mask paths and
        // `turns` reach the same positions) walk every decision path: only in
        // immediate mode, where paths stay few (deferred re-jumps multiply them).
        let deep = if m == Removal::Immediate { 20 } else { 0 };
        let report = crate::testing::check_random_games(&r, 300, deep, 600, 1000 * i as u64);
        assert!(report.terminated > 0, "{b:?} {m:?}: {report:?}");
    }
}

#[test]
fn perft_matches_naive_reference_from_the_starts() {
    for (b, m) in CONFIGS {
        let r = rules(b, m);
        let reference = Reference { zamma: b == Board::Zamma, deferred: m == Removal::Deferred };
        let s = r.start;
        for d in 1..=6 {
            assert_eq!(r.perft(&s, d), reference.perft(&to_ref(&r, &s), d), "{b:?} {m:?} perft({d})");
        }
    }
}

#[test]
fn turns_match_naive_reference_along_random_games() {
    for (i, (b, m)) in CONFIGS.into_iter().enumerate() {
        let r = rules(b, m);
        let reference = Reference { zamma: b == Board::Zamma, deferred: m == Removal::Deferred };
        let mut rng = rng_from_seed(77 + i as u64);
        let mut captures = 0;
        // Zamma's deferred re-jumps make the reference slow: fewer games.
        let games = match (b, m) {
            (Board::Zamma, Deferred) => 2,
            (Board::Zamma, _) => 8,
            _ => 12,
        };
        for g in 0..games {
            let mut s = r.start;
            for ply in 0..300 {
                if r.to_act(&s) == ToAct::Terminal {
                    break;
                }
                let mut ends = Vec::new();
                let mut firsts = std::collections::BTreeSet::new();
                r.for_each_turn(&s, &mut |path, e| {
                    ends.push(*e);
                    firsts.insert(path[0]);
                });
                let mut mask = vec![false; r.spec().num_actions];
                r.legal_mask(&s, &mut mask);
                let masked: std::collections::BTreeSet<Action> =
                    (0..mask.len()).filter(|&a| mask[a]).map(|a| Action(a as u32)).collect();
                assert_eq!(masked, firsts, "mask != first actions at {}", r.to_position(&s));
                for t in r.turns(&s) {
                    let back = r.parse_turn(&s, &t.notation).unwrap();
                    assert_eq!(play(&r, &s, &t.notation), t.state, "{}", t.notation);
                    assert_eq!(back.len(), t.actions.len());
                }
                let mut mine: Vec<Pos> = ends.iter().map(|e| to_ref(&r, e)).collect();
                mine.sort();
                mine.dedup();
                // The reference enumerates every re-jump order: with a mulá in
                // deferred mode that takes too long to run here.
                if m == Deferred && s.kings != 0 {
                    s = ends[rng.random_range(0..ends.len())];
                    continue;
                }
                let theirs = reference.children(&to_ref(&r, &s));
                assert_eq!(mine, theirs, "{b:?} {m:?} game {g} ply {ply} at {}", r.to_position(&s));
                if r.to_position(&ends[0]).len() < r.to_position(&s).len() {
                    captures += 1;
                }
                if ply % 25 == 0 {
                    assert_eq!(r.perft(&s, 2), reference.perft(&to_ref(&r, &s), 2));
                }
                s = ends[rng.random_range(0..ends.len())];
            }
        }
        assert!(captures > 0);
    }
}

#[test]
#[ignore]
fn print_perft_tables() {
    for (b, m) in CONFIGS {
        let r = rules(b, m);
        let v: Vec<u64> = (1..=8).map(|d| r.perft(&r.start, d)).collect();
        eprintln!("{b:?} {m:?} {v:?}");
    }
}

#[test]
fn a_run_of_empty_points_is_one_digit_as_in_tablut() {
    // One rank policy for every family (crate::text::read_rank): the start
    // position's `ww1bb` spelled `ww11b`-style with two digits is refused.
    let r = k(Immediate);
    let canonical = "wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/b2bb b";
    assert!(r.from_position(canonical).is_ok());
    let e = r.from_position("wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/b11bb b").unwrap_err();
    assert!(e.to_string().contains("two digits in a row"), "{e}");
    let e = r.from_position("wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/b0bbb b").unwrap_err();
    assert!(e.to_string().contains("unexpected '0'"), "{e}");
}

#[test]
fn who_won_is_stored_when_a_turn_ends_and_when_a_position_is_read() {
    use crate::core::Outcome;
    // Black to move with no piece left has lost (read from a string).
    let r = k(Immediate);
    let lost = pos(&r, "5/4/5/4/2w2/4/5/4/5 b");
    assert_eq!(lost.outcome, Some(Outcome::Win(Player::P1)));
    assert_eq!(r.to_act(&lost), ToAct::Terminal);
    assert_eq!(r.returns(&lost), [-1.0, 1.0]);
    // Reached by play: the stored outcome says "over" exactly when the side
    // to move has no legal action (the move generator, not `has_move`).
    for (board, removal) in [(Board::Kharbaga, Immediate), (Board::Kharbaga, Deferred), (Board::Zamma, Immediate)] {
        let r = rules(board, removal);
        let mut rng = rng_from_seed(7);
        for _ in 0..20 {
            let mut s = r.initial_state(&mut rng);
            loop {
                let mut legal = Vec::new();
                r.for_each_legal(&s, |a| legal.push(a));
                let expected = if legal.is_empty() { Some(Outcome::Win(s.side.other())) } else { None };
                assert_eq!(s.outcome, expected, "{}", r.to_position(&s));
                if legal.is_empty() {
                    break;
                }
                let a = legal[rng.random_range(0..legal.len())];
                r.apply(&mut s, a, &mut rng);
            }
        }
    }
}

/// The names of the legal decisions at `s`, sorted.
fn decision_names(r: &Alquerque, s: &State) -> Vec<String> {
    let mut mask = vec![false; r.spec().num_actions];
    r.legal_mask(s, &mut mask);
    let mut v: Vec<String> =
        (0..mask.len()).filter(|&i| mask[i]).map(|i| r.action_to_string(s, Action(i as u32))).collect();
    v.sort();
    v
}

/// Applies the legal decision named `name` mid-turn.
fn hop(r: &Alquerque, s: &mut State, name: &str) -> Applied {
    let a = r.string_to_action(s, name).unwrap_or_else(|e| panic!("{e}"));
    r.apply(s, a, &mut rng_from_seed(0))
}

#[test]
fn deferred_wandering_rejump_is_legal_exactly_while_the_maximum_stays_reachable() {
    // docs/games/alquerque.md, Decision (deferred mode): a re-jump is legal
    // exactly when the sequence can still capture the most pieces after it.
    let r = z(Deferred);
    // c1 can take the four white pieces around the square c1-e1-e3-c3.
    let start = pos(&r, "8w/9/9/9/9/9/3w5/2w1w4/2bW5 b");
    let mut s = start;
    assert_eq!(hop(&r, &mut s, "c1xc3"), Applied::MidTurn);
    // Jumping c2 back to c1 wanders (nothing new) but all four captures are
    // still reachable from c1 (by d1, e2, d3): legal.
    assert_eq!(decision_names(&r, &s), strs(&["c3xe3", "c3xc1"]));
    assert_eq!(hop(&r, &mut s, "c3xc1"), Applied::MidTurn);
    // The same jump (c1, c2, c3) is never made twice: only d1 is left to take.
    assert_eq!(decision_names(&r, &s), strs(&["c1xe1"]));
    assert_eq!(hop(&r, &mut s, "c1xe1"), Applied::MidTurn);
    assert_eq!(hop(&r, &mut s, "e1xe3"), Applied::MidTurn);
    assert_eq!(hop(&r, &mut s, "e3xc3"), Applied::TurnOver);
    assert_eq!(r.to_position(&s), "8w/9/9/9/9/9/2b6/9/9 w");

    // A route that wanders twice between the same pieces (back over d3,
    // back over c2) and still takes all four is one legal turn.
    let mut twice = start;
    for name in ["c1xc3", "c3xe3", "e3xc3", "c3xc1", "c1xe1"] {
        assert_eq!(hop(&r, &mut twice, name), Applied::MidTurn, "{name}");
    }
    assert_eq!(hop(&r, &mut twice, "e1xe3"), Applied::TurnOver);
    assert_eq!(r.to_position(&twice), "8w/9/9/9/9/9/4b4/9/9 w");

    // On a straight line c1-c3-c5 the re-jump back to c1 would leave c4
    // out of reach (c1xc3 cannot be made twice): it is not legal.
    let mut line = pos(&r, "8w/9/9/9/9/2w6/9/2w6/2b6 b");
    assert_eq!(moves(&r, &line), strs(&["c1xc3xc5"]));
    assert_eq!(hop(&r, &mut line, "c1xc3"), Applied::MidTurn);
    assert_eq!(decision_names(&r, &line), strs(&["c3xc5"]));
}

#[test]
fn pieces_able_to_capture_found_by_set_shifts_are_those_with_a_capture_hop() {
    use super::deferred::walk_jumps;
    // Along random games of both boards (positions with mulás included),
    // at every turn's start: the shifted-set test finds exactly the pieces
    // of the side to move from which a walk along the lines finds a jump.
    for (board, removal) in CONFIGS {
        let r = rules(board, removal);
        let mut rng = rng_from_seed(11);
        let mut checked = [0u32; 2];
        for _ in 0..30 {
            let mut s = r.initial_state(&mut rng);
            // Mulás alone may shuffle for ever: a cap on the game's decisions.
            for _ in 0..400 {
                if s.outcome.is_some() {
                    break;
                }
                if !s.mid_turn() {
                    let me = s.side.index();
                    let (own, enemy) = (s.pieces[me], s.pieces[1 - me]);
                    let mut want = 0u128;
                    for p in crate::bits::SetBits(own) {
                        let mut any = false;
                        let occ = (own & !(1u128 << p)) | enemy;
                        walk_jumps(&r.geo.next, occ, enemy, s.kings >> p & 1 != 0, p as u8, |_| any = true);
                        want |= (any as u128) << p;
                    }
                    assert_eq!(r.capturers(&s, own), want, "{}", r.to_position(&s));
                    checked[(want != 0) as usize] += 1;
                }
                let mut legal = Vec::new();
                r.for_each_legal(&s, |a| legal.push(a));
                let a = legal[rng.random_range(0..legal.len())];
                r.apply(&mut s, a, &mut rng);
            }
        }
        assert!(checked[0] > 100 && checked[1] > 100, "{board:?}: {checked:?} positions without / with a capture");
    }
}

/// Random games in which the side to move prefers (7 times in 10) the turn
/// leaving the most mulás on the board: positions with flying kings, where
/// the majority search has the most to do. Calls `f` at every turn start.
fn games_with_mulas(r: &Alquerque, games: u32, seed: u64, mut f: impl FnMut(&State)) {
    let mut rng = rng_from_seed(seed);
    for _ in 0..games {
        let mut s = r.start;
        for _ in 0..300 {
            if r.to_act(&s) == ToAct::Terminal {
                break;
            }
            f(&s);
            let turns = r.turns(&s);
            let pick = if rng.random_bool(0.7) {
                (0..turns.len())
                    .max_by_key(|&i| (turns[i].state.kings.count_ones(), rng.random_range(0..1000u32)))
                    .unwrap()
            } else {
                rng.random_range(0..turns.len())
            };
            s = turns[pick].state;
        }
    }
}

#[test]
fn majority_search_finds_the_hops_and_turns_of_brute_force_along_games_with_mulas() {
    // Issues #13 and #37: the table, the takeable bound, the order of the
    // hops and the listing's walk of each mid-turn situation once must not
    // change a legal hop or a listed turn (every decision of every turn
    // compared with the brute force, mid-sequence ones included).
    for (b, seed, games) in [(Board::Kharbaga, 5, 40), (Board::Zamma, 6, 30)] {
        let r = rules(b, Immediate);
        let (mut decisions, mut with_mulas) = (0, 0);
        games_with_mulas(&r, games, seed, |s| {
            let old_turns = r.unmemoized_turns(s);
            let mut new_turns: Vec<(Vec<Action>, State)> = Vec::new();
            r.for_each_turn(s, &mut |p, e| {
                if !new_turns.iter().any(|(_, x)| x == e) {
                    new_turns.push((p.to_vec(), *e));
                }
            });
            assert_eq!(new_turns, old_turns, "{b:?} turns at {}", r.to_position(s));
            let mut ends = Vec::new();
            r.for_each_end(s, &mut |e| ends.push(*e));
            ends.sort_by_key(|e| (e.pieces, e.kings));
            ends.dedup();
            let mut old_ends: Vec<State> = old_turns.iter().map(|t| t.1).collect();
            old_ends.sort_by_key(|e| (e.pieces, e.kings));
            assert_eq!(ends, old_ends, "{b:?} end positions at {}", r.to_position(s));
            // Every decision on the way: the position and the mid-turn ones.
            let mut mids = vec![*s];
            for (path, _) in &old_turns {
                let mut t = *s;
                for &a in &path[..path.len() - 1] {
                    r.apply_action(&mut t, a);
                    mids.push(t);
                }
            }
            for t in mids {
                let (old, old_best, _) = r.unmemoized_best_hops(&t);
                let mut new = Vec::new();
                let best = r.for_each_best_hop(&t, |from, h| new.push((from, *h)));
                assert_eq!((new, best), (old, old_best), "{b:?} at {}", r.to_position(&t));
                decisions += 1;
                with_mulas += (best > 0 && t.kings & t.pieces[t.side.index()] != 0) as u32;
            }
        });
        assert!(decisions > 1000 && with_mulas > 50, "{b:?}: {decisions} decisions, {with_mulas} capturing with mulás");
    }
}

/// The ladder's slow position (issue #13: 39.5 s for one ab4 move under
/// load) and the three costliest turn listings of that search: a black mulá
/// among many white pawns.
const LADDER_SLOW: [&str; 4] = [
    "ww7/wwwww3b/9/wwww1ww2/2w1w4/9/1w5bb/4w3b/8b w",
    "ww6B/w1www4/1w7/wwww1ww2/2w6/5w3/1w5bb/4w3b/8b b",
    "ww6B/wwwww4/9/wwww1ww2/9/1w3w3/1w5bb/4w3b/8b b",
    "1w6B/wwwww4/1w7/wwww1ww2/2w1w4/9/1w5bb/4w3b/8b b",
];

#[test]
fn majority_search_visits_few_nodes_on_the_ladders_slow_positions() {
    // Nodes of the unmemoized search (legal mask, turn listing): 0 / 0,
    // 97,645 / 4,211,831, 100,000 (cut by the budget) / 4,178,639,
    // 56 / 4,094,210; ab4 from the first position: 260,364,471. Now
    // 0 / 0, 1,080 / 59,028, 2,747 / 65,510, 56 / 169,013 and 6.8 million
    // (situations without a further capture are not memoized: a revisit
    // counts as a node, but costs one look at the hops).
    let r = z(Immediate);
    let count = |f: &mut dyn FnMut()| {
        let n = majority_search_nodes();
        f();
        majority_search_nodes() - n
    };
    for (text, mask_max, turns_max) in [
        (LADDER_SLOW[0], 0, 0),
        (LADDER_SLOW[1], 5_000, 150_000),
        (LADDER_SLOW[2], 5_000, 150_000),
        (LADDER_SLOW[3], 100, 400_000),
    ] {
        let s = pos(&r, text);
        let mut mask = vec![false; r.spec().num_actions];
        let n = count(&mut || r.legal_mask(&s, &mut mask));
        assert!(n <= mask_max, "{n} nodes for the legal mask at {text}");
        let mut kids = Vec::new();
        let n = count(&mut || r.next_states(&s, &mut kids));
        assert!(n <= turns_max, "{n} nodes for the turns at {text}");
        // The same hops as the unmemoized search (which its budget cut here,
        // but not before it had found the maximum).
        let (old, old_best, _) = r.unmemoized_best_hops(&s);
        let mut new = Vec::new();
        assert_eq!(r.for_each_best_hop(&s, |from, h| new.push((from, *h))), old_best);
        assert_eq!(new, old, "{text}");
    }
    let cfg = crate::search::alphabeta::Config {
        depth: 4,
        time: None,
        tt_entries: 1 << 18,
        quiescence: true,
        iterative: true,
        repeated: Vec::new(),
        contempt: 0.0,
        threats: false,
    };
    let s = pos(&r, LADDER_SLOW[0]);
    let n = count(&mut || {
        crate::search::alphabeta::search(&r, &s, &cfg, &mut crate::search::eval::Builtin).unwrap();
    });
    assert!(n <= 15_000_000, "{n} nodes in the ab4 search");
}

/// The audit's maze (issue #37): a black mulá among 31 white pieces, of
/// which a sequence can take at most 22 (an exhaustive search and an
/// independent reference agree).
const MAZE_22: &str = "1w2B1W1w/w3W1w2/w3w1w2/WWw1w1w1w/ww1w1ww2/3w4w/w1ww5/6w1w/WW3W1W1 b";

#[test]
fn immediate_majority_is_exact_past_any_search_size() {
    // Issue #37: a node budget made the search take the best sequence
    // found within it for the maximum, and list turns of 21 captures
    // beside those of 22. Every turn listed takes 22, every decision of
    // every turn is in its mask, and every turn plays.
    let r = z(Immediate);
    let s = pos(&r, MAZE_22);
    let turns = r.turns(&s);
    assert!(!turns.is_empty());
    for t in &turns {
        assert_eq!(t.actions.len(), 22, "{}", t.notation);
        assert_eq!(t.state.pieces[1].count_ones(), 31 - 22, "{}", t.notation);
        let mut cur = s;
        for &a in &t.actions {
            let mut mask = vec![false; r.spec().num_actions];
            r.legal_mask(&cur, &mut mask);
            assert!(mask[a.index()], "{}: {} not in the mask", t.notation, r.action_to_string(&cur, a));
            r.apply_action(&mut cur, a);
        }
        assert_eq!(cur, t.state);
        assert_eq!(play(&r, &s, &t.notation), t.state);
    }
}

/// A random capture maze: `movers` black pieces (mulás with probability
/// `kings`) among white pieces on each point with probability `density`,
/// black to move.
fn random_maze(r: &Alquerque, rng: &mut crate::core::GameRng, movers: u32, kings: f64, density: f64) -> State {
    let points: Vec<u8> = crate::bits::SetBits(r.geo.points).map(|p| p as u8).collect();
    loop {
        let mut s = r.start;
        s.pieces = [0, 0];
        s.kings = 0;
        s.side = Player::P0;
        let mut placed = 0;
        while placed < movers {
            let p = points[rng.random_range(0..points.len())];
            if (s.pieces[0] | s.pieces[1]) >> p & 1 == 0 && r.geo.far_rank[0] >> p & 1 == 0 {
                s.pieces[0] |= 1u128 << p;
                if rng.random_bool(kings) {
                    s.kings |= 1u128 << p;
                }
                placed += 1;
            }
        }
        for &p in &points {
            if (s.pieces[0] | s.pieces[1]) >> p & 1 == 0 && r.geo.far_rank[1] >> p & 1 == 0 && rng.random_bool(density)
            {
                s.pieces[1] |= 1u128 << p;
                if rng.random_bool(kings) {
                    s.kings |= 1u128 << p;
                }
            }
        }
        if let Ok(t) = r.from_position(&r.to_position(&s)) {
            if r.capturers(&t, t.pieces[0]) != 0 {
                return t;
            }
        }
    }
}

#[test]
fn immediate_majority_matches_brute_force_on_random_mazes() {
    // Issue #37: the search (table, takeable bound, capture-graph bound,
    // hop order) against the brute force (every sequence walked in full, no
    // bound, no budget) on random mazes of both boards, pawns and mulás on
    // both sides, at the turn's start and at every decision of a random
    // maximal sequence: the same maximum and the same legal hops.
    let mut rng = rng_from_seed(37);
    for (board, movers, kings, density, mazes) in [
        (Board::Kharbaga, 1, 1.0, 0.45, 150),
        (Board::Kharbaga, 3, 0.5, 0.4, 150),
        (Board::Kharbaga, 4, 0.0, 0.5, 150),
        (Board::Zamma, 1, 1.0, 0.2, 120),
        (Board::Zamma, 3, 0.5, 0.25, 120),
        (Board::Zamma, 5, 0.0, 0.45, 150),
    ] {
        let r = rules(board, Immediate);
        let (mut decisions, mut long) = (0, 0);
        for _ in 0..mazes {
            let mut s = random_maze(&r, &mut rng, movers, kings, density);
            loop {
                let (old, old_best, _) = r.unmemoized_best_hops(&s);
                let mut new = Vec::new();
                let best = r.for_each_best_hop(&s, |from, h| new.push((from, *h)));
                assert_eq!((best, &new), (old_best, &old), "{board:?} at {}", r.to_position(&s));
                decisions += 1;
                long += (best >= 4) as u32;
                if best == 0 {
                    break;
                }
                let (from, h) = new[rng.random_range(0..new.len())];
                let a = r.encode(s.side, from, h.dir, h.steps);
                if r.apply_action(&mut s, a) == Applied::TurnOver {
                    break;
                }
            }
        }
        assert!(long > 20, "{board:?}: {long} decisions with 4 captures or more to go, of {decisions}");
    }
}
