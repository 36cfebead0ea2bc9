//! `helper.DefaultNormalizeScore` (pkg/scheduler/framework/plugins/helper/normalize_score.go):
//! scale to `0..=max_priority` by the largest score, optionally reversed.

/// Scales `scores` so the largest becomes `max_priority`; with `reverse`, `max_priority - s`.
/// When every score is 0, reversed scores all become `max_priority`.
pub fn default_normalize_score(max_priority: i64, reverse: bool, scores: &mut [i64]) {
    let max_count = scores.iter().copied().fold(0, i64::max);
    if max_count == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = max_priority);
        }
        return;
    }
    for s in scores.iter_mut() {
        let mut score = max_priority * *s / max_count;
        if reverse {
            score = max_priority - score;
        }
        *s = score;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // normalize_score_test.go TestDefaultNormalizeScore.
    #[test]
    fn default_normalize_score_table() {
        let cases: &[(bool, &[i64], &[i64])] = &[
            (false, &[1, 2, 3, 4, 5], &[20, 40, 60, 80, 100]),
            (true, &[1, 2, 3, 4, 5], &[80, 60, 40, 20, 0]),
            (false, &[1000, 10, 20, 30], &[100, 1, 2, 3]),
            (true, &[1000, 10, 20, 30], &[0, 99, 98, 97]),
            (false, &[1, 1, 1, 1], &[100, 100, 100, 100]),
            (true, &[1, 1, 1, 1], &[0, 0, 0, 0]),
            (false, &[0, 0, 0, 0], &[0, 0, 0, 0]),
            (true, &[0, 0, 0, 0], &[100, 100, 100, 100]),
        ];
        for (reverse, input, want) in cases {
            let mut s = input.to_vec();
            default_normalize_score(100, *reverse, &mut s);
            assert_eq!(&s, want, "reverse={reverse} input={input:?}");
        }
    }
}
