//! Issue 6: a batch of 4096 envs of any game holds less than 64 MiB besides
//! its output arrays (envs, legal-mask bitsets, repetition tables).

use ludoteca::batch::OwnedOut;
use ludoteca::registry;

const LIMIT: usize = 64 << 20;

fn batch_bytes(id: &str, envs: usize, steps: usize) -> (usize, usize) {
    let game = registry::make(id, &[]).expect("default options build");
    let mut batch = game.new_batch(envs, 1);
    batch.set_threads(2).unwrap();
    let mut out = OwnedOut::new(&*batch);
    batch.reset(None, &mut out.view());
    batch.rollout(steps, &mut out.view());
    (batch.memory_bytes(), out.bytes())
}

#[test]
fn a_batch_of_4096_envs_of_any_game_holds_under_64_mib() {
    for entry in registry::entries() {
        let (bytes, outputs) = batch_bytes(entry.id, 4096, 48);
        eprintln!(
            "{:<14} {:>6.1} MiB, {} bytes/env (outputs {:.1} MiB)",
            entry.id,
            bytes as f64 / 1048576.0,
            bytes / 4096,
            outputs as f64 / 1048576.0
        );
        assert!(bytes < LIMIT, "{}: {bytes} bytes for 4096 envs", entry.id);
    }
}

#[test]
fn long_games_stay_under_64_mib_per_4096_envs() {
    // Repetition tables grow with a game's length: play as many decisions as
    // the longest default max_turns (400) in 512 envs and scale to 4096.
    for entry in registry::entries() {
        let (bytes, _) = batch_bytes(entry.id, 512, 400);
        eprintln!("{:<14} {:>6.1} MiB per 4096 envs after 400 decisions", entry.id, (bytes * 8) as f64 / 1048576.0);
        assert!(bytes * 8 < LIMIT, "{}: {bytes} bytes for 512 envs", entry.id);
    }
}
