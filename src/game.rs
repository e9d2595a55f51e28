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
use std::cell::RefCell;
use std::collections::HashSet;

thread_local! {
    static OBS_SCRATCH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    static PACK_SCRATCH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    static BYTE_SCRATCH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    static PACKED_SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

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

/// Which observation a configured game writes (common option `obs_format`,
/// docs/model.md "Observation formats").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ObsFormat {
    /// Every plane of [`GameSpec::observation_shape`], float32.
    #[default]
    Full,
    /// The planes that can vary for the configured game ([`Rules::compact_planes`]).
    Compact,
    /// The compact planes as bits, eight entries per byte ([`ObsLayout::pack`]).
    Packed,
}

impl ObsFormat {
    pub const NAMES: [&'static str; 3] = ["full", "compact", "packed"];

    pub fn from_name(name: &str) -> ObsFormat {
        match name {
            "compact" => ObsFormat::Compact,
            "packed" => ObsFormat::Packed,
            _ => ObsFormat::Full,
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// How one kept plane is stored in the packed format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlaneCode {
    /// One bit per entry: whether it is non-zero (the plane holds only 0 and 1).
    Bit,
    /// `bits` bit planes per entry: the binary digits, lowest first, of the
    /// whole number `value * scale` (< 2^bits); unpacking divides that
    /// number by `scale` in float32, which gives the observed value exactly.
    Int { bits: u8, scale: f32 },
}

impl PlaneCode {
    pub fn bits(self) -> usize {
        match self {
            PlaneCode::Bit => 1,
            PlaneCode::Int { bits, .. } => bits as usize,
        }
    }
}

/// The observation formats of one configured game: which full planes the
/// compact format keeps, how the packed format codes them, and what the
/// dropped planes always hold.
#[derive(Clone, Debug)]
pub struct ObsLayout {
    pub format: ObsFormat,
    /// Entries of one plane: the product of the full shape after its first
    /// dimension (1 for a flat vector, whose entries are its planes).
    pub plane_len: usize,
    pub full_shape: Vec<usize>,
    /// Full plane index and packed code of each compact plane, in order.
    pub kept: Vec<(usize, PlaneCode)>,
    /// The full observation of the initial position: the source of the
    /// dropped planes, which hold the same values in every position.
    pub constant: Vec<f32>,
    /// Whether the compact format keeps every plane in order (it is then
    /// the full observation).
    pub identity: bool,
    /// By full plane: the first bit of its digit planes in the packed
    /// format and its code, `u32::MAX` where the plane is dropped (so that
    /// families writing packed bits directly need not derive it per call).
    pub packed_at: Vec<(u32, PlaneCode)>,
}

impl ObsLayout {
    pub fn new<R: Rules>(rules: &R, format: ObsFormat) -> ObsLayout {
        let spec = rules.spec();
        let full_shape = spec.observation_shape.clone();
        let plane_len = full_shape[1..].iter().product();
        let mut constant = vec![0.0; spec.observation_len()];
        rules.observe(&rules.initial_state(&mut crate::core::rng_from_seed(0)), &mut constant);
        let kept = rules.compact_planes();
        let identity = kept.len() == full_shape[0] && kept.iter().enumerate().all(|(j, &(p, _))| j == p);
        let planes = full_shape.first().copied().unwrap_or(0);
        let mut packed_at = vec![(u32::MAX, PlaneCode::Bit); planes];
        let mut bit = 0;
        for &(p, code) in &kept {
            if let Some(at) = packed_at.get_mut(p) {
                *at = (bit as u32, code);
            }
            bit += code.bits() * plane_len;
        }
        ObsLayout { format, plane_len, full_shape, kept, constant, identity, packed_at }
    }

    pub fn compact_len(&self) -> usize {
        self.kept.len() * self.plane_len
    }

    /// Bits of one packed observation (before padding to whole bytes).
    pub fn packed_bits(&self) -> usize {
        self.kept.iter().map(|(_, c)| c.bits()).sum::<usize>() * self.plane_len
    }

    /// Length of one observation in this layout's format (bytes when packed).
    #[allow(clippy::len_without_is_empty)] // a layout is never empty
    pub fn len(&self) -> usize {
        match self.format {
            ObsFormat::Full => self.full_shape.iter().product(),
            ObsFormat::Compact => self.compact_len(),
            ObsFormat::Packed => self.packed_bits().div_ceil(8),
        }
    }

    /// The shape of one observation in this layout's format.
    pub fn shape(&self) -> Vec<usize> {
        match self.format {
            ObsFormat::Full => self.full_shape.clone(),
            ObsFormat::Compact => {
                let mut s = self.full_shape.clone();
                s[0] = self.kept.len();
                s
            }
            ObsFormat::Packed => vec![self.len()],
        }
    }

    /// The kept planes of a full observation, in compact order.
    pub fn gather(&self, full: &[f32], compact: &mut [f32]) {
        let l = self.plane_len;
        for (j, &(p, _)) in self.kept.iter().enumerate() {
            compact[j * l..(j + 1) * l].copy_from_slice(&full[p * l..(p + 1) * l]);
        }
    }

    /// Packs a compact observation (docs/model.md "Observation formats"):
    /// plane by plane in compact order, a `Bit` plane as its entries, an
    /// `Int` plane as its digit planes (lowest digit first), each plane's
    /// entries in order; bit i of the stream is bit `i % 8` of byte `i / 8`
    /// (numpy `unpackbits(..., bitorder="little")`). The padding bits of the
    /// last byte are 0.
    pub fn pack(&self, compact: &[f32], out: &mut [u8]) {
        let l = self.plane_len;
        let mut w = BitWriter::new(out);
        for (j, &(_, code)) in self.kept.iter().enumerate() {
            let plane = &compact[j * l..(j + 1) * l];
            match code {
                PlaneCode::Bit => w.push_plane(plane),
                // Values are whole multiples of 1/scale, never negative:
                // adding 0.5 and truncating rounds them (`round` is a libm
                // call on baseline x86_64).
                PlaneCode::Int { bits, scale } if l == 1 => w.push_bits((plane[0] * scale + 0.5) as u64, bits as u32),
                PlaneCode::Int { bits, scale } => {
                    for b in 0..bits {
                        for &v in plane {
                            w.push((((v * scale + 0.5) as u32) >> b) & 1 != 0);
                        }
                    }
                }
            }
        }
        w.finish();
    }
}

/// Where one observation goes: float32 entries, or bytes (float formats as
/// truncated values, `obs_dtype="uint8"`; the packed format as its bytes).
pub enum ObsBuf<'a> {
    F32(&'a mut [f32]),
    U8(&'a mut [u8]),
}

/// Writes the observation of `s` in `layout`'s format into `out`.
pub fn write_obs<R: Rules>(rules: &R, layout: &ObsLayout, s: &R::State, out: ObsBuf<'_>) {
    match (layout.format, out) {
        (ObsFormat::Full, ObsBuf::F32(o)) => rules.observe(s, o),
        (ObsFormat::Compact, ObsBuf::F32(o)) if layout.identity => rules.observe(s, o),
        (ObsFormat::Compact, ObsBuf::F32(o)) => rules.observe_compact(s, layout, o),
        (ObsFormat::Packed, ObsBuf::U8(o)) => rules.observe_packed(s, layout, o),
        (format, ObsBuf::U8(o)) => BYTE_SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            scratch.resize(o.len(), 0.0);
            if format == ObsFormat::Full || layout.identity {
                rules.observe(s, &mut scratch);
            } else {
                rules.observe_compact(s, layout, &mut scratch);
            }
            crate::bits::f32_to_u8(&scratch, o);
        }),
        // Packed bytes asked for as floats: the byte values (the bindings
        // refuse this combination; kept total rather than panicking).
        (ObsFormat::Packed, ObsBuf::F32(o)) => PACKED_SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            scratch.resize(o.len(), 0);
            rules.observe_packed(s, layout, &mut scratch);
            for (d, &b) in o.iter_mut().zip(scratch.iter()) {
                *d = b as f32;
            }
        }),
    }
}

/// Appends bits to a byte buffer, least significant bit first (the packed
/// format's order): [`ObsLayout::pack`]'s writer.
struct BitWriter<'a> {
    out: &'a mut [u8],
    acc: u64,
    n: u32,
    at: usize,
}

impl<'a> BitWriter<'a> {
    pub fn new(out: &'a mut [u8]) -> Self {
        BitWriter { out, acc: 0, n: 0, at: 0 }
    }

    #[inline(always)]
    pub fn push(&mut self, bit: bool) {
        self.acc |= (bit as u64) << self.n;
        self.n += 1;
        if self.n == 64 {
            self.out[self.at..self.at + 8].copy_from_slice(&self.acc.to_le_bytes());
            self.at += 8;
            self.acc = 0;
            self.n = 0;
        }
    }

    /// The `n` low bits of `v`, lowest first.
    #[inline(always)]
    pub fn push_bits(&mut self, v: u64, n: u32) {
        let v = v & ((1u64 << n) - 1);
        self.acc |= v << self.n;
        let total = self.n + n;
        if total >= 64 {
            self.out[self.at..self.at + 8].copy_from_slice(&self.acc.to_le_bytes());
            self.at += 8;
            self.acc = if self.n == 0 { 0 } else { v >> (64 - self.n) };
            self.n = total - 64;
        } else {
            self.n = total;
        }
    }

    /// One bit per entry (non-zero), eight entries per step where aligned.
    fn push_plane(&mut self, plane: &[f32]) {
        let mut rest = plane;
        while !self.n.is_multiple_of(8) && !rest.is_empty() {
            self.push(rest[0] != 0.0);
            rest = &rest[1..];
        }
        let mut chunks = rest.chunks_exact(8);
        for c in chunks.by_ref() {
            let mut byte = 0u64;
            for (i, &v) in c.iter().enumerate() {
                byte |= ((v != 0.0) as u64) << i;
            }
            self.acc |= byte << self.n;
            self.n += 8;
            if self.n == 64 {
                self.out[self.at..self.at + 8].copy_from_slice(&self.acc.to_le_bytes());
                self.at += 8;
                self.acc = 0;
                self.n = 0;
            }
        }
        for &v in chunks.remainder() {
            self.push(v != 0.0);
        }
    }

    /// Writes the last bits and zeroes the rest of the buffer.
    pub fn finish(mut self) {
        let bytes = self.acc.to_le_bytes();
        let k = (self.n as usize).div_ceil(8);
        self.out[self.at..self.at + k].copy_from_slice(&bytes[..k]);
        self.at += k;
        self.out[self.at..].fill(0);
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

/// How many legal actions [`LegalOut`] lists.
pub const LISTED: usize = 32;

/// Where [`Rules::legal_out`] writes a position's legal actions: the bool
/// mask, the same set as bits (bit j of word w is action 64 w + j), how many
/// there are, and, when they were added one at a time, the first [`LISTED`]
/// of them in the order found: a position with no more than that draws its
/// random action from the list instead of searching the bits (actions must
/// be below 65,536 to be listed).
pub struct LegalOut<'a> {
    pub mask: &'a mut [bool],
    pub bits: &'a mut [u64],
    pub listed: &'a mut [u16; LISTED],
    pub count: u32,
    /// Whether `listed` holds the first `min(count, LISTED)` actions.
    pub is_listed: bool,
}

impl LegalOut<'_> {
    /// No action legal: every entry of the mask and the bits cleared (and
    /// the list, empty, complete).
    #[inline]
    pub fn clear(&mut self) {
        self.mask.fill(false);
        self.bits.fill(0);
        self.count = 0;
        self.is_listed = true;
    }

    /// Action `a` is legal (not yet in the set; below the mask's length).
    /// Listed too, which is harmless where the set is not listed.
    #[inline(always)]
    pub fn add(&mut self, a: usize) {
        self.mask[a] = true;
        crate::bits::set_bit(self.bits, a);
        if let Some(slot) = self.listed.get_mut(self.count as usize) {
            *slot = a as u16;
        }
        self.count += 1;
    }

    /// The count from the bits, once the mask and the bits hold the set
    /// (no list: listing from bits cost backgammon more than it saved).
    pub fn count_from_bits(&mut self) {
        self.count = crate::bits::count_set_bits(self.bits);
        self.is_listed = false;
    }
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

    /// [`Rules::legal_mask`] into `out`, with the same set as bits, counted
    /// and its first actions listed ([`LegalOut`]): what the batch keeps of
    /// every step. Default: the mask, then packed and counted (not listed).
    /// Games that find their actions one at a time add them as they go:
    /// packing a 934-entry mask cost a draughts step more than its plain
    /// moves, and finding the random policy's action in the bits as much
    /// again.
    fn legal_out(&self, s: &Self::State, out: &mut LegalOut<'_>) {
        self.legal_mask(s, out.mask);
        crate::bits::pack_mask(out.mask, out.bits);
        out.count_from_bits();
    }

    /// Applies a legal action. `rng` serves sampled chance (dice rolled after
    /// a turn); deterministic games ignore it.
    fn apply(&self, s: &mut Self::State, a: Action, rng: &mut GameRng) -> Applied;

    /// Per-player returns once terminal (zeros before).
    fn returns(&self, s: &Self::State) -> [f32; 2];

    /// Writes every entry of `out` (length `observation_len`).
    fn observe(&self, s: &Self::State, out: &mut [f32]);

    /// The full planes the compact observation keeps, in order, with how the
    /// packed observation codes each: every plane that some position of the
    /// configured game (preset, options) can change. The planes left out must
    /// hold the same values in every position (tested). Default: every
    /// plane, as bits (an observation of 0/1 entries).
    fn compact_planes(&self) -> Vec<(usize, PlaneCode)> {
        (0..self.spec().observation_shape[0]).map(|p| (p, PlaneCode::Bit)).collect()
    }

    /// Writes the compact observation (length [`ObsLayout::compact_len`]).
    /// Default: the full observation, then its kept planes; a family
    /// overrides it to write only those.
    fn observe_compact(&self, s: &Self::State, layout: &ObsLayout, out: &mut [f32]) {
        OBS_SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            scratch.resize(self.spec().observation_len(), 0.0);
            self.observe(s, &mut scratch);
            layout.gather(&scratch, out);
        })
    }

    /// Writes the packed observation (length [`ObsLayout::len`] bytes of a
    /// packed layout). Default: the compact observation, then
    /// [`ObsLayout::pack`].
    fn observe_packed(&self, s: &Self::State, layout: &ObsLayout, out: &mut [u8]) {
        PACK_SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            scratch.resize(layout.compact_len(), 0.0);
            if layout.identity {
                self.observe(s, &mut scratch);
            } else {
                self.observe_compact(s, layout, &mut scratch);
            }
            layout.pack(&scratch, out);
        })
    }

    /// The position string (the game's spec file defines it).
    fn to_position(&self, s: &Self::State) -> String;

    /// Parses a position string; every malformed or impossible string is an error.
    #[allow(clippy::wrong_self_convention)] // the rules (self) read the string into a state
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

    /// At a chance node, the player whose point of view its observation
    /// takes (backgammon: the player about to roll), so that an evaluator
    /// can value the position before the outcome for that player (MCTS with
    /// `evaluate_chance`). `None` elsewhere, and for a game whose chance
    /// nodes have no such player (the default).
    fn chance_player(&self, _s: &Self::State) -> Option<Player> {
        None
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

    /// The most a finished game can return to a player: a search that finds
    /// a turn worth this much needs to look no further (the MCTS solver
    /// proves such a node won). 1 for the games that are won, drawn or lost;
    /// a game whose wins differ in size says its largest, or infinity where
    /// no bound holds (then only nodes whose every child is proven are).
    fn max_return(&self) -> f32 {
        1.0
    }

    /// Whether the player to move has a turn that wins the game at once,
    /// when the game can tell without generating its turns (tablut: the king
    /// sees a corner). Search's threat quiescence ([`crate::search::alphabeta::Config::threats`])
    /// scores such a position as won. `false`: no, or not known this cheaply.
    fn wins_at_once(&self, _s: &Self::State) -> bool {
        false
    }

    /// Whether the player to move faces a threat: its opponent, were it to
    /// move now, would win at once (tablut: the Muscovites to move while the
    /// king sees a corner). The threat quiescence does not stand on the
    /// evaluation of such a position but searches every answer, and follows
    /// the turns that make one. `false` by default.
    fn threatened(&self, _s: &Self::State) -> bool {
        false
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
