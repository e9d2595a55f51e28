//! Tablut speed check: perft of the start (node counts checked against
//! tests/data/perft/tablut.txt) and the per-call cost of the hot paths.
//! `cargo run --release --example tablut_speed`

use ludoteca::games::tablut::{position, State, TablutRules};
use ludoteca::{Action, Rules};
use std::hint::black_box;
use std::time::Instant;

fn per_call(name: &str, n: u32, mut f: impl FnMut(u32)) {
    let t = Instant::now();
    for i in 0..n {
        f(i);
    }
    println!("{name:12} {:7.1} ns/call", t.elapsed().as_secs_f64() * 1e9 / n as f64);
}

fn main() {
    let start = State::start();
    for (depth, want) in [(1, 56u64), (2, 3_968), (3, 225_224), (4, 16_170_968), (5, 0)] {
        if want == 0 && std::env::args().nth(1).as_deref() != Some("--deep") {
            break;
        }
        let t = Instant::now();
        let got = start.perft(depth);
        let dt = t.elapsed().as_secs_f64();
        assert!(want == 0 || got == want, "perft({depth}) = {got}, expected {want}");
        println!("perft({depth}) = {got:>12}  {:9.6} s  {:7.1} M leaves/s", dt, got as f64 / dt / 1e6);
    }
    let rules = TablutRules::with(true);
    let pos = position::parse("2M1MM3/5S3/3MS4/2M1K2SM/M1M2S1SM/MS4S2/4M1SMM/5M3/2M2M3 s").unwrap();
    let mut mask = vec![false; rules.spec().num_actions];
    let mut obs = vec![0f32; rules.spec().observation_len()];
    let mut rng = ludoteca::core::rng_from_seed(0);
    rules.legal_mask(&pos, &mut mask);
    let legal: Vec<u32> = (0..mask.len() as u32).filter(|&a| mask[a as usize]).collect();
    per_call("legal_mask", 1_000_000, |_| rules.legal_mask(black_box(&pos), &mut mask));
    per_call("count_moves", 1_000_000, |_| {
        black_box(black_box(&pos).count_moves());
    });
    per_call("observe", 1_000_000, |_| rules.observe(black_box(&pos), &mut obs));
    per_call("apply", 1_000_000, |i| {
        let mut s = *black_box(&pos);
        rules.apply(&mut s, Action(legal[i as usize % legal.len()]), &mut rng);
        black_box(s);
    });
    // The batch engine with random legal actions (mask, observation, info every step).
    let off = [("repetition_draw".to_string(), ludoteca::options::OptValue::Bool(false))];
    let game =
        ludoteca::registry::make("tablut", if std::env::args().any(|a| a == "--no-rep") { &off[..] } else { &[] })
            .unwrap();
    for threads in [1, 2] {
        let mut batch = game.clone().new_batch(1024, 0);
        batch.set_threads(threads).unwrap();
        let mut out = ludoteca::batch::OwnedOut::new(batch.as_ref());
        batch.reset(None, &mut out.view());
        let t = Instant::now();
        let stats = batch.rollout(500, &mut out.view());
        let dt = t.elapsed().as_secs_f64();
        println!(
            "batch rollout, 1024 envs, {threads} thread(s): {:.2} M steps/s ({} games ended, wins {:?}, draws {})",
            stats.steps as f64 / dt / 1e6,
            stats.terminated,
            stats.wins,
            stats.draws
        );
    }
}
