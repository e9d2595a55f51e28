//! Bitsets of actions and the small kernels over them: a legal mask packed
//! into `u64` words and back, counting them and finding the k-th, the set-bit
//! iterator, and the float-to-byte observation copy. Hot paths of every
//! game and of the batch engine use them.

/// The indices of the set bits of `w`, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SetBits<T>(pub T);

macro_rules! set_bits {
    ($($t:ty),*) => {$(
        impl Iterator for SetBits<$t> {
            type Item = usize;
            #[inline(always)]
            fn next(&mut self) -> Option<usize> {
                if self.0 == 0 {
                    return None;
                }
                let i = self.0.trailing_zeros() as usize;
                self.0 &= self.0 - 1;
                Some(i)
            }
        }
    )*};
}
set_bits!(u32, u64, u128);

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
    /// One word as 64 bools: eight lookups and eight 8-byte stores into a
    /// fixed-size chunk (no bounds checks).
    #[inline(always)]
    fn spread(w: u64, out: &mut [u8; 64]) {
        for j in 0..8 {
            out[8 * j..8 * j + 8].copy_from_slice(&SPREAD[((w >> (8 * j)) & 255) as usize].to_le_bytes());
        }
    }
    // SAFETY: bool has the size and alignment of u8; only 0 and 1 are written.
    let bytes: &mut [u8] = unsafe { std::slice::from_raw_parts_mut(mask.as_mut_ptr().cast::<u8>(), mask.len()) };
    let mut chunks = bytes.chunks_exact_mut(64);
    let mut k = 0;
    for chunk in chunks.by_ref() {
        spread(words.get(k).copied().unwrap_or(0), chunk.try_into().expect("64 entries"));
        k += 1;
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        // The last word spread into a whole chunk, its head copied: cheaper
        // than an entry at a time (backgammon's 150 actions leave 22).
        let mut tail = [0u8; 64];
        spread(words.get(k).copied().unwrap_or(0), &mut tail);
        rest.copy_from_slice(&tail[..rest.len()]);
    }
}

/// `dst[i] = src[i] as u8` (saturating, NaN to 0), 16 values at a time:
/// the compiler's scalar saturating casts cost more than the observation.
#[inline]
pub fn f32_to_u8(src: &[f32], dst: &mut [u8]) {
    let n = src.len().min(dst.len());
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        while done + 16 <= n {
            // SAFETY: SSE2 is part of the x86_64 baseline; loads and the store
            // stay inside `src[done..done + 16]` and `dst[done..done + 16]`.
            unsafe {
                let top = _mm_set1_ps(255.0);
                let p = src.as_ptr().add(done);
                // min(255, v): v above 255 or infinite becomes 255; NaN stays
                // NaN and truncates to i32::MIN, which saturates to 0 below.
                let i = |k: usize| _mm_cvttps_epi32(_mm_min_ps(top, _mm_loadu_ps(p.add(4 * k))));
                let lo = _mm_packs_epi32(i(0), i(1));
                let hi = _mm_packs_epi32(i(2), i(3));
                _mm_storeu_si128(dst.as_mut_ptr().add(done).cast(), _mm_packus_epi16(lo, hi));
            }
            done += 16;
        }
    }
    for (o, v) in dst[done..n].iter_mut().zip(&src[done..n]) {
        *o = *v as u8;
    }
}

/// Packs a bool mask into bits (bit j of word w = mask[64 w + j]).
#[inline]
pub fn pack_mask(mask: &[bool], bits: &mut [u64]) {
    // SAFETY: bool has the size and alignment of u8, with values 0 and 1.
    let bytes: &[u8] = unsafe { std::slice::from_raw_parts(mask.as_ptr().cast::<u8>(), mask.len()) };
    let mut chunks = bytes.chunks_exact(64);
    for (word, chunk) in bits.iter_mut().zip(chunks.by_ref()) {
        *word = pack64(chunk.try_into().unwrap());
    }
    if let Some(last) = bits.get_mut(bytes.len() / 64) {
        // The tail zero-padded to a whole chunk: one copy and four movemasks
        // cost less than a shift per entry (backgammon's 150 actions leave 22).
        let rest = chunks.remainder();
        let mut tail = [0u8; 64];
        tail[..rest.len()].copy_from_slice(rest);
        *last = pack64(&tail);
    }
}

/// 64 bytes of 0/1 as the bits of one word.
#[inline]
fn pack64(chunk: &[u8; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_loadu_si128, _mm_movemask_epi8, _mm_slli_epi16};
        let mut w = 0u64;
        for k in 0..4 {
            // SAFETY: SSE2 is part of the x86_64 baseline; the load reads
            // 16 bytes inside `chunk`. Shifting each 16-bit lane left by 7
            // moves every byte's bit 0 to its bit 7, which movemask collects.
            let m = unsafe {
                let v = _mm_loadu_si128(chunk.as_ptr().add(16 * k).cast());
                _mm_movemask_epi8(_mm_slli_epi16::<7>(v)) as u32 as u64
            };
            w |= m << (16 * k);
        }
        w
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut w = 0u64;
        for (k, c) in chunk.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(c.try_into().unwrap());
            // Byte i (0 or 1) lands on bit 56 + i of the product.
            w |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
        }
        w
    }
}

/// Sets bit `a` of the bitset (which must hold it).
#[inline(always)]
pub fn set_bit(bits: &mut [u64], a: usize) {
    bits[a / 64] |= 1 << (a % 64);
}

/// Whether bit `a` of the bitset is set (false past its end).
#[inline]
pub fn has_bit(bits: &[u64], a: usize) -> bool {
    bits.get(a / 64).is_some_and(|w| w >> (a % 64) & 1 == 1)
}

/// [`nth_set_bit`] with the hardware popcount where the CPU has it.
#[inline]
pub fn find_nth_set_bit(bits: &[u64], k: u32) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has popcnt (checked just above; the answer is cached).
            return unsafe { nth_set_bit_popcnt(bits, k) };
        }
    }
    nth_set_bit(bits, k)
}

/// How many bits of `bits` are set.
#[inline]
pub fn count_set_bits(bits: &[u64]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has popcnt (checked just above; the answer is cached).
            return unsafe { count_set_bits_popcnt(bits) };
        }
    }
    bits.iter().map(|w| w.count_ones()).sum()
}

// The same code compiled with the hardware popcount (the wheel's baseline
// x86-64 lacks it and counts bits with a dozen instructions a word).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn count_set_bits_popcnt(bits: &[u64]) -> u32 {
    bits.iter().map(|w| w.count_ones()).sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn nth_set_bit_popcnt(bits: &[u64], k: u32) -> Option<usize> {
    nth_set_bit(bits, k)
}

/// The `k`-th set bit (0-based) of `bits`.
#[inline(always)]
pub fn nth_set_bit(bits: &[u64], mut k: u32) -> Option<usize> {
    for (i, &w) in bits.iter().enumerate() {
        let c = w.count_ones();
        if k < c {
            // Narrow to the half, quarter, eighth holding the k-th bit.
            let (mut w, mut at) = (w, 0);
            for half in [32u32, 16, 8] {
                let low = (w & ((1u64 << half) - 1)).count_ones();
                if k >= low {
                    k -= low;
                    w >>= half;
                    at += half;
                }
            }
            for _ in 0..k {
                w &= w - 1;
            }
            return Some(i * 64 + (at + w.trailing_zeros()) as usize);
        }
        k -= c;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use rand::RngExt;

    #[test]
    fn f32_to_u8_saturates_like_as() {
        let special = [0.0, 1.0, 0.5, 1.99, 2.0, 254.9, 255.0, 255.5, 256.0, 1e9, -0.5, -1.0, -1e9];
        let mut src: Vec<f32> = special.to_vec();
        src.extend([f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 3e38, -3e38, 7.0 / 15.0]);
        src.extend((0..300).map(|i| i as f32 * 0.9));
        for len in [0, 5, 16, 17, 33, src.len()] {
            let mut dst = vec![9u8; len];
            f32_to_u8(&src[..len], &mut dst);
            let want: Vec<u8> = src[..len].iter().map(|&v| v as u8).collect();
            assert_eq!(dst, want, "len {len}");
        }
    }

    #[test]
    fn pack_mask_matches_bools() {
        let mut rng = rng_from_seed(3);
        for len in [1usize, 7, 8, 9, 63, 64, 65, 130, 934, 5188] {
            let mask: Vec<bool> = (0..len).map(|_| rng.random_range(0..3) == 0).collect();
            let mut bits = vec![u64::MAX; len.div_ceil(64)];
            pack_mask(&mask, &mut bits);
            for (a, &m) in mask.iter().enumerate() {
                assert_eq!(has_bit(&bits, a), m, "len {len} bit {a}");
            }
            assert!(!has_bit(&bits, len), "past the end");
            let set: Vec<usize> = (0..len).filter(|&a| mask[a]).collect();
            for (k, &a) in set.iter().enumerate() {
                assert_eq!(nth_set_bit(&bits, k as u32), Some(a));
            }
            assert_eq!(nth_set_bit(&bits, set.len() as u32), None);
        }
    }

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
