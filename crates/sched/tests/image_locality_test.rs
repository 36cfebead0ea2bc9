//! Ported from imagelocality/image_locality_test.go (TestImageLocalityPriority).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::*;

const MB: i64 = 1024 * 1024;

fn node_40_300_2000() -> NodeSpec {
    node("node1")
        .image(&["gcr.io/40:latest"], 40 * MB)
        .image(&["gcr.io/300:latest", "gcr.io/300:v1"], 300 * MB)
        .image(&["gcr.io/2000:latest"], 2000 * MB)
        .obj()
}

fn node_250_10() -> NodeSpec {
    node("node2")
        .image(&["gcr.io/250:latest"], 250 * MB)
        .image(&["gcr.io/10:latest", "gcr.io/10:v1"], 10 * MB)
        .obj()
}

fn pod_with(images: &[&str]) -> PodSpec {
    let mut p = pod();
    for i in images {
        p = p.container(i);
    }
    p.obj()
}

// image_locality_test.go "two images spread on two nodes, prefer the larger image one".
#[test]
fn prefer_the_larger_image() {
    let nodes = [node_40_300_2000(), node_250_10()];
    assert_eq!(
        scores_of(
            "ImageLocality",
            &nodes,
            &[],
            &pod_with(&["gcr.io/40", "gcr.io/250"])
        ),
        [0, 5]
    );
}

// image_locality_test.go "two images on one node, prefer this node".
#[test]
fn prefer_the_node_with_both_images() {
    let nodes = [node_40_300_2000(), node_250_10()];
    assert_eq!(
        scores_of(
            "ImageLocality",
            &nodes,
            &[],
            &pod_with(&["gcr.io/40", "gcr.io/300"])
        ),
        [7, 0]
    );
}

// image_locality_test.go "if exceed limit, use limit".
#[test]
fn large_images_are_capped() {
    let nodes = [node_40_300_2000(), node_250_10()];
    let p = pod_with(&["gcr.io/2000", "gcr.io/10"]);
    // node1: 2000M/2 = 1000M, node2: 10M/2 below min → 0. max = 2000M.
    // 100 * (1000M - 23M) / (2000M - 23M) = 49.
    assert_eq!(scores_of("ImageLocality", &nodes, &[], &p), [49, 0]);
}

// image_locality_test.go "if exceed limit, use limit (with node which has no images present)":
// the spread over 3 nodes divides by 3.
#[test]
fn spread_counts_every_node() {
    let nodes = [node_40_300_2000(), node_250_10(), node("node3").obj()];
    let p = pod_with(&["gcr.io/2000", "gcr.io/10"]);
    // node1: 2000M/3 = 666.67M → 100 * (666.67M - 23M) / 1977M = 32.
    assert_eq!(scores_of("ImageLocality", &nodes, &[], &p), [32, 0, 0]);
}

// image_locality_test.go "pod with multiple small images": images below the threshold score 0.
#[test]
fn small_images_score_zero() {
    let nodes = [node_40_300_2000(), node_250_10()];
    assert_eq!(
        scores_of("ImageLocality", &nodes, &[], &pod_with(&["gcr.io/10"])),
        [0, 0]
    );
}
