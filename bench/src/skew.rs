//! Deterministic randomness and the skew of users across cases.
//!
//! Moderation cases are not spread evenly: a few members collect many cases
//! (the regulars of the mod-log), most have one or two. A Zipf distribution
//! over a server's members models that: the member of rank `r` (1-based) gets
//! a share proportional to `1 / r^s`. The seeded data sets draw each case's
//! member from it, and the "cases by user" scenario draws the members it asks
//! for from the same distribution, so heavy members are asked for more often,
//! as a moderator looking up the usual suspects would.
//!
//! The generator is a fixed-seed SplitMix64, written out here rather than
//! taken from a crate: the data set must be the same on every machine and
//! every version, since it is cached under a version number.

/// SplitMix64: small, fast, and good enough for picking test data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`; equal seeds give equal sequences.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        // The top 53 bits fill a double's mantissa exactly.
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        // The bias of a plain modulo is below 2^-40 for the sizes used here.
        self.next_u64() % n
    }

    /// An index into `weights`, chosen with probability proportional to its weight.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut pick = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if pick < u64::from(w) {
                return i;
            }
            pick -= u64::from(w);
        }
        weights.len() - 1
    }
}

/// A Zipf distribution over ranks `0..n`, sampled by binary search over its
/// cumulative distribution (n floats; a million samples take milliseconds).
#[derive(Debug, Clone)]
pub struct Zipf {
    cdf: Vec<f64>,
}

impl Zipf {
    /// Ranks `0..n` (`n > 0`), rank `r` weighted `1 / (r + 1)^exponent`.
    pub fn new(n: usize, exponent: f64) -> Zipf {
        assert!(n > 0, "a distribution needs at least one rank");
        let mut cdf = Vec::with_capacity(n);
        let mut total = 0.0;
        for rank in 1..=n {
            total += (rank as f64).powf(-exponent);
            cdf.push(total);
        }
        for p in &mut cdf {
            *p /= total;
        }
        Zipf { cdf }
    }

    /// How many ranks there are.
    pub fn len(&self) -> usize {
        self.cdf.len()
    }

    /// A rank, 0 being the most likely.
    pub fn sample(&self, rng: &mut Rng) -> usize {
        let u = rng.unit();
        self.cdf
            .partition_point(|&p| p <= u)
            .min(self.cdf.len() - 1)
    }
}

/// How the cases of a data set fall on its members, for the record.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SkewSummary {
    /// Members with at least one case.
    pub members_with_cases: u64,
    /// Cases of the member with the most.
    pub top_member_cases: u64,
    /// Share of all cases held by the top 1% of members with cases.
    pub top_1pct_share: f64,
    /// Median cases per member with cases.
    pub median_cases: u64,
}

/// Summarizes per-member case counts (zeros are members without cases).
pub fn summarize(counts: &[u64]) -> SkewSummary {
    let mut counts: Vec<u64> = counts.iter().copied().filter(|&c| c > 0).collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    let total: u64 = counts.iter().sum();
    let top_1pct = counts.len().div_ceil(100);
    let top_sum: u64 = counts.iter().take(top_1pct).sum();
    SkewSummary {
        members_with_cases: counts.len() as u64,
        top_member_cases: counts.first().copied().unwrap_or(0),
        top_1pct_share: if total == 0 {
            0.0
        } else {
            top_sum as f64 / total as f64
        },
        median_cases: counts.get(counts.len() / 2).copied().unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_seeds_give_equal_sequences_and_others_differ() {
        let a: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let c = Rng::new(8).next_u64();
        assert_eq!(a, b);
        assert_ne!(a[0], c);
    }

    #[test]
    fn unit_and_below_stay_in_range() {
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u), "{u}");
            assert!(rng.below(3) < 3);
        }
    }

    #[test]
    fn weighted_picks_follow_the_weights_and_never_a_zero_weight() {
        let mut rng = Rng::new(2);
        let mut seen = [0u32; 3];
        for _ in 0..30_000 {
            seen[rng.weighted(&[1, 0, 2])] += 1;
        }
        assert_eq!(seen[1], 0);
        // Expected 10k and 20k; 5% is far outside the noise of 30k draws.
        assert!((9_500..10_500).contains(&seen[0]), "{seen:?}");
        assert!((19_500..20_500).contains(&seen[2]), "{seen:?}");
    }

    #[test]
    fn zipf_gives_a_few_members_many_cases_and_a_long_tail() {
        let zipf = Zipf::new(1_000, 1.0);
        let mut rng = Rng::new(3);
        let mut counts = vec![0u64; zipf.len()];
        for _ in 0..100_000 {
            counts[zipf.sample(&mut rng)] += 1;
        }
        // Rank 1 has 1/H(1000) ~ 13.4% of the mass, rank 2 half that.
        assert!((12_500..14_500).contains(&counts[0]), "{}", counts[0]);
        assert!((6_000..7_500).contains(&counts[1]), "{}", counts[1]);
        let summary = summarize(&counts);
        assert_eq!(summary.top_member_cases, counts[0]);
        assert!(summary.top_1pct_share > 0.35, "{summary:?}");
        assert!(summary.median_cases < 30, "{summary:?}");
        // The tail is reached: most ranks got at least one case.
        assert!(summary.members_with_cases > 900, "{summary:?}");
    }

    #[test]
    fn summarize_ignores_members_without_cases() {
        let summary = summarize(&[0, 5, 1, 0, 2]);
        assert_eq!(
            summary,
            SkewSummary {
                members_with_cases: 3,
                top_member_cases: 5,
                top_1pct_share: 5.0 / 8.0,
                median_cases: 2,
            }
        );
        assert_eq!(summarize(&[]).top_1pct_share, 0.0);
    }
}
