//! Fitting an evaluation to games: logistic regression, for the games whose evaluation is a
//! weighted sum of features read as log-odds (Crusades II's, `crusades_ii::evaluation`).
//!
//! Newton's method (iteratively reweighted least squares) on the cross-entropy of the
//! results, with a small ridge penalty so that features that move together still get
//! settled weights. A result may be 0.5 (a draw): cross-entropy takes any target in 0-1.

/// One position: its features and the result it led to for the side the features are read
/// from (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position's features.
    pub features: Vec<f64>,
    /// The result.
    pub result: f64,
}

/// The ridge penalty of [`logistic`] by default: small against thousands of positions.
pub const DEFAULT_RIDGE: f64 = 1e-3;

/// Newton steps of [`logistic`] at most; it stops sooner once no weight moves by 1e-9.
const STEPS: usize = 50;

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The weights of a logistic model of `samples`' results: the bias first, then one weight
/// per feature, minimising the mean cross-entropy plus `ridge` times the squared weights (the
/// bias is not penalised). `None` without samples, when the samples' feature counts differ,
/// or when a feature or result is not a finite number (results must be in 0-1).
pub fn logistic(samples: &[Sample], ridge: f64) -> Option<Vec<f64>> {
    let k = samples.first()?.features.len() + 1;
    if samples.iter().any(|s| {
        s.features.len() + 1 != k
            || !(0.0..=1.0).contains(&s.result)
            || s.features.iter().any(|x| !x.is_finite())
    }) {
        return None;
    }
    let n = samples.len() as f64;
    let mut w = vec![0.0; k];
    for _ in 0..STEPS {
        let mut gradient = vec![0.0; k];
        let mut hessian = vec![vec![0.0; k]; k];
        for s in samples {
            let x: Vec<f64> = std::iter::once(1.0)
                .chain(s.features.iter().copied())
                .collect();
            let p = sigmoid(x.iter().zip(&w).map(|(x, w)| x * w).sum());
            let curvature = (p * (1.0 - p)).max(1e-12);
            for i in 0..k {
                gradient[i] += (p - s.result) * x[i] / n;
                for j in 0..k {
                    hessian[i][j] += curvature * x[i] * x[j] / n;
                }
            }
        }
        for i in 1..k {
            gradient[i] += 2.0 * ridge * w[i];
            hessian[i][i] += 2.0 * ridge;
        }
        let step = solve(hessian, gradient)?;
        let mut moved = 0.0f64;
        for (w, d) in w.iter_mut().zip(&step) {
            *w -= d;
            moved = moved.max(d.abs());
        }
        if moved < 1e-9 {
            break;
        }
    }
    w.iter().all(|w| w.is_finite()).then_some(w)
}

/// The solution of `a x = b` by Gaussian elimination with partial pivoting; `None` when `a`
/// is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let k = b.len();
    for c in 0..k {
        let pivot = (c..k).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[pivot][c].abs() < 1e-15 {
            return None;
        }
        a.swap(c, pivot);
        b.swap(c, pivot);
        let (above, below) = a.split_at_mut(c + 1);
        let pivot_row = &above[c];
        for (r, row) in below.iter_mut().enumerate() {
            let f = row[c] / pivot_row[c];
            for (x, p) in row[c..].iter_mut().zip(&pivot_row[c..]) {
                *x -= f * p;
            }
            b[c + 1 + r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; k];
    for r in (0..k).rev() {
        let tail: f64 = (r + 1..k).map(|j| a[r][j] * x[j]).sum();
        x[r] = (b[r] - tail) / a[r][r];
    }
    Some(x)
}

/// The Brier score of `chance` over `samples` (the mean squared error of the foretold
/// chance against the result): 0 is perfect, 0.25 what a constant 0.5 scores on wins and
/// losses alike.
pub fn brier(samples: &[Sample], chance: impl Fn(&[f64]) -> f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| (chance(&s.features) - s.result).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose results follow a known logistic model, drawn with a fixed generator.
    fn drawn(truth: &[f64], count: usize) -> Vec<Sample> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..count)
            .map(|_| {
                let features: Vec<f64> = (1..truth.len()).map(|_| next() * 4.0 - 2.0).collect();
                let z = truth[0]
                    + features
                        .iter()
                        .zip(&truth[1..])
                        .map(|(x, w)| x * w)
                        .sum::<f64>();
                let result = if next() < sigmoid(z) { 1.0 } else { 0.0 };
                Sample { features, result }
            })
            .collect()
    }

    #[test]
    fn recovers_the_weights_that_made_the_results() {
        let truth = [-0.5, 1.5, -2.0, 0.0];
        let samples = drawn(&truth, 20_000);
        let w = logistic(&samples, 0.0).unwrap();
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.12, "{w:?} against {truth:?}");
        }
        // The fitted model foretells its samples better than their base rate.
        let base = samples.iter().map(|s| s.result).sum::<f64>() / samples.len() as f64;
        let fitted = brier(&samples, |x| {
            sigmoid(w[0] + x.iter().zip(&w[1..]).map(|(x, w)| x * w).sum::<f64>())
        });
        assert!(fitted < brier(&samples, |_| base) - 0.03);
    }

    #[test]
    fn a_ridge_pulls_weights_towards_zero_and_draws_count_half() {
        let samples = drawn(&[0.0, 1.0], 2_000);
        let free = logistic(&samples, 0.0).unwrap();
        let held = logistic(&samples, 1.0).unwrap();
        assert!(held[1].abs() < free[1].abs() * 0.5, "{free:?} {held:?}");
        // Only draws: even odds, whatever the features.
        let draws: Vec<Sample> = samples
            .iter()
            .map(|s| Sample {
                features: s.features.clone(),
                result: 0.5,
            })
            .collect();
        let w = logistic(&draws, DEFAULT_RIDGE).unwrap();
        assert!(w.iter().all(|w| w.abs() < 1e-6), "{w:?}");
    }

    #[test]
    fn refuses_what_it_cannot_fit() {
        assert_eq!(logistic(&[], 0.0), None);
        let one = |features: Vec<f64>, result| Sample { features, result };
        assert_eq!(
            logistic(&[one(vec![1.0], 1.0), one(vec![1.0, 2.0], 0.0)], 0.0),
            None
        );
        assert_eq!(logistic(&[one(vec![f64::NAN], 1.0)], 0.0), None);
        assert_eq!(logistic(&[one(vec![1.0], 2.0)], 0.0), None);
        // A feature that never varies cannot be told from the bias without a ridge.
        let same = vec![one(vec![1.0], 1.0), one(vec![1.0], 0.0)];
        assert_eq!(logistic(&same, 0.0), None);
        assert!(logistic(&same, DEFAULT_RIDGE).is_some());
    }
}
