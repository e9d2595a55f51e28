//! `cargo bench --bench engine [-- [--quick] [GAME_ID ...]]`: the Rust-only
//! speed of every registered game, with plain `std::time`.
//!
//! * rollout: the batch engine stepping N envs with random legal actions
//!   chosen in Rust, observation and mask written for every env at every
//!   step (what `VecEnv.rollout` does), at 1 and 2 threads;
//! * perft: complete-turn leaf counting from the first position of
//!   `tests/data/perft/<id>.txt` (default options), at its deepest depth
//!   within the node budget; the count is checked against the table (a
//!   benchmark checks what it times).
//!
//! `--perft-published` runs only perft from the start position to the depths
//! of `benches/data/perft_published.txt`, whose rows are other engines'
//! published counts and times: our count is checked against the published
//! one, and our nodes per second (best of three runs, one thread) are printed
//! next to theirs.
//!
//! `--profile STEPS [--envs N] [--obs-format F]` runs only a one-thread rollout of STEPS steps
//! of N (1024) envs per game (for `perf record` / `perf stat`, whose instruction counts
//! do not depend on the machine's load as wall-clock time does), observations in
//! format F (`full`, `compact`, `packed`; default full).

use ludoteca::batch::{ObsOut, OwnedOut};
use ludoteca::options::OptValue;
use ludoteca::registry;
use std::path::Path;
use std::time::{Duration, Instant};

struct Config {
    rollout_envs: usize,
    rollout_time: Duration,
    perft_max_nodes: u64,
}

/// Steps per second of `run(k)` (which returns the steps it made), growing
/// `k` until one run lasts a third of `time`; the best of three such runs.
fn rate(time: Duration, mut run: impl FnMut(usize) -> u64) -> f64 {
    let mut k = 1;
    run(k);
    loop {
        let t = Instant::now();
        let steps = run(k);
        let dt = t.elapsed();
        if dt >= time / 3 || k >= 1 << 24 {
            // The best of three runs: on a shared machine, the least disturbed.
            let mut best = steps as f64 / dt.as_secs_f64();
            for _ in 0..2 {
                let t = Instant::now();
                let steps = run(k);
                best = best.max(steps as f64 / t.elapsed().as_secs_f64());
            }
            return best;
        }
        let grow = (time.as_secs_f64() / 3.0 / dt.as_secs_f64().max(1e-6)).clamp(2.0, 100.0);
        k = ((k as f64) * grow).ceil() as usize;
    }
}

/// A perft table block: its position (`None` for the start) and its
/// `(depth, count)` rows.
type PerftBlock = (Option<String>, Vec<(u32, u64)>);

/// The first position block of the game's perft table (default options only).
fn first_perft_block(id: &str) -> Option<PerftBlock> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/perft/{id}.txt"));
    let text = std::fs::read_to_string(path).ok()?;
    let mut block: Option<PerftBlock> = None;
    for line in text.lines().map(|l| l.split('#').next().unwrap().trim()) {
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "options" | "position" if block.as_ref().is_some_and(|b| !b.1.is_empty()) => break,
            "options" => return None,
            "position" => {
                let rest = rest.trim();
                block = Some(((rest != "start").then(|| rest.to_string()), Vec::new()));
            }
            "perft" => {
                let mut it = rest.split_whitespace().map(|x| x.parse::<u64>().unwrap());
                if let Some(b) = block.as_mut() {
                    b.1.push((it.next().unwrap() as u32, it.next().unwrap()));
                }
            }
            _ => {}
        }
    }
    block
}

/// CPU seconds this thread has run (Linux `/proc/thread-self/stat`, clock
/// ticks of 1/100 s), or `None` elsewhere: on a shared machine the CPU time
/// of a long single-threaded run is steadier than its wall-clock time.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name, which is in parentheses: state is field 3,
    // utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some((f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?) as f64 / 100.0)
}

/// `--perft-published`: our perft next to the published rows of
/// `benches/data/perft_published.txt` (see the file for its format).
fn perft_published(wanted: &[&str]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/perft_published.txt");
    let text = std::fs::read_to_string(&path).expect("benches/data/perft_published.txt");
    println!(
        "{:<14}{:>6}{:>12}{:>14}{:>14}{:>16}{:>12}  published engine",
        "game", "depth", "nodes", "ours wall/s", "ours CPU/s", "theirs nodes/s", "CPU ratio"
    );
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let mut parts = line.split('|').map(str::trim);
        let (row, engine) = (parts.next().unwrap(), parts.next().unwrap_or(""));
        let f: Vec<&str> = row.split_whitespace().collect();
        let (id, depth, nodes, ms): (&str, u32, u64, f64) =
            (f[0], f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap());
        if !wanted.is_empty() && !wanted.contains(&id) {
            continue;
        }
        let game = registry::find(id).expect("a registered game").make(&[]).expect("default options build");
        let state = game.new_state(0);
        let (mut wall, mut cpu) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..3 {
            let (t, c) = (Instant::now(), thread_cpu_seconds());
            let got = state.perft(depth).unwrap();
            wall = wall.min(t.elapsed().as_secs_f64());
            if let (Some(c0), Some(c1)) = (c, thread_cpu_seconds()) {
                cpu = cpu.min(c1 - c0);
            }
            assert_eq!(got, nodes, "{id} perft({depth}) against the published count");
        }
        let theirs = nodes as f64 / (ms / 1000.0);
        let ours_cpu = if cpu.is_finite() && cpu > 0.0 { nodes as f64 / cpu } else { f64::NAN };
        println!(
            "{:<14}{:>6}{:>12}{:>14}{:>14}{:>16}{:>11.2}x  {engine}",
            id,
            depth,
            nodes,
            human(nodes as f64 / wall),
            human(ours_cpu),
            human(theirs),
            ours_cpu / theirs
        );
    }
}

fn human(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2}G", x / 1e9),
        x if x >= 1e6 => format!("{:.2}M", x / 1e6),
        x if x >= 1e3 => format!("{:.1}k", x / 1e3),
        x => format!("{x:.0}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let quick = args.iter().any(|a| a == "--quick");
    let profile: Option<usize> =
        args.iter().position(|a| a == "--profile").map(|i| args[i + 1].parse().expect("--profile STEPS"));
    let wanted: Vec<&str> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            !a.starts_with("--")
                && (*i == 0 || !["--profile", "--envs", "--obs-format"].contains(&args[i - 1].as_str()))
        })
        .map(|(_, s)| s.as_str())
        .collect();
    let envs: usize = args.iter().position(|a| a == "--envs").map_or(1024, |i| args[i + 1].parse().expect("--envs N"));
    if args.iter().any(|a| a == "--perft-published") {
        perft_published(&wanted);
        return;
    }
    let format = args.iter().position(|a| a == "--obs-format").map_or("full", |i| args[i + 1].as_str());
    if let Some(steps) = profile {
        for entry in registry::entries().iter().filter(|e| wanted.is_empty() || wanted.contains(&e.id)) {
            let game =
                entry.make(&[("obs_format".into(), OptValue::Str(format.into()))]).expect("default options build");
            let mut batch = game.new_batch(envs, 0);
            batch.set_threads(1).unwrap();
            let mut out = OwnedOut::new(&*batch);
            // The packed format writes bytes: byte buffers for its observations.
            let mut bytes = vec![0u8; if format == "packed" { 2 * out.obs.len() } else { 0 }];
            let half = bytes.len() / 2;
            let (obs_u8, fin_u8) = bytes.split_at_mut(half);
            let mut view = out.view();
            if format == "packed" {
                view.obs = ObsOut::U8(obs_u8);
                view.final_obs = ObsOut::U8(fin_u8);
            }
            batch.reset(None, &mut view);
            let t = Instant::now();
            let stats = batch.rollout(steps, &mut view);
            println!("{}: {} steps in {:.3} s ({:?})", entry.id, stats.steps, t.elapsed().as_secs_f64(), stats);
        }
        return;
    }
    let cfg = if quick {
        Config { rollout_envs: 64, rollout_time: Duration::from_millis(20), perft_max_nodes: 100_000 }
    } else {
        Config { rollout_envs: 1024, rollout_time: Duration::from_millis(1000), perft_max_nodes: 20_000_000 }
    };
    println!(
        "{:<14}{:>6}{:>6}{:>17}{:>17}{:>7}{:>13}{:>10}",
        "game",
        "A",
        "obs",
        format!("rollout t1 N{}", cfg.rollout_envs),
        format!("rollout t2 N{}", cfg.rollout_envs),
        "perft",
        "nodes",
        "nodes/s"
    );
    for entry in registry::entries() {
        if !wanted.is_empty() && !wanted.contains(&entry.id) {
            continue;
        }
        let game = entry.make(&[]).expect("default options build");
        let mut rollouts = Vec::new();
        for threads in [1, 2] {
            let mut batch = game.clone().new_batch(cfg.rollout_envs, 0);
            batch.set_threads(threads).unwrap();
            let mut out = OwnedOut::new(&*batch);
            batch.reset(None, &mut out.view());
            rollouts.push(rate(cfg.rollout_time, |k| batch.rollout(k, &mut out.view()).steps));
        }
        let (mut depth, mut nodes, mut nps) = (0, 0, f64::NAN);
        if let Some((position, rows)) = first_perft_block(entry.id) {
            if let Some(&(d, want)) = rows.iter().filter(|(_, n)| *n <= cfg.perft_max_nodes).max() {
                let state = match &position {
                    None => game.clone().new_state(0),
                    Some(p) => game.clone().state_from_string(p).expect("perft table position parses"),
                };
                let t = Instant::now();
                let got = state.perft(d).unwrap();
                let dt = t.elapsed();
                assert_eq!(got, want, "{} perft({d}) of the table's first position", entry.id);
                (depth, nodes, nps) = (d, got, got as f64 / dt.as_secs_f64());
            }
        }
        println!(
            "{:<14}{:>6}{:>6}{:>17}{:>17}{:>7}{:>13}{:>10}",
            entry.id,
            game.spec().num_actions,
            game.spec().observation_len(),
            human(rollouts[0]),
            human(rollouts[1]),
            if depth > 0 { depth.to_string() } else { "-".into() },
            if depth > 0 { nodes.to_string() } else { "-".into() },
            if depth > 0 { human(nps) } else { "-".into() },
        );
    }
}
