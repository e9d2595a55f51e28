//! Issue 6: a batch of 4096 envs of any game holds less than 64 MiB besides
//! its output arrays (envs, legal-mask bitsets, repetition tables), after
//! enough steps for games to end and histories to grow.

use ludoteca::batch::OwnedOut;
use ludoteca::registry;

#[test]
fn a_batch_of_4096_envs_of_any_game_holds_under_64_mib() {
    const ENVS: usize = 4096;
    for entry in registry::entries() {
        let game = entry.make(&[]).expect("default options build");
        let mut batch = game.clone().new_batch(ENVS, 1);
        batch.set_threads(2).unwrap();
        let mut out = OwnedOut::new(&*batch);
        batch.reset(None, &mut out.view());
        batch.rollout(48, &mut out.view());
        let bytes = batch.memory_bytes();
        let per_env = bytes / ENVS;
        eprintln!("{:<14} {:>7.1} MiB ({per_env} bytes/env; outputs {:.1} MiB)", entry.id, bytes as f64 / 1048576.0, out.bytes() as f64 / 1048576.0);
        assert!(bytes < 64 << 20, "{}: {bytes} bytes for {ENVS} envs", entry.id);
    }
}
