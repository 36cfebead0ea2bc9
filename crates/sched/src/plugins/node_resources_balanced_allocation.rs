//! NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go): favour nodes whose
//! resource fractions (actual requests incl. the pod, over allocatable) are close together.

use crate::cluster::{NodeEntry, WellKnown};
use crate::intern::{Interner, Sym};
use crate::plugins::node_resources_fit::{allocatable_request, pod_request, MAX_SCORED_RESOURCES};
use crate::plugins::MAX_NODE_SCORE;
use crate::pod_info::PodInfo;

pub const NAME: &str = "NodeResourcesBalancedAllocation";

/// PreScore: the pod's actual requests per resource, or `None` (Skip) for a best-effort pod
/// (kubernetes#129138).
pub fn pre_score(pod: &PodInfo, resources: &[(Sym, i64)], wk: &WellKnown) -> Option<Vec<i64>> {
    let reqs: Vec<i64> = resources
        .iter()
        .map(|(r, _)| pod_request(pod, *r, true, wk))
        .collect();
    reqs.iter().any(|&r| r != 0).then_some(reqs)
}

#[inline]
pub fn score(
    resources: &[(Sym, i64)],
    pod_requests: &[i64],
    node: &NodeEntry,
    wk: &WellKnown,
    interner: &Interner,
) -> i64 {
    let mut fractions = [0f64; MAX_SCORED_RESOURCES];
    let mut n = 0usize;
    let mut total = 0f64;
    for ((res, _), &pr) in resources.iter().zip(pod_requests) {
        let (alloc, req) = allocatable_request(node, *res, pr, true, wk, interner);
        if alloc == 0 {
            continue;
        }
        let fraction = (req as f64 / alloc as f64).min(1.0);
        if let Some(slot) = fractions.get_mut(n) {
            *slot = fraction;
            n += 1;
            total += fraction;
        }
    }
    balanced_score(&fractions[..n], total)
}

/// `balancedResourceScorer` on the fractions.
pub fn balanced_score(fractions: &[f64], total: f64) -> i64 {
    let std = match fractions {
        [a, b] => ((a - b) / 2.0).abs(),
        f if f.len() > 2 => {
            let mean = total / f.len() as f64;
            let sum: f64 = f.iter().map(|x| (x - mean) * (x - mean)).sum();
            (sum / f.len() as f64).sqrt()
        }
        _ => 0.0,
    };
    ((1.0 - std) * MAX_NODE_SCORE as f64) as i64
}
