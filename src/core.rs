//! Vocabulary types shared by every game: players, who acts, actions, the
//! seeded random generator.

use rand::SeedableRng;

/// One of the two seats. Player 0 is drawn at the bottom of every diagram.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    P0 = 0,
    P1 = 1,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::P0, Player::P1];

    #[inline]
    pub fn other(self) -> Player {
        match self {
            Player::P0 => Player::P1,
            Player::P1 => Player::P0,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> Player {
        if i == 0 {
            Player::P0
        } else {
            Player::P1
        }
    }
}

/// Who takes the next decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToAct {
    Player(Player),
    /// A chance event (dice) whose outcome the caller supplies (explicit chance).
    Chance,
    Terminal,
}

impl ToAct {
    /// The integer the Python surface uses: 0, 1, -1 (chance), -2 (terminal).
    #[inline]
    pub fn code(self) -> i32 {
        match self {
            ToAct::Player(p) => p as i32,
            ToAct::Chance => -1,
            ToAct::Terminal => -2,
        }
    }

    #[inline]
    pub fn player(self) -> Option<Player> {
        match self {
            ToAct::Player(p) => Some(p),
            _ => None,
        }
    }
}

/// Who won a finished game: the one vocabulary of the families' stored
/// results, the session's verdicts and the returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The returns of player 0 and player 1: +1 / -1 for a win, 0 for a draw.
    #[inline]
    pub fn returns(self) -> [f32; 2] {
        match self {
            Outcome::Win(Player::P0) => [1.0, -1.0],
            Outcome::Win(Player::P1) => [-1.0, 1.0],
            Outcome::Draw => [0.0, 0.0],
        }
    }

    #[inline]
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

/// The returns of a game that may not be over: zero while it goes on.
#[inline]
pub fn returns_of(outcome: Option<Outcome>) -> [f32; 2] {
    outcome.map_or([0.0; 2], Outcome::returns)
}

/// One decision: an index into the game's action space `[0, num_actions)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(pub u32);

impl Action {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What applying one decision did to the turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// The same player (or chance) decides again within the same turn.
    MidTurn,
    /// A complete turn ended (or the game ended).
    TurnOver,
}

/// The portable seeded generator every game and environment uses: same seed,
/// same stream on every platform.
pub type GameRng = rand_pcg::Pcg64Mcg;

/// A generator from a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(splitmix64(seed))
}

/// The seed of environment `index` of a batch created with `seed`; a bijection
/// for a fixed seed, so no two environments of a batch share a stream.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ splitmix64(index.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

#[inline]
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A `Hasher` for the small `Copy` states and keys of the games: words fed
/// to an FxHash-style mixer (SipHash costs more than the work it indexes),
/// finished with [`splitmix64`] so that the low bits that index a table are
/// well spread. Used by the search's transposition keys and alquerque's
/// turn listing (`BuildHasherDefault<WordHasher>`).
#[derive(Default)]
pub struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn mix(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        splitmix64(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in chunks.by_ref() {
            self.mix(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 56));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.mix(i as u64)
    }
    fn write_u16(&mut self, i: u16) {
        self.mix(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.mix(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.mix(i)
    }
    fn write_u128(&mut self, i: u128) {
        self.mix(i as u64);
        self.mix((i >> 64) as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64)
    }
}

/// An outcome drawn by its probability (one uniform draw; the last outcome
/// takes any rounding remainder).
pub fn sample_outcome(rng: &mut GameRng, outcomes: &[(Action, f64)]) -> Option<Action> {
    let mut x: f64 = rand::RngExt::random(rng);
    for &(a, p) in outcomes {
        if x < p {
            return Some(a);
        }
        x -= p;
    }
    outcomes.last().map(|&(a, _)| a)
}
