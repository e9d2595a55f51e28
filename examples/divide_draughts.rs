//! perft divide: `cargo run --example divide_draughts -- GAME DEPTH "POSITION"`.
use ludoteca::games::draughts::{preset, DraughtsRules};
use ludoteca::Rules;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p = preset::PRESETS.iter().find(|p| p.id == args[1]).expect("unknown preset");
    let r = DraughtsRules::new(**p);
    let depth: u32 = args[2].parse().unwrap();
    let s = r.from_position(&args[3]).unwrap();
    for t in r.turns(&s) {
        println!("{} {} {}", t.notation, r.perft(&t.state, depth - 1), r.to_position(&t.state));
    }
}
