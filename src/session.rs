//! A game in progress: a [`Rules`] state plus what the common model adds to
//! every game alike (spec README, "Common model"): resignation and draw
//! offers, illegal-action policies, repetition history and the turn count that
//! truncation reads.

use crate::core::{derive_seed, Action, Applied, GameRng, Outcome, Player, ToAct};
use crate::error::{GameError, Result};
use crate::game::{write_obs, LegalOut, ObsBuf, ObsFormat, ObsLayout, Rules};
use crate::options::Options;

/// What an environment does with an illegal action (`illegal_action=`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalPolicy {
    /// Raise, leaving the state unchanged.
    Raise,
    /// The offender loses.
    Lose,
    /// The game's own rule (tablero rule 16), otherwise as `Lose`.
    Rules,
}

/// Options every game shares, read once from the resolved [`Options`].
#[derive(Clone, Debug)]
pub struct CommonOptions {
    /// Full turns after which an environment truncates; 0 = never.
    pub max_turns: u32,
    pub illegal: IllegalPolicy,
    pub resign: bool,
    pub draw_offers: bool,
    /// `obs_format=`: which observation environments write.
    pub obs_format: ObsFormat,
}

impl CommonOptions {
    pub fn from_options(o: &Options) -> CommonOptions {
        let flag = |name| matches!(o.get(name), Some(crate::options::OptValue::Bool(true)));
        CommonOptions {
            max_turns: o.int("max_turns") as u32,
            illegal: match o.str("illegal_action") {
                "lose" => IllegalPolicy::Lose,
                "rules" => IllegalPolicy::Rules,
                _ => IllegalPolicy::Raise,
            },
            resign: flag("resign"),
            draw_offers: flag("draw_offers"),
            obs_format: o.get("obs_format").map_or(ObsFormat::Full, |v| match v {
                crate::options::OptValue::Str(name) => ObsFormat::from_name(name),
                _ => ObsFormat::Full,
            }),
        }
    }
}

/// A configured game: its rules and the common options, shared by every
/// session, env and batch of it (type erasure adds the registry entry and the
/// resolved options on top, in [`crate::dynamic`]).
pub struct Configured<R: Rules> {
    pub rules: R,
    pub common: CommonOptions,
    /// The observation format of `common.obs_format` and its planes.
    pub obs: ObsLayout,
}

impl<R: Rules> Configured<R> {
    pub fn new(rules: R, common: CommonOptions) -> Self {
        let obs = ObsLayout::new(&rules, common.obs_format);
        Configured { rules, common, obs }
    }

    /// Writes the observation of `s` in the configured format.
    pub fn observe(&self, s: &R::State, out: ObsBuf<'_>) {
        write_obs(&self.rules, &self.obs, s, out)
    }
}

/// The last four actions of games with offers, in the spec's order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OfferAction {
    Resign = 0,
    OfferDraw = 1,
    AcceptDraw = 2,
    DeclineDraw = 3,
}

impl OfferAction {
    pub const NAMES: [&'static str; 4] = ["resign", "offer_draw", "accept_draw", "decline_draw"];
    const ALL: [OfferAction; 4] =
        [OfferAction::Resign, OfferAction::OfferDraw, OfferAction::AcceptDraw, OfferAction::DeclineDraw];

    fn from_action(num_actions: usize, a: Action) -> Option<OfferAction> {
        a.index().checked_sub(num_actions - 4).map(|k| OfferAction::ALL[k])
    }

    fn action(self, num_actions: usize) -> Action {
        Action((num_actions - 4 + self as usize) as u32)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Offer {
    None,
    /// `by` offered a draw; the opponent decides.
    Pending {
        by: Player,
    },
    /// `by`'s offer was declined: `by` continues its turn and may not offer again in it.
    Declined {
        by: Player,
    },
}

/// How a game ended other than by its rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Resigned(Player),
    DrawAgreed,
    /// Lost by an illegal action (`illegal_action="lose"`, or rule 16).
    Forfeit(Player),
    Repetition,
}

impl Verdict {
    /// Who won by this verdict.
    pub fn outcome(self) -> Outcome {
        match self {
            Verdict::Resigned(p) | Verdict::Forfeit(p) => Outcome::Win(p.other()),
            Verdict::DrawAgreed | Verdict::Repetition => Outcome::Draw,
        }
    }
}

/// The ruling on an action applied under an [`IllegalPolicy`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ruling {
    Applied(Applied),
    /// Illegal action refused and counted (tablero rule 16); the state is unchanged.
    Refused,
    /// Illegal action: the offender lost.
    Forfeited,
}

/// How often each repetition key occurred at a turn boundary: an
/// open-addressing table, O(1) per turn (scanning a history would cost a
/// game's length per turn), at most 7/8 full, 9 bytes a slot. Counts
/// saturate at 3 (the third occurrence ends the game); count 0 is an empty slot.
#[derive(Clone, Debug, Default)]
struct Repetitions {
    keys: Vec<u64>,
    counts: Vec<u8>,
    len: usize,
}

impl Repetitions {
    fn clear(&mut self) {
        if self.len > 0 {
            self.counts.fill(0);
            self.len = 0;
        }
    }

    /// Counts one more occurrence of `key`; returns its count (at most 3).
    fn add(&mut self, key: u64) -> u32 {
        if (self.len + 1) * 8 > self.keys.len() * 7 {
            let size = (self.keys.len() * 2).max(16);
            let keys = std::mem::replace(&mut self.keys, vec![0; size]);
            let counts = std::mem::replace(&mut self.counts, vec![0; size]);
            for (k, c) in keys.into_iter().zip(counts).filter(|&(_, c)| c > 0) {
                let i = self.slot(k);
                self.keys[i] = k;
                self.counts[i] = c;
            }
        }
        let i = self.slot(key);
        if self.counts[i] == 0 {
            self.keys[i] = key;
            self.len += 1;
        }
        self.counts[i] = (self.counts[i] + 1).min(3);
        self.counts[i] as u32
    }

    /// The index of `key`'s slot, or of the empty slot where it belongs.
    fn slot(&self, key: u64) -> usize {
        let mask = self.keys.len() - 1;
        // Keys may be small integers as well as hashes: spread them.
        let mut i = (crate::core::splitmix64(key) >> 32) as usize & mask;
        while self.counts[i] != 0 && self.keys[i] != key {
            i = (i + 1) & mask;
        }
        i
    }

    /// Every counted key with its count, in slot order.
    fn entries(&self) -> Vec<(u64, u8)> {
        self.keys.iter().zip(&self.counts).filter(|&(_, &c)| c > 0).map(|(&k, &c)| (k, c)).collect()
    }

    fn heap_bytes(&self) -> usize {
        self.keys.capacity() * std::mem::size_of::<u64>() + self.counts.capacity()
    }
}

/// The part of a [`Session`] its position string does not hold: the random
/// generator (sampled dice), the turn count, the rule-16 strikes and the
/// repetition history. With the position string it restores the session
/// exactly (pickling).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionExtras {
    pub rng: u128,
    pub turns: u32,
    pub strikes: [u32; 2],
    /// (repetition key, occurrences in [1, 3]).
    pub history: Vec<(u64, u8)>,
}

/// Everything an [`Env`] holds, as plain values (pickling).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvSnapshot {
    pub position: String,
    pub extras: SessionExtras,
    pub seed: u64,
    pub episode: u64,
    pub done: bool,
    pub fresh: bool,
}

/// A game in progress. Methods take the rules and common options as
/// arguments so that a session is a plain value, cheap to clone and to store
/// by the thousand in a batch.
#[derive(Clone, Debug)]
pub struct Session<S> {
    pub state: S,
    pub rng: GameRng,
    turns: u32,
    offer: Offer,
    verdict: Option<Verdict>,
    strikes: [u32; 2],
    /// Occurrences of the positions at turn boundaries (repetition keys).
    history: Repetitions,
}

impl<S: Clone> Session<S> {
    pub fn new<R: Rules<State = S>>(rules: &R, seed: u64) -> Self {
        let mut rng = crate::core::rng_from_seed(seed);
        let state = rules.initial_state(&mut rng);
        Self::from_state(rules, state, rng)
    }

    /// A session whose history starts at `state` (e.g. parsed from a string).
    pub fn from_state<R: Rules<State = S>>(rules: &R, state: S, rng: GameRng) -> Self {
        let mut s = Session {
            state,
            rng,
            turns: 0,
            offer: Offer::None,
            verdict: None,
            strikes: [0; 2],
            history: Repetitions::default(),
        };
        if let Some(key) = rules.repetition_key(&s.state) {
            s.history.add(key);
        }
        s
    }

    /// Starts a new game in place, keeping allocations (for batches).
    pub fn reset<R: Rules<State = S>>(&mut self, rules: &R, seed: u64) {
        self.rng = crate::core::rng_from_seed(seed);
        self.state = rules.initial_state(&mut self.rng);
        self.turns = 0;
        self.offer = Offer::None;
        self.verdict = None;
        self.strikes = [0; 2];
        self.history.clear();
        if let Some(key) = rules.repetition_key(&self.state) {
            self.history.add(key);
        }
    }

    /// What the session holds besides its position string (for pickling).
    pub fn extras(&self) -> SessionExtras {
        SessionExtras {
            rng: self.rng.state(),
            turns: self.turns,
            strikes: self.strikes,
            history: self.history.entries(),
        }
    }

    /// The session of position string `text` with `extras` restored: the
    /// inverse of ([`Session::to_position`], [`Session::extras`]).
    pub fn restore<R: Rules<State = S>>(rules: &R, text: &str, extras: &SessionExtras) -> Result<Self> {
        let mut s = Self::from_position(rules, text, 0)?;
        if extras.rng & 1 == 0 {
            return Err(GameError::Invalid("a saved random-generator state is always odd".into()));
        }
        if extras.history.iter().any(|&(_, c)| !(1..=3).contains(&c)) {
            return Err(GameError::Invalid("a saved repetition count must be in [1, 3]".into()));
        }
        s.rng = GameRng::new(extras.rng);
        s.turns = extras.turns;
        s.strikes = extras.strikes;
        s.history.clear();
        for &(key, count) in &extras.history {
            for _ in 0..count {
                s.history.add(key);
            }
        }
        Ok(s)
    }

    /// The repetition keys met twice so far, sorted: the positions whose next
    /// occurrence draws the game (what a search needs of the history).
    pub fn repeated_twice(&self) -> Vec<u64> {
        let mut keys: Vec<u64> = self.history.entries().into_iter().filter(|&(_, c)| c == 2).map(|(k, _)| k).collect();
        keys.sort_unstable();
        keys
    }

    /// Heap bytes the session holds besides its state (the repetition history).
    pub fn heap_bytes(&self) -> usize {
        self.history.heap_bytes()
    }

    /// Complete turns played since the session started.
    pub fn turns_played(&self) -> u32 {
        self.turns
    }

    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    pub fn to_act<R: Rules<State = S>>(&self, rules: &R) -> ToAct {
        if self.verdict.is_some() {
            return ToAct::Terminal;
        }
        match self.offer {
            Offer::Pending { by } => ToAct::Player(by.other()),
            _ => rules.to_act(&self.state),
        }
    }

    pub fn is_terminal<R: Rules<State = S>>(&self, rules: &R) -> bool {
        self.to_act(rules) == ToAct::Terminal
    }

    /// Truncated: not over by the rules, but `max_turns` full turns were played.
    pub fn is_truncated<R: Rules<State = S>>(&self, rules: &R, common: &CommonOptions) -> bool {
        self.turn_limit_reached(common) && !self.is_terminal(rules)
    }

    /// `max_turns` full turns were played (truncated unless terminal).
    pub fn turn_limit_reached(&self, common: &CommonOptions) -> bool {
        common.max_turns > 0 && self.turns >= common.max_turns
    }

    pub fn returns<R: Rules<State = S>>(&self, rules: &R) -> [f32; 2] {
        match self.verdict {
            Some(v) => v.outcome().returns(),
            None => rules.returns(&self.state),
        }
    }

    pub fn legal_mask<R: Rules<State = S>>(&self, rules: &R, common: &CommonOptions, mask: &mut [bool]) {
        let n = rules.spec().num_actions;
        if self.verdict.is_some() {
            mask.fill(false);
            return;
        }
        if let Offer::Pending { .. } = self.offer {
            mask.fill(false);
            mask[OfferAction::AcceptDraw.action(n).index()] = true;
            mask[OfferAction::DeclineDraw.action(n).index()] = true;
            return;
        }
        rules.legal_mask(&self.state, mask);
        for (a, open) in self.open_offers(rules, common) {
            mask[a] = open;
        }
    }

    /// [`Session::legal_mask`] into a [`LegalOut`]: the same set as bits,
    /// counted and listed too.
    pub fn legal_out<R: Rules<State = S>>(&self, rules: &R, common: &CommonOptions, out: &mut LegalOut<'_>) {
        let n = rules.spec().num_actions;
        if self.verdict.is_some() {
            out.clear();
            return;
        }
        if let Offer::Pending { .. } = self.offer {
            out.clear();
            out.add(OfferAction::AcceptDraw.action(n).index());
            out.add(OfferAction::DeclineDraw.action(n).index());
            return;
        }
        rules.legal_out(&self.state, out);
        for (a, open) in self.open_offers(rules, common) {
            // The rules left every offer action unset.
            if open {
                out.add(a);
            }
        }
    }

    /// The offer actions a player to move sees beside the rules' own, with
    /// whether each is open (none without offers or off a player's turn).
    fn open_offers<R: Rules<State = S>>(
        &self,
        rules: &R,
        common: &CommonOptions,
    ) -> impl Iterator<Item = (usize, bool)> {
        let n = rules.spec().num_actions;
        let shown = rules.spec().offers && rules.to_act(&self.state).player().is_some();
        let draw = common.draw_offers && !matches!(self.offer, Offer::Declined { .. });
        [(OfferAction::Resign.action(n).index(), common.resign), (OfferAction::OfferDraw.action(n).index(), draw)]
            .into_iter()
            .filter(move |_| shown)
    }

    pub fn is_legal<R: Rules<State = S>>(&self, rules: &R, common: &CommonOptions, a: Action) -> bool {
        let n = rules.spec().num_actions;
        if a.index() >= n || self.verdict.is_some() {
            return false;
        }
        let offer_action = if rules.spec().offers { OfferAction::from_action(n, a) } else { None };
        match (offer_action, self.offer) {
            (Some(OfferAction::AcceptDraw | OfferAction::DeclineDraw), Offer::Pending { .. }) => true,
            (_, Offer::Pending { .. }) => false,
            (Some(OfferAction::Resign), _) => common.resign && rules.to_act(&self.state).player().is_some(),
            (Some(OfferAction::OfferDraw), offer) => {
                common.draw_offers
                    && !matches!(offer, Offer::Declined { .. })
                    && rules.to_act(&self.state).player().is_some()
            }
            (Some(_), _) => false,
            (None, _) => rules.is_legal(&self.state, a),
        }
    }

    /// Applies an action already known to be legal.
    pub fn apply_legal<R: Rules<State = S>>(&mut self, rules: &R, a: Action) -> Applied {
        let n = rules.spec().num_actions;
        if rules.spec().offers {
            if let Some(offer) = OfferAction::from_action(n, a) {
                let mover = self.to_act(rules).player().expect("offer actions are taken by a player");
                match offer {
                    OfferAction::Resign => self.verdict = Some(Verdict::Resigned(mover)),
                    OfferAction::OfferDraw => self.offer = Offer::Pending { by: mover },
                    OfferAction::AcceptDraw => self.verdict = Some(Verdict::DrawAgreed),
                    OfferAction::DeclineDraw => self.offer = Offer::Declined { by: mover.other() },
                }
                return if self.verdict.is_some() { Applied::TurnOver } else { Applied::MidTurn };
            }
        }
        let applied = rules.apply(&mut self.state, a, &mut self.rng);
        if applied == Applied::TurnOver {
            self.turns += 1;
            self.offer = Offer::None;
            if let Some(key) = rules.repetition_key(&self.state) {
                // Spec: the third occurrence of a position (same side to move) draws.
                if self.history.add(key) >= 3 && !rules_terminal(rules, &self.state) {
                    self.verdict = Some(Verdict::Repetition);
                }
            }
        }
        applied
    }

    /// Checked apply: `ValueError`-style error for an illegal action, state unchanged.
    pub fn apply<R: Rules<State = S>>(&mut self, rules: &R, common: &CommonOptions, a: i64) -> Result<Applied> {
        let n = rules.spec().num_actions;
        if self.verdict.is_some() || rules_terminal(rules, &self.state) {
            return Err(GameError::GameOver { hint: "" });
        }
        if a < 0 || a as u64 >= n as u64 {
            return Err(GameError::ActionOutOfRange { action: a, num_actions: n });
        }
        let action = Action(a as u32);
        if !self.is_legal(rules, common, action) {
            return Err(self.illegal_error(rules, common, action));
        }
        Ok(self.apply_legal(rules, action))
    }

    /// Apply under an environment's illegal-action policy.
    pub fn apply_with_policy<R: Rules<State = S>>(
        &mut self,
        rules: &R,
        common: &CommonOptions,
        a: i64,
    ) -> Result<Ruling> {
        match self.apply(rules, common, a) {
            Ok(applied) => Ok(Ruling::Applied(applied)),
            // Out-of-range actions are bad input, never a move: they always raise.
            Err(e @ GameError::IllegalAction { .. }) => match common.illegal {
                IllegalPolicy::Raise => Err(e),
                policy => Ok(self.punish(rules, policy)),
            },
            Err(e) => Err(e),
        }
    }

    /// What an illegal action costs its author under `policy` (not `Raise`).
    pub fn punish<R: Rules<State = S>>(&mut self, rules: &R, policy: IllegalPolicy) -> Ruling {
        let Some(offender) = self.to_act(rules).player() else {
            return Ruling::Refused;
        };
        let allowed = rules.illegal_strikes();
        if policy == IllegalPolicy::Rules && allowed > 0 {
            let strikes = &mut self.strikes[offender.index()];
            *strikes += 1;
            if *strikes <= allowed {
                return Ruling::Refused;
            }
        }
        self.verdict = Some(Verdict::Forfeit(offender));
        Ruling::Forfeited
    }

    /// Illegal actions refused so far per player (rule 16).
    pub fn strikes(&self) -> [u32; 2] {
        self.strikes
    }

    pub fn illegal_error<R: Rules<State = S>>(&self, rules: &R, common: &CommonOptions, a: Action) -> GameError {
        let mut mask = vec![false; rules.spec().num_actions];
        self.legal_mask(rules, common, &mut mask);
        let legal: Vec<String> = mask
            .iter()
            .enumerate()
            .filter(|(_, &ok)| ok)
            .take(40)
            .map(|(i, _)| format!("{i}={}", self.action_to_string(rules, Action(i as u32))))
            .collect();
        let more = mask.iter().filter(|&&ok| ok).count().saturating_sub(40);
        GameError::IllegalAction {
            action: a.0,
            what: self.action_to_string(rules, a),
            legal: if more > 0 { format!("{} (+{more} more)", legal.join(", ")) } else { legal.join(", ") },
        }
    }

    pub fn action_to_string<R: Rules<State = S>>(&self, rules: &R, a: Action) -> String {
        let n = rules.spec().num_actions;
        if a.index() >= n {
            return format!("<out of range {}>", a.0);
        }
        if rules.spec().offers {
            if let Some(o) = OfferAction::from_action(n, a) {
                return OfferAction::NAMES[o as usize].to_string();
            }
        }
        rules.action_to_string(&self.state, a)
    }

    pub fn string_to_action<R: Rules<State = S>>(&self, rules: &R, text: &str) -> Result<Action> {
        let n = rules.spec().num_actions;
        if rules.spec().offers {
            if let Some(k) = OfferAction::NAMES.iter().position(|&name| name == text.trim()) {
                return Ok(Action((n - 4 + k) as u32));
            }
        }
        rules.string_to_action(&self.state, text)
    }

    /// Position string: the game's own, plus `|offer` or `|declined` while a
    /// draw offer is pending or was declined in the current turn, or the
    /// verdict of a game that ended other than by its rules (`|resigned=P`,
    /// `|forfeit=P` with P the losing player, `|draw=agreed`,
    /// `|draw=repetition`), so that a finished game parses back finished.
    pub fn to_position<R: Rules<State = S>>(&self, rules: &R) -> String {
        let mut s = rules.to_position(&self.state);
        match self.verdict {
            Some(Verdict::Resigned(p)) => s.push_str(&format!("|resigned={}", p.index())),
            Some(Verdict::Forfeit(p)) => s.push_str(&format!("|forfeit={}", p.index())),
            Some(Verdict::DrawAgreed) => s.push_str("|draw=agreed"),
            Some(Verdict::Repetition) => s.push_str("|draw=repetition"),
            None => match self.offer {
                Offer::Pending { .. } => s.push_str("|offer"),
                Offer::Declined { .. } => s.push_str("|declined"),
                Offer::None => {}
            },
        }
        s
    }

    pub fn from_position<R: Rules<State = S>>(rules: &R, text: &str, seed: u64) -> Result<Self> {
        let (base, suffix) = match text.split_once('|') {
            Some((b, s)) => (b, Some(s)),
            None => (text, None),
        };
        let state = rules.from_position(base)?;
        let mut session = Self::from_state(rules, state, crate::core::rng_from_seed(seed));
        if let Some(suffix) = suffix {
            let Some(mover) = rules.to_act(&session.state).player() else {
                return Err(GameError::position(text, "a '|' field (offer or verdict) needs a player to move"));
            };
            let player = |v: &str| match v {
                "0" => Ok(Player::P0),
                "1" => Ok(Player::P1),
                _ => Err(GameError::position(text, format!("'|{suffix}': the losing player must be 0 or 1"))),
            };
            let needs_offers = |what: &str| {
                if rules.spec().offers {
                    Ok(())
                } else {
                    Err(GameError::position(text, format!("this game has no {what} ('|{suffix}')")))
                }
            };
            match suffix.split_once('=') {
                None if suffix == "offer" || suffix == "declined" => {
                    needs_offers("draw offers")?;
                    session.offer =
                        if suffix == "offer" { Offer::Pending { by: mover } } else { Offer::Declined { by: mover } };
                }
                Some(("resigned", p)) => {
                    needs_offers("resignation")?;
                    // Only the player to move can resign.
                    let p = player(p)?;
                    if p != mover {
                        return Err(GameError::position(
                            text,
                            format!("player {} resigned but player {} is to move", p.index(), mover.index()),
                        ));
                    }
                    session.verdict = Some(Verdict::Resigned(p));
                }
                Some(("forfeit", p)) => session.verdict = Some(Verdict::Forfeit(player(p)?)),
                Some(("draw", "agreed")) => {
                    needs_offers("draw offers")?;
                    session.verdict = Some(Verdict::DrawAgreed);
                }
                Some(("draw", "repetition")) if rules.repetition_key(&session.state).is_some() => {
                    session.verdict = Some(Verdict::Repetition)
                }
                _ => {
                    return Err(GameError::position(
                        text,
                        format!(
                            "unknown field '|{suffix}': expected '|offer', '|declined', '|resigned=P', '|forfeit=P', \
                             '|draw=agreed' or (games with repetition draws) '|draw=repetition'"
                        ),
                    ))
                }
            }
        }
        Ok(session)
    }

    /// Complete turns in notation (spec: `legal_moves`). While a draw offer is
    /// pending the opponent's only "moves" are `accept_draw` and `decline_draw`.
    pub fn legal_moves<R: Rules<State = S>>(&self, rules: &R) -> Vec<String> {
        if self.verdict.is_some() {
            return Vec::new();
        }
        if let Offer::Pending { .. } = self.offer {
            return vec![OfferAction::NAMES[2].to_string(), OfferAction::NAMES[3].to_string()];
        }
        if rules.to_act(&self.state).player().is_none() {
            return Vec::new();
        }
        rules.turns(&self.state).into_iter().map(|t| t.notation).collect()
    }

    /// Plays one complete turn written in the game's notation.
    pub fn play<R: Rules<State = S>>(&mut self, rules: &R, common: &CommonOptions, text: &str) -> Result<()> {
        if self.is_terminal(rules) {
            return Err(GameError::GameOver { hint: "" });
        }
        if let Offer::Pending { .. } = self.offer {
            let a = self.string_to_action(rules, text)?;
            self.apply(rules, common, a.0 as i64)?;
            return Ok(());
        }
        if rules.to_act(&self.state).player().is_none() {
            return Err(GameError::bad_move(text, "a chance event is next: apply a chance outcome first"));
        }
        let actions = rules.parse_turn(&self.state, text)?;
        for a in actions {
            self.apply_legal(rules, a);
        }
        Ok(())
    }

    /// Leaves of the tree of complete turns to `depth` (a game ended by a
    /// verdict is a leaf, like any terminal position).
    pub fn perft<R: Rules<State = S>>(&self, rules: &R, depth: u32) -> u64 {
        if self.verdict.is_some() {
            return 1;
        }
        rules.perft(&self.state, depth)
    }

    /// [`Session::action_to_string`] for an action index from outside
    /// (out-of-range indices are an error).
    pub fn checked_action_to_string<R: Rules<State = S>>(&self, rules: &R, a: i64) -> Result<String> {
        let n = rules.spec().num_actions;
        if a < 0 || a as u64 >= n as u64 {
            return Err(GameError::ActionOutOfRange { action: a, num_actions: n });
        }
        Ok(self.action_to_string(rules, Action(a as u32)))
    }

    /// The outcomes of the chance event to come with their probabilities;
    /// empty unless chance acts next.
    pub fn chance_outcomes<R: Rules<State = S>>(&self, rules: &R) -> Vec<(Action, f64)> {
        if self.to_act(rules) == ToAct::Chance {
            rules.chance_outcomes(&self.state)
        } else {
            Vec::new()
        }
    }

    /// Per-field integers of [`Rules::write_info`].
    pub fn info<R: Rules<State = S>>(&self, rules: &R) -> Vec<(&'static str, i64)> {
        let fields = rules.spec().info_fields;
        let mut values = vec![0i32; fields.len()];
        rules.write_info(&self.state, &mut values);
        fields.iter().copied().zip(values.into_iter().map(i64::from)).collect()
    }
}

/// One environment: a session and its episodes, with the step contract that
/// `Env` in Python and every env of a [`crate::batch::Batch`] follow alike.
///
/// Game k of an env seeded `seed` is seeded `derive_seed(seed, k)`. A step
/// applies one decision (under the illegal-action policy) and reports
/// termination (the rules or a verdict ended the game), truncation (the turn
/// limit, unless terminated) and the rewards, which are the returns on the
/// step that terminates and zero on every other step.
#[derive(Clone, Debug)]
pub struct Env<S> {
    pub session: Session<S>,
    seed: u64,
    episode: u64,
    /// The episode ended (terminated or truncated) and no reset followed.
    done: bool,
    /// No decision taken in the current game yet: [`Env::reset`] without a
    /// seed keeps the game, so that a new env then `reset()` plays game 0.
    fresh: bool,
}

/// What one step did.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Step {
    pub ruling: Ruling,
    /// Who acts next in the game the step left (before any reset).
    pub to_act: ToAct,
    pub terminated: bool,
    pub truncated: bool,
    pub rewards: [f32; 2],
}

impl Step {
    /// The episode is over (terminated or truncated).
    #[inline]
    pub fn ended(&self) -> bool {
        self.terminated || self.truncated
    }
}

impl<S: Clone> Env<S> {
    /// Game 0 of `seed`.
    pub fn new<R: Rules<State = S>>(rules: &R, seed: u64) -> Self {
        Env { session: Session::new(rules, derive_seed(seed, 0)), seed, episode: 0, done: false, fresh: true }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Everything this env holds, as plain values.
    pub fn snapshot<R: Rules<State = S>>(&self, rules: &R) -> EnvSnapshot {
        EnvSnapshot {
            position: self.session.to_position(rules),
            extras: self.session.extras(),
            seed: self.seed,
            episode: self.episode,
            done: self.done,
            fresh: self.fresh,
        }
    }

    /// The env of a [`Env::snapshot`]: it continues exactly as the original.
    pub fn from_snapshot<R: Rules<State = S>>(rules: &R, snap: &EnvSnapshot) -> Result<Self> {
        let session = Session::restore(rules, &snap.position, &snap.extras)?;
        Ok(Env { session, seed: snap.seed, episode: snap.episode, done: snap.done, fresh: snap.fresh })
    }

    /// The episode is over and the env waits for a reset (never true for an
    /// env that resets itself, as a batch's do).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The Gymnasium reset. With `seed`, the env's seed is replaced and game
    /// numbering restarts; without, the next game of the current seed starts
    /// (game 0 if no decision was taken since construction or the last seeding).
    pub fn reset<R: Rules<State = S>>(&mut self, rules: &R, seed: Option<u64>) {
        match seed {
            Some(s) => {
                self.seed = s;
                self.episode = 0;
            }
            None if self.fresh => {}
            None => self.episode += 1,
        }
        self.start(rules);
    }

    /// Game 0 of the env's seed, or of `seed` when given (a batch's reset).
    pub fn restart<R: Rules<State = S>>(&mut self, rules: &R, seed: Option<u64>) {
        if let Some(s) = seed {
            self.seed = s;
        }
        self.episode = 0;
        self.start(rules);
    }

    /// The next game of the env's seed (auto-reset).
    #[inline]
    pub fn next_game<R: Rules<State = S>>(&mut self, rules: &R) {
        self.episode += 1;
        self.start(rules);
    }

    fn start<R: Rules<State = S>>(&mut self, rules: &R) {
        self.fresh = true;
        self.done = false;
        self.session.reset(rules, derive_seed(self.seed, self.episode));
    }

    /// A checked step: bad input and, under `illegal_action="raise"`, an
    /// illegal action are errors that leave the game unchanged.
    pub fn step<R: Rules<State = S>>(&mut self, rules: &R, common: &CommonOptions, a: i64) -> Result<Step> {
        if self.done {
            return Err(GameError::EpisodeOver);
        }
        self.fresh = false;
        let ruling = self.session.apply_with_policy(rules, common, a)?;
        let step = self.conclude(rules, common, ruling);
        self.done = step.ended();
        Ok(step)
    }

    /// A step whose action was validated by the caller: `legal` says whether
    /// it is legal here (an illegal one meets the policy, `raise` acting as
    /// `lose` since validation let it through). The caller resets an ended game.
    #[inline]
    pub fn step_validated<R: Rules<State = S>>(
        &mut self,
        rules: &R,
        common: &CommonOptions,
        a: i64,
        legal: bool,
    ) -> Step {
        self.fresh = false;
        let ruling = if legal {
            Ruling::Applied(self.session.apply_legal(rules, Action(a as u32)))
        } else {
            let policy = if common.illegal == IllegalPolicy::Raise { IllegalPolicy::Lose } else { common.illegal };
            self.session.punish(rules, policy)
        };
        self.conclude(rules, common, ruling)
    }

    #[inline]
    fn conclude<R: Rules<State = S>>(&self, rules: &R, common: &CommonOptions, ruling: Ruling) -> Step {
        let to_act = self.session.to_act(rules);
        let terminated = to_act == ToAct::Terminal;
        let truncated = !terminated && self.session.turn_limit_reached(common);
        let rewards = if terminated { self.session.returns(rules) } else { [0.0; 2] };
        Step { ruling, to_act, terminated, truncated, rewards }
    }
}

fn rules_terminal<R: Rules>(rules: &R, s: &R::State) -> bool {
    rules.to_act(s) == ToAct::Terminal
}

#[cfg(test)]
mod tests {
    use super::Repetitions;
    use rand::RngExt;

    #[test]
    fn repetition_counts_match_a_plain_count() {
        let mut rng = crate::core::rng_from_seed(1);
        let mut reps = Repetitions::default();
        for round in 0..3 {
            reps.clear();
            let mut seen = Vec::new();
            for _ in 0..500 {
                // Few distinct small keys (0 among them), so that keys repeat.
                let key = rng.random_range(0..120u64) * (round + 1);
                seen.push(key);
                let want = (seen.iter().filter(|&&k| k == key).count() as u32).min(3);
                assert_eq!(reps.add(key), want);
            }
        }
    }
}
