//! `cargo bench --bench deferred_captures`: the slowest single call of the
//! alquerque engine with `removal="deferred"` on capture mazes (a mulá
//! facing a lattice of pieces it may jump again and again), which once took
//! seconds to minutes. For each position: `legal_moves()` (every complete
//! turn), then mask-guided walks through the whole capture sequence timing
//! every `legal_mask` and `apply`, and `perft(2)`. Each call is timed as the
//! best of three runs on the same input (other load on the machine only adds
//! time). Prints the worst call per position and fails if any call takes
//! 100 ms or more (a benchmark checks what it times; unit tests never time
//! anything).

use ludoteca::core::{rng_from_seed, Applied, ToAct};
use ludoteca::options::OptValue;
use ludoteca::registry;
use rand::RngExt;
use std::time::{Duration, Instant};

/// (game, position, why it is here)
const MAZES: &[(&str, &str, &str)] = &[
    (
        "zamma",
        "8B/2wB1w3/3w2w2/1w2w2w1/2w2w3/3w1Bw2/1w2w2w1/2w2w3/9 b",
        "issue: one apply took seconds deep into the sequence",
    ),
    ("zamma", "9/1w1w1w1w1/5BB2/1w1w1w1w1/9/1w1w1w1w1/9/1w1w1w1w1/9 b", "issue: legal_moves ran past 20 s"),
    ("zamma", "9/2w2w3/3w2w2/1w2w2w1/2w2w3/3w2w2/1w2w2w1/1Bw2w3/9 b", "issue: every walk hit the old 64-jump cap"),
    (
        "zamma",
        "9/1w1w1w1w1/9/1w1w1w1w1/4B4/1w1w1w1w1/9/1w1w1w1w1/9 b",
        "16 pieces on a grid around a mulá in the centre",
    ),
    ("zamma", "w1w1w1w1w/9/w1w1w1w1w/9/w1w1B1w1w/9/w1w1w1w1w/9/9 b", "19 pieces, every line open to a flying mulá"),
    (
        "zamma",
        "9/1w1w1w1w1/1w1w1w1w1/1w1w1w1w1/1w1wBw1w1/1w1w1w1w1/1w1w1w1w1/1w1w1w1w1/9 b",
        "a dense block: short flights, many re-jumps",
    ),
    (
        "kharbaga",
        "w1w1w/1w1w/w1w1w/1w1w/w1B1w/1w1w/w1w1w/1w1w/5 b",
        "kharbaga: a mulá among 19 pieces on every other point",
    ),
    ("kharbaga", "5/wwww/5/wwww/2B2/wwww/5/wwww/5 b", "kharbaga: square centres full, a mulá in the middle"),
];

/// Runs per timed call (the best counts).
const REPEATS: usize = 3;

fn main() {
    let deferred = [("removal".to_string(), OptValue::Str("deferred".into()))];
    let mut worst_all = Duration::ZERO;
    println!(
        "{:<9} {:>6} {:>9} {:>6} {:>11} {:>11}  position",
        "game", "turns", "max hops", "walks", "worst call", "legal_moves"
    );
    for &(id, position, why) in MAZES {
        let game = registry::make(id, &deferred).expect("deferred options build");
        let start = game.clone().state_from_string(position).unwrap_or_else(|e| panic!("{position}: {e}"));
        // Each call timed as the best of REPEATS runs on the same input: the
        // machine's other load only ever adds time, so the minimum is the
        // call's own cost.
        let mut worst = Duration::ZERO;
        let mut time = |f: &mut dyn FnMut()| {
            let dt = (0..REPEATS)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed()
                })
                .min()
                .unwrap();
            worst = worst.max(dt);
            dt
        };
        let mut turns = Vec::new();
        let listing = time(&mut || turns = start.legal_moves());
        let mut max_hops = 0;
        let walks = 20;
        let mut rng = rng_from_seed(7);
        let n = game.spec().num_actions;
        for _ in 0..walks {
            let mut s = start.clone_box();
            let mut hops = 0;
            loop {
                let mut mask = vec![false; n];
                time(&mut || s.legal_mask(&mut mask));
                let legal: Vec<usize> = (0..n).filter(|&a| mask[a]).collect();
                let a = legal[rng.random_range(0..legal.len())] as i64;
                let mut next = s.clone_box();
                let mut applied = Applied::MidTurn;
                time(&mut || {
                    next = s.clone_box();
                    applied = next.apply(a).expect("a masked action applies");
                });
                s = next;
                hops += 1;
                if applied == Applied::TurnOver || s.to_act() == ToAct::Terminal {
                    break;
                }
            }
            max_hops = max_hops.max(hops);
        }
        let mut nodes = 0;
        time(&mut || nodes = start.perft(2).expect("perft"));
        println!(
            "{id:<9} {:>6} {max_hops:>9} {walks:>6} {:>9.2}ms {:>9.2}ms  {position}  ({why}; perft(2) = {nodes})",
            turns.len(),
            worst.as_secs_f64() * 1e3,
            listing.as_secs_f64() * 1e3
        );
        worst_all = worst_all.max(worst);
    }
    println!("worst single call: {:.2} ms", worst_all.as_secs_f64() * 1e3);
    assert!(worst_all < Duration::from_millis(100), "a call took {worst_all:?} (limit 100 ms)");
}
