//! Backgammon (`backgammon`): standard rules as GNU Backgammon plays them,
//! with match play and sampled or explicit dice (spec: backgammon.md; docs:
//! docs/games/backgammon.md).
//!
//! A turn is one decision per die played (`source*6 + die-1`). The mask of
//! every decision is computed when the position or the dice change and kept
//! in the state as 150 bits, so `legal_mask`, `is_legal` and `apply` never
//! allocate. A player with no legal move passes automatically right after the
//! roll: no state ever waits for a decision that cannot be taken.

pub mod board;
pub mod eval;
pub mod movegen;
pub mod notation;
mod observe;
pub mod position;
mod text;
#[cfg(test)]
mod tests;

use crate::core::{Action, Applied, GameRng, Player, ToAct};
use crate::dynamic::DynGame;
use crate::error::{GameError, Result};
use crate::game::{GameSpec, Rules, Turn};
use crate::options::{OptKind, OptSpec, Options};
use crate::registry::{self, GameEntry};
use board::{in_play, CheckerMove, Pos, Side, BAR, CHECKERS, OFF, START};
use movegen::{distinct_ends, distinct_moves, for_each_complete, legal_mask, mask_has, mask_is_empty, Mask};
use position::{GameState, MatchId};
use rand::RngExt;
use std::sync::Arc;

pub use observe::OBS_LEN;

/// Size of the action space: 25 sources (bar, points 1..24) x 6 dice.
pub const NUM_ACTIONS: usize = 150;

const OPTIONS: &[OptSpec] = &[
    OptSpec {
        name: "match_length",
        kind: OptKind::Int { default: 1, min: 1, max: 64 },
        doc: "points to win the match; 1: a single game paying 1/2/3 (single/gammon/backgammon)",
    },
    OptSpec {
        name: "chance",
        kind: OptKind::Choice(&["sampled", "explicit"]),
        doc: "sampled: the environment rolls the dice; explicit: dice rolls are chance decisions (current_player -1)",
    },
];

pub static ENTRY: GameEntry = GameEntry {
    id: "backgammon",
    family: "backgammon",
    version: 1,
    summary: "Backgammon as GNU Backgammon plays it, single games or matches, no doubling cube",
    max_turns: 10_000,
    offers: false,
    options: OPTIONS,
    build,
};

fn build(entry: &'static GameEntry, options: Options) -> Result<Arc<dyn DynGame>> {
    registry::build_with(entry, options, |o| Ok(Backgammon::new(o.int("match_length") as u16, o.str("chance") == "explicit")))
}

/// Where a game stands (the Match ID game state, split by whether dice are rolled).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// "No game started": the opening roll is next (a chance node).
    Opening,
    /// The player on turn rolls next (a chance node; transient in sampled mode).
    ToRoll,
    /// The player on turn has dice to play.
    Move,
    /// The match (or single game) is over; the turn is with the loser.
    Over,
}

/// A backgammon position with its match context: small, `Copy`, no heap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Each player's checkers in its own numbering (see [`board`]).
    pub board: [Side; 2],
    pub phase: Phase,
    /// Player on roll (to roll at chance nodes; the loser once over).
    pub turn: Player,
    /// The roll, larger die first; `[0, 0]` when not rolled.
    pub roll: [u8; 2],
    left: [u8; 4],
    nleft: u8,
    mask: Mask,
    pub score: [u16; 2],
    pub match_length: u16,
    last_points: u8,
    last_winner: i8,
}

impl State {
    /// The board from the point of view of the player on turn.
    #[inline]
    pub fn pos(&self) -> Pos {
        Pos { me: self.board[self.turn.index()], opp: self.board[self.turn.other().index()] }
    }

    #[inline]
    fn set_pos(&mut self, p: &Pos) {
        self.board[self.turn.index()] = p.me;
        self.board[self.turn.other().index()] = p.opp;
    }

    /// Dice still to play this turn, larger first (empty unless [`Phase::Move`]).
    #[inline]
    pub fn left(&self) -> &[u8] {
        &self.left[..self.nleft as usize]
    }

    fn clear_dice(&mut self) {
        self.roll = [0, 0];
        self.left = [0; 4];
        self.nleft = 0;
        self.mask = [0; 3];
    }
}

/// Points the winner of a finished game scores: 1, 2 (gammon: the loser has
/// borne off none) or 3 (backgammon: and has a checker on the bar or in the
/// winner's home board).
pub fn game_points(board: &[Side; 2], winner: Player) -> u8 {
    let loser = &board[winner.other().index()];
    if loser[OFF] > 0 {
        1
    } else if loser[BAR] > 0 || loser[19..=24].iter().any(|&n| n > 0) {
        3
    } else {
        2
    }
}

/// The rules of one configured backgammon game.
pub struct Backgammon {
    spec: GameSpec,
    explicit: bool,
    match_length: u16,
    opening_mask: [bool; NUM_ACTIONS],
    roll_mask: [bool; NUM_ACTIONS],
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
    fn set_roll(&self, s: &mut State, a: u8, b: u8) -> bool {
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
    fn start_game(&self, s: &mut State, d0: u8, d1: u8) {
        s.turn = if d0 > d1 { Player::P0 } else { Player::P1 };
        let playable = self.set_roll(s, d0, d1);
        debug_assert!(playable, "every opening roll has a move");
    }

    /// The turn passes to the opponent, who rolls next.
    fn pass_turn(&self, s: &mut State) {
        s.turn = s.turn.other();
        s.phase = Phase::ToRoll;
        s.clear_dice();
    }

    /// The player on turn has borne off the last checker.
    fn end_game(&self, s: &mut State) {
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
    fn roll_sampled(&self, s: &mut State, rng: &mut GameRng) {
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

    fn phase_error(&self, s: &State, text: &str) -> GameError {
        let why = match s.phase {
            Phase::Opening => "the opening roll is next: apply a chance outcome first",
            Phase::ToRoll => "a dice roll is next: apply a chance outcome first",
            Phase::Over => "the game is over",
            Phase::Move => "",
        };
        GameError::bad_move(text, why)
    }
}

impl Rules for Backgammon {
    fn board_text(&self, s: &State) -> String {
        text::board_text(s)
    }

    type State = State;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self, rng: &mut GameRng) -> State {
        let mut s = self.opening_state([0, 0], self.match_length);
        if !self.explicit {
            self.roll_sampled(&mut s, rng);
        }
        s
    }

    #[inline]
    fn to_act(&self, s: &State) -> ToAct {
        match s.phase {
            Phase::Move => ToAct::Player(s.turn),
            Phase::Opening | Phase::ToRoll => ToAct::Chance,
            Phase::Over => ToAct::Terminal,
        }
    }

    fn legal_mask(&self, s: &State, mask: &mut [bool]) {
        match s.phase {
            Phase::Move => crate::core::bits_to_mask(&s.mask, mask),
            Phase::Opening => mask.copy_from_slice(&self.opening_mask),
            Phase::ToRoll => mask.copy_from_slice(&self.roll_mask),
            Phase::Over => mask.fill(false),
        }
    }

    #[inline]
    fn is_legal(&self, s: &State, a: Action) -> bool {
        let i = a.index();
        match s.phase {
            Phase::Move => mask_has(&s.mask, i),
            Phase::Opening => i < NUM_ACTIONS && self.opening_mask[i],
            Phase::ToRoll => i < NUM_ACTIONS && self.roll_mask[i],
            Phase::Over => false,
        }
    }

    fn apply(&self, s: &mut State, a: Action, rng: &mut GameRng) -> Applied {
        match s.phase {
            Phase::Opening => {
                self.start_game(s, (a.0 / 6) as u8 + 1, (a.0 % 6) as u8 + 1);
                Applied::MidTurn
            }
            Phase::ToRoll => {
                if !self.set_roll(s, (a.0 / 6) as u8 + 1, (a.0 % 6) as u8 + 1) {
                    // Forced pass (spec: moves): no decision is possible.
                    self.pass_turn(s);
                    if !self.explicit {
                        self.roll_sampled(s, rng);
                    }
                }
                Applied::MidTurn
            }
            Phase::Move => {
                let m = CheckerMove::from_action(a);
                let mut p = s.pos();
                p.play(m.from as usize, m.die as usize);
                s.set_pos(&p);
                let n = s.nleft as usize;
                let k = s.left[..n].iter().position(|&d| d == m.die).expect("the die of a legal action is left");
                s.left.copy_within(k + 1..n, k);
                s.nleft -= 1;
                s.left[s.nleft as usize] = 0;
                if p.me[OFF] == CHECKERS {
                    self.end_game(s);
                } else {
                    s.mask = legal_mask(&p, s.left());
                    if !mask_is_empty(&s.mask) {
                        return Applied::MidTurn;
                    }
                    self.pass_turn(s);
                }
                if !self.explicit && matches!(s.phase, Phase::Opening | Phase::ToRoll) {
                    self.roll_sampled(s, rng);
                }
                Applied::TurnOver
            }
            Phase::Over => Applied::TurnOver,
        }
    }

    fn returns(&self, s: &State) -> [f32; 2] {
        if s.phase != Phase::Over {
            return [0.0, 0.0];
        }
        let winner = s.turn.other();
        let v = if s.match_length == 1 { game_points(&s.board, winner) as f32 } else { 1.0 };
        if winner == Player::P0 {
            [v, -v]
        } else {
            [-v, v]
        }
    }

    fn observe(&self, s: &State, out: &mut [f32]) {
        observe::observe(s, out)
    }

    fn to_position(&self, s: &State) -> String {
        let first = &s.board[s.turn.other().index()];
        let second = &s.board[s.turn.index()];
        let state = match s.phase {
            Phase::Opening => GameState::NoGame,
            Phase::ToRoll | Phase::Move => GameState::Playing,
            Phase::Over => GameState::Over,
        };
        let m = MatchId { turn: s.turn as u8, state, dice: s.roll, match_length: s.match_length, score: s.score };
        let mut text = format!("{}:{}", position::position_id(first, second), position::match_id(&m));
        if s.phase == Phase::Move {
            let full = if s.roll[0] == s.roll[1] { 4 } else { 2 };
            if (s.nleft as usize) < full {
                // Mid-turn: the dice already played this turn.
                text.push(':');
                if s.roll[0] == s.roll[1] {
                    for _ in s.nleft..4 {
                        text.push((b'0' + s.roll[0]) as char);
                    }
                } else {
                    let used = if s.left[0] == s.roll[0] { s.roll[1] } else { s.roll[0] };
                    text.push((b'0' + used) as char);
                }
            }
        }
        text
    }

    fn from_position(&self, text: &str) -> Result<State> {
        parse_state(text.trim()).map_err(|message| GameError::position(text, message))
    }

    fn action_to_string(&self, s: &State, a: Action) -> String {
        let i = a.index();
        match s.phase {
            Phase::Opening if i < 36 && self.opening_mask[i] => {
                format!("opening P0 {} P1 {}", i / 6 + 1, i % 6 + 1)
            }
            Phase::ToRoll if i < 36 && self.roll_mask[i] => format!("roll {}-{}", i / 6 + 1, i % 6 + 1),
            Phase::Opening | Phase::ToRoll => format!("action {i} (not a dice outcome here)"),
            _ if i < NUM_ACTIONS => {
                // A bear-off by a larger die reads like the exact one (`2/off`):
                // name the die so that every action has its own name.
                let m = CheckerMove::from_action(a);
                let name = m.notation();
                if name.ends_with("/off") && (m.from as usize) < m.die as usize {
                    format!("{name}({})", m.die)
                } else {
                    name
                }
            }
            _ => format!("action {i} (out of range)"),
        }
    }

    fn notation(&self, s: &State, actions: &[Action]) -> String {
        match s.phase {
            Phase::Move => {
                let moves: Vec<CheckerMove> = actions.iter().map(|&a| CheckerMove::from_action(a)).collect();
                notation::write_moves(&moves)
            }
            _ => actions.iter().map(|&a| self.action_to_string(s, a)).collect::<Vec<_>>().join(" "),
        }
    }

    fn piece_counts(&self, s: &State) -> [u32; 2] {
        // Checkers not borne off, plus (in a longer match) 15 for every game the
        // match may still need after this one, so that the count never grows
        // when a new game sets the checkers up again.
        let spare = if s.match_length > 1 {
            let used = (s.score[0] + s.score[1]) as u32;
            15 * (2 * s.match_length as u32 - 2).saturating_sub(used)
        } else {
            0
        };
        [in_play(&s.board[0]) + spare, in_play(&s.board[1]) + spare]
    }

    fn turns(&self, s: &State) -> Vec<Turn<State>> {
        if s.phase != Phase::Move {
            return Vec::new();
        }
        distinct_moves(&s.pos(), s.left())
            .into_iter()
            .map(|(end, moves)| Turn {
                actions: moves.iter().map(|m| m.action()).collect(),
                notation: notation::write_moves(&moves),
                state: self.after_move(s, &end),
            })
            .collect()
    }

    fn next_states(&self, s: &State, out: &mut Vec<State>) {
        if s.phase == Phase::Move {
            let mut ends = Vec::new();
            distinct_ends(&s.pos(), s.left(), &mut ends);
            out.extend(ends.iter().map(|end| self.after_move(s, end)));
        }
    }

    fn heuristic(&self, s: &State, player: Player) -> f32 {
        eval::heuristic(s, player)
    }

    fn explicit_chance(&self) -> Option<Backgammon> {
        Some(Backgammon::new(self.match_length, true))
    }

    fn parse_turn(&self, s: &State, text: &str) -> Result<Vec<Action>> {
        if s.phase != Phase::Move {
            return Err(self.phase_error(s, text));
        }
        let tokens = notation::parse_move(text).map_err(|m| GameError::bad_move(text, m))?;
        let legal = || self.turns(s).into_iter().map(|t| t.notation).collect::<Vec<_>>().join(", ");
        if tokens.is_empty() {
            return Err(GameError::bad_move(
                text,
                format!("'pass' is only a move when no die can be played, and such turns pass automatically; legal moves: {}", legal()),
            ));
        }
        let mut found = None;
        let mut length = 0;
        for_each_complete(&s.pos(), s.left(), &mut |_, moves| {
            length = moves.len();
            if found.is_none() && moves.len() == tokens.len() {
                let mut mine: Vec<_> = moves.iter().map(|&m| notation::token(m)).collect();
                mine.sort_unstable();
                if mine == tokens {
                    found = Some(moves.iter().map(|m| m.action()).collect::<Vec<_>>());
                }
            }
        });
        found.ok_or_else(|| {
            let count = if tokens.len() != length {
                format!(" (this roll plays {length} dice: one token per die, got {})", tokens.len())
            } else {
                String::new()
            };
            GameError::bad_move(text, format!("not a legal move here{count}; legal moves: {}", legal()))
        })
    }

    fn perft(&self, s: &State, depth: u32) -> u64 {
        let mut bufs = Vec::new();
        self.perft_rec(s, depth, &mut bufs, 0)
    }

    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        let mut out = Vec::new();
        match s.phase {
            Phase::Opening => {
                for i in 0..36 {
                    if self.opening_mask[i] {
                        out.push((Action(i as u32), 1.0 / 30.0));
                    }
                }
            }
            Phase::ToRoll => {
                for i in 0..36 {
                    if self.roll_mask[i] {
                        out.push((Action(i as u32), if i / 6 == i % 6 { 1.0 / 36.0 } else { 2.0 / 36.0 }));
                    }
                }
            }
            _ => {}
        }
        out
    }

    fn write_info(&self, s: &State, out: &mut [i32]) {
        out[0] = s.score[0] as i32;
        out[1] = s.score[1] as i32;
        out[2] = s.match_length as i32;
        out[3] = s.last_points as i32;
        out[4] = s.last_winner as i32;
        out[5] = s.roll[0] as i32;
        out[6] = s.roll[1] as i32;
        out[7] = s.nleft as i32;
    }
}

impl Backgammon {
    /// perft with one reusable buffer of end positions per depth. A roll that
    /// leaves the player no move has one child, the pass.
    fn perft_rec(&self, s: &State, depth: u32, bufs: &mut Vec<Vec<Pos>>, level: usize) -> u64 {
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

/// Parses `<position id>:<match id>[:<dice played>]` (docs: position string).
fn parse_state(text: &str) -> std::result::Result<State, String> {
    let fields: Vec<&str> = text.split(':').collect();
    if !(2..=3).contains(&fields.len()) {
        return Err(format!(
            "expected '<position id>:<match id>' (14 and 12 Base64 characters), optionally ':<dice already played>', got {} field(s)",
            fields.len()
        ));
    }
    let [not_on_turn, on_turn] = position::parse_position_id(fields[0])?;
    let m = position::parse_match_id(fields[1])?;
    let turn = Player::from_index(m.turn as usize);
    let mut board = [[0u8; 26]; 2];
    board[turn.index()] = on_turn;
    board[turn.other().index()] = not_on_turn;
    for q in 1..=24 {
        if board[0][q] > 0 && board[1][25 - q] > 0 {
            return Err(format!(
                "both players have checkers on one point (player 0's point {q}, player 1's point {})",
                25 - q
            ));
        }
    }
    let rules = Backgammon::new(m.match_length, true);
    let mut s = rules.opening_state(m.score, m.match_length);
    s.board = board;
    s.turn = turn;
    let n = m.match_length;
    if fields.len() == 3 && !(m.state == GameState::Playing && m.dice[0] != 0) {
        return Err("the third field (dice already played) needs a game in play with dice rolled".into());
    }
    match m.state {
        GameState::NoGame => {
            if m.dice != [0, 0] {
                return Err("'no game started' (000) with dice: the opening roll is not made yet, dice must be 0 0".into());
            }
            if board != [START; 2] {
                return Err("'no game started' (000) needs the starting position (2 on 24, 5 on 13, 3 on 8, 5 on 6)".into());
            }
            s.turn = Player::P0;
            check_scores_below(&m.score, n)?;
        }
        GameState::Playing => {
            check_scores_below(&m.score, n)?;
            for p in Player::BOTH {
                if board[p.index()][OFF] == CHECKERS {
                    return Err(format!(
                        "player {} has borne off all 15 checkers but the game is in play (expected game state 010)",
                        p.index()
                    ));
                }
            }
            let closed = |p: Player| {
                let opp = &board[p.other().index()];
                board[p.index()][BAR] > 0 && (1..=6).all(|q| opp[q] >= 2)
            };
            if closed(Player::P0) && closed(Player::P1) {
                return Err("both players have checkers on the bar against a closed board: no roll could ever move".into());
            }
            if m.dice == [0, 0] {
                s.phase = Phase::ToRoll;
            } else {
                let (a, b) = (m.dice[0], m.dice[1]);
                if !rules.set_roll(&mut s, a, b) && fields.len() == 2 {
                    return Err(format!(
                        "player {} has no legal move with {}-{}: a player who cannot move passes automatically, so write the position with the opponent to roll (dice 0 0)",
                        turn.index(),
                        s.roll[0],
                        s.roll[1]
                    ));
                }
                if fields.len() == 3 {
                    apply_played(&mut s, fields[2])?;
                }
            }
        }
        GameState::Over => {
            if m.dice != [0, 0] {
                return Err("'game over' (010) with dice: dice must be 0 0".into());
            }
            let winner = turn.other();
            if board[winner.index()][OFF] != CHECKERS {
                return Err(format!(
                    "'game over' (010): the winner (player {}, not on turn) must have borne off all 15 checkers",
                    winner.index()
                ));
            }
            if board[turn.index()][OFF] == CHECKERS {
                return Err("'game over' (010): both players have borne off all 15 checkers".into());
            }
            if m.score[winner.index()] < n {
                return Err(format!(
                    "'game over' (010) with the winner's score {} below the match length {n}: between games of a match the position is 'no game started' (000)",
                    m.score[winner.index()]
                ));
            }
            s.phase = Phase::Over;
            s.last_points = game_points(&board, winner);
            s.last_winner = winner as i8;
        }
    }
    Ok(s)
}

fn check_scores_below(score: &[u16; 2], n: u16) -> std::result::Result<(), String> {
    for (p, &sc) in score.iter().enumerate() {
        if sc >= n {
            return Err(format!("player {p}'s score {sc} already reaches the match length {n} but the match is not over"));
        }
    }
    Ok(())
}

/// Applies the third field: the dice already played this turn.
fn apply_played(s: &mut State, field: &str) -> std::result::Result<(), String> {
    let roll = s.roll;
    let used: Vec<u8> = field
        .bytes()
        .map(|c| if (b'1'..=b'6').contains(&c) { Ok(c - b'0') } else { Err(format!("dice already played {field:?}: expected digits 1..6")) })
        .collect::<std::result::Result<_, _>>()?;
    let full = if roll[0] == roll[1] { 4 } else { 2 };
    if used.is_empty() || used.len() >= full {
        return Err(format!("dice already played {field:?}: expected 1 to {} dice of the roll {}-{}", full - 1, roll[0], roll[1]));
    }
    if roll[0] == roll[1] {
        if used.iter().any(|&d| d != roll[0]) {
            return Err(format!("dice already played {field:?} are not all {} (roll {}-{})", roll[0], roll[0], roll[1]));
        }
        s.nleft = (4 - used.len()) as u8;
        s.left = [roll[0]; 4];
        for k in s.nleft as usize..4 {
            s.left[k] = 0;
        }
    } else {
        let d = used[0];
        let other = if d == roll[0] {
            roll[1]
        } else if d == roll[1] {
            roll[0]
        } else {
            return Err(format!("die {d} already played is not one of the roll {}-{}", roll[0], roll[1]));
        };
        s.left = [other, 0, 0, 0];
        s.nleft = 1;
    }
    s.mask = legal_mask(&s.pos(), s.left());
    if mask_is_empty(&s.mask) {
        return Err(format!(
            "none of the dice left ({:?}) can be played: the turn would already be over (write the position with the opponent to roll)",
            s.left()
        ));
    }
    Ok(())
}
