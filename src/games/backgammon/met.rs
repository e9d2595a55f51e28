//! The match equity table of option `reward="equity"`: Kazaross-XG2, read
//! from the data file the Python package ships (`ludoteca.met` reads the same
//! file; source and copyright there).

use std::sync::OnceLock;

/// The table's file, as GNU Backgammon distributes it.
const XML: &str = include_str!("../../../python/ludoteca/data/Kazaross-XG2.xml");

/// Pre-Crawford and post-Crawford match winning chances (`ludoteca.met`).
pub struct Met {
    /// Longest match covered (25).
    pub length: u16,
    /// `pre[i][j]`: a player `i + 1` away against one `j + 1` away, the Crawford game included.
    pre: Vec<Vec<f64>>,
    /// `post[i]`: a player `i + 1` away against one 1 away after the Crawford game.
    post: Vec<f64>,
}

/// The `<me>` entries of each `<row>` of the first `<tag>` table.
fn rows(tag: &str) -> Vec<Vec<f64>> {
    let start = XML.find(&format!("<{tag}")).unwrap_or_else(|| panic!("the table file has no <{tag}>"));
    let end = start + XML[start..].find(&format!("</{tag}>")).expect("the table is closed");
    XML[start..end]
        .split("<row>")
        .skip(1)
        .map(|row| {
            row.split("<me>")
                .skip(1)
                .map(|v| v.split("</me>").next().unwrap_or("").trim().parse::<f64>().expect("a number in <me>"))
                .collect()
        })
        .collect()
}

/// The Kazaross-XG2 table (read once).
pub fn kazaross_xg2() -> &'static Met {
    static MET: OnceLock<Met> = OnceLock::new();
    MET.get_or_init(|| {
        let pre = rows("pre-crawford-table");
        let post = rows("post-crawford-table").swap_remove(0);
        Met { length: pre.len() as u16, pre, post }
    })
}

impl Met {
    /// The chance of winning the match of a player `away` points from the end
    /// against an opponent `opp_away` away (0 or less: that player has won);
    /// `post_crawford`: the Crawford game has been played. Scores within the
    /// table (callers check the match length).
    pub fn equity(&self, away: i32, opp_away: i32, post_crawford: bool) -> f64 {
        if away <= 0 {
            return 1.0;
        }
        if opp_away <= 0 {
            return 0.0;
        }
        let (a, b) = (away as usize - 1, opp_away as usize - 1);
        if post_crawford && (a == 0 || b == 0) {
            if a == 0 && b == 0 {
                return 0.5;
            }
            return if b == 0 { self.post[a] } else { 1.0 - self.post[b] };
        }
        self.pre[a][b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_read_whole_and_complementary() {
        let m = kazaross_xg2();
        assert_eq!(m.length, 25);
        assert!(m.pre.iter().all(|r| r.len() == 25));
        assert_eq!(m.post.len(), 25);
        // Entries as printed in the file: 1-away v 2-away 0.67736, 2-away v 4-away 0.6687.
        assert_eq!(m.equity(1, 2, false), 0.67736);
        assert_eq!(m.equity(2, 4, false), 0.6687);
        // Post-Crawford: 2-away v 1-away 0.48803 (the free drop makes it about a half).
        assert_eq!(m.equity(2, 1, true), 0.48803);
        assert!((m.equity(1, 2, true) - (1.0 - 0.48803)).abs() < 1e-12);
        for i in 1..=25 {
            for j in 1..=25 {
                assert!((m.equity(i, j, false) + m.equity(j, i, false) - 1.0).abs() < 1e-12);
            }
        }
    }
}
