//! The engine: dice, turns, the end of a game and of the match
//! ([`Backgammon`]), and perft over distinct end positions.

use super::board::{OpenPoint, Pos, Variant, CHECKERS, NUM_ACTIONS, OFF, START};
use super::movegen::{distinct_ends_in, legal_mask_in, mask_is_empty, shuts_out};
use super::observe::{CUBE_OBS, OBS_LEN};
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
    /// Option `cube`: the doubling cube is in play.
    pub(super) cube: bool,
    /// Option `jacoby` (money play): gammons count only once the cube was turned.
    pub(super) jacoby: bool,
    /// Option `beavers` (money play): the taker may beaver (redouble at once, keeping the cube).
    pub(super) beavers: bool,
    /// Option `rules="reglamento"`: the seed's rule set (docs: the reglamento).
    pub(super) reglamento: bool,
    /// The movement rules: [`Variant::STANDARD`], or the reglamento as
    /// options `enter_own_point`, `bear_off` and `open_point` read it.
    pub(super) variant: Variant,
    /// A loser's checker on the bar makes a backgammon (all but the
    /// reglamento's `bar_backgammon=False`).
    pub(super) bar_backgammon: bool,
    /// Option `reward`: what the end of a game returns.
    pub(super) reward: Reward,
    pub(super) opening_mask: [bool; NUM_ACTIONS],
    pub(super) roll_mask: [bool; NUM_ACTIONS],
}

/// Option `reward`: what a terminal state returns (docs: rewards).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reward {
    /// The points of a single game or money game; ±1 at the end of a longer match.
    Points,
    /// ±1 at the end of the match (a single game too).
    Match,
    /// Every game of a match ends the episode, paying the change in the
    /// chance of winning the match (Kazaross-XG2 table).
    Equity,
}

/// Cube actions (option `cube` only): roll without doubling, double, take, drop.
pub const ROLL: usize = NUM_ACTIONS;
pub const DOUBLE: usize = NUM_ACTIONS + 1;
pub const TAKE: usize = NUM_ACTIONS + 2;
pub const DROP: usize = NUM_ACTIONS + 3;
/// Size of the action space with the cube.
pub const CUBE_NUM_ACTIONS: usize = NUM_ACTIONS + 4;
/// Option `beavers`: take and redouble at once, keeping the cube (money play).
pub const BEAVER: usize = NUM_ACTIONS + 4;
/// Largest cube (gnubg's limit, 2^12).
pub const MAX_CUBE_LOG2: u8 = 12;

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

/// `info` keys with the cube option: the plain game's, then the cube's.
const CUBE_INFO_FIELDS: [&str; 11] = [
    "score_p0",
    "score_p1",
    "match_length",
    "last_game_points",
    "last_game_winner",
    "die1",
    "die2",
    "dice_left",
    "cube_value",
    "cube_owner",
    "crawford",
];
/// `info` keys without the cube.
const INFO_FIELDS: &[&str] = CUBE_INFO_FIELDS.split_at(8).0;

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
                info_fields: INFO_FIELDS,
                // The raw match score and length: 15 bits of the match id, below 2**15.
                observation_high: 32768.0,
            },
            explicit,
            match_length,
            cube: false,
            jacoby: false,
            beavers: false,
            reglamento: false,
            variant: Variant::STANDARD,
            bar_backgammon: true,
            reward: Reward::Points,
            opening_mask,
            roll_mask,
        }
    }

    /// The same rules with the doubling cube (and, in money play, the Jacoby rule).
    pub fn with_cube(mut self, cube: bool, jacoby: bool) -> Backgammon {
        self.cube = cube;
        self.jacoby = jacoby;
        if cube {
            self.spec.num_actions = CUBE_NUM_ACTIONS;
            self.spec.observation_shape = vec![OBS_LEN + CUBE_OBS];
            self.spec.info_fields = &CUBE_INFO_FIELDS;
        }
        self
    }

    /// The same rules with beavers (money play with the cube): one more action.
    pub fn with_beavers(mut self, beavers: bool) -> Backgammon {
        self.beavers = beavers;
        if beavers {
            self.spec.num_actions = CUBE_NUM_ACTIONS + 1;
        }
        self
    }

    /// The same rules with the seed's rule set (`reglamento`, its default
    /// readings) and a choice of rewards.
    pub fn with_variant(mut self, reglamento: bool, reward: Reward) -> Backgammon {
        self.reglamento = reglamento;
        self.variant = if reglamento { Variant::REGLAMENTO } else { Variant::STANDARD };
        self.bar_backgammon = true;
        self.reward = reward;
        self
    }

    /// The same rules with the reglamento read as `variant` says (options
    /// `enter_own_point`, `bear_off`, `open_point`) and `bar_backgammon`.
    pub fn with_readings(mut self, variant: Variant, bar_backgammon: bool) -> Backgammon {
        self.reglamento = variant.reglamento();
        self.variant = variant;
        self.bar_backgammon = bar_backgammon;
        self
    }

    /// Whether the obligation to open a point of `open_point="next_turn"`
    /// binds the turn about to be played from `s` (the opponent is shut out now).
    #[inline]
    fn obliged_now(&self, s: &State) -> bool {
        self.variant.open_point == OpenPoint::NextTurn && shuts_out(self.variant, &s.pos())
    }

    /// The mask of the decision in `s` (position, dice left, the turn's obligation).
    #[inline]
    pub(super) fn mask_of(&self, s: &State) -> super::movegen::Mask {
        legal_mask_in(self.variant, s.obliged, &s.pos(), s.left())
    }

    /// Whether the player on turn may double now: the cube is in play,
    /// centred or theirs, not the Crawford game, below gnubg's largest cube,
    /// and in a match below the doubler's away score (gnubg refuses a double
    /// when the doubler's cube already wins the match: the cube is dead; so
    /// never in a 1-point match).
    pub fn may_double(&self, s: &State) -> bool {
        self.cube
            && !s.crawford
            && (s.match_length == 0 || s.cube_value() < s.match_length.saturating_sub(s.score[s.turn.index()]) as u32)
            && (s.owner < 0 || s.owner == s.turn as i8)
            && s.cube < MAX_CUBE_LOG2
    }

    /// Reward "equity": what the game that ended in `s` gained its winner in
    /// the chance of winning the match, through the Kazaross-XG2 table. The
    /// score before the game is the score less the points just won; the
    /// table's post-Crawford entries apply to games after the Crawford game,
    /// and without the cube (no Crawford rule) never (docs: rewards).
    pub fn equity_gain(&self, s: &State, winner: Player) -> f64 {
        let n = s.match_length as i32;
        let w = winner.index();
        let mut before = s.score;
        before[w] = before[w].saturating_sub(s.last_points);
        let near = |sc: [u16; 2]| sc.iter().any(|&x| x as i32 + 1 == n);
        let post_before = self.cube && !s.crawford && near(before);
        let next_crawford = self.cube && !s.crawford && !post_before && near(s.score);
        let post_after = self.cube && near(s.score) && !next_crawford;
        let met = super::met::kazaross_xg2();
        let chance = |sc: [u16; 2], post: bool| met.equity(n - sc[w] as i32, n - sc[1 - w] as i32, post);
        chance(s.score, post_after) - chance(before, post_before)
    }

    /// Points the winner of a game ended by bearing off scores: 1/2/3 times
    /// the cube; with the Jacoby rule a centred cube counts gammons as 1.
    pub fn points(&self, s: &State, winner: Player) -> u16 {
        let base = if self.jacoby && s.match_length == 0 && s.owner < 0 {
            1
        } else {
            game_points(&s.board, winner, self.bar_backgammon)
        };
        base as u16 * s.cube_value() as u16
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
            cube: 0,
            owner: -1,
            crawford: false,
            obliged: false,
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
        s.obliged = self.obliged_now(s);
        s.mask = self.mask_of(s);
        !mask_is_empty(&s.mask)
    }

    /// Opening roll: player 0 rolled `d0`, player 1 `d1` (different); the
    /// higher die moves first with both dice. Reglamento: the higher die
    /// only decides who starts; the starter rolls again (no double first).
    pub(super) fn start_game(&self, s: &mut State, d0: u8, d1: u8) {
        s.turn = if d0 > d1 { Player::P0 } else { Player::P1 };
        if self.reglamento {
            s.phase = Phase::ToRoll;
            return;
        }
        let playable = self.set_roll(s, d0, d1);
        debug_assert!(playable, "every opening roll has a move");
    }

    /// The turn passes to the opponent, who rolls next (or first decides
    /// whether to double, option `cube`).
    pub(super) fn pass_turn(&self, s: &mut State) {
        s.turn = s.turn.other();
        s.clear_dice();
        s.phase = if self.may_double(s) { Phase::Cube } else { Phase::ToRoll };
    }

    /// The player on turn has borne off the last checker.
    pub(super) fn end_game(&self, s: &mut State) {
        let points = self.points(s, s.turn);
        self.finish_game(s, s.turn, points);
    }

    /// `winner` scores `points` (a bear-off, or a dropped double).
    pub(super) fn finish_game(&self, s: &mut State, winner: Player, points: u16) {
        let before = s.score;
        s.score[winner.index()] += points;
        s.last_points = points;
        s.last_winner = winner as i8;
        s.clear_dice();
        if s.score[winner.index()] >= s.match_length || self.reward == Reward::Equity {
            // Spec: "game over" (010), board as left, turn to the loser; with
            // reward "equity" every game of a match ends the episode.
            s.phase = Phase::Over;
            s.turn = winner.other();
        } else {
            let (last_points, last_winner) = (s.last_points, s.last_winner);
            let n = s.match_length;
            // The Crawford game is the game right after a player first reaches
            // match point minus one; the games after it are post-Crawford.
            let was_post = !s.crawford && before.iter().any(|&x| x + 1 == n);
            let crawford = self.cube && !s.crawford && !was_post && s.score.iter().any(|&x| x + 1 == n);
            *s = self.opening_state(s.score, s.match_length);
            s.last_points = last_points;
            s.last_winner = last_winner;
            s.crawford = crawford;
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
            if s.phase != Phase::ToRoll {
                return;
            }
        }
        // A position where no roll lets either side move is rejected when
        // parsed and unreachable in play; the bound only guards the loop.
        for _ in 0..100_000 {
            if s.phase != Phase::ToRoll {
                // A forced pass handed the opponent a cube decision.
                return;
            }
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

    /// Whether `a` is a legal cube action in `s`.
    #[inline]
    pub fn cube_legal(&self, s: &State, a: usize) -> bool {
        match s.phase {
            Phase::Cube => a == ROLL || a == DOUBLE,
            // A beaver doubles the doubled cube: it must stay within gnubg's largest cube.
            Phase::Doubled => a == TAKE || a == DROP || (a == BEAVER && self.beavers && s.cube + 2 <= MAX_CUBE_LOG2),
            _ => false,
        }
    }

    /// Applies a legal cube action (no dice are rolled here).
    pub(super) fn cube_action(&self, s: &mut State, a: usize) {
        match a {
            ROLL => s.phase = Phase::ToRoll,
            DOUBLE => s.phase = Phase::Doubled,
            TAKE => {
                s.cube += 1;
                s.owner = s.turn.other() as i8;
                s.phase = Phase::ToRoll;
            }
            BEAVER => {
                // Taken and redoubled at once: the taker keeps the cube, the doubler rolls.
                s.cube += 2;
                s.owner = s.turn.other() as i8;
                s.phase = Phase::ToRoll;
            }
            _ => {
                // Dropped: the doubler wins the value of the cube before the double.
                let points = s.cube_value() as u16;
                self.finish_game(s, s.turn, points);
            }
        }
    }

    pub(super) fn phase_error(&self, s: &State, text: &str) -> GameError {
        let why = match s.phase {
            Phase::Opening => "the opening roll is next: apply a chance outcome first",
            Phase::Cube => "a cube decision is next: 'roll' or 'double'",
            Phase::Doubled => "a double is offered: 'take' or 'drop'",
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
            Phase::Cube => [ROLL, DOUBLE]
                .iter()
                .map(|&a| {
                    let mut child = *s;
                    self.cube_action(&mut child, a);
                    self.perft_rec(&child, depth - 1, bufs, level + 1)
                })
                .sum(),
            Phase::Doubled => [TAKE, DROP, BEAVER]
                .iter()
                .filter(|&&a| self.cube_legal(s, a))
                .map(|&a| {
                    let mut child = *s;
                    self.cube_action(&mut child, a);
                    self.perft_rec(&child, depth - 1, bufs, level + 1)
                })
                .sum(),
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
                distinct_ends_in(self.variant, s.obliged, &s.pos(), s.left(), &mut ends);
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
