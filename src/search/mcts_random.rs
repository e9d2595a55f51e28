//! The few distributions search draws from (Gumbel, Dirichlet), written
//! here because the crate's dependencies stop at `rand`.

use crate::core::GameRng;
use rand::RngExt;

/// A uniform draw in the open interval (0, 1).
#[inline]
fn open01(rng: &mut GameRng) -> f64 {
    loop {
        let u: f64 = rng.random();
        if u > 0.0 {
            return u;
        }
    }
}

/// A standard Gumbel draw.
pub fn gumbel(rng: &mut GameRng) -> f64 {
    -(-open01(rng).ln()).ln()
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut GameRng) -> f64 {
    let (u, v) = (open01(rng), open01(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(`alpha`, 1) draw: Marsaglia and Tsang, with the `alpha < 1`
/// boost `Gamma(alpha + 1) * U^(1/alpha)`.
pub fn gamma(rng: &mut GameRng, alpha: f64) -> f64 {
    if alpha < 1.0 {
        return gamma(rng, alpha + 1.0) * open01(rng).powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = open01(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A symmetric Dirichlet(`alpha`) draw of `n` weights.
pub fn dirichlet(rng: &mut GameRng, alpha: f64, n: usize) -> Vec<f64> {
    let mut w: Vec<f64> = (0..n).map(|_| gamma(rng, alpha)).collect();
    let total: f64 = w.iter().sum();
    if total > 0.0 {
        w.iter_mut().for_each(|x| *x /= total);
    } else {
        w.fill(1.0 / n as f64);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_draws_have_the_right_mean_and_variance() {
        let mut rng = crate::core::rng_from_seed(7);
        for alpha in [0.03, 0.3, 1.0, 2.5] {
            let n = 200_000;
            let xs: Vec<f64> = (0..n).map(|_| gamma(&mut rng, alpha)).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
            // Gamma(alpha, 1): mean alpha, variance alpha.
            assert!((mean - alpha).abs() < 0.03 * alpha.max(0.3), "alpha {alpha}: mean {mean}");
            assert!((var - alpha).abs() < 0.1 * alpha.max(0.3), "alpha {alpha}: var {var}");
        }
    }

    #[test]
    fn gumbel_draws_have_the_euler_mascheroni_mean() {
        let mut rng = crate::core::rng_from_seed(8);
        let n = 200_000;
        let mean = (0..n).map(|_| gumbel(&mut rng)).sum::<f64>() / n as f64;
        assert!((mean - 0.577_215_66).abs() < 0.01, "{mean}");
    }
}
