//! Backgammon (`backgammon`): standard rules as GNU Backgammon plays them,
//! with match play, the optional doubling cube (`cube=True`) and sampled or explicit dice (spec: backgammon.md; docs:
//! docs/games/backgammon.md).
//!
//! A turn is one decision per die played (`source*6 + die-1`). The mask of
//! every decision is computed when the position or the dice change and kept
//! in the state as 150 bits, so `legal_mask`, `is_legal` and `apply` never
//! allocate. A player with no legal move passes automatically right after the
//! roll: no state ever waits for a decision that cannot be taken.

pub mod board;
mod compact;
#[cfg(test)]
mod cube_tests;
pub mod eval;
pub mod met;
pub mod movegen;
pub mod notation;
mod observe;
pub mod position;
pub mod rules;
pub mod state;
#[cfg(test)]
mod tests;
mod text;
#[cfg(test)]
mod variant_tests;
mod view;

use crate::core::{Action, Applied, GameRng, Player, ToAct};
use crate::dynamic::DynGame;
use crate::dynamic::{build_with, GameEntry};
use crate::error::{GameError, Result};
use crate::game::{GameSpec, LegalOut, Rules, Turn};
use crate::options::{OptKind, OptSpec, Options};
use board::{in_play, BearOff, CheckerMove, Enter, OpenPoint, Variant, CHECKERS, OFF};
use movegen::{distinct_ends_in, distinct_moves_in, for_each_complete_in, mask_has, mask_is_empty};
use std::sync::Arc;

pub use board::NUM_ACTIONS;
pub use observe::{CUBE_OBS, OBS_LEN};
pub use rules::{opening_action, roll_action, Backgammon, Reward, BEAVER, CUBE_NUM_ACTIONS, DOUBLE, DROP, ROLL, TAKE};

/// The notation of a cube action.
fn cube_word(a: usize) -> &'static str {
    match a {
        ROLL => "roll",
        DOUBLE => "double",
        TAKE => "take",
        BEAVER => "beaver",
        _ => "drop",
    }
}
pub use state::{game_points, Phase, State};

const OPTIONS: &[OptSpec] = &[
    OptSpec {
        name: "match_length",
        kind: OptKind::Int { default: 1, min: 0, max: 64 },
        doc: "points to win the match; 1: a single game paying 1/2/3 (single/gammon/backgammon); 0: a money game (needs cube=True)",
    },
    OptSpec {
        name: "cube",
        kind: OptKind::Bool(false),
        doc: "the doubling cube: roll/double before rolling, take/drop a double; the cube multiplies the points; Crawford rule in matches",
    },
    OptSpec {
        name: "jacoby",
        kind: OptKind::Bool(false),
        doc: "money game (match_length=0) only: gammons and backgammons count 1 unless the cube was turned",
    },
    OptSpec {
        name: "beavers",
        kind: OptKind::Bool(false),
        doc: "money game (match_length=0, cube=True) only: the taker of a double may beaver (redouble at once, keeping the cube)",
    },
    OptSpec {
        name: "rules",
        kind: OptKind::Choice(&["standard", "reglamento"]),
        doc: "standard: as GNU Backgammon; reglamento: the seed's rule set (opening roll only picks the starter, entry only on points without opposing checkers, the opponent obliged to open a point, bearing off without the exact number), read as the next four options say",
    },
    OptSpec {
        name: "bear_off",
        kind: OptKind::Choice(&["at_least", "one_point"]),
        doc: "rules='reglamento' only: at_least: with all checkers home, any die at least a checker's distance bears it off, whatever stands higher; one_point: the standard bear-off, and a checker on the 1-point with any die",
    },
    OptSpec {
        name: "open_point",
        kind: OptKind::Choice(&["next_turn", "avoid_closing"]),
        doc: "rules='reglamento' only: next_turn: a player who starts a turn with the opponent on the bar and no entry point open to it must end the turn with one open, when a legal turn does; avoid_closing: no turn may end with the opponent so shut out while another legal turn avoids it",
    },
    OptSpec {
        name: "enter_own_point",
        kind: OptKind::Bool(true),
        doc: "rules='reglamento' only: a checker may enter from the bar on a point its own side holds (False: on empty points only)",
    },
    OptSpec {
        name: "bar_backgammon",
        kind: OptKind::Bool(true),
        doc: "rules='reglamento' only: a loser's checker on the bar counts for a backgammon (False: only checkers in the winner's home board)",
    },
    OptSpec {
        name: "reward",
        kind: OptKind::Choice(&["points", "match", "equity"]),
        doc: "points: the game's points (single or money game), ±1 at the end of a longer match; match: ±1 at the end of the match; equity: every game of a match ends the episode, paying the change in match-winning chance (Kazaross-XG2 table)",
    },
    OptSpec {
        name: "chance",
        kind: OptKind::Choice(&["sampled", "explicit"]),
        doc: "sampled: the environment rolls the dice; explicit: dice rolls are chance decisions (current_player -1)",
    },
];

/// The options that choose a reading of one of the reglamento's sentences.
const READINGS: [&str; 4] = ["bear_off", "open_point", "enter_own_point", "bar_backgammon"];

pub static ENTRY: GameEntry = GameEntry {
    id: "backgammon",
    family: "backgammon",
    version: 2,
    summary: "Backgammon as GNU Backgammon plays it, single games or matches, optional doubling cube",
    max_turns: 10_000,
    offers: false,
    options: OPTIONS,
    build,
};

fn build(entry: &'static GameEntry, options: Options) -> Result<Arc<dyn DynGame>> {
    build_with(entry, options, |o| {
        let (n, cube, jacoby) = (o.int("match_length") as u16, o.bool("cube"), o.bool("jacoby"));
        let bad = |name: &str, message: &str| GameError::BadOption {
            game: entry.id.to_string(),
            name: name.to_string(),
            message: message.to_string(),
        };
        if n == 0 && !cube {
            return Err(bad("match_length", "0 (a money game) needs the doubling cube (cube=True); a single game without the cube is match_length=1"));
        }
        if jacoby && n != 0 {
            return Err(bad("jacoby", "the Jacoby rule is for money games only: set match_length=0 and cube=True"));
        }
        let beavers = o.bool("beavers");
        if beavers && !(cube && n == 0) {
            return Err(bad("beavers", "beavers are for money games only: set match_length=0 and cube=True"));
        }
        let reward = match o.str("reward") {
            "match" => Reward::Match,
            "equity" => Reward::Equity,
            _ => Reward::Points,
        };
        if reward != Reward::Points && n == 0 {
            return Err(bad(
                "reward",
                "a money game (match_length=0) has no match: its reward is the points (reward='points')",
            ));
        }
        if reward == Reward::Equity && n > met::kazaross_xg2().length {
            let met_length = met::kazaross_xg2().length;
            return Err(bad("reward", &format!("'equity' uses the Kazaross-XG2 table, which covers matches up to {met_length} points; got match_length={n}")));
        }
        let reglamento = o.str("rules") == "reglamento";
        let variant = Variant {
            enter: if o.bool("enter_own_point") { Enter::Open } else { Enter::Empty },
            bear_off: if o.str("bear_off") == "one_point" { BearOff::OnePoint } else { BearOff::AtLeast },
            open_point: if o.str("open_point") == "avoid_closing" {
                OpenPoint::AvoidClosing
            } else {
                OpenPoint::NextTurn
            },
        };
        if !reglamento {
            // The readings of the seed's sentences have no meaning in GNU
            // Backgammon's game: only their defaults are accepted there.
            for spec in OPTIONS.iter().filter(|s| READINGS.contains(&s.name)) {
                if o.get(spec.name) != Some(&spec.default_value()) {
                    let values = match spec.kind {
                        OptKind::Choice(words) => words.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(", "),
                        _ => "True, False".to_string(),
                    };
                    return Err(bad(
                        spec.name,
                        &format!(
                            "a reading of the seed's rule set ({values}): it needs rules='reglamento'; got {}",
                            o.get(spec.name).expect("declared")
                        ),
                    ));
                }
            }
        }
        let rules = Backgammon::new(n, o.str("chance") == "explicit")
            .with_cube(cube, jacoby)
            .with_beavers(beavers)
            .with_variant(reglamento, reward);
        Ok(if reglamento { rules.with_readings(variant, o.bool("bar_backgammon")) } else { rules })
    })
}

impl Rules for Backgammon {
    fn board_text(&self, s: &State) -> String {
        text::board_text(s, self.cube)
    }

    fn board_view(&self, s: &State) -> Option<crate::game::BoardView> {
        Some(view::board_view(s))
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
            Phase::Move | Phase::Cube => ToAct::Player(s.turn),
            Phase::Doubled => ToAct::Player(s.turn.other()),
            Phase::Opening | Phase::ToRoll => ToAct::Chance,
            Phase::Over => ToAct::Terminal,
        }
    }

    fn legal_out(&self, s: &State, out: &mut LegalOut<'_>) {
        if s.phase == Phase::Move && !self.cube {
            // The state keeps the mask of a move as bits: a few actions
            // added one by one cost less than spreading 150 bools.
            out.clear();
            for (w, &word) in s.mask.iter().enumerate() {
                for b in crate::bits::SetBits(word) {
                    out.add(64 * w + b);
                }
            }
            return;
        }
        self.legal_mask(s, out.mask);
        crate::bits::pack_mask(out.mask, out.bits);
        out.count_from_bits();
    }

    fn legal_mask(&self, s: &State, mask: &mut [bool]) {
        match s.phase {
            Phase::Move => crate::bits::bits_to_mask(&s.mask, mask),
            Phase::Opening => mask[..NUM_ACTIONS].copy_from_slice(&self.opening_mask),
            Phase::ToRoll => mask[..NUM_ACTIONS].copy_from_slice(&self.roll_mask),
            Phase::Over | Phase::Cube | Phase::Doubled => mask.fill(false),
        }
        if self.cube {
            for (a, m) in mask.iter_mut().enumerate().skip(NUM_ACTIONS) {
                *m = self.cube_legal(s, a);
            }
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
            Phase::Cube | Phase::Doubled => self.cube_legal(s, i),
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
                    s.mask = self.mask_of(s);
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
            Phase::Cube | Phase::Doubled => {
                self.cube_action(s, a.index());
                if !self.explicit && matches!(s.phase, Phase::Opening | Phase::ToRoll) {
                    self.roll_sampled(s, rng);
                }
                // Every cube decision is a turn of its own (docs: max_turns).
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
        let v = match self.reward {
            Reward::Points if s.match_length <= 1 => s.last_points as f32,
            Reward::Points | Reward::Match => 1.0,
            Reward::Equity => self.equity_gain(s, winner) as f32,
        };
        if winner == Player::P0 {
            [v, -v]
        } else {
            [-v, v]
        }
    }

    fn observe(&self, s: &State, out: &mut [f32]) {
        observe::observe(s, out)
    }

    fn compact_planes(&self) -> Vec<(usize, crate::game::PlaneCode)> {
        observe::compact_planes(self.spec.observation_shape[0])
    }

    fn observe_packed(&self, s: &State, _layout: &crate::game::ObsLayout, out: &mut [u8]) {
        observe::observe_packed(s, self.cube, out)
    }

    fn to_position(&self, s: &State) -> String {
        position::write(s, self)
    }

    fn from_position(&self, text: &str) -> Result<State> {
        position::parse(text.trim(), self).map_err(|message| GameError::position(text, message))
    }

    fn action_to_string(&self, s: &State, a: Action) -> String {
        let i = a.index();
        match s.phase {
            Phase::Opening if i < 36 && self.opening_mask[i] => {
                format!("opening P0 {} P1 {}", i / 6 + 1, i % 6 + 1)
            }
            Phase::ToRoll if i < 36 && self.roll_mask[i] => format!("roll {}-{}", i / 6 + 1, i % 6 + 1),
            Phase::Opening | Phase::ToRoll => format!("action {i} (not a dice outcome here)"),
            _ if self.cube && (NUM_ACTIONS..self.spec.num_actions).contains(&i) => cube_word(i).to_string(),
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
        if matches!(s.phase, Phase::Cube | Phase::Doubled) {
            return (NUM_ACTIONS..self.spec.num_actions)
                .filter(|&a| self.cube_legal(s, a))
                .map(|a| {
                    let mut state = *s;
                    self.cube_action(&mut state, a);
                    Turn { actions: vec![Action(a as u32)], notation: cube_word(a).to_string(), state }
                })
                .collect();
        }
        if s.phase != Phase::Move {
            return Vec::new();
        }
        distinct_moves_in(self.variant, s.obliged, &s.pos(), s.left())
            .into_iter()
            .map(|(end, moves)| Turn {
                actions: moves.iter().map(|m| m.action()).collect(),
                notation: notation::write_moves(&moves),
                state: self.after_move(s, &end),
            })
            .collect()
    }

    fn next_states(&self, s: &State, out: &mut Vec<State>) {
        if matches!(s.phase, Phase::Cube | Phase::Doubled) {
            out.extend(self.turns(s).into_iter().map(|t| t.state));
        } else if s.phase == Phase::Move {
            let mut ends = Vec::new();
            distinct_ends_in(self.variant, s.obliged, &s.pos(), s.left(), &mut ends);
            out.extend(ends.iter().map(|end| self.after_move(s, end)));
        }
    }

    fn max_return(&self) -> f32 {
        match self.reward {
            // A match won is the most there is.
            Reward::Match => 1.0,
            // A single or money game pays the cube times 1, 2 or 3, and the
            // cube may still be turned: no win now bounds a later one.
            Reward::Points | Reward::Equity => f32::INFINITY,
        }
    }

    fn heuristic(&self, s: &State, player: Player) -> f32 {
        eval::heuristic_in(s, player, self.variant.bear_off)
    }

    fn explicit_chance(&self) -> Option<Backgammon> {
        Some(
            Backgammon::new(self.match_length, true)
                .with_cube(self.cube, self.jacoby)
                .with_beavers(self.beavers)
                .with_variant(self.reglamento, self.reward)
                .with_readings(self.variant, self.bar_backgammon),
        )
    }

    fn samples_chance(&self) -> bool {
        !self.explicit
    }

    fn parse_turn(&self, s: &State, text: &str) -> Result<Vec<Action>> {
        if matches!(s.phase, Phase::Cube | Phase::Doubled) {
            let word = text.trim().to_ascii_lowercase();
            let a = match word.as_str() {
                "roll" | "no double" => ROLL,
                "double" | "redouble" => DOUBLE,
                "take" | "accept" => TAKE,
                "drop" | "pass" | "reject" => DROP,
                "beaver" => BEAVER,
                _ => usize::MAX,
            };
            if !self.cube_legal(s, a) {
                let legal: Vec<String> = self.turns(s).into_iter().map(|t| t.notation).collect();
                return Err(GameError::bad_move(
                    text,
                    format!("not a cube decision here; legal: {}", legal.join(", ")),
                ));
            }
            return Ok(vec![Action(a as u32)]);
        }
        if s.phase != Phase::Move {
            return Err(self.phase_error(s, text));
        }
        if let Some(actions) = compact::resolve(s, text, self.variant)? {
            return Ok(actions);
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
        for_each_complete_in(self.variant, s.obliged, &s.pos(), s.left(), &mut |_, moves| {
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

    fn chance_player(&self, s: &State) -> Option<Player> {
        // Both chance phases observe from `turn`'s side (observe.rs): the
        // player about to roll, or at the opening roll (where both roll) the
        // player the Match ID gives the turn to.
        match s.phase {
            Phase::Opening | Phase::ToRoll => Some(s.turn),
            Phase::Move | Phase::Cube | Phase::Doubled | Phase::Over => None,
        }
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
        if self.cube {
            out[8] = s.cube_value() as i32;
            out[9] = s.owner as i32;
            out[10] = s.crawford as i32;
        }
    }
}
