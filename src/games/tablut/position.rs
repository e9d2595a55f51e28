//! The position string (spec tablut.md, "Position string"): ranks 9 down to
//! 1 separated by `/`, `K` king, `S` Swedish soldier, `M` Muscovite, a digit
//! for a run of empty squares; a space; `s` or `m` for the side to move.
//!
//! **Decisions** on what a string may hold (everything else is an error that
//! says what was expected):
//! * at most one king, 8 Swedish soldiers and 16 Muscovites;
//! * no soldier of either side on the throne (e5) or a corner;
//! * runs of empty squares are one digit 1-9 (`45` is refused: one canonical
//!   string per position);
//! * no `K` means the king was captured: the Muscovites won. That happens on
//!   a Muscovite move, so the side to move must be `s`;
//! * a king on a corner means the Swedes won. That happens on a Swedish move,
//!   so the side to move must be `m`;
//! * a side to move with no legal move is accepted: the game is over and that
//!   side lost.

use super::board::*;
use super::state::{State, MUSCOVITES, SWEDES};
use crate::error::{GameError, Result};
use crate::text::RunError;

/// Writes the position string of `s`.
pub fn format(s: &State) -> String {
    let mut out = String::with_capacity(48);
    for rank in (0..SIZE).rev() {
        let cell = |sq: usize| {
            if s.king as usize == sq {
                Some('K')
            } else if s.swedes & bit(sq) != 0 {
                Some('S')
            } else if s.muscovites & bit(sq) != 0 {
                Some('M')
            } else {
                None
            }
        };
        crate::text::push_rank(&mut out, (0..SIZE).map(|file| cell(rank * SIZE + file)));
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(if s.side == SWEDES { 's' } else { 'm' });
    out
}

/// Parses a position string.
pub fn parse(text: &str) -> Result<State> {
    let err = |m: String| GameError::position(text, m);
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 2 {
        return Err(err(format!(
            "expected two fields, the board and the side to move (e.g. '{START}'), got {}",
            fields.len()
        )));
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != SIZE {
        return Err(err(format!("expected 9 ranks separated by '/', got {}", ranks.len())));
    }
    let (mut swedes, mut muscovites) = (0u128, 0u128);
    let mut king: Option<Square> = None;
    for (i, row) in ranks.iter().enumerate() {
        let rank = SIZE - 1 - i;
        let rank_name = rank + 1;
        let piece = |file: usize, c: char| -> Result<()> {
            if !matches!(c, 'K' | 'S' | 'M') {
                return Err(err(format!(
                    "rank {rank_name} ('{row}'): bad character '{c}', expected K (king), S (Swedish soldier), M (Muscovite) or a digit 1-9"
                )));
            }
            if file >= SIZE {
                return Err(err(format!("rank {rank_name} ('{row}') is wider than 9 squares")));
            }
            let sq = Square::from_coords(file, rank).expect("on the board");
            match c {
                'K' => {
                    if let Some(first) = king {
                        return Err(err(format!("two kings ({first} and {sq}): expected at most one 'K'")));
                    }
                    king = Some(sq);
                }
                _ => {
                    if sq == Square::THRONE || sq.is_corner() {
                        let what = if c == 'S' { "a Swedish soldier" } else { "a Muscovite" };
                        let place = if sq == Square::THRONE { "the throne" } else { "a corner" };
                        return Err(err(format!("{what} on {place} ({sq}): only the king may stand there")));
                    }
                    if c == 'S' {
                        swedes |= bit(sq.index());
                    } else {
                        muscovites |= bit(sq.index());
                    }
                }
            }
            Ok(())
        };
        let file = crate::text::read_rank(row, piece, |e| {
            err(match e {
                RunError::Zero => {
                    format!("rank {rank_name} ('{row}'): '0' is not a run of empty squares, expected 1-9")
                }
                RunError::TwoDigits => format!(
                    "rank {rank_name} ('{row}'): two digits in a row, expected one digit per run of empty squares"
                ),
            })
        })?;
        if file != SIZE {
            return Err(err(format!("rank {rank_name} ('{row}') covers {file} squares, expected 9")));
        }
    }
    if swedes.count_ones() > 8 {
        return Err(err(format!("{} Swedish soldiers, expected at most 8", swedes.count_ones())));
    }
    if muscovites.count_ones() > 16 {
        return Err(err(format!("{} Muscovites, expected at most 16", muscovites.count_ones())));
    }
    let side = match fields[1] {
        "s" => SWEDES,
        "m" => MUSCOVITES,
        other => {
            return Err(err(format!("side to move '{other}': expected 's' (Swedes) or 'm' (Muscovites)")));
        }
    };
    match king {
        None if side == MUSCOVITES => {
            return Err(err(
                "no king (captured) with the Muscovites to move: a king is captured by a Muscovite move, so the Swedes ('s') must be to move"
                    .into(),
            ))
        }
        Some(k) if k.is_corner() && side == SWEDES => {
            return Err(err(format!(
                "the king on corner {k} with the Swedes to move: the king reaches a corner on a Swedish move, so the Muscovites ('m') must be to move"
            )))
        }
        _ => {}
    }
    Ok(State::from_parts(swedes, muscovites, king, side))
}

/// The start position string.
pub const START: &str = "3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 s";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_string_is_the_spec_start() {
        assert_eq!(format(&State::start()), START);
        assert_eq!(parse(START).unwrap(), State::start());
    }

    fn bad(text: &str, needle: &str) {
        let e = parse(text).expect_err(text).to_string();
        assert!(e.contains(needle), "{text:?}: message {e:?} lacks {needle:?}");
    }

    #[test]
    fn bad_position_strings_say_what_was_expected() {
        bad("", "expected two fields");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3", "expected two fields");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 s x", "expected two fields");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4 s", "expected 9 ranks");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3/9 s", "expected 9 ranks");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM4 s", "covers 10 squares");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM2 s", "covers 8 squares");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMMM/M3S3M/4S4/4M4/3MMM3 s", "wider than 9");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMX/M3S3M/4S4/4M4/3MMM3 s", "bad character 'X'");
        bad("3mmm3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 s", "bad character 'm'");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 w", "expected 's' (Swedes) or 'm'");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 S", "expected 's' (Swedes) or 'm'");
        bad("3MMM3/4M4/4K4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 s", "two kings (e7 and e5)");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSSSSMM/M3S3M/4S4/4M4/3MMM3 s", "a Swedish soldier on the throne (e5)");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSMSSMM/M3S3M/4S4/4M4/3MMM3 s", "a Muscovite on the throne (e5)");
        bad("M2MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 s", "a Muscovite on a corner (a9)");
        bad("3MMM2S/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 s", "a Swedish soldier on a corner (i9)");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MM03 s", "'0' is not a run");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/12MMM3 s", "two digits in a row");
        bad("3MMM3/4M4/4S4/M3S3M/MMSS1SSMM/M3S3M/4S4/4M4/3MMM3 m", "no king (captured) with the Muscovites to move");
        bad("K2MMM3/4M4/4S4/M3S3M/MMSS1SSMM/M3S3M/4S4/4M4/3MMM3 s", "the king on corner a9 with the Swedes to move");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/SSSS5/4M4/3MMM3 s", "11 Swedish soldiers, expected at most 8");
        bad("3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/MMMMMMMMM/3MMM3 s", "24 Muscovites, expected at most 16");
    }

    #[test]
    fn terminal_strings_are_accepted() {
        // Captured king: no K, Swedes to move, the Muscovites won.
        let s = parse("3MMM3/4M4/4S4/M3S3M/MMSS1SSMM/M3S3M/4S4/4M4/3MMM3 s").unwrap();
        assert!(s.is_over());
        assert_eq!(s.winner(), Some(MUSCOVITES));
        // King on a corner, Muscovites to move: the Swedes won.
        let s = parse("K2MMM3/4M4/4S4/M3S3M/MMSS1SSMM/M3S3M/4S4/4M4/3MMM3 m").unwrap();
        assert_eq!(s.winner(), Some(SWEDES));
        // Leading and trailing whitespace is tolerated, the output is canonical.
        let s = parse("  3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3   s ").unwrap();
        assert_eq!(format(&s), START);
    }
}
