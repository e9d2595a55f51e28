//! Small text helpers shared by the games' position strings: the rank
//! writer and the rank reader, with one policy for every family.

/// Appends one rank of a FEN-like position string: each cell's letter, runs
/// of empty cells (`None`) as one digit. Runs are at most 9 long on every
/// board that uses it (9 points per rank at most).
pub fn push_rank(out: &mut String, cells: impl IntoIterator<Item = Option<char>>) {
    let mut empty = 0u8;
    for cell in cells {
        match cell {
            None => empty += 1,
            Some(c) => {
                if empty > 0 {
                    out.push((b'0' + empty) as char);
                    empty = 0;
                }
                out.push(c);
            }
        }
    }
    if empty > 0 {
        out.push((b'0' + empty) as char);
    }
}

/// Why a rank's run of empty cells was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// `0` is no run.
    Zero,
    /// Two digits in a row (`b11bb`, `45`): a run is one digit, so that each
    /// rank has one spelling, the one [`push_rank`] writes.
    TwoDigits,
}

/// Reads one rank as [`push_rank`] writes it: calls `piece(cell, c)` for
/// every character that is not a digit, with the index of the cell it stands
/// on, and returns how many cells the rank covers (possibly more than the
/// board's rank: the caller says what it expected). A run of empty cells is
/// one digit 1-9; anything else is refused through `run_error`. `piece`
/// decides what a letter means and may stop the reading with its own error.
pub fn read_rank<E>(
    rank: &str,
    mut piece: impl FnMut(usize, char) -> Result<(), E>,
    run_error: impl FnOnce(RunError) -> E,
) -> Result<usize, E> {
    let mut cell = 0usize;
    let mut last_digit = false;
    for c in rank.chars() {
        if let Some(d) = c.to_digit(10) {
            if d == 0 {
                return Err(run_error(RunError::Zero));
            }
            if last_digit {
                return Err(run_error(RunError::TwoDigits));
            }
            cell += d as usize;
            last_digit = true;
            continue;
        }
        last_digit = false;
        piece(cell, c)?;
        cell += 1;
    }
    Ok(cell)
}

#[cfg(test)]
mod tests {
    use super::{read_rank, RunError};

    fn read(rank: &str) -> Result<(usize, Vec<(usize, char)>), String> {
        let mut cells = Vec::new();
        let n = read_rank(
            rank,
            |i, c| {
                cells.push((i, c));
                Ok(())
            },
            |e| format!("{e:?}"),
        )?;
        Ok((n, cells))
    }

    #[test]
    fn a_rank_reads_back_what_push_rank_writes() {
        let cells = [None, None, Some('M'), None, Some('K'), None, None, None];
        let mut s = String::new();
        super::push_rank(&mut s, cells);
        let (n, pieces) = read(&s).unwrap();
        assert_eq!(n, cells.len());
        assert_eq!(pieces, vec![(2, 'M'), (4, 'K')]);
        assert_eq!(read("9").unwrap(), (9, vec![]));
    }

    #[test]
    fn a_run_of_empty_cells_is_one_digit_from_1_to_9() {
        // One policy for every family: the non-canonical `b11bb` (kharbaga
        // accepted it before) and `45` (tablut always refused it) are errors.
        assert_eq!(read("b11bb"), Err(format!("{:?}", RunError::TwoDigits)));
        assert_eq!(read("45"), Err(format!("{:?}", RunError::TwoDigits)));
        assert_eq!(read("b0bb"), Err(format!("{:?}", RunError::Zero)));
        assert_eq!(read("b2bb").unwrap().0, 5);
    }

    #[test]
    fn a_letter_the_family_refuses_stops_the_reading() {
        let got = read_rank("bxb", |_, c| if c == 'x' { Err("x") } else { Ok(()) }, |_| "run");
        assert_eq!(got, Err("x"));
    }

    #[test]
    fn runs_of_empty_cells_become_digits() {
        let mut s = String::new();
        super::push_rank(&mut s, [None, None, Some('M'), None, Some('K'), None, None, None]);
        assert_eq!(s, "2M1K3");
    }
}
