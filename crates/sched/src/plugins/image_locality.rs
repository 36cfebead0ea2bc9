//! ImageLocality (imagelocality/image_locality.go): favour nodes that already have the pod's
//! images, scaled by how widely each image is spread.

use crate::cluster::{Cluster, NodeEntry};
use crate::intern::Sym;
use crate::plugins::MAX_NODE_SCORE;
use crate::pod_info::PodInfo;

pub const NAME: &str = "ImageLocality";

/// image_locality.go `mb`.
const MB: i64 = 1024 * 1024;
/// image_locality.go `minThreshold`: 23 MB.
pub const MIN_THRESHOLD: i64 = 23 * MB;
/// image_locality.go `maxContainerThreshold`: 1000 MB per container.
pub const MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;

/// The pod's images present on some node, with `scaledImageScore` (size × share of nodes
/// having it). Empty means every node scores the same.
pub fn pre_score(pod: &PodInfo, cluster: &Cluster) -> Vec<(Sym, i64)> {
    let total = cluster.num_nodes().max(1) as f64;
    pod.images
        .iter()
        .filter_map(|&image| {
            let state = cluster.image(image)?;
            let spread = state.num_nodes as f64 / total;
            Some((image, (state.size as f64 * spread) as i64))
        })
        .collect()
}

/// `sumImageScores` over the node's images, then `calculatePriority`.
#[inline]
pub fn score(pod: &PodInfo, images: &[(Sym, i64)], node: &NodeEntry) -> i64 {
    let sum: i64 = images
        .iter()
        .filter(|(i, _)| node.has_image(*i))
        .map(|(_, s)| *s)
        .sum();
    calculate_priority(sum, pod.num_containers)
}

/// `calculatePriority`.
pub fn calculate_priority(sum_scores: i64, num_containers: usize) -> i64 {
    let max_threshold = MAX_CONTAINER_THRESHOLD * num_containers as i64;
    let sum = if sum_scores < MIN_THRESHOLD {
        MIN_THRESHOLD
    } else if sum_scores > max_threshold {
        max_threshold
    } else {
        sum_scores
    };
    let denom = max_threshold - MIN_THRESHOLD;
    if denom == 0 {
        return 0;
    }
    MAX_NODE_SCORE * (sum - MIN_THRESHOLD) / denom
}
