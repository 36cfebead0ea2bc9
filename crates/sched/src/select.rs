//! Node count to search and host choice (pkg/scheduler/schedule_one.go `numFeasibleNodesToFind`,
//! `selectHost`).

use crate::rng::SplitMix64;

/// schedule_one.go `minFeasibleNodesToFind`.
pub const MIN_FEASIBLE_NODES_TO_FIND: usize = 100;
/// schedule_one.go `minFeasibleNodesPercentageToFind`.
pub const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND: i64 = 5;

/// How many feasible nodes to find before scoring. `percentage` 0 (or `None`) is adaptive:
/// `50 - nodes/125`, at least 5%; never fewer than 100 nodes.
pub fn num_feasible_nodes_to_find(percentage: Option<i32>, num_all_nodes: usize) -> usize {
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND {
        return num_all_nodes;
    }
    let n = num_all_nodes as i64;
    let mut pct = i64::from(percentage.unwrap_or(0));
    if pct == 0 {
        pct = (50 - n / 125).max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
    }
    let num = (n * pct / 100) as usize;
    if num < MIN_FEASIBLE_NODES_TO_FIND {
        return MIN_FEASIBLE_NODES_TO_FIND;
    }
    num
}

/// `selectHost`: the index of a top-scoring entry, ties broken uniformly by reservoir sampling.
pub fn select_host(totals: &[i64], rng: &mut SplitMix64) -> Option<usize> {
    let mut iter = totals.iter().enumerate();
    let (mut selected, mut max) = iter.next().map(|(i, &s)| (i, s))?;
    let mut count = 1u64;
    for (i, &s) in iter {
        if s > max {
            max = s;
            selected = i;
            count = 1;
        } else if s == max {
            count += 1;
            if rng.below(count) == 0 {
                selected = i;
            }
        }
    }
    Some(selected)
}

#[cfg(test)]
mod tests {
    use super::*;

    // schedule_one_test.go TestNumFeasibleNodesToFind.
    #[test]
    fn num_feasible_nodes_to_find_table() {
        let cases = [
            (None, 10, 10),
            (Some(40), 10, 10),
            (None, 1000, 420),
            (Some(40), 1000, 400),
            (None, 6000, 300),
            (Some(40), 6000, 2400),
            (None, 5000, 500),
            (None, 15000, 750),
            (Some(100), 200, 200),
            (Some(1), 1000, 100),
        ];
        for (pct, nodes, want) in cases {
            assert_eq!(
                num_feasible_nodes_to_find(pct, nodes),
                want,
                "pct={pct:?} nodes={nodes}"
            );
        }
    }

    #[test]
    fn select_host_picks_a_max_and_spreads_ties() {
        let mut rng = SplitMix64::new(1);
        assert_eq!(select_host(&[], &mut rng), None);
        assert_eq!(select_host(&[1, 5, 3], &mut rng), Some(1));
        let mut hits = [0; 3];
        for _ in 0..3000 {
            if let Some(i) = select_host(&[7, 2, 7, 7][..3], &mut rng) {
                hits[i] += 1;
            }
        }
        assert_eq!(hits[1], 0);
        assert!(hits[0] > 1200 && hits[2] > 1200, "{hits:?}");
    }
}
