//! What a move does: custodial captures, the king's capture and the end of
//! the game (spec tablut.md, "Captures", "End of game").

use super::board::*;
use super::state::{Move, State, Status, SWEDES};

impl State {
    /// Plays a legal move given as a [`Move`].
    pub fn play_move(&mut self, mv: Move) {
        self.play(mv.from.index(), mv.to.index())
    }

    /// Plays a legal move of the side to move (unchecked): moves the piece,
    /// makes its captures, decides the end, and hands the move over.
    #[inline]
    pub fn play(&mut self, from: usize, to: usize) {
        let step = bit(from) | bit(to);
        self.occ_t ^= bit(TRANSPOSED[from] as usize) | bit(TRANSPOSED[to] as usize);
        let mover = self.side;
        if self.king as usize == from {
            self.king = to as u8;
        } else if mover == SWEDES {
            self.swedes ^= step;
        } else {
            self.muscovites ^= step;
        }
        self.capture(to);
        // Spec: the move that ends the game is played in full, then the side flips.
        self.side = mover.other();
        self.status = self.derive_status();
    }

    /// Active custodial captures around `to`, the square the mover just reached.
    #[inline(always)]
    fn capture(&mut self, to: usize) {
        let nb = &NEIGHBOURS[to];
        if self.side == SWEDES {
            // Spec Decision: the king is armed (captures as mover and as anvil).
            // Corners are hostile to both sides; the empty throne is not hostile.
            let anvils = self.swedes | self.king_bb() | CORNERS;
            for d in 0..4 {
                let n = nb[d];
                if n != NONE && self.muscovites & bit(n as usize) != 0 {
                    let far = NEIGHBOURS[n as usize][d];
                    if far != NONE && anvils & bit(far as usize) != 0 {
                        self.muscovites &= !bit(n as usize);
                        self.occ_t &= !bit(TRANSPOSED[n as usize] as usize);
                    }
                }
            }
        } else {
            let anvils = self.muscovites | CORNERS;
            for d in 0..4 {
                let n = nb[d];
                if n == NONE {
                    continue;
                }
                if self.swedes & bit(n as usize) != 0 {
                    let far = NEIGHBOURS[n as usize][d];
                    if far != NONE && anvils & bit(far as usize) != 0 {
                        self.swedes &= !bit(n as usize);
                        self.occ_t &= !bit(TRANSPOSED[n as usize] as usize);
                    }
                } else if n == self.king && self.king_surrounded() {
                    self.occ_t &= !bit(TRANSPOSED[n as usize] as usize);
                    self.king = NONE;
                }
            }
        }
    }

    /// The four king-capture cases of the spec in one test: every side of the
    /// king is a Muscovite, the board's edge, the (necessarily empty) throne,
    /// or a corner. Interior: four Muscovites (case 1); on an edge: three
    /// (case 2); next to the throne: three (case 3); next to a corner on an
    /// edge: two (case 4). A corner or the throne never holds a Muscovite, so
    /// no other mix is possible.
    #[inline]
    fn king_surrounded(&self) -> bool {
        let hostile = self.muscovites | THRONE | CORNERS;
        NEIGHBOURS[self.king as usize].iter().all(|&n| n == NONE || hostile & bit(n as usize) != 0)
    }

    /// King captured, king on a corner, or no move for the side to move.
    #[inline]
    pub(super) fn derive_status(&self) -> Status {
        if self.king == NONE {
            Status::KingCaptured
        } else if CORNERS & bit(self.king as usize) != 0 {
            Status::KingEscaped
        } else if !self.has_move() {
            Status::NoMoves
        } else {
            Status::Ongoing
        }
    }
}
