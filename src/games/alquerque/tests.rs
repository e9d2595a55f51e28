//! Rule tests on hand-built positions, string and notation errors,
//! random-game invariants, and the cross-check against the naive reference.

use super::reference::{Pos, Reference};
use super::*;
use crate::core::{rng_from_seed, Action, Applied, Player, ToAct};
use crate::game::Rules;

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

#[test]
fn print_perft() {
    for (b, m) in CONFIGS {
        let r = rules(b, m);
        let s = r.start;
        let v: Vec<u64> = (1..=5).map(|d| r.perft(&s, d)).collect();
        eprintln!("{b:?} {m:?} {v:?}");
    }
}

#[test]
fn perft_matches_naive_reference_from_the_starts() {
    for (b, m) in CONFIGS {
        let r = rules(b, m);
        let reference = Reference { zamma: b == Board::Zamma, deferred: m == Removal::Deferred };
        let s = r.start;
        for d in 1..=3 {
            assert_eq!(r.perft(&s, d), reference.perft(&to_ref(&r, &s), d), "{b:?} {m:?} perft({d})");
        }
    }
}

#[test]
fn print_perft_deep() {
    for (b, m) in CONFIGS {
        let r = rules(b, m);
        let s = r.start;
        let t = std::time::Instant::now();
        let v: Vec<u64> = (1..=9).map(|d| r.perft(&s, d)).collect();
        eprintln!("{b:?} {m:?} {v:?} {:?}", t.elapsed());
    }
}
