//! The board seen from the player on roll, and single checker moves.
//!
//! Each side's checkers are counted in that side's own numbering:
//!
//! ```text
//!   index:  0    1 .. 24          25
//!           off  points (own)     bar
//! ```
//!
//! A side moves from 24 towards 1 and bears off from 1..6. The opponent's
//! point `p` is the mover's point `25 - p` (spec: board and sides).

use crate::core::Action;

/// Index of the borne-off checkers in a side's array.
pub const OFF: usize = 0;
/// Index of the bar in a side's array.
pub const BAR: usize = 25;
/// Checkers per side.
pub const CHECKERS: u8 = 15;

/// One side's checkers: `[off, point 1, .., point 24, bar]`.
pub type Side = [u8; 26];

/// The starting position of one side: 2 on 24, 5 on 13, 3 on 8, 5 on 6.
pub const START: Side = {
    let mut s = [0u8; 26];
    s[24] = 2;
    s[13] = 5;
    s[8] = 3;
    s[6] = 5;
    s
};

/// How a checker enters from the bar (option `enter_own_point` of the reglamento).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Enter {
    /// The standard game: on a point with at most one opposing checker, hitting it.
    Hit,
    /// On a point without opposing checkers (its own may stand there).
    Open,
    /// On an empty point only ("casillas desocupadas" read literally).
    Empty,
}

/// What bears off with all checkers home (option `bear_off` of the reglamento).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BearOff {
    /// The standard game: the exact die, or a larger die from the highest point.
    Standard,
    /// The standard bear-off, and a checker on the 1-point with any die.
    OnePoint,
    /// Any die at least the checker's distance, whatever stands higher.
    AtLeast,
}

/// Who must open a point for an opponent on the bar (option `open_point` of the reglamento).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpenPoint {
    /// The standard game: nobody.
    Never,
    /// No turn may end with the opponent shut out while another turn avoids it.
    AvoidClosing,
    /// A player who starts a turn with the opponent shut out must end it
    /// with a point open to the opponent, when a turn does.
    NextTurn,
}

/// The movement rules: the standard game's, or one reading of the seed's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub enter: Enter,
    pub bear_off: BearOff,
    pub open_point: OpenPoint,
}

impl Variant {
    pub const STANDARD: Variant =
        Variant { enter: Enter::Hit, bear_off: BearOff::Standard, open_point: OpenPoint::Never };
    /// The reglamento's defaults (docs: the seed's rule set).
    pub const REGLAMENTO: Variant =
        Variant { enter: Enter::Open, bear_off: BearOff::AtLeast, open_point: OpenPoint::NextTurn };

    /// Whether these are the seed's rules (`rules="reglamento"`).
    #[inline]
    pub fn reglamento(self) -> bool {
        self.enter != Enter::Hit
    }

    /// Whether the opponent, on the bar, can enter on the mover's home point
    /// `q` (1..=6) of `p` under these rules.
    #[inline]
    pub fn opponent_enters(self, p: &Pos, q: usize) -> bool {
        match self.enter {
            Enter::Hit => p.me[q] <= 1,
            Enter::Open => p.me[q] == 0,
            Enter::Empty => p.me[q] == 0 && p.opp[25 - q] == 0,
        }
    }
}

/// The position from the point of view of the player on roll.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// The mover's checkers, mover's numbering.
    pub me: Side,
    /// The opponent's checkers, opponent's numbering (its point p is our 25 - p).
    pub opp: Side,
}

/// One checker move: from `from` (1..=24, or [`BAR`]) by `die` pips.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CheckerMove {
    pub from: u8,
    pub die: u8,
}

impl CheckerMove {
    /// The action `source*6 + (die-1)`, source 0 = bar (spec: actions).
    #[inline]
    pub fn action(self) -> Action {
        let source = if self.from as usize == BAR { 0 } else { self.from as u32 };
        Action(source * 6 + self.die as u32 - 1)
    }

    /// Inverse of [`CheckerMove::action`] (any action below 150).
    #[inline]
    pub fn from_action(a: Action) -> CheckerMove {
        let source = (a.0 / 6) as u8;
        let die = (a.0 % 6) as u8 + 1;
        CheckerMove { from: if source == 0 { BAR as u8 } else { source }, die }
    }

    /// Landing point, or 0 when the move bears off.
    #[inline]
    pub fn to(self) -> u8 {
        self.from.saturating_sub(self.die)
    }

    /// `24/18`, `bar/22`, `6/off`.
    pub fn notation(self) -> String {
        let from = if self.from as usize == BAR { "bar".to_string() } else { self.from.to_string() };
        let to = if self.to() == 0 { "off".to_string() } else { self.to().to_string() };
        format!("{from}/{to}")
    }
}

impl Pos {
    /// The highest index holding one of the mover's checkers (25 = bar), 0 if none.
    #[inline]
    pub fn highest(&self) -> usize {
        let mut i = BAR;
        while i > 0 && self.me[i] == 0 {
            i -= 1;
        }
        i
    }

    /// Whether the mover may move a checker from `s` by `d`, where `hi` is
    /// [`Pos::highest`] of this position (standard rules).
    #[inline]
    pub fn can_move(&self, s: usize, d: usize, hi: usize) -> bool {
        self.can_move_in::<false>(Variant::STANDARD, s, d, hi)
    }

    /// [`Pos::can_move`] under the standard rules (`REG` false) or the seed's
    /// `rules="reglamento"` (`REG` true) read as `v` says: how a checker
    /// enters from the bar ([`Enter`]) and what bears off ([`BearOff`]).
    #[inline]
    pub fn can_move_in<const REG: bool>(&self, v: Variant, s: usize, d: usize, hi: usize) -> bool {
        if self.me[s] == 0 || (hi == BAR && s != BAR) {
            return false;
        }
        if s > d {
            let there = self.opp[25 - (s - d)];
            if REG && s == BAR {
                return there == 0 && (v.enter == Enter::Open || self.me[s - d] == 0);
            }
            // A point is open unless it holds two or more opposing checkers.
            return there <= 1;
        }
        // Bearing off: all checkers home; exact die, or a larger die from the highest point.
        hi <= 6
            && (s == d
                || s == hi
                || REG
                    && match v.bear_off {
                        BearOff::AtLeast => true,
                        BearOff::OnePoint => s == 1,
                        BearOff::Standard => false,
                    })
    }

    /// Plays a move known to be legal, hitting a blot where it lands.
    #[inline]
    pub fn play(&mut self, s: usize, d: usize) {
        self.me[s] -= 1;
        if s > d {
            let t = s - d;
            let o = 25 - t;
            if self.opp[o] == 1 {
                self.opp[o] = 0;
                self.opp[BAR] += 1;
            }
            self.me[t] += 1;
        } else {
            self.me[OFF] += 1;
        }
    }

    /// The same position with the other side on roll.
    #[inline]
    pub fn flipped(&self) -> Pos {
        Pos { me: self.opp, opp: self.me }
    }
}

/// Checkers of a side still in play (not borne off).
#[inline]
pub fn in_play(side: &Side) -> u32 {
    CHECKERS as u32 - side[OFF] as u32
}

/// Size of the action space: 25 sources (bar, points 1..24) x 6 dice.
pub const NUM_ACTIONS: usize = 150;
