//! Times draughts perft (bulk counting, distinct successor positions) from
//! the start positions and checks the counts against the published ones.
//! Run: `cargo run --release --example perft_draughts`
use ludoteca::games::draughts::{preset, DraughtsRules};
use ludoteca::{core::rng_from_seed, Rules};
use std::time::Instant;

fn main() {
    let cases: &[(preset::Preset, u32, u64)] = &[
        (preset::INTERNATIONAL, 7, 1049442),
        (preset::INTERNATIONAL, 8, 6483961),
        (preset::BRAZILIAN, 8, 907830),
        (preset::RUSSIAN, 8, 929899),
        (preset::CHECKERS, 8, 845931),
    ];
    println!("{:<14} {:>5} {:>10} {:>9} {:>12}", "game", "depth", "nodes", "ms", "nodes/s");
    for &(p, depth, want) in cases {
        let r = DraughtsRules::new(p);
        let s = r.initial_state(&mut rng_from_seed(0));
        let t = Instant::now();
        let mut n = 0;
        let reps = 5;
        for _ in 0..reps {
            n = r.perft(&s, depth);
        }
        let dt = t.elapsed().as_secs_f64() / reps as f64;
        assert_eq!(n, want, "{} perft({depth})", p.id);
        println!("{:<14} {:>5} {:>10} {:>9.1} {:>12.0}", p.id, depth, n, dt * 1e3, n as f64 / dt);
    }
}
