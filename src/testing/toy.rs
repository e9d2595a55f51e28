//! A tiny test-only game that exercises the common model: players take 1 or
//! 2 from a pile (or pass, which allows repetitions); whoever takes the last
//! wins. Actions: 0 take one, 1 take two, 2 pass, then the 4 offer actions.

use crate::core::{Action, Applied, GameRng, Player, ToAct};
use crate::error::{GameError, Result};
use crate::game::{GameSpec, Rules};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pile {
    pub left: u8,
    pub to_move: Player,
}

pub struct PileRules {
    pub spec: GameSpec,
    pub start: u8,
    pub strikes: u32,
    pub repetition: bool,
}

impl PileRules {
    pub fn new(start: u8) -> Self {
        PileRules {
            spec: GameSpec {
                num_actions: 7,
                observation_shape: vec![2],
                offers: true,
                info_fields: &["left"],
                observation_high: 1.0,
            },
            start,
            strikes: 1,
            repetition: true,
        }
    }
}

impl Rules for PileRules {
    type State = Pile;
    fn spec(&self) -> &GameSpec {
        &self.spec
    }
    fn initial_state(&self, _rng: &mut GameRng) -> Pile {
        Pile { left: self.start, to_move: Player::P0 }
    }
    fn to_act(&self, s: &Pile) -> ToAct {
        if s.left == 0 {
            ToAct::Terminal
        } else {
            ToAct::Player(s.to_move)
        }
    }
    fn legal_mask(&self, s: &Pile, mask: &mut [bool]) {
        mask.fill(false);
        if s.left > 0 {
            mask[0] = true;
            mask[1] = s.left >= 2;
            mask[2] = true;
        }
    }
    fn apply(&self, s: &mut Pile, a: Action, _rng: &mut GameRng) -> Applied {
        s.left -= [1, 2, 0][a.index()];
        s.to_move = s.to_move.other();
        Applied::TurnOver
    }
    fn returns(&self, s: &Pile) -> [f32; 2] {
        match (s.left, s.to_move) {
            // The player who took the last is the one not to move.
            (0, Player::P1) => [1.0, -1.0],
            (0, Player::P0) => [-1.0, 1.0],
            _ => [0.0, 0.0],
        }
    }
    fn observe(&self, s: &Pile, out: &mut [f32]) {
        out[0] = s.left as f32;
        out[1] = s.to_move as u8 as f32;
    }
    fn to_position(&self, s: &Pile) -> String {
        format!("{} {}", s.left, s.to_move as u8)
    }
    fn from_position(&self, text: &str) -> Result<Pile> {
        let mut it = text.split(' ');
        let left =
            it.next().and_then(|x| x.parse().ok()).ok_or_else(|| GameError::position(text, "expected a pile size"))?;
        let to_move = match it.next() {
            Some("0") => Player::P0,
            Some("1") => Player::P1,
            _ => return Err(GameError::position(text, "expected the side to move, 0 or 1")),
        };
        Ok(Pile { left, to_move })
    }
    fn action_to_string(&self, _s: &Pile, a: Action) -> String {
        ["take1", "take2", "pass"][a.index()].to_string()
    }
    fn notation(&self, s: &Pile, actions: &[Action]) -> String {
        self.action_to_string(s, actions[0])
    }
    fn piece_counts(&self, s: &Pile) -> [u32; 2] {
        [s.left as u32, s.left as u32]
    }
    fn write_info(&self, s: &Pile, out: &mut [i32]) {
        if let Some(left) = out.first_mut() {
            *left = s.left as i32;
        }
    }
    fn repetition_key(&self, s: &Pile) -> Option<u64> {
        self.repetition.then(|| s.left as u64 * 2 + s.to_move as u64)
    }
    fn illegal_strikes(&self) -> u32 {
        self.strikes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{Batch, OwnedOut};
    use crate::session::{CommonOptions, Configured, IllegalPolicy, Ruling, Session, Verdict};
    use std::sync::Arc;

    fn common(illegal: IllegalPolicy) -> CommonOptions {
        CommonOptions { max_turns: 0, illegal, resign: true, draw_offers: true, obs_format: Default::default() }
    }

    #[test]
    fn resign_loses_for_the_mover() {
        let r = PileRules::new(5);
        let c = common(IllegalPolicy::Raise);
        let mut s = Session::new(&r, 0);
        s.apply(&r, &c, 0).unwrap();
        s.apply(&r, &c, 3).unwrap(); // player 1 resigns
        assert_eq!(s.verdict(), Some(Verdict::Resigned(Player::P1)));
        assert_eq!(s.returns(&r), [1.0, -1.0]);
        assert!(matches!(s.apply(&r, &c, 0), Err(GameError::GameOver { .. })));
    }

    #[test]
    fn draw_offer_accept_and_decline() {
        let r = PileRules::new(5);
        let c = common(IllegalPolicy::Raise);
        let mut s = Session::new(&r, 0);
        s.apply(&r, &c, 4).unwrap(); // P0 offers
        assert_eq!(s.to_act(&r), ToAct::Player(Player::P1));
        let mut mask = vec![false; 7];
        s.legal_mask(&r, &c, &mut mask);
        assert_eq!(mask, [false, false, false, false, false, true, true]);
        assert_eq!(s.to_position(&r), "5 0|offer");
        let copy = Session::<Pile>::from_position(&r, "5 0|offer", 0).unwrap();
        assert_eq!(copy.to_position(&r), "5 0|offer");
        let mut accepted = s.clone();
        accepted.apply(&r, &c, 5).unwrap();
        assert_eq!(accepted.verdict(), Some(Verdict::DrawAgreed));
        assert_eq!(accepted.returns(&r), [0.0, 0.0]);
        s.apply(&r, &c, 6).unwrap(); // declined: P0 continues, may not offer again this turn
        assert_eq!(s.to_act(&r), ToAct::Player(Player::P0));
        s.legal_mask(&r, &c, &mut mask);
        assert_eq!(mask, [true, true, true, true, false, false, false]);
        assert_eq!(s.to_position(&r), "5 0|declined");
        s.apply(&r, &c, 0).unwrap();
        s.legal_mask(&r, &c, &mut mask);
        assert!(mask[4], "the next turn may offer again");
        assert_eq!(s.legal_moves(&r), vec!["take1", "take2", "pass"]);
    }

    #[test]
    fn verdicts_round_trip_through_the_position_string() {
        let r = PileRules::new(5);
        let c = common(IllegalPolicy::Lose);
        let ended = |actions: &[i64]| {
            let mut s = Session::new(&r, 0);
            for &a in actions {
                s.apply_with_policy(&r, &c, a).unwrap();
            }
            s
        };
        for (actions, text) in
            [(&[0, 3][..], "4 1|resigned=1"), (&[4, 5][..], "5 0|draw=agreed"), (&[0, 5][..], "4 1|forfeit=1")]
        {
            let s = ended(actions);
            assert!(s.is_terminal(&r));
            assert_eq!(s.to_position(&r), text);
            let back = Session::<Pile>::from_position(&r, text, 0).unwrap();
            assert_eq!(back.verdict(), s.verdict(), "{text}");
            assert_eq!(back.returns(&r), s.returns(&r), "{text}");
            assert_eq!(back.to_position(&r), text);
        }
        assert!(Session::<Pile>::from_position(&r, "4 1|resigned=0", 0).is_err(), "only the mover resigns");
    }

    #[test]
    fn restored_session_continues_exactly() {
        let r = PileRules::new(9);
        let c = common(IllegalPolicy::Rules);
        let mut s = Session::new(&r, 7);
        s.apply(&r, &c, 0).unwrap();
        s.apply(&r, &c, 2).unwrap();
        let back = Session::<Pile>::restore(&r, &s.to_position(&r), &s.extras()).unwrap();
        assert_eq!(back.extras(), s.extras());
        assert_eq!(back.turns_played(), 2);
    }

    #[test]
    fn the_legal_bits_and_their_count_include_the_offer_actions() {
        // The batch samples its random policy from these bits and this count.
        let r = PileRules::new(5);
        let on = common(IllegalPolicy::Lose);
        let off = CommonOptions { resign: false, draw_offers: false, ..on.clone() };
        let after = |actions: &[i64]| {
            let mut s = Session::new(&r, 0);
            for &a in actions {
                s.apply_with_policy(&r, &on, a).unwrap();
            }
            s
        };
        // Fresh, a pending offer, a declined one, a resignation.
        for (actions, c, legal) in
            [(&[][..], &on, 5), (&[][..], &off, 3), (&[4][..], &on, 2), (&[4, 6][..], &on, 4), (&[0, 3][..], &on, 0)]
        {
            let s = after(actions);
            let (mut mask, mut bits) = (vec![false; 7], vec![0u64; 1]);
            s.legal_mask(&r, c, &mut mask);
            let (mut mask2, mut bits2, mut listed) =
                (vec![true; 7], vec![u64::MAX; 1], [u16::MAX; crate::game::LISTED]);
            let mut out = crate::game::LegalOut {
                mask: &mut mask2,
                bits: &mut bits2,
                listed: &mut listed,
                count: 99,
                is_listed: true,
            };
            s.legal_out(&r, c, &mut out);
            let (count, is_listed) = (out.count, out.is_listed);
            crate::bits::pack_mask(&mask, &mut bits);
            assert_eq!((mask2, bits2), (mask.clone(), bits), "after {actions:?}");
            assert_eq!(count, legal, "after {actions:?}: {mask:?}");
            // A pending offer's two answers and a decided game's none are
            // listed; the pile game's own rules do not list.
            assert_eq!(is_listed, matches!(actions, [4] | [0, 3]), "after {actions:?}");
            if is_listed {
                let mut listed: Vec<usize> = listed[..legal as usize].iter().map(|&a| a as usize).collect();
                listed.sort_unstable();
                assert_eq!(listed, (0..7).filter(|&i| mask[i]).collect::<Vec<_>>(), "after {actions:?}");
            }
        }
    }

    #[test]
    fn offers_are_masked_out_when_off() {
        let r = PileRules::new(5);
        let c = CommonOptions {
            max_turns: 0,
            illegal: IllegalPolicy::Raise,
            resign: false,
            draw_offers: false,
            obs_format: Default::default(),
        };
        let s = Session::new(&r, 0);
        let mut mask = vec![false; 7];
        s.legal_mask(&r, &c, &mut mask);
        assert_eq!(&mask[3..], &[false; 4]);
        assert!(matches!(s.clone().apply(&r, &c, 3), Err(GameError::IllegalAction { .. })));
    }

    #[test]
    fn rule_sixteen_first_illegal_refused_second_loses() {
        let r = PileRules::new(1);
        let c = common(IllegalPolicy::Rules);
        let mut s = Session::new(&r, 0);
        assert_eq!(s.apply_with_policy(&r, &c, 1).unwrap(), Ruling::Refused); // take2 from a pile of 1
        assert_eq!(s.to_position(&r), "1 0");
        assert_eq!(s.apply_with_policy(&r, &c, 1).unwrap(), Ruling::Forfeited);
        assert_eq!(s.returns(&r), [-1.0, 1.0]);
        let c = common(IllegalPolicy::Lose);
        let mut s = Session::new(&r, 0);
        assert_eq!(s.apply_with_policy(&r, &c, 1).unwrap(), Ruling::Forfeited);
        let c = common(IllegalPolicy::Raise);
        let mut s = Session::new(&r, 0);
        assert!(s.apply_with_policy(&r, &c, 1).is_err());
        assert!(matches!(s.apply_with_policy(&r, &c, 99), Err(GameError::ActionOutOfRange { .. })));
    }

    #[test]
    fn third_repetition_draws() {
        let r = PileRules::new(5);
        let c = common(IllegalPolicy::Raise);
        let mut s = Session::new(&r, 0);
        for _ in 0..3 {
            s.apply(&r, &c, 2).unwrap(); // "5 1" occurrences: 1, then 2 after two more passes
        }
        assert_eq!(s.verdict(), None, "5 1 occurred twice, 5 0 twice");
        s.apply(&r, &c, 2).unwrap(); // 5 0 a third time
        assert_eq!(s.verdict(), Some(Verdict::Repetition));
        assert_eq!(s.returns(&r), [0.0, 0.0]);
    }

    #[test]
    fn truncation_counts_full_turns() {
        let r = PileRules::new(9);
        let c = CommonOptions { max_turns: 2, ..common(IllegalPolicy::Raise) };
        let mut s = Session::new(&r, 0);
        s.apply(&r, &c, 0).unwrap();
        assert!(!s.is_truncated(&r, &c));
        s.apply(&r, &c, 0).unwrap();
        assert!(s.is_truncated(&r, &c) && !s.is_terminal(&r));
    }

    #[test]
    fn perft_counts_distinct_positions() {
        let r = PileRules { repetition: false, ..PileRules::new(3) };
        let s = r.initial_state(&mut crate::core::rng_from_seed(0));
        assert_eq!(r.perft(&s, 1), 3);
        // 3 -> {2, 1, 3}; 2 -> {1, 0, 2}; 1 -> {0, 1}; 3 -> {2, 1, 3}
        assert_eq!(r.perft(&s, 2), 8);
    }

    fn batch(n: usize, seed: u64, threads: usize, max_turns: u32) -> Batch<PileRules> {
        let mut rules = PileRules::new(4);
        rules.repetition = false;
        let common = CommonOptions {
            max_turns,
            illegal: IllegalPolicy::Raise,
            resign: false,
            draw_offers: false,
            obs_format: Default::default(),
        };
        let mut b = Batch::new(Arc::new(Configured::new(rules, common)), n, seed);
        b.set_threads(threads).unwrap();
        b
    }

    #[test]
    fn batch_same_step_autoreset() {
        let mut b = batch(2, 0, 1, 0);
        let mut out = OwnedOut::new(&b);
        b.reset(None, &mut out.view());
        assert_eq!(out.obs, [4.0, 0.0, 4.0, 0.0]);
        b.validate(&[1, 1]).unwrap();
        b.step(&[1, 1], &mut out.view()); // 4 -> 2
        b.step(&[1, 0], &mut out.view()); // env 0: 2 -> 0, P1 wins; env 1: 2 -> 1
        assert_eq!(out.terminated, [true, false]);
        assert_eq!(out.rewards, [-1.0, 1.0, 0.0, 0.0]);
        assert_eq!(&out.final_obs[..2], &[0.0, 0.0]);
        assert_eq!(&out.obs[..2], &[4.0, 0.0], "env 0 already shows its next game");
        assert_eq!(&out.obs[2..], &[1.0, 0.0]);
        assert_eq!(out.info, [4, 1]);
        assert!(b.validate(&[1, 1]).is_err(), "take2 from a pile of 1 is illegal in env 1");
        assert!(b.validate(&[0]).is_err());
        assert!(b.validate(&[0, 7]).is_err());
    }

    #[test]
    fn batch_step_active_leaves_waiting_envs_alone() {
        let mut b = batch(2, 0, 1, 0);
        let mut out = OwnedOut::new(&b);
        b.reset(None, &mut out.view());
        let active = [false, true];
        // Env 0 waits: its action is neither checked nor played.
        b.validate_active(&[7, 1], Some(&active)).unwrap();
        b.step_active(&[7, 1], &active, &mut out.view()); // env 1: 4 -> 2
        assert_eq!(out.obs, [4.0, 0.0, 2.0, 1.0]);
        assert_eq!(out.to_act, [0, 1]);
        assert_eq!(out.rewards, [0.0; 4]);
        assert!(b.validate_active(&[7, 1], Some(&[true, true])).is_err());
        assert!(b.validate_active(&[0, 0], Some(&[true])).is_err());
    }

    #[test]
    fn batch_step_active_then_reports_each_active_env_once_after_its_rows() {
        let n = 200;
        let mut b = batch(n, 0, 2, 0);
        let mut out = OwnedOut::new(&b);
        b.reset(None, &mut out.view());
        let active: Vec<bool> = (0..n).map(|i| i % 3 != 0).collect();
        let seen = std::sync::Mutex::new(Vec::new());
        let ended = b.step_active_then(&vec![1; n], &active, &mut out.view(), &|i| seen.lock().unwrap().push(i));
        assert_eq!(ended, 0);
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, (0..n).filter(|i| i % 3 != 0).collect::<Vec<_>>());
        for (i, &stepped) in active.iter().enumerate().take(n) {
            // Stepped envs took 2 from the pile of 4; the others still show 4.
            assert_eq!(out.obs[2 * i], if stepped { 2.0 } else { 4.0 });
        }
    }

    #[test]
    fn batch_truncates_and_rollout_counts() {
        let mut b = batch(3, 5, 2, 1);
        let mut out = OwnedOut::new(&b);
        b.reset(None, &mut out.view());
        b.step(&[2, 2, 0], &mut out.view());
        assert_eq!(out.truncated, [true, true, true]);
        assert_eq!(out.rewards, [0.0; 6]);
        let stats = b.rollout(10, &mut out.view());
        assert_eq!(stats.steps, 30);
        assert_eq!(stats.truncated, 30);
    }

    #[test]
    fn batch_without_info_fields_steps_every_env() {
        let mut rules = PileRules::new(4);
        rules.spec.info_fields = &[];
        let common = CommonOptions {
            max_turns: 0,
            illegal: IllegalPolicy::Raise,
            resign: false,
            draw_offers: false,
            obs_format: Default::default(),
        };
        let mut b = Batch::new(Arc::new(Configured::new(rules, common)), 3, 0);
        let mut out = OwnedOut::new(&b);
        out.obs.fill(-1.0);
        b.reset(None, &mut out.view());
        assert_eq!(out.obs, [4.0, 0.0, 4.0, 0.0, 4.0, 0.0]);
        b.step(&[0, 1, 2], &mut out.view());
        assert_eq!(out.obs, [3.0, 1.0, 2.0, 1.0, 4.0, 1.0]);
    }

    #[test]
    fn batch_results_do_not_depend_on_threads() {
        let run = |threads| {
            let mut b = batch(64, 9, threads, 0);
            let mut out = OwnedOut::new(&b);
            b.reset(None, &mut out.view());
            let stats = b.rollout(100, &mut out.view());
            (stats, out.obs.clone(), out.mask.clone())
        };
        assert_eq!(run(1), run(2));
        assert_eq!(run(1), run(4));
    }
}
