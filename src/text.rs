//! Small text helpers shared by the games' position strings.

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

#[cfg(test)]
mod tests {
    #[test]
    fn runs_of_empty_cells_become_digits() {
        let mut s = String::new();
        super::push_rank(&mut s, [None, None, Some('M'), None, Some('K'), None, None, None]);
        assert_eq!(s, "2M1K3");
    }
}
