//! Runs every perft table in `tests/data/perft/*.txt` (one generic test, data
//! files per game, as shakmaty does).
//!
//! File format, one directive per line (`#` starts a comment):
//!   options NAME=VALUE ...    game options for the blocks that follow
//!   position start|STRING     a new block: the seed-0 initial state, or a position string
//!   perft DEPTH COUNT         expected count at DEPTH
//! The file stem (before an optional `.suffix`) is the game id. Depths whose
//! count exceeds LUDOTECA_PERFT_MAX_NODES (default 2,000,000) are skipped.

use ludoteca::options::OptValue;
use ludoteca::registry;
use std::path::Path;

fn parse_value(v: &str) -> OptValue {
    match v {
        "true" | "True" => OptValue::Bool(true),
        "false" | "False" => OptValue::Bool(false),
        _ => v.parse::<i64>().map(OptValue::Int).unwrap_or_else(|_| OptValue::Str(v.to_string())),
    }
}

#[test]
fn perft_tables() {
    let max_nodes: u64 =
        std::env::var("LUDOTECA_PERFT_MAX_NODES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000_000);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let id = stem.split('.').next().unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let mut options: Vec<(String, OptValue)> = Vec::new();
        let mut state = None;
        for (lineno, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap().trim();
            let where_ = format!("{}:{}", path.display(), lineno + 1);
            if line.is_empty() {
                continue;
            }
            let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
            match cmd {
                "options" => {
                    options = rest
                        .split_whitespace()
                        .map(|kv| {
                            let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("{where_}: bad option {kv}"));
                            (k.to_string(), parse_value(v))
                        })
                        .collect();
                }
                "position" => {
                    let game = registry::make(id, &options).unwrap_or_else(|e| panic!("{where_}: {e}"));
                    state = Some(if rest.trim() == "start" {
                        game.new_state(0)
                    } else {
                        game.state_from_string(rest.trim()).unwrap_or_else(|e| panic!("{where_}: {e}"))
                    });
                }
                "perft" => {
                    let mut it = rest.split_whitespace().map(|x| x.parse::<u64>().unwrap());
                    let (depth, want) = (it.next().unwrap(), it.next().unwrap());
                    if want > max_nodes {
                        continue;
                    }
                    let s = state.as_ref().unwrap_or_else(|| panic!("{where_}: perft before position"));
                    let got = s.perft(depth as u32).unwrap();
                    checked += 1;
                    if got != want {
                        failures.push(format!("{where_}: {id} perft({depth}) = {got}, expected {want}"));
                    }
                }
                other => panic!("{where_}: unknown directive {other}"),
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    eprintln!("perft: {checked} counts checked");
}
