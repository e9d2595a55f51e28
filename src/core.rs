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

/// Expands a bitset (bit j of word w = action 64 w + j) into a bool mask,
/// eight entries per table lookup: for games that keep their legal actions
/// as bits and must write `legal_mask` as bools. Entries past the words'
/// end are set to false.
pub fn bits_to_mask(words: &[u64], mask: &mut [bool]) {
    /// Byte value -> its 8 bits spread one per byte (bit i to byte i).
    const SPREAD: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut b = 0;
        while b < 256 {
            let mut i = 0;
            while i < 8 {
                if (b >> i) & 1 == 1 {
                    t[b] |= 1 << (8 * i);
                }
                i += 1;
            }
            b += 1;
        }
        t
    };
    // SAFETY: bool has the size and alignment of u8; only 0 and 1 are written.
    let bytes: &mut [u8] = unsafe { std::slice::from_raw_parts_mut(mask.as_mut_ptr().cast::<u8>(), mask.len()) };
    let done = bytes.len() & !7;
    let mut chunks = bytes.chunks_exact_mut(8);
    for (k, chunk) in chunks.by_ref().enumerate() {
        let byte = words.get(k / 8).map_or(0, |w| (w >> (8 * (k % 8))) as u8);
        chunk.copy_from_slice(&SPREAD[byte as usize].to_le_bytes());
    }
    for (i, b) in chunks.into_remainder().iter_mut().enumerate() {
        let a = done + i;
        *b = words.get(a / 64).map_or(0, |w| (w >> (a % 64)) as u8 & 1);
    }
}

#[cfg(test)]
mod tests {
    use super::bits_to_mask;

    #[test]
    fn bits_to_mask_matches_bit_tests() {
        let words = [0x8000_0000_0000_0001u64, 0x0123_4567_89AB_CDEF, 0xFFFF_0000_FFFF_0000];
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 150, 192, 200] {
            let mut mask = vec![true; len];
            bits_to_mask(&words, &mut mask);
            for (a, &m) in mask.iter().enumerate() {
                let want = words.get(a / 64).is_some_and(|w| w >> (a % 64) & 1 == 1);
                assert_eq!(m, want, "len {len} action {a}");
            }
        }
    }
}
