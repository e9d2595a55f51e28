//! The engine: dice, turns, the end of a game and of the match
//! ([`Backgammon`]), and perft over distinct end positions.

use super::board::{Pos, CHECKERS, NUM_ACTIONS, OFF, START};
use super::observe::OBS_LEN;
use super::movegen::{distinct_ends, legal_mask, mask_is_empty};
use super::state::{game_points, Phase, State};
use crate::core::{Action, GameRng, Player};
use crate::error::GameError;
use crate::game::GameSpec;
use rand::RngExt;

/// The rules of one configured backgammon game.
pub struct Backgammon {
    pub(super) spec: GameSpec,
    pub(super) explicit: bool,
    pub(super) match_length: u16,
    pub(super) opening_mask: [bool; NUM_ACTIONS],
    pub(super) roll_mask: [bool; NUM_ACTIONS],
}

/// The chance action of the opening outcome "player 0 rolls `d0`, player 1 rolls `d1`".
#[inline]
pub fn opening_action(d0: u8, d1: u8) -> Action {
    Action((d0 as u32 - 1) * 6 + d1 as u32 - 1)
}

/// The chance action of the roll `hi`-`lo` (`hi >= lo`).
#[inline]
pub fn roll_action(hi: u8, lo: u8) -> Action {
    Action((hi as u32 - 1) * 6 + lo as u32 - 1)
}

impl Backgammon {
    pub fn new(match_length: u16, explicit: bool) -> Backgammon {
        let mut opening_mask = [false; NUM_ACTIONS];
        let mut roll_mask = [false; NUM_ACTIONS];
        for a in 1..=6u8 {
            for b in 1..=6u8 {
                opening_mask[opening_action(a, b).index()] = a != b;
                roll_mask[roll_action(a, b).index()] = a >= b;
            }
        }
        Backgammon {
            spec: GameSpec {
                num_actions: NUM_ACTIONS,
                observation_shape: vec![OBS_LEN],
                offers: false,
                info_fields: &[
                    "score_p0",
                    "score_p1",
                    "match_length",
                    "last_game_points",
                    "last_game_winner",
                    "die1",
                    "die2",
                    "dice_left",
                ],
                // The raw match score and length: 15 bits of the match id, below 2**15.
                observation_high: 32768.0,
            },
            explicit,
            match_length,
            opening_mask,
            roll_mask,
        }
    }

    /// The "no game started" state of a match at `score`.
    pub fn opening_state(&self, score: [u16; 2], match_length: u16) -> State {
        State {
            board: [START; 2],
            phase: Phase::Opening,
            turn: Player::P0,
            roll: [0, 0],
            left: [0; 4],
            nleft: 0,
            mask: [0; 3],
            score,
            match_length,
            last_points: 0,
            last_winner: -1,
        }
    }

    /// Sets the roll of the player on turn; false when no die can be played.
    pub(super) fn set_roll(&self, s: &mut State, a: u8, b: u8) -> bool {
        let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
        s.phase = Phase::Move;
        s.roll = [hi, lo];
        if hi == lo {
            s.left = [hi; 4];
            s.nleft = 4;
        } else {
            s.left = [hi, lo, 0, 0];
            s.nleft = 2;
        }
        s.mask = legal_mask(&s.pos(), s.left());
        !mask_is_empty(&s.mask)
    }

    /// Opening roll: player 0 rolled `d0`, player 1 `d1` (different); the
    /// higher die moves first with both dice.
    pub(super) fn start_game(&self, s: &mut State, d0: u8, d1: u8) {
        s.turn = if d0 > d1 { Player::P0 } else { Player::P1 };
        let playable = self.set_roll(s, d0, d1);
        debug_assert!(playable, "every opening roll has a move");
    }

    /// The turn passes to the opponent, who rolls next.
    pub(super) fn pass_turn(&self, s: &mut State) {
        s.turn = s.turn.other();
        s.phase = Phase::ToRoll;
        s.clear_dice();
    }

    /// The player on turn has borne off the last checker.
    pub(super) fn end_game(&self, s: &mut State) {
        let winner = s.turn;
        let points = game_points(&s.board, winner);
        s.score[winner.index()] += points as u16;
        s.last_points = points;
        s.last_winner = winner as i8;
        s.clear_dice();
        if s.score[winner.index()] >= s.match_length {
            // Spec: "game over" (010), board as left, turn to the loser.
            s.phase = Phase::Over;
            s.turn = winner.other();
        } else {
            let (last_points, last_winner) = (s.last_points, s.last_winner);
            *s = self.opening_state(s.score, s.match_length);
            s.last_points = last_points;
            s.last_winner = last_winner;
        }
    }

    /// Sampled chance: rolls until some player can move (forced passes are automatic).
    pub(super) fn roll_sampled(&self, s: &mut State, rng: &mut GameRng) {
        if s.phase == Phase::Opening {
            let (d0, d1) = loop {
                let d0: u8 = rng.random_range(1..=6);
                let d1: u8 = rng.random_range(1..=6);
                if d0 != d1 {
                    break (d0, d1);
                }
            };
            self.start_game(s, d0, d1);
            return;
        }
        // A position where no roll lets either side move is rejected when
        // parsed and unreachable in play; the bound only guards the loop.
        for _ in 0..100_000 {
            let a: u8 = rng.random_range(1..=6);
            let b: u8 = rng.random_range(1..=6);
            if self.set_roll(s, a, b) {
                return;
            }
            self.pass_turn(s);
        }
    }

    /// The state after the player on turn ends a complete move at `end`,
    /// before any dice are rolled: the opponent to roll, the next game's
    /// opening, or the end.
    pub fn after_move(&self, s: &State, end: &Pos) -> State {
        let mut t = *s;
        t.set_pos(end);
        if end.me[OFF] == CHECKERS {
            self.end_game(&mut t);
        } else {
            self.pass_turn(&mut t);
        }
        t
    }

    pub(super) fn phase_error(&self, s: &State, text: &str) -> GameError {
        let why = match s.phase {
            Phase::Opening => "the opening roll is next: apply a chance outcome first",
            Phase::ToRoll => "a dice roll is next: apply a chance outcome first",
            Phase::Over => "the game is over",
            Phase::Move => "",
        };
        GameError::bad_move(text, why)
    }
}

impl Backgammon {
    /// perft with one reusable buffer of end positions per depth. A roll that
    /// leaves the player no move has one child, the pass.
    pub(super) fn perft_rec(&self, s: &State, depth: u32, bufs: &mut Vec<Vec<Pos>>, level: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        match s.phase {
            Phase::Over => 1,
            Phase::Opening | Phase::ToRoll => {
                let mut total = 0;
                for i in 0..36usize {
                    let (a, b) = ((i / 6) as u8 + 1, (i % 6) as u8 + 1);
                    let mut child = *s;
                    if s.phase == Phase::Opening {
                        if a == b {
                            continue;
                        }
                        self.start_game(&mut child, a, b);
                    } else {
                        if a < b {
                            continue;
                        }
                        if !self.set_roll(&mut child, a, b) {
                            // The only "move" is the pass to the opponent.
                            if depth == 1 {
                                total += 1;
                            } else {
                                let mut passed = *s;
                                self.pass_turn(&mut passed);
                                total += self.perft_rec(&passed, depth - 2, bufs, level + 1);
                            }
                            continue;
                        }
                    }
                    total += self.perft_rec(&child, depth - 1, bufs, level + 1);
                }
                total
            }
            Phase::Move => {
                if bufs.len() <= level {
                    bufs.resize_with(level + 1, Vec::new);
                }
                let mut ends = std::mem::take(&mut bufs[level]);
                distinct_ends(&s.pos(), s.left(), &mut ends);
                let total = if depth == 1 {
                    ends.len() as u64
                } else {
                    ends.iter().map(|end| self.perft_rec(&self.after_move(s, end), depth - 1, bufs, level + 1)).sum()
                };
                bufs[level] = ends;
                total
            }
        }
    }
}
