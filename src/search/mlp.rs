//! A value network evaluated natively: a multilayer perceptron (dense ReLU
//! layers, then one linear output squashed by `tanh` and scaled) over a
//! game's observation, the network of the TD recipe's baselines
//! (`ludoteca.train.td`, `NumpyNet` with `kind="mlp"`).
//!
//! Why native: a search that calls a Python evaluation pays a state object,
//! an observation array and a numpy forward pass per leaf; here a leaf costs
//! the observation and the arithmetic, and the search runs without the GIL.
//! A dense layer adds the weight rows of its non-zero inputs only: the
//! board observations are mostly zeros (tablut: 27 to 111 of 648 entries set, 72 on average over 200 random positions)
//! and about half the ReLU outputs are zero.

use super::eval::{Aborted, Evaluator};
use crate::core::{Player, ToAct};
use crate::error::{GameError, Result};
use crate::game::{write_obs, ObsBuf, ObsLayout, Rules};

/// One dense layer, `y = x W + b`, with `W` stored by input rows
/// (`inputs x outputs`, row-major: numpy's `x @ w` layout).
#[derive(Clone, Debug)]
struct Dense {
    w: Vec<f32>,
    b: Vec<f32>,
}

impl Dense {
    fn outputs(&self) -> usize {
        self.b.len()
    }

    fn inputs(&self) -> usize {
        self.w.len() / self.b.len()
    }

    /// `out = x W + b`, skipping the zero entries of `x`.
    #[inline]
    fn forward(&self, x: &[f32], out: &mut Vec<f32>) {
        let n = self.outputs();
        out.clear();
        out.extend_from_slice(&self.b);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let row = &self.w[i * n..(i + 1) * n];
                for (o, &w) in out.iter_mut().zip(row) {
                    *o += xi * w;
                }
            }
        }
    }
}

/// The network: hidden layers with ReLU, a one-output value layer, then
/// `tanh(v) * value_scale` (points of the game for the side the observation
/// takes).
#[derive(Clone, Debug)]
pub struct Mlp {
    hidden: Vec<Dense>,
    value: Dense,
    value_scale: f32,
    /// The weight of the game's built-in evaluation in a search's leaf
    /// value (0: the network alone); see [`Mlp::with_builtin`].
    builtin: f32,
}

impl Mlp {
    /// A network from `(weights, biases)` per hidden layer (weights
    /// `inputs x outputs`, row-major), the value layer's (`outputs x 1`) and
    /// the scale; checks that the shapes chain.
    pub fn new(hidden: Vec<(Vec<f32>, Vec<f32>)>, value: (Vec<f32>, Vec<f32>), value_scale: f32) -> Result<Mlp> {
        let bad = |m: String| GameError::Invalid(format!("network: {m}"));
        let mut layers = Vec::with_capacity(hidden.len());
        for (i, (w, b)) in hidden.into_iter().enumerate() {
            if b.is_empty() || w.is_empty() || w.len() % b.len() != 0 {
                return Err(bad(format!("layer {i}: {} weights for {} outputs", w.len(), b.len())));
            }
            layers.push(Dense { w, b });
        }
        for (i, pair) in layers.windows(2).enumerate() {
            if pair[1].inputs() != pair[0].outputs() {
                return Err(bad(format!(
                    "layer {} takes {} inputs, layer {i} gives {}",
                    i + 1,
                    pair[1].inputs(),
                    pair[0].outputs()
                )));
            }
        }
        let value = Dense { w: value.0, b: value.1 };
        let last = layers.last().map_or(0, Dense::outputs);
        if value.b.len() != 1 || value.w.len() != last.max(1) || layers.is_empty() {
            return Err(bad(format!(
                "the value layer must map the last hidden layer's {last} outputs to 1 (at least one hidden layer)"
            )));
        }
        if !(value_scale.is_finite() && value_scale > 0.0) {
            return Err(bad(format!("value_scale must be a positive number, got {value_scale}")));
        }
        Ok(Mlp { hidden: layers, value, value_scale, builtin: 0.0 })
    }

    /// The same network, whose leaf values as a search's evaluation are
    /// `(1 - weight) * network + weight * Rules::heuristic` (both for the
    /// player asked about): the built-in evaluation's hand-made terms
    /// (material; in tablut the king's routes and distance to the corners)
    /// blended into a network that learnt them only as far as its self-play
    /// showed them. `weight` in [0, 1].
    pub fn with_builtin(mut self, weight: f32) -> Result<Mlp> {
        if !(0.0..=1.0).contains(&weight) {
            return Err(GameError::Invalid(format!(
                "network: the built-in evaluation's weight must be in [0, 1], got {weight}"
            )));
        }
        self.builtin = weight;
        Ok(self)
    }

    /// The weight of the built-in evaluation in the leaf values ([`Mlp::with_builtin`]).
    pub fn builtin(&self) -> f32 {
        self.builtin
    }

    /// The observation length the network reads.
    pub fn inputs(&self) -> usize {
        self.hidden[0].inputs()
    }

    /// The value of one observation, for the side it takes.
    pub fn value(&self, obs: &[f32], scratch: &mut [Vec<f32>; 2]) -> f32 {
        debug_assert_eq!(obs.len(), self.inputs());
        let [a, b] = scratch;
        self.hidden[0].forward(obs, a);
        relu(a);
        for layer in &self.hidden[1..] {
            layer.forward(a, b);
            relu(b);
            std::mem::swap(a, b);
        }
        self.value.forward(a, b);
        b[0].tanh() * self.value_scale
    }

    /// An evaluation for the searches, over the states of `rules`: the
    /// network's value of the observation of a state in `layout`'s format
    /// (the game's `obs_format`, as its environments give it; a packed row's
    /// bytes as numbers), for the player to move there (the view a game's
    /// observation takes), negated for the other player. Games without
    /// chance nodes only: a chance node's observation is not the position
    /// the TD recipe's networks learnt.
    pub fn evaluator<'a, R: Rules>(&'a self, rules: &R, layout: &'a ObsLayout) -> Result<MlpEval<'a>> {
        let len = layout.len();
        if len != self.inputs() {
            return Err(GameError::Invalid(format!(
                "network: it reads observations of {} entries, this game's have {len} (obs_format={})",
                self.inputs(),
                layout.format.name()
            )));
        }
        if rules.explicit_chance().is_some() {
            return Err(GameError::Invalid("network: the native evaluation is for games without dice".into()));
        }
        Ok(MlpEval { net: self, layout, obs: vec![0.0; len], scratch: [Vec::new(), Vec::new()] })
    }
}

#[inline]
fn relu(x: &mut [f32]) {
    for v in x {
        *v = v.max(0.0);
    }
}

/// [`Mlp`] as an [`Evaluator`] (see [`Mlp::evaluator`]).
pub struct MlpEval<'a> {
    net: &'a Mlp,
    layout: &'a ObsLayout,
    obs: Vec<f32>,
    scratch: [Vec<f32>; 2],
}

impl<R: Rules> Evaluator<R> for MlpEval<'_> {
    fn evaluate(&mut self, rules: &R, s: &R::State, player: Player) -> std::result::Result<f32, Aborted> {
        // Some observers write only the entries that are set.
        self.obs.fill(0.0);
        write_obs(rules, self.layout, s, ObsBuf::F32(&mut self.obs));
        let v = self.net.value(&self.obs, &mut self.scratch);
        let v = match rules.to_act(s) {
            ToAct::Player(p) if p != player => -v,
            _ => v,
        };
        let w = self.net.builtin;
        Ok(if w > 0.0 { (1.0 - w) * v + w * rules.heuristic(s, player) } else { v })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> Mlp {
        // 3 inputs -> 2 hidden -> 1.
        let w1 = vec![1.0, -1.0, 0.5, 0.5, -2.0, 1.0];
        Mlp::new(vec![(w1, vec![0.1, -0.1])], (vec![0.7, -0.3], vec![0.05]), 2.0).unwrap()
    }

    #[test]
    fn the_forward_pass_matches_a_hand_computation() {
        let x = [1.0, 0.0, 2.0];
        // Hidden: [1 + 0 - 4 + 0.1, -1 + 0 + 2 - 0.1] = [-2.9, 0.9] -> ReLU [0, 0.9].
        let v = 0.05 + 0.9 * -0.3;
        let got = net().value(&x, &mut [Vec::new(), Vec::new()]);
        assert!((got - (v as f32).tanh() * 2.0).abs() < 1e-6, "{got}");
    }

    #[test]
    fn a_builtin_weight_blends_the_network_with_the_games_own_evaluation() {
        use crate::core::{rng_from_seed, Action};
        use crate::games::tablut::TablutRules;
        use rand::RngExt;
        let rules = TablutRules::with(true);
        let n: usize = rules.spec().observation_shape.iter().product();
        // A 648 -> 4 -> 1 network with weights that vary by input, so that every position has its own value.
        let w1: Vec<f32> = (0..n * 4).map(|i| ((i * 7919) % 23) as f32 / 23.0 - 0.5).collect();
        let plain =
            Mlp::new(vec![(w1, vec![0.1, -0.2, 0.0, 0.3])], (vec![0.5, -0.4, 0.3, 0.2], vec![0.0]), 1.0).unwrap();
        let mixed = plain.clone().with_builtin(0.25).unwrap();
        let full = ObsLayout::new(&rules, crate::game::ObsFormat::Full);
        assert!(plain.clone().with_builtin(1.5).is_err() && plain.clone().with_builtin(-0.1).is_err());
        let mut rng = rng_from_seed(3);
        let mut s = rules.initial_state(&mut rng);
        let mut mask = vec![false; rules.spec().num_actions];
        let (mut checked, mut differ) = (0, 0);
        for _ in 0..60 {
            if rules.to_act(&s) == ToAct::Terminal {
                break;
            }
            for p in [Player::P0, Player::P1] {
                let net = plain.evaluator(&rules, &full).unwrap().evaluate(&rules, &s, p).unwrap();
                let got = mixed.evaluator(&rules, &full).unwrap().evaluate(&rules, &s, p).unwrap();
                let want = 0.75 * net + 0.25 * rules.heuristic(&s, p);
                assert!((got - want).abs() < 1e-6, "{got} vs {want}");
                differ += usize::from((got - net).abs() > 1e-4);
                checked += 1;
            }
            rules.legal_mask(&s, &mut mask);
            let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a]).collect();
            let a = legal[rng.random_range(0..legal.len())];
            rules.apply(&mut s, Action(a as u32), &mut rng);
        }
        assert!(checked >= 60 && differ > checked / 2, "{differ} of {checked} positions changed by the blend");
    }

    #[test]
    fn shapes_that_do_not_chain_are_refused() {
        assert!(Mlp::new(vec![(vec![1.0; 5], vec![0.0; 2])], (vec![1.0; 2], vec![0.0]), 1.0).is_err());
        assert!(Mlp::new(vec![(vec![1.0; 6], vec![0.0; 2])], (vec![1.0; 3], vec![0.0]), 1.0).is_err());
        assert!(Mlp::new(
            vec![(vec![1.0; 6], vec![0.0; 2]), (vec![1.0; 6], vec![0.0; 2])],
            (vec![1.0; 2], vec![0.0]),
            1.0
        )
        .is_err());
        assert!(Mlp::new(vec![(vec![1.0; 6], vec![0.0; 2])], (vec![1.0; 2], vec![0.0]), 0.0).is_err());
        assert!(Mlp::new(vec![], (vec![1.0], vec![0.0]), 1.0).is_err());
    }
}
