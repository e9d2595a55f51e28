//! Random-game invariants every game must satisfy (spec: "Correct first").
//! Game modules call [`check_random_games`] from their tests.

pub(crate) mod toy;

use crate::core::{rng_from_seed, Action, Applied, ToAct};
use crate::game::Rules;
use rand::RngExt;
use std::collections::BTreeSet;

/// What a run of random games saw.
#[derive(Debug, Default, Clone, Copy)]
pub struct RandomGames {
    pub games: usize,
    pub decisions: usize,
    pub terminated: usize,
    /// Games stopped at `max_decisions` without ending.
    pub unfinished: usize,
}

/// Plays `games` seeded random games of at most `max_decisions` decisions and
/// checks at every decision:
/// * the mask has the spec's length and no offer action set (rules alone);
/// * at player decisions of the first `deep_games` games: every masked action
///   begins a complete turn (no dead ends), the positions reached by all the
///   mask's decision paths are exactly those `turns` lists, each once, and
///   every turn's notation parses back to a path reaching its position.
///   These deep checks compare positions after a turn, so they need a game
///   mode where nothing random happens at the end of a turn (backgammon:
///   explicit chance; sampled chance rolls the next dice there);
/// * `from_position(to_position(s))` round-trips the string and keeps the mask;
/// * piece counts never grow, observations are finite and sized right;
/// * terminal positions have zero-sum returns and an empty mask;
/// * at chance nodes the mask is exactly the set of chance outcomes, whose
///   probabilities sum to 1.
pub fn check_random_games<R: Rules>(
    rules: &R,
    games: usize,
    deep_games: usize,
    max_decisions: usize,
    seed: u64,
) -> RandomGames {
    let spec = rules.spec();
    let n = spec.num_actions;
    let mut report = RandomGames::default();
    let mut mask = vec![false; n];
    let mut mask2 = vec![false; n];
    let (mut bits, mut bits2) = (vec![0u64; n.div_ceil(64)], vec![0u64; n.div_ceil(64)]);
    let mut obs = vec![0.0f32; spec.observation_len()];
    for g in 0..games {
        let mut rng = rng_from_seed(seed.wrapping_add(g as u64));
        let mut s = rules.initial_state(&mut rng);
        let mut counts = rules.piece_counts(&s);
        report.games += 1;
        let mut finished = false;
        for _ in 0..max_decisions {
            let text = rules.to_position(&s);
            let parsed = rules
                .from_position(&text)
                .unwrap_or_else(|e| panic!("game {g}: own string {text:?} does not parse: {e}"));
            assert_eq!(rules.to_position(&parsed), text, "game {g}: string round trip");
            rules.legal_mask(&s, &mut mask);
            rules.legal_mask(&parsed, &mut mask2);
            assert_eq!(mask, mask2, "game {g}: parsed {text:?} has another mask");
            // The mask with its bits: over buffers full of stale entries.
            mask2.fill(true);
            bits.fill(u64::MAX);
            let mut listed = [u16::MAX; crate::game::LISTED];
            let mut out = crate::game::LegalOut {
                mask: &mut mask2,
                bits: &mut bits,
                listed: &mut listed,
                count: 99,
                is_listed: true,
            };
            rules.legal_out(&s, &mut out);
            let (count, is_listed) = (out.count as usize, out.is_listed);
            assert_eq!(mask, mask2, "game {g}: legal_out has another mask at {text:?}");
            crate::bits::pack_mask(&mask, &mut bits2);
            assert_eq!(bits, bits2, "game {g}: legal_out has other bits at {text:?}");
            let set: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
            assert_eq!(count, set.len(), "game {g}: legal_out miscounts at {text:?}");
            if is_listed && count <= crate::game::LISTED {
                let mut listed: Vec<usize> = listed[..count].iter().map(|&a| a as usize).collect();
                listed.sort_unstable();
                assert_eq!(listed, set, "game {g}: legal_out lists other actions at {text:?}");
            }
            if spec.offers {
                assert!(mask[n - 4..].iter().all(|&b| !b), "game {g}: rules set an offer action at {text:?}");
            }
            rules.observe(&s, &mut obs);
            assert!(obs.iter().all(|v| v.is_finite()), "game {g}: non-finite observation at {text:?}");

            let to_act = rules.to_act(&s);
            if to_act == ToAct::Terminal {
                assert!(mask.iter().all(|&b| !b), "game {g}: terminal {text:?} has legal actions");
                let r = rules.returns(&s);
                assert!((r[0] + r[1]).abs() < 1e-6, "game {g}: returns {r:?} not zero-sum");
                report.terminated += 1;
                finished = true;
                break;
            }
            let legal: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
            if let ToAct::Player(_) = to_act {
                assert!(!legal.is_empty(), "game {g}: player to move with no legal action at {text:?}");
                if g < deep_games {
                    check_turns(rules, &s, &mask, &text);
                }
            }
            let a = if to_act == ToAct::Chance {
                // Spec (common model): at a chance node the mask holds exactly the outcomes.
                let outcomes = rules.chance_outcomes(&s);
                assert!(!outcomes.is_empty(), "game {g}: chance node without outcomes at {text:?}");
                let p: f64 = outcomes.iter().map(|o| o.1).sum();
                assert!((p - 1.0).abs() < 1e-9, "game {g}: chance probabilities sum to {p}");
                let set: BTreeSet<usize> = outcomes.iter().map(|o| o.0.index()).collect();
                assert_eq!(set, legal.iter().copied().collect(), "game {g}: chance mask != outcomes at {text:?}");
                outcomes[rng.random_range(0..outcomes.len())].0
            } else {
                Action(legal[rng.random_range(0..legal.len())] as u32)
            };
            rules.apply(&mut s, a, &mut rng);
            report.decisions += 1;
            let now = rules.piece_counts(&s);
            assert!(
                now[0] <= counts[0] && now[1] <= counts[1],
                "game {g}: pieces grew {counts:?} -> {now:?} by {a:?} from {text:?}"
            );
            counts = now;
        }
        if !finished {
            report.unfinished += 1;
        }
    }
    report
}

fn check_turns<R: Rules>(rules: &R, s: &R::State, mask: &[bool], text: &str) {
    let turns = rules.turns(s);
    let game_actions = rules.spec().num_game_actions();
    let masked: BTreeSet<usize> = (0..game_actions).filter(|&i| mask[i]).collect();
    // Walk every decision path the mask allows: each masked action must lead
    // to a complete turn (no dead ends), and the positions those paths reach
    // must be exactly the positions `turns` lists (which games may compute
    // their own way, deduplicated).
    let mut firsts = BTreeSet::new();
    let mut ends = BTreeSet::new();
    crate::game::for_each_turn_path(rules, s, &mut |path, end| {
        firsts.insert(path[0].index());
        ends.insert(rules.to_position(end));
    });
    assert_eq!(masked, firsts, "masked actions that complete no turn at {text:?}");
    let listed_firsts: BTreeSet<usize> = turns.iter().map(|t| t.actions[0].index()).collect();
    assert!(listed_firsts.is_subset(&masked), "turns start with unmasked actions at {text:?}");
    let mut seen = BTreeSet::new();
    for t in &turns {
        let end = rules.to_position(&t.state);
        assert!(seen.insert(end.clone()), "turns list {end:?} twice at {text:?}");
        let path = rules
            .parse_turn(s, &t.notation)
            .unwrap_or_else(|e| panic!("notation {:?} of a legal turn does not parse at {text:?}: {e}", t.notation));
        let mut replay = s.clone();
        let mut rng = rng_from_seed(0);
        for (k, &a) in path.iter().enumerate() {
            assert!(rules.is_legal(&replay, a), "parsed path of {:?} has illegal step {k} at {text:?}", t.notation);
            let applied = rules.apply(&mut replay, a, &mut rng);
            assert_eq!(applied == Applied::TurnOver, k + 1 == path.len() || rules.to_act(&replay) == ToAct::Terminal);
        }
        assert_eq!(rules.to_position(&replay), end, "notation {:?} replays elsewhere at {text:?}", t.notation);
    }
    assert_eq!(seen, ends, "turns() and the mask's decision paths reach different positions at {text:?}");
}
