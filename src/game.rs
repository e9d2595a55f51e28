//! The trait every game implements, and the generic algorithms built on it
//! (complete turns, notation lookup, perft).
//!
//! A game is a sequence of decisions; each decision is one [`Action`]. A turn
//! may take several decisions (a multi-capture, a backgammon roll's checker
//! moves, a huff then a move): [`Rules::apply`] says when a turn is over.
//! Rules know nothing of resignation, draw offers, illegal-action policies,
//! repetition history or truncation: [`crate::session::Session`] adds those
//! for every game alike.

use crate::core::{Action, Applied, GameRng, Player, ToAct};
use crate::error::{GameError, Result};
use std::collections::HashSet;

/// A structured picture of a state, for renderers: what is where, without
/// the position-string grammar (docs: architecture, "board view").
///
/// Cells are `(row from the top, column from the left)` of a `rows x cols`
/// grid; a family whose board is no grid (backgammon) leaves `pieces` empty
/// and gives its counts in `lists`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardView {
    pub rows: u32,
    pub cols: u32,
    /// `(row, col, kind, owner)`, in the order a picture draws them.
    pub pieces: Vec<(u32, u32, &'static str, u8)>,
    /// Named sets of cells (a capture in progress, a huff set...), in order.
    pub marks: Vec<(&'static str, Vec<(u32, u32)>)>,
    /// Named integers (side to move, game state...).
    pub ints: Vec<(&'static str, i64)>,
    /// Named lists of integers (backgammon points, dice...).
    pub lists: Vec<(&'static str, Vec<i64>)>,
    /// Named words: game facts such as player 0's colour or the board's geometry.
    pub words: Vec<(&'static str, String)>,
}

/// Static facts of a configured game.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// Size of the action space, including the four offer actions when `offers`.
    pub num_actions: usize,
    pub observation_shape: Vec<usize>,
    /// Whether the last four actions are resign, offer_draw, accept_draw,
    /// decline_draw (spec: common model). Backgammon has none.
    pub offers: bool,
    /// Names of the per-decision integers [`Rules::write_info`] reports
    /// (e.g. tablut's `king_corner_routes`).
    pub info_fields: &'static [&'static str],
    /// The largest value an observation entry can take (entries are never
    /// negative): 1 where every plane is 0/1 or a fraction.
    pub observation_high: f32,
}

impl GameSpec {
    pub fn observation_len(&self) -> usize {
        self.observation_shape.iter().product()
    }

    /// Number of actions that belong to the game itself (without the offer actions).
    pub fn num_game_actions(&self) -> usize {
        if self.offers {
            self.num_actions - 4
        } else {
            self.num_actions
        }
    }
}

/// One complete turn from a position: the decisions that make it, its
/// notation, and the position it leads to.
#[derive(Clone, Debug)]
pub struct Turn<S> {
    pub actions: Vec<Action>,
    pub notation: String,
    pub state: S,
}

/// The rules of one game (one preset, one set of options).
///
/// States are plain values: cloning one must be cheap enough for search.
/// Methods that take an action assume it is legal (the session checks
/// legality first), except where they say otherwise.
pub trait Rules: Send + Sync + Sized + 'static {
    /// `Eq + Hash`: search keys its transposition table by the state itself.
    type State: Clone + Eq + std::hash::Hash + Send + Sync + 'static;

    fn spec(&self) -> &GameSpec;

    /// The initial position; `rng` decides what is random (who starts, opening dice).
    fn initial_state(&self, rng: &mut GameRng) -> Self::State;

    fn to_act(&self, s: &Self::State) -> ToAct;

    /// Writes every entry of `mask` (length `num_actions`): true for the legal
    /// game actions, false elsewhere, the four offer actions included. At a
    /// chance node the legal actions are exactly the chance outcomes.
    fn legal_mask(&self, s: &Self::State, mask: &mut [bool]);

    /// Applies a legal action. `rng` serves sampled chance (dice rolled after
    /// a turn); deterministic games ignore it.
    fn apply(&self, s: &mut Self::State, a: Action, rng: &mut GameRng) -> Applied;

    /// Per-player returns once terminal (zeros before).
    fn returns(&self, s: &Self::State) -> [f32; 2];

    /// Writes every entry of `out` (length `observation_len`).
    fn observe(&self, s: &Self::State, out: &mut [f32]);

    /// The position string (the game's spec file defines it).
    fn to_position(&self, s: &Self::State) -> String;

    /// Parses a position string; every malformed or impossible string is an error.
    fn from_position(&self, text: &str) -> Result<Self::State>;

    /// A short human-readable name of one decision (e.g. `e3-h3`, `22x15`).
    fn action_to_string(&self, s: &Self::State, a: Action) -> String;

    /// The notation of the complete turn `actions` played from `s`.
    fn notation(&self, s: &Self::State, actions: &[Action]) -> String;

    /// Pieces each player still has in play (a game whose pieces can only
    /// leave the board reports a count that never grows).
    fn piece_counts(&self, s: &Self::State) -> [u32; 2];

    /// The board as text for terminals and `str(state)` (default: the
    /// position string). Games override it with a diagram.
    fn board_text(&self, s: &Self::State) -> String {
        self.to_position(s)
    }

    /// The board as data for pictures ([`BoardView`]); `None` for a game
    /// without one (the test toys).
    fn board_view(&self, _s: &Self::State) -> Option<BoardView> {
        None
    }

    /// Inverse of [`Rules::action_to_string`] among the legal actions.
    fn string_to_action(&self, s: &Self::State, text: &str) -> Result<Action> {
        let mut mask = vec![false; self.spec().num_actions];
        self.legal_mask(s, &mut mask);
        let text = text.trim();
        let mut names = Vec::new();
        for (i, &ok) in mask.iter().enumerate() {
            if ok {
                let name = self.action_to_string(s, Action(i as u32));
                if name == text {
                    return Ok(Action(i as u32));
                }
                names.push(name);
            }
        }
        Err(GameError::bad_move(text, format!("not a legal action here; legal: {}", names.join(" "))))
    }

    /// Whether `a` is legal. Games may override with a cheaper test.
    fn is_legal(&self, s: &Self::State, a: Action) -> bool {
        let mut mask = vec![false; self.spec().num_actions];
        self.legal_mask(s, &mut mask);
        mask.get(a.index()).copied().unwrap_or(false)
    }

    /// Every complete turn, one per distinct resulting position (distinct
    /// states: `State: Eq + Hash`, no position strings built), in the order
    /// of their first decision.
    fn turns(&self, s: &Self::State) -> Vec<Turn<Self::State>> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        for_each_turn_path(self, s, &mut |actions, end| {
            if seen.insert(end.clone()) {
                out.push(Turn { actions: actions.to_vec(), notation: self.notation(s, actions), state: end.clone() });
            }
        });
        out
    }

    /// The decisions of the complete turn written `text`. The default accepts
    /// the notation of any legal decision path (whitespace-insensitive).
    fn parse_turn(&self, s: &Self::State, text: &str) -> Result<Vec<Action>> {
        let want = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut found = None;
        for_each_turn_path(self, s, &mut |actions, _| {
            if found.is_none() && self.notation(s, actions) == want {
                found = Some(actions.to_vec());
            }
        });
        found.ok_or_else(|| {
            let legal: Vec<String> = self.turns(s).into_iter().map(|t| t.notation).collect();
            GameError::bad_move(text, format!("not a legal move here; legal moves: {}", legal.join(", ")))
        })
    }

    /// Leaves of the tree of complete turns to `depth` (spec: perft). Chance
    /// nodes have their distinct outcomes as children.
    fn perft(&self, s: &Self::State, depth: u32) -> u64 {
        default_perft(self, s, depth)
    }

    /// Outcomes of a chance node with their probabilities (empty elsewhere).
    fn chance_outcomes(&self, _s: &Self::State) -> Vec<(Action, f64)> {
        Vec::new()
    }

    /// The positions the complete turns from `s` lead to, appended to `out`
    /// (the states of [`Rules::turns`] without their notation, possibly with
    /// repeats): what search expands. Games override it with a path that
    /// builds no strings.
    fn next_states(&self, s: &Self::State, out: &mut Vec<Self::State>) {
        out.extend(self.turns(s).into_iter().map(|t| t.state));
    }

    /// A static estimate of `s` for `player`, in `[-1, 1]` (a won game is
    /// worth 1): the built-in evaluation of search (docs/search.md gives each
    /// family's formula). Neutral by default.
    fn heuristic(&self, _s: &Self::State, _player: Player) -> f32 {
        0.0
    }

    /// For a game with chance: the same rules with every chance event an
    /// explicit decision (expectimax needs the outcomes enumerated), also
    /// when they already are. `None`: the game has no chance (alpha-beta
    /// refuses games with chance on this sign). MCTS searches the copy, so states
    /// must mean the same position under both rules.
    fn explicit_chance(&self) -> Option<Self> {
        None
    }

    /// Whether [`Rules::apply`] rolls chance itself (backgammon with
    /// `chance="sampled"`): such rules cannot hold chance nodes in a search
    /// tree, so search works on [`Rules::explicit_chance`] instead.
    fn samples_chance(&self) -> bool {
        false
    }

    /// Writes the integers named by `spec().info_fields`.
    fn write_info(&self, _s: &Self::State, _out: &mut [i32]) {}

    /// A hash of the position at a turn boundary when the game draws by
    /// repetition (the session counts occurrences); `None` when it does not.
    fn repetition_key(&self, _s: &Self::State) -> Option<u64> {
        None
    }

    /// How many illegal actions a player may have refused before the next one
    /// loses, under `illegal_action="rules"` (tablero rule 16: 1). Zero: the
    /// game has no such rule and `rules` behaves as `lose`.
    fn illegal_strikes(&self) -> u32 {
        0
    }
}

/// Calls `f(actions, end_state)` for every decision path that makes a complete
/// turn from `s` (offer actions excluded). Chance decisions end the path.
pub fn for_each_turn_path<R: Rules>(rules: &R, s: &R::State, f: &mut dyn FnMut(&[Action], &R::State)) {
    let mut path = Vec::new();
    let mut rng = crate::core::rng_from_seed(0);
    walk(rules, s, &mut path, &mut rng, f);

    fn walk<R: Rules>(
        rules: &R,
        s: &R::State,
        path: &mut Vec<Action>,
        rng: &mut GameRng,
        f: &mut dyn FnMut(&[Action], &R::State),
    ) {
        let spec = rules.spec();
        let mut mask = vec![false; spec.num_actions];
        rules.legal_mask(s, &mut mask);
        for (i, &ok) in mask[..spec.num_game_actions()].iter().enumerate() {
            if !ok {
                continue;
            }
            let mut next = s.clone();
            path.push(Action(i as u32));
            let applied = rules.apply(&mut next, Action(i as u32), rng);
            if applied == Applied::TurnOver || matches!(rules.to_act(&next), ToAct::Terminal | ToAct::Chance) {
                f(path, &next);
            } else {
                walk(rules, &next, path, rng, f);
            }
            path.pop();
        }
    }
}

/// Appends `end` to `out` unless `out[start..]` already holds it: how
/// [`Rules::next_states`] overrides drop a position reached by several
/// decision paths (a scan of a few dozen small states beats hashing them).
pub fn push_distinct<S: PartialEq + Clone>(out: &mut Vec<S>, start: usize, end: &S) {
    if !out[start..].contains(end) {
        out.push(end.clone());
    }
}

/// perft through [`Rules::turns`] and [`Rules::chance_outcomes`].
pub fn default_perft<R: Rules>(rules: &R, s: &R::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match rules.to_act(s) {
        ToAct::Terminal => 1,
        ToAct::Chance => {
            let mut rng = crate::core::rng_from_seed(0);
            let mut seen = HashSet::new();
            let mut total = 0;
            for (a, _) in rules.chance_outcomes(s) {
                let mut next = s.clone();
                rules.apply(&mut next, a, &mut rng);
                if !seen.contains(&next) {
                    seen.insert(next.clone());
                    total += rules.perft(&next, depth - 1);
                }
            }
            total
        }
        ToAct::Player(_) => {
            let turns = rules.turns(s);
            if depth == 1 {
                return turns.len() as u64;
            }
            turns.iter().map(|t| rules.perft(&t.state, depth - 1)).sum()
        }
    }
}
