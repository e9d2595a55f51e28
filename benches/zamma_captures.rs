//! Zamma capture cost: how much work alquerque's immediate-removal majority
//! search does on positions with many mulás (flying kings), the slow case of
//! the arena ladder (issue #13).
//!
//! `cargo bench --bench zamma_captures [-- POSITION ...]`:
//! per position, the majority-search nodes and time of one `legal_mask`, of
//! `next_states` (every complete turn, what the agents expand) and of an
//! `alphabeta` search to depth 4 (the Python agent's defaults: table 2^18,
//! quiescence); without arguments the ladder's slow position and the three
//! costliest turn listings of its ab4 search (`--search`).
//!
//! `... -- --hunt GAMES SEED [DEPTH]`: random zamma games biased towards
//! mulás; prints the positions whose `next_states` (with DEPTH: whose
//! alpha-beta search to DEPTH) cost the most majority-search nodes.
//!
//! `... -- --tree POSITION DEPTH`: the same over every position up to
//! DEPTH turns below POSITION (where an agent's search goes).
//!
//! `... -- --search POSITION`: the `next_states` calls of an ab4 search
//! from POSITION that cost the most majority nodes.
//!
//! `... -- --calls N POSITION`: only `N` x (`legal_mask` + `next_states`) on
//! one position, for `valgrind --tool=callgrind` (instruction counts do not
//! depend on the machine's load; the binary is
//! `target/release/deps/zamma_captures-*`). `... -- --mask POSITION`: one
//! `legal_mask` only.
//!
//! Node counts do not depend on the machine; times do (say the load).

use ludoteca::core::rng_from_seed;
use ludoteca::games::alquerque::{majority_search_nodes, Alquerque, Board, Removal, State};
use ludoteca::search::alphabeta::{self, Config};
use ludoteca::search::eval::Builtin;
use ludoteca::{Action, Applied, Rules, ToAct};
use rand::RngExt;
use std::time::Instant;

/// The ladder's position (39.5 s for ab4's move under load) and the three
/// costliest `next_states` calls of its ab4 search (`--search`): a black
/// mulá among many white pawns.
const POSITIONS: &[&str] = &[
    "ww7/wwwww3b/9/wwww1ww2/2w1w4/9/1w5bb/4w3b/8b w",
    "ww6B/w1www4/1w7/wwww1ww2/2w6/5w3/1w5bb/4w3b/8b b",
    "ww6B/wwwww4/9/wwww1ww2/9/1w3w3/1w5bb/4w3b/8b b",
    "1w6B/wwwww4/1w7/wwww1ww2/2w1w4/9/1w5bb/4w3b/8b b",
];

fn measure<T>(f: impl FnOnce() -> T) -> (T, u64, f64) {
    let n0 = majority_search_nodes();
    let t = Instant::now();
    let out = f();
    (out, majority_search_nodes() - n0, t.elapsed().as_secs_f64())
}

fn report(rules: &Alquerque, text: &str) {
    let s = rules.from_position(text).expect("a zamma position");
    let mut mask = vec![false; rules.spec().num_actions];
    let (_, n_mask, t_mask) = measure(|| rules.legal_mask(&s, &mut mask));
    let mut kids = Vec::new();
    let (_, n_next, t_next) = measure(|| rules.next_states(&s, &mut kids));
    let cfg = Config {
        depth: 4,
        time: None,
        tt_entries: 1 << 18,
        quiescence: true,
        iterative: true,
        repeated: Vec::new(),
        contempt: 0.0,
        threats: false,
    };
    let (out, n_ab, t_ab) = measure(|| alphabeta::search(rules, &s, &cfg, &mut Builtin).expect("a search"));
    println!("{text}");
    println!(
        "  legal_mask: {} actions, {n_mask} nodes, {:.3} ms | next_states: {} turns, {n_next} nodes, {:.3} ms",
        mask.iter().filter(|&&m| m).count(),
        t_mask * 1e3,
        kids.len(),
        t_next * 1e3
    );
    println!(
        "  alphabeta depth 4: {} search nodes, {n_ab} majority nodes, {t_ab:.3} s ({:.3} ms/search node)",
        out.nodes,
        t_ab * 1e3 / out.nodes as f64
    );
}

/// Random games in which the side to move prefers (7 times in 10) the turn
/// leaving the most mulás, so that mulás appear; returns (majority nodes,
/// position) per turn: of `next_states`, or with `depth` > 0 of an
/// alpha-beta search to that depth (every 5th turn).
fn hunt(rules: &Alquerque, games: u32, seed: u64, depth: u32) -> Vec<(u64, String)> {
    let mut rng = rng_from_seed(seed);
    let mut found = Vec::new();
    let mut mask = vec![false; rules.spec().num_actions];
    for _ in 0..games {
        let mut s = rules.initial_state(&mut rng);
        for _ in 0..400 {
            let ToAct::Player(_) = rules.to_act(&s) else { break };
            if depth == 0 {
                let mut kids = Vec::new();
                let (_, n, _) = measure(|| rules.next_states(&s, &mut kids));
                found.push((n, rules.to_position(&s)));
            } else {
                let cfg = Config {
                    depth,
                    time: None,
                    tt_entries: 1 << 18,
                    quiescence: true,
                    iterative: true,
                    repeated: Vec::new(),
                    contempt: 0.0,
                    threats: false,
                };
                let (_, n, t) = measure(|| alphabeta::search(rules, &s, &cfg, &mut Builtin).expect("a search"));
                found.push((n, format!("{t:.3} s  {}", rules.to_position(&s))));
            }
            let turns = rules.turns(&s);
            if turns.is_empty() {
                break;
            }
            let kings = |t: &State| t.kings.count_ones();
            let pick = if rng.random_bool(0.7) {
                (0..turns.len()).max_by_key(|&i| (kings(&turns[i].state), rng.random_range(0..1000u32))).unwrap()
            } else {
                rng.random_range(0..turns.len())
            };
            for &a in &turns[pick].actions {
                rules.legal_mask(&s, &mut mask);
                assert!(mask[a.index()]);
                let _: Applied = rules.apply(&mut s, Action(a.0), &mut rng);
            }
        }
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    found.dedup_by(|a, b| a.1 == b.1);
    found
}

/// Every distinct position up to `depth` turns below `text`, by the
/// majority nodes of its `next_states` (the agents' expansion), worst first.
fn tree(rules: &Alquerque, text: &str, depth: u32) -> Vec<(u64, String)> {
    let mut level = vec![rules.from_position(text).expect("a zamma position")];
    let mut seen = std::collections::HashSet::new();
    let mut found = Vec::new();
    for _ in 0..=depth {
        let mut next = Vec::new();
        for s in level {
            if !seen.insert(s) || rules.to_act(&s) == ToAct::Terminal {
                continue;
            }
            let mut kids = Vec::new();
            let (_, n, _) = measure(|| rules.next_states(&s, &mut kids));
            found.push((n, rules.to_position(&s)));
            next.extend(kids);
        }
        level = next;
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    found
}

/// Alquerque's rules, recording the `next_states` calls that cost the most
/// majority nodes (to find where a search spends them).
struct Recorder {
    rules: Alquerque,
    worst: std::sync::Mutex<Vec<(u64, State)>>,
}

impl Rules for Recorder {
    type State = State;
    fn spec(&self) -> &ludoteca::GameSpec {
        self.rules.spec()
    }
    fn initial_state(&self, rng: &mut ludoteca::GameRng) -> State {
        self.rules.initial_state(rng)
    }
    fn to_act(&self, s: &State) -> ToAct {
        self.rules.to_act(s)
    }
    fn legal_mask(&self, s: &State, mask: &mut [bool]) {
        self.rules.legal_mask(s, mask)
    }
    fn apply(&self, s: &mut State, a: Action, rng: &mut ludoteca::GameRng) -> Applied {
        self.rules.apply(s, a, rng)
    }
    fn returns(&self, s: &State) -> [f32; 2] {
        self.rules.returns(s)
    }
    fn observe(&self, s: &State, out: &mut [f32]) {
        self.rules.observe(s, out)
    }
    fn to_position(&self, s: &State) -> String {
        self.rules.to_position(s)
    }
    fn from_position(&self, text: &str) -> ludoteca::Result<State> {
        self.rules.from_position(text)
    }
    fn action_to_string(&self, s: &State, a: Action) -> String {
        self.rules.action_to_string(s, a)
    }
    fn notation(&self, s: &State, actions: &[Action]) -> String {
        self.rules.notation(s, actions)
    }
    fn piece_counts(&self, s: &State) -> [u32; 2] {
        self.rules.piece_counts(s)
    }
    fn heuristic(&self, s: &State, p: ludoteca::Player) -> f32 {
        self.rules.heuristic(s, p)
    }
    fn turns(&self, s: &State) -> Vec<ludoteca::Turn<State>> {
        self.rules.turns(s)
    }
    fn next_states(&self, s: &State, out: &mut Vec<State>) {
        let (_, n, _) = measure(|| self.rules.next_states(s, out));
        let mut w = self.worst.lock().expect("one search thread");
        w.push((n, *s));
        if w.len() > 4096 {
            w.sort_by_key(|f| std::cmp::Reverse(f.0));
            w.truncate(64);
        }
    }
}

fn main() {
    let rules = Alquerque::new(Board::Zamma, Removal::Immediate);
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    match args.first().map(String::as_str) {
        Some("--hunt") => {
            let games = args.get(1).map_or(100, |a| a.parse().expect("GAMES"));
            let seed = args.get(2).map_or(1, |a| a.parse().expect("SEED"));
            let depth = args.get(3).map_or(0, |a| a.parse().expect("DEPTH"));
            let found = hunt(&rules, games, seed, depth);
            let total: u64 = found.iter().map(|f| f.0).sum();
            println!("{} positions, {total} majority nodes", found.len());
            for (n, pos) in found.iter().take(10) {
                println!("{n:>10}  {pos}");
            }
        }
        Some("--search") => {
            let rec = Recorder { rules: Alquerque::new(Board::Zamma, Removal::Immediate), worst: Default::default() };
            let s = rules.from_position(&args[1]).expect("a zamma position");
            let cfg = Config {
                depth: 4,
                time: None,
                tt_entries: 1 << 18,
                quiescence: true,
                iterative: true,
                repeated: Vec::new(),
                contempt: 0.0,
                threats: false,
            };
            alphabeta::search(&rec, &s, &cfg, &mut Builtin).expect("a search");
            let mut w = rec.worst.into_inner().expect("one search thread");
            let total: u64 = w.iter().map(|f| f.0).sum();
            w.sort_by_key(|f| std::cmp::Reverse(f.0));
            w.dedup_by(|a, b| a.1 == b.1);
            println!("{total} majority nodes in the recorded next_states");
            for (n, s) in w.iter().take(10) {
                println!("{n:>10}  {}", rules.to_position(s));
            }
        }
        Some("--tree") => {
            let depth: u32 = args[2].parse().expect("DEPTH");
            let found = tree(&rules, &args[1], depth);
            let total: u64 = found.iter().map(|f| f.0).sum();
            println!("{} positions, {total} majority nodes in next_states", found.len());
            for (n, pos) in found.iter().take(10) {
                println!("{n:>10}  {pos}");
            }
        }
        Some("--mask") => {
            let s = rules.from_position(&args[1]).expect("a zamma position");
            let mut mask = vec![false; rules.spec().num_actions];
            let (_, n, t) = measure(|| rules.legal_mask(&s, &mut mask));
            println!("{} actions, {n} majority nodes, {:.3} ms", mask.iter().filter(|&&m| m).count(), t * 1e3);
        }
        Some("--calls") => {
            let n: u32 = args[1].parse().expect("N");
            let s = rules.from_position(&args[2]).expect("a zamma position");
            let mut mask = vec![false; rules.spec().num_actions];
            let mut kids = Vec::new();
            for _ in 0..n {
                rules.legal_mask(&s, &mut mask);
                kids.clear();
                rules.next_states(&s, &mut kids);
            }
            println!("{} turns, {} majority nodes", kids.len(), majority_search_nodes());
        }
        _ => {
            let list: Vec<&str> =
                if args.is_empty() { POSITIONS.to_vec() } else { args.iter().map(String::as_str).collect() };
            for text in list {
                report(&rules, text);
            }
        }
    }
}
