//! MCTS on hand-built positions of every family (through the registry, as
//! the bindings use it), tree invariants, chance selection, determinism.

use super::mcts::{halving_sequence, ChanceSelection, Forest, MctsConfig, Root, RootSelection, SearchResult};
use crate::core::{rng_from_seed, Action, Applied, Player, ToAct};
use crate::dynamic::DynMcts;
use crate::dynamic::{DynGame, DynState};
use crate::options::OptValue;
use crate::registry;
use crate::testing::toy::{Pile, PileRules};
use std::sync::Arc;

fn game(id: &str, options: &[(&str, OptValue)]) -> Arc<dyn DynGame> {
    let given: Vec<(String, OptValue)> = options.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    registry::make(id, &given).unwrap_or_else(|e| panic!("{e}"))
}

fn state(g: &Arc<dyn DynGame>, text: &str) -> Box<dyn DynState> {
    g.clone().state_from_string(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Gumbel considers every legal action here, without root noise: with a
/// uniform prior, 16 of a Tablut position's 60 moves may miss the winning
/// one, and the final pick adds the Gumbel draws to values that random
/// playouts make close (a Tablut king wins most random games wherever it stands).
fn config(simulations: u32, root: RootSelection) -> MctsConfig {
    MctsConfig { simulations, root, considered: 256, gumbel_scale: 0.0, ..MctsConfig::default() }
}

fn search(
    g: &Arc<dyn DynGame>,
    states: &[&dyn DynState],
    config: MctsConfig,
    threads: usize,
    seed: u64,
) -> (Box<dyn DynMcts>, Vec<SearchResult>) {
    let mut m = g.clone().new_mcts(config, threads, seed).unwrap();
    m.set_roots(states).unwrap();
    m.search_rollouts().unwrap();
    let r = m.results();
    (m, r)
}

/// Plays the mover's whole turn, one search per decision; returns the
/// decisions' names and the state after the turn.
fn play_turn(g: &Arc<dyn DynGame>, start: &dyn DynState, config: MctsConfig) -> (Vec<String>, Box<dyn DynState>) {
    let mut s = start.clone_box();
    let mut names = Vec::new();
    loop {
        let (m, r) = search(g, &[s.as_ref()], config.clone(), 1, 3);
        m.check_tree(0).unwrap();
        let a = r[0].action;
        names.push(s.action_to_string(a.0 as i64).unwrap());
        if s.apply(a.0 as i64).unwrap() == Applied::TurnOver || s.to_act() == ToAct::Terminal {
            return (names, s);
        }
    }
}

/// The mover of `text` wins at once with the turn MCTS chooses, under both root selections.
fn assert_finds_win(id: &str, text: &str, simulations: u32, want: &str) {
    let g = game(id, &[]);
    let s = state(&g, text);
    let mover = s.to_act().player().expect("a player moves");
    for root in [RootSelection::Puct, RootSelection::Gumbel] {
        let (names, after) = play_turn(&g, s.as_ref(), config(simulations, root));
        assert_eq!(after.to_act(), ToAct::Terminal, "{id} {root:?}: played {names:?}");
        assert!(after.returns()[mover.index()] > 0.0, "{id} {root:?}: played {names:?}, returns {:?}", after.returns());
        assert_eq!(names.join(" "), want, "{id} {root:?}");
    }
}

#[test]
fn checkers_finds_the_double_capture_that_wins_not_the_single_one() {
    // 1x10x17 takes both white men; 9x18 takes one and loses the game later.
    assert_finds_win("checkers", "B:B1,9:W6,14", 200, "1x10 10x17");
}

#[test]
fn kharbaga_finds_the_multi_capture_that_takes_the_last_pieces() {
    let g = game("kharbaga", &[]);
    let s = state(&g, "5/4/5/4/5/4/1ww2/bb2/5 b");
    let (names, after) = play_turn(&g, s.as_ref(), config(100, RootSelection::Puct));
    assert_eq!(after.to_act(), ToAct::Terminal, "{names:?}");
    assert!(names.len() >= 2, "a capture of two hops is two decisions: {names:?}");
}

#[test]
fn tablut_king_escapes_to_the_corner_one_move_away() {
    // The start position with the king on c1 instead of the throne: c1-a1 escapes at once.
    assert_finds_win("tablut", "3MMM3/4M4/4S4/M3S3M/MMSS1SSMM/M3S3M/4S4/4M4/2KMMM3 s", 1000, "c1-a1");
}

#[test]
fn backgammon_bear_off_that_wins_takes_both_checkers_in_either_order() {
    // Player 0: checkers on its 6 and 5 points, roll 6-5; the opponent bears
    // off its last checker with any roll. Only 6/off then 5/off (two
    // decisions of the same player) wins; 6/1 leaves a checker and loses.
    for chance in ["sampled", "explicit"] {
        let g = game("backgammon", &[("chance", OptValue::Str(chance.into()))]);
        let s = state(&g, "AACAQAEAAAAAAA:MAE3AAAAAAAA");
        for root in [RootSelection::Puct, RootSelection::Gumbel] {
            let (names, after) = play_turn(&g, s.as_ref(), config(200, root));
            assert_eq!(after.to_act(), ToAct::Terminal, "{chance} {root:?}: {names:?}");
            assert!(after.returns()[0] > 0.0, "{chance} {root:?}: {names:?}");
            assert_eq!(names.len(), 2, "{names:?}");
        }
    }
}

#[test]
fn tablero_soplo_huff_that_wins_material_is_chosen() {
    // White may huff black's 22 (which should have captured): the huff wins a man.
    let g = game("tablero", &[]);
    let s = state(&g, "W:B22,25,28:W1,18;h=22");
    // Gumbel's sequential halving splits its visits evenly between s22 and
    // 1-6 (which loses by force) and tells them apart by their random
    // playouts' means, within 0.02 of each other below 16,000 simulations.
    for (root, simulations) in [(RootSelection::Puct, 2000), (RootSelection::Gumbel, 16_000)] {
        let (_, r) = search(&g, &[s.as_ref()], config(simulations, root), 1, 5);
        assert_eq!(s.action_to_string(r[0].action.0 as i64).unwrap(), "s22", "{root:?}");
    }
}

#[test]
fn backups_add_each_value_once_along_multi_decision_turns_and_chance_nodes() {
    type Case<'a> = (&'a str, &'a [(&'a str, OptValue)], Option<&'a str>);
    let cases: [Case<'_>; 4] = [
        ("backgammon", &[("chance", OptValue::Str("explicit".into()))], Some("AACAQAEAAAAAAA:MAE3AAAAAAAA")),
        ("backgammon", &[], None),
        ("checkers", &[], Some("B:B1,9,2,3:W6,14,15,23")),
        ("kharbaga", &[], None),
    ];
    for (id, options, text) in cases {
        let g = game(id, options);
        let mut s = match text {
            Some(t) => state(&g, t),
            None => g.clone().new_state(1),
        };
        if s.to_act() == ToAct::Chance {
            let a = s.chance_outcomes()[0].0;
            s.apply(a.0 as i64).unwrap();
        }
        for root in [RootSelection::Puct, RootSelection::Gumbel] {
            let (m, _) = search(&g, &[s.as_ref()], config(600, root), 1, 9);
            let check = m.check_tree(0).unwrap_or_else(|e| panic!("{id} {root:?}: {e}"));
            if id == "backgammon" {
                assert!(check.same_player_edges > 0 && check.chance_nodes_checked > 0, "{id}: {check:?}");
            }
        }
    }
}

#[test]
fn stratified_chance_selection_keeps_every_outcome_within_one_visit_of_its_share() {
    let g = game("backgammon", &[]);
    let s = g.clone().new_state(4);
    let mut c = config(3000, RootSelection::Puct);
    c.chance = ChanceSelection::Stratified;
    let (m, _) = search(&g, &[s.as_ref()], c, 1, 1);
    let check = m.check_tree(0).unwrap();
    assert!(check.chance_nodes_checked > 10, "{check:?}");
}

#[test]
fn stratified_chance_selection_ends_a_chain_of_passes_with_both_sides_on_the_bar() {
    // Both players on the bar, each entering with some rolls only: with
    // ties broken towards the first outcome, every new chance node chose the
    // same first roll of highest probability, which entered for neither, and a single
    // simulation passed back and forth until memory ran out.
    let g = game("backgammon", &[("chance", OptValue::Str("explicit".into()))]);
    // X has rolled; after its move both sides may be on the bar (a hit).
    let s = state(&g, "2xwAoEff8YYAAA:MAEnAAAAAAAA");
    let mut c = config(400, RootSelection::Puct);
    c.chance = ChanceSelection::Stratified;
    let (m, _) = search(&g, &[s.as_ref()], c, 1, 1);
    let check = m.check_tree(0).unwrap();
    assert!(check.nodes < 400 * 40, "{check:?}");
}

#[test]
fn sampled_chance_selection_visits_outcomes_by_probability() {
    let g = game("backgammon", &[]);
    let s = g.clone().new_state(4);
    let mut c = config(4000, RootSelection::Puct);
    c.chance = ChanceSelection::Sample;
    let (m, _) = search(&g, &[s.as_ref()], c, 1, 1);
    m.check_tree(0).unwrap();
    // Pool the chance nodes visited often: doubles (p = 1/36) against the
    // rest, a binomial count with a 5-sigma tolerance; stratified would
    // be exact, so also require some node to differ from its share by more than one.
    let nodes = m.chance_visits(0, 200);
    assert!(!nodes.is_empty());
    let (mut total, mut doubles, mut off_share) = (0u32, 0u32, false);
    for node in &nodes {
        let n: u32 = node.iter().map(|o| o.1).sum();
        total += n;
        doubles += node.iter().filter(|o| o.0 < 0.04).map(|o| o.1).sum::<u32>();
        off_share |= node.iter().any(|o| (o.1 as f64 - o.0 as f64 * n as f64).abs() > 1.5);
    }
    let p = 6.0 / 36.0;
    let sd = (total as f64 * p * (1.0 - p)).sqrt();
    assert!((doubles as f64 - p * total as f64).abs() < 5.0 * sd, "{doubles} of {total}");
    assert!(off_share, "sampling should not be stratified");
}

#[test]
fn same_seed_same_result_for_any_thread_count() {
    for (id, root) in
        [("backgammon", RootSelection::Puct), ("checkers", RootSelection::Gumbel), ("tablut", RootSelection::Puct)]
    {
        let g = game(id, &[]);
        let states: Vec<Box<dyn DynState>> = (0..5).map(|i| g.clone().new_state(i)).collect();
        let states: Vec<Box<dyn DynState>> = states
            .into_iter()
            .map(|mut s| {
                while s.to_act() == ToAct::Chance {
                    let a = s.chance_outcomes()[0].0;
                    s.apply(a.0 as i64).unwrap();
                }
                s
            })
            .collect();
        let refs: Vec<&dyn DynState> = states.iter().map(|s| s.as_ref()).collect();
        let mut c = config(150, root);
        c.dirichlet_fraction = 0.25;
        c.temperature = 1.0;
        c.gumbel_scale = 1.0;
        type Summary = Vec<(u32, Vec<(u32, u32)>, f32)>;
        let summary = |r: &[SearchResult]| -> Summary {
            r.iter().map(|x| (x.action.0, x.children.iter().map(|c| (c.0 .0, c.1)).collect(), x.value)).collect()
        };
        let one = summary(&search(&g, &refs, c.clone(), 1, 42).1);
        for threads in [2, 3, 8] {
            assert_eq!(summary(&search(&g, &refs, c.clone(), threads, 42).1), one, "{id} with {threads} threads");
        }
        assert_ne!(summary(&search(&g, &refs, c.clone(), 1, 43).1), one, "{id}: another seed, another search");
    }
}

#[test]
fn halving_sequence_matches_mctx() {
    // mctx 0.0.71 seq_halving.get_sequence_of_considered_visits(4, 20) and (16, 50).
    assert_eq!(halving_sequence(4, 20), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
    let want: Vec<u32> = [
        vec![0; 16],
        vec![1; 8],
        vec![2; 4],
        vec![3; 4],
        vec![4; 4],
        vec![5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11],
    ]
    .concat();
    assert_eq!(halving_sequence(16, 50), want);
}

#[test]
fn gumbel_simulates_each_considered_action_by_the_halving_plan() {
    let g = game("checkers", &[]);
    let s = g.clone().new_state(0);
    let mut c = config(64, RootSelection::Gumbel);
    c.considered = 4;
    c.gumbel_scale = 1.0;
    let (_, r) = search(&g, &[s.as_ref()], c, 1, 0);
    let mut visits: Vec<u32> = r[0].children.iter().map(|c| c.1).filter(|&v| v > 0).collect();
    visits.sort();
    // Four actions considered: 64 simulations = rounds of 4 x 8, then 2 x 16.
    assert_eq!(visits, [8, 8, 24, 24]);
    let total: f32 = r[0].children.iter().map(|c| c.2).sum();
    assert!((total - 1.0).abs() < 1e-5);
}

#[test]
fn truncated_leaves_are_valued_as_draws() {
    // With max_turns = 1 every leaf after one turn is truncated (value 0),
    // and the root's own playout stops there too.
    let g = game("checkers", &[("max_turns", OptValue::Int(1))]);
    let s = g.clone().new_state(0);
    let (m, r) = search(&g, &[s.as_ref()], config(200, RootSelection::Puct), 1, 0);
    m.check_tree(0).unwrap();
    assert_eq!(r[0].value, 0.0);
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_position_reached() {
    let g = game("checkers", &[]);
    let s = g.clone().new_state(0);
    let mut c = config(300, RootSelection::Puct);
    c.reuse_tree = true;
    let mut m = g.clone().new_mcts(c, 1, 0).unwrap();
    m.set_roots(&[s.as_ref()]).unwrap();
    m.search_rollouts().unwrap();
    let first = m.results().remove(0);
    let mut next = s.clone_box();
    next.apply(first.action.0 as i64).unwrap();
    let kept = first.children.iter().find(|c| c.0 == first.action).unwrap().1;
    m.set_roots(&[next.as_ref()]).unwrap();
    m.search_rollouts().unwrap();
    let second = m.results().remove(0);
    let total: u32 = second.children.iter().map(|c| c.1).sum();
    // The kept node had `kept` visits (one of them its own evaluation).
    assert_eq!(total, 300 + kept - 1);
    m.check_tree(0).unwrap();
}

#[test]
fn user_evaluator_gets_one_row_per_waiting_tree_and_its_answer_is_checked() {
    let g = game("backgammon", &[]);
    let states: Vec<Box<dyn DynState>> = (0..3).map(|i| g.clone().new_state(i)).collect();
    let refs: Vec<&dyn DynState> = states.iter().map(|s| s.as_ref()).collect();
    let mut m = g.clone().new_mcts(config(20, RootSelection::Gumbel), 2, 0).unwrap();
    m.set_roots(&refs).unwrap();
    let (olen, a) = (g.spec().observation_len(), g.spec().num_actions);
    let mut calls = 0;
    loop {
        let n = m.select().unwrap();
        if n == 0 {
            break;
        }
        assert!(n <= 3);
        calls += 1;
        let mut obs = vec![f32::NAN; n * olen];
        let mut mask = vec![false; n * a];
        m.write_leaves(crate::game::ObsBuf::F32(&mut obs), &mut mask);
        assert!(obs.iter().all(|x| x.is_finite()));
        for row in mask.chunks(a) {
            assert!(row.iter().any(|&b| b), "every leaf has a legal action");
        }
        assert!(m.expand(&vec![0.0; n * a], &vec![0.0; n + 1]).is_err(), "wrong number of values");
        let mut bad = vec![0.0; n * a];
        let first_legal = mask.iter().position(|&b| b).unwrap();
        bad[first_legal] = f32::NAN;
        assert!(m.expand(&bad, &vec![0.0; n]).is_err(), "NaN logit at a legal action");
        m.expand(&vec![0.0; n * a], &vec![0.5; n]).unwrap();
    }
    // The root evaluations, then one wave per simulation.
    assert_eq!(calls, 21);
    for i in 0..3 {
        m.check_tree(i).unwrap();
    }
}

#[test]
fn search_refuses_roots_without_a_player_to_decide_and_sampled_chance_rules() {
    let g = game("backgammon", &[("chance", OptValue::Str("explicit".into()))]);
    let s = g.clone().new_state(0);
    assert_eq!(s.to_act(), ToAct::Chance);
    let mut m = g.clone().new_mcts(config(10, RootSelection::Puct), 1, 0).unwrap();
    assert!(m.set_roots(&[s.as_ref()]).unwrap_err().to_string().contains("chance node"));
    let sampled = crate::games::backgammon::Backgammon::new(1, false);
    let mut f = Forest::new(config(10, RootSelection::Puct), 1, 0).unwrap();
    let root = super::mcts::Root { state: sampled.opening_state([0, 0], 1), turns: 0 };
    assert!(f.set_roots(&sampled, vec![root]).unwrap_err().to_string().contains("explicit"));
    let other = game("checkers", &[]);
    let t = other.clone().new_state(0);
    assert!(m.set_roots(&[t.as_ref()]).is_err(), "a state of another game");
}

/// A deterministic stand-in for a network: a value in (-1, 1) that depends
/// on every entry of the observation, and zero logits.
fn fake_value(obs: &[f32]) -> f32 {
    let x: f32 = obs.iter().enumerate().map(|(k, &o)| o * (((k * 37) % 11) as f32 - 5.0) / 7.0).sum();
    x.tanh()
}

/// Runs a search answering every leaf with [`fake_value`]; returns how
/// many rows were chance nodes (all-false masks).
fn search_fake(m: &mut dyn DynMcts, olen: usize, a: usize) -> usize {
    let mut chance_rows = 0;
    loop {
        let n = m.select().unwrap();
        if n == 0 {
            return chance_rows;
        }
        let mut obs = vec![f32::NAN; n * olen];
        let mut mask = vec![true; n * a];
        m.write_leaves(crate::game::ObsBuf::F32(&mut obs), &mut mask);
        chance_rows += mask.chunks(a).filter(|row| row.iter().all(|&b| !b)).count();
        let values: Vec<f32> = obs.chunks(olen).map(fake_value).collect();
        // Non-finite logits where nothing is legal are never read.
        let logits: Vec<f32> = mask.iter().map(|&legal| if legal { 0.0 } else { f32::NAN }).collect();
        m.expand(&logits, &values).unwrap();
    }
}

/// Backgammon positions (explicit chance) where the player has played one
/// die of a non-double roll: every legal decision completes the move.
fn one_die_left(g: &Arc<dyn DynGame>) -> Vec<Box<dyn DynState>> {
    let mut found = Vec::new();
    for seed in 0..40 {
        let mut s = g.clone().new_state(seed);
        let a = s.chance_outcomes()[0].0;
        s.apply(a.0 as i64).unwrap();
        let mut mask = vec![false; g.spec().num_actions];
        s.legal_mask(&mut mask);
        let first = mask.iter().position(|&b| b).unwrap();
        if s.apply(first as i64).unwrap() == Applied::TurnOver || s.to_act().player().is_none() {
            continue;
        }
        s.legal_mask(&mut mask);
        let completes = (0..mask.len()).filter(|&k| mask[k]).all(|k| {
            let mut t = s.clone_box();
            t.apply(k as i64).unwrap() == Applied::TurnOver && t.to_act() == ToAct::Chance
        });
        if completes && mask.iter().filter(|&&b| b).count() >= 2 {
            found.push(s);
        }
    }
    found
}

#[test]
fn evaluate_chance_values_each_move_that_completes_the_turn_by_its_position_before_the_roll() {
    let g = game("backgammon", &[("chance", OptValue::Str("explicit".into()))]);
    let (olen, a) = (g.spec().observation_len(), g.spec().num_actions);
    let roots = one_die_left(&g);
    assert!(roots.len() >= 5, "{} positions", roots.len());
    for s in roots {
        let mover = s.to_act().player().unwrap();
        let mut mask = vec![false; a];
        s.legal_mask(&mut mask);
        let legal: Vec<usize> = (0..a).filter(|&k| mask[k]).collect();
        let mut c = config(legal.len() as u32, RootSelection::Gumbel);
        c.evaluate_chance = true;
        let mut m = g.clone().new_mcts(c, 1, 7).unwrap();
        m.set_roots(&[s.as_ref()]).unwrap();
        assert_eq!(search_fake(m.as_mut(), olen, a), legal.len(), "{}: one chance row per move", s.to_string());
        let children = m.root_children(0);
        assert_eq!(children.len(), legal.len());
        for (action, visits, q) in children {
            // Brute force: the position after the move, observed and valued
            // for the player about to roll, signed for the mover.
            let mut t = s.clone_box();
            t.apply(action.0 as i64).unwrap();
            assert_eq!(t.to_act(), ToAct::Chance);
            let mut obs = vec![0.0; olen];
            t.observe(crate::game::ObsBuf::F32(&mut obs));
            let roller = t.chance_player().expect("a backgammon chance node has a roller");
            assert_eq!(roller, mover.other(), "the opponent rolls next");
            let want = if roller == mover { fake_value(&obs) } else { -fake_value(&obs) };
            assert_eq!(visits, 1, "{}", s.to_string());
            assert!(
                (q - want).abs() < 1e-6,
                "{} {}: q {q}, want {want}",
                s.to_string(),
                s.action_to_string(action.0 as i64).unwrap()
            );
        }
        m.check_tree(0).unwrap();
    }
}

#[test]
fn evaluate_chance_later_visits_descend_through_the_outcomes() {
    // Sampled chance searches the explicit copy; both must work.
    for chance in ["explicit", "sampled"] {
        let g = game("backgammon", &[("chance", OptValue::Str(chance.into()))]);
        let (olen, a) = (g.spec().observation_len(), g.spec().num_actions);
        let mut s = g.clone().new_state(3);
        while s.to_act() == ToAct::Chance {
            let o = s.chance_outcomes()[0].0;
            s.apply(o.0 as i64).unwrap();
        }
        for root in [RootSelection::Puct, RootSelection::Gumbel] {
            let mut c = config(400, root);
            c.evaluate_chance = true;
            // The network-like evaluator through select/expand, then the playouts.
            let mut m = g.clone().new_mcts(c.clone(), 1, 5).unwrap();
            m.set_roots(&[s.as_ref()]).unwrap();
            let chance_rows = search_fake(m.as_mut(), olen, a);
            let check = m.check_tree(0).unwrap_or_else(|e| panic!("{chance} {root:?}: {e}"));
            assert!(chance_rows > 10 && check.chance_nodes_checked > 10, "{chance} {root:?}: {chance_rows} {check:?}");
            // Some chance node was visited again and descended: its outcomes hold visits.
            let descended = m.chance_visits(0, 3);
            assert!(!descended.is_empty(), "{chance} {root:?}");
            for outcomes in &descended {
                assert!(outcomes.iter().map(|o| o.1).sum::<u32>() >= 2);
            }
            let (m, _) = search(&g, &[s.as_ref()], c, 1, 5);
            m.check_tree(0).unwrap_or_else(|e| panic!("{chance} {root:?} rollouts: {e}"));
            assert!(!m.chance_visits(0, 3).is_empty());
        }
    }
}

/// FNV-1a over the results of searches of several games, root selections
/// and chance selections: a digest recorded before `evaluate_chance`
/// existed, so that the option's default (off) is proven to change nothing.
fn results_digest() -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u32| {
        for b in x.to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    };
    let cases: [(&str, &[(&str, OptValue)]); 3] =
        [("backgammon", &[]), ("backgammon", &[("match_length", OptValue::Int(3))]), ("checkers", &[])];
    for (id, options) in cases {
        let g = game(id, options);
        let states: Vec<Box<dyn DynState>> = (0..3)
            .map(|i| {
                let mut s = g.clone().new_state(i);
                while s.to_act() == ToAct::Chance {
                    let a = s.chance_outcomes()[0].0;
                    s.apply(a.0 as i64).unwrap();
                }
                s
            })
            .collect();
        let refs: Vec<&dyn DynState> = states.iter().map(|s| s.as_ref()).collect();
        for root in [RootSelection::Puct, RootSelection::Gumbel] {
            for chance in [ChanceSelection::Stratified, ChanceSelection::Sample] {
                let mut c = config(120, root);
                c.chance = chance;
                c.dirichlet_fraction = 0.25;
                c.temperature = 1.0;
                c.gumbel_scale = 1.0;
                c.considered = 8;
                for r in search(&g, &refs, c, 1, 11).1 {
                    eat(r.action.0);
                    eat(r.value.to_bits());
                    for (a, v, w) in r.children {
                        eat(a.0);
                        eat(v);
                        eat(w.to_bits());
                    }
                }
            }
        }
    }
    h
}

#[test]
fn search_results_without_evaluate_chance_are_those_recorded_before_the_option() {
    assert_eq!(format!("{:016x}", results_digest()), "4f18d8d244d5801d");
}

/// Backgammon's rules without [`Rules::chance_player`]: a game whose chance
/// nodes name no player to value them for.
struct NoRoller(crate::games::backgammon::Backgammon);

mod no_roller {
    use super::NoRoller;
    use crate::core::{Action, Applied, GameRng, ToAct};
    use crate::error::Result;
    use crate::game::{GameSpec, Rules};
    use crate::games::backgammon::State;

    impl Rules for NoRoller {
        type State = State;
        fn spec(&self) -> &GameSpec {
            self.0.spec()
        }
        fn initial_state(&self, rng: &mut GameRng) -> State {
            self.0.initial_state(rng)
        }
        fn to_act(&self, s: &State) -> ToAct {
            self.0.to_act(s)
        }
        fn legal_mask(&self, s: &State, mask: &mut [bool]) {
            self.0.legal_mask(s, mask)
        }
        fn apply(&self, s: &mut State, a: Action, rng: &mut GameRng) -> Applied {
            self.0.apply(s, a, rng)
        }
        fn returns(&self, s: &State) -> [f32; 2] {
            self.0.returns(s)
        }
        fn observe(&self, s: &State, out: &mut [f32]) {
            self.0.observe(s, out)
        }
        fn to_position(&self, s: &State) -> String {
            self.0.to_position(s)
        }
        fn from_position(&self, text: &str) -> Result<State> {
            self.0.from_position(text)
        }
        fn action_to_string(&self, s: &State, a: Action) -> String {
            self.0.action_to_string(s, a)
        }
        fn notation(&self, s: &State, actions: &[Action]) -> String {
            self.0.notation(s, actions)
        }
        fn piece_counts(&self, s: &State) -> [u32; 2] {
            self.0.piece_counts(s)
        }
        fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
            self.0.chance_outcomes(s)
        }
    }
}

#[test]
fn evaluate_chance_refuses_a_chance_node_without_a_player_to_value_it_for() {
    use super::mcts::Root;
    use crate::core::rng_from_seed;
    use crate::game::Rules;
    let rules = NoRoller(crate::games::backgammon::Backgammon::new(1, true));
    let mut s = rules.initial_state(&mut rng_from_seed(0));
    let a = rules.chance_outcomes(&s)[0].0;
    rules.apply(&mut s, a, &mut rng_from_seed(0));
    for evaluate_chance in [false, true] {
        let mut c = config(50, RootSelection::Puct);
        c.evaluate_chance = evaluate_chance;
        let mut f = Forest::new(c, 1, 0).unwrap();
        // The built-in playouts and a user evaluator alike.
        f.set_roots(&rules, vec![Root { state: s, turns: 0 }]).unwrap();
        let rollouts = f.search_rollouts(&rules);
        f.set_roots(&rules, vec![Root { state: s, turns: 0 }]).unwrap();
        let evaluated = f.search_with(&rules, |_, _, n| Ok((vec![0.0; n * rules.spec().num_actions], vec![0.0; n])));
        if evaluate_chance {
            for e in [rollouts.unwrap_err(), evaluated.unwrap_err()] {
                assert!(matches!(e, crate::error::GameError::Invalid(_)));
                let text = e.to_string();
                assert!(text.contains("evaluate_chance") && text.contains("no player"), "{text}");
            }
        } else {
            rollouts.unwrap();
            evaluated.unwrap();
            f.check_tree(0).unwrap();
        }
    }
}

/// The exact value for player 0 of the pile game at `s` with `turns` played:
/// plain minimax, a draw once `max_turns` are played.
fn pile_value(r: &PileRules, s: &Pile, turns: u32, max_turns: u32) -> f32 {
    use crate::game::Rules;
    if r.to_act(s) == ToAct::Terminal {
        return r.returns(s)[0];
    }
    if turns >= max_turns {
        return 0.0;
    }
    let mut mask = vec![false; r.spec().num_actions];
    r.legal_mask(s, &mut mask);
    let values = (0..3).filter(|&a| mask[a]).map(|a| {
        let mut next = *s;
        r.apply(&mut next, Action(a as u32), &mut rng_from_seed(0));
        pile_value(r, &next, turns + 1, max_turns)
    });
    if s.to_move == Player::P0 {
        values.fold(f32::NEG_INFINITY, f32::max)
    } else {
        values.fold(f32::INFINITY, f32::min)
    }
}

/// The solver against brute force: every node it proves (terminal,
/// truncated, won by one child, or decided by all of them) has the exact
/// minimax value, under both root selections.
#[test]
fn every_value_the_solver_proves_is_the_minimax_value() {
    let r = PileRules::new(9);
    for (root, start) in [(RootSelection::Puct, 6), (RootSelection::Gumbel, 6), (RootSelection::Puct, 9)] {
        let max_turns = 9;
        let mut f = Forest::new(MctsConfig { max_turns, ..config(3000, root) }, 1, 7).unwrap();
        f.set_roots(&r, vec![Root { state: Pile { left: start, to_move: Player::P0 }, turns: 0 }]).unwrap();
        f.search_rollouts(&r).unwrap();
        let proven = f.proven(0);
        let decided = proven.iter().filter(|(s, turns, _)| s.left > 0 && *turns < max_turns).count();
        assert!(decided >= 10, "{root:?}: only {decided} interior nodes proven");
        for (s, turns, v) in proven {
            assert_eq!(v, pile_value(&r, &s, turns, max_turns), "{root:?} {s:?} after {turns} turns");
        }
        f.check_tree(0).unwrap();
    }
}

/// Wins at once that MCTS with random playouts used to miss at 400
/// simulations (a one-ply look sees them): the solver finds them from the
/// walk of the root's complete turns and plays them, whatever the visits.
#[test]
fn a_win_at_once_is_always_played() {
    for (id, text) in [
        ("tablut", "6M2/6M2/6M2/M1S5K/1M3S3/3SS1M2/3SM1M1M/MM1MMM2M/2M6 s"),
        ("damas", "B:B6,9,K14,K20,24,28:WK16,K25;a=10-3,3-14/30-25,2-16"),
        ("kharbaga", "www1w/ww1w/1w3/www1/b1W1w/4/5/4/5 w"),
    ] {
        let g = game(id, &[]);
        let s = state(&g, text);
        let mover = s.to_act().player().expect("a player moves");
        for root in [RootSelection::Puct, RootSelection::Gumbel] {
            let default = MctsConfig { simulations: 400, root, ..MctsConfig::default() };
            let (names, after) = play_turn(&g, s.as_ref(), default);
            assert_eq!(after.to_act(), ToAct::Terminal, "{id} {root:?}: played {names:?}");
            assert!(after.returns()[mover.index()] > 0.0, "{id} {root:?}: played {names:?}");
        }
    }
}

#[test]
fn a_search_stopped_between_simulations_and_resumed_gives_the_uninterrupted_result() {
    // The hook Ctrl-C uses: every tree stops where it is, and the next call goes on.
    use std::sync::atomic::{AtomicU32, Ordering};
    let g = game("kharbaga", &[]);
    let roots: Vec<Box<dyn DynState>> = (0..3).map(|i| g.clone().new_state(i)).collect();
    let refs: Vec<&dyn DynState> = roots.iter().map(|s| s.as_ref()).collect();
    for threads in [1, 2] {
        let (_, whole) = search(&g, &refs, config(200, RootSelection::Gumbel), threads, 7);
        let mut m = g.clone().new_mcts(config(200, RootSelection::Gumbel), threads, 7).unwrap();
        m.set_roots(&refs).unwrap();
        let asked = AtomicU32::new(0);
        // Answers "stop" at every 37th question: each call runs a few simulations of each tree.
        let stop = || asked.fetch_add(1, Ordering::Relaxed) % 37 == 36;
        let mut calls = 1;
        while !m.search_rollouts_until(&stop).unwrap() {
            calls += 1;
        }
        assert!(calls > 5, "the hook never stopped the search");
        let pieces = m.results();
        for (a, b) in whole.iter().zip(&pieces) {
            assert_eq!((a.action, &a.children, a.value), (b.action, &b.children, b.value));
        }
        for i in 0..3 {
            m.check_tree(i).unwrap();
        }
    }
}
