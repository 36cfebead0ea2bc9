//! DefaultPreemption (defaultpreemption/default_preemption.go, framework/preemption/preemption.go):
//! when a pod fits nowhere, find the node where evicting the fewest, least important
//! lower-priority pods makes it fit, and nominate it.
//!
//! Not modelled: PodDisruptionBudgets (no violations are ever counted), nominated pods of other
//! preemptors, and the "terminating victims on the nominated node" eligibility check.

use crate::fit_error::Diagnosis;
use crate::pod_info::PodInfo;
use crate::scheduler::Scheduler;
use crate::status::{Code, Failure};

/// `MinCandidateNodesPercentage` default (pkg/scheduler/apis/config/v1/defaults.go).
pub const MIN_CANDIDATE_NODES_PERCENTAGE: usize = 10;
/// `MinCandidateNodesAbsolute` default (pkg/scheduler/apis/config/v1/defaults.go).
pub const MIN_CANDIDATE_NODES_ABSOLUTE: usize = 100;
/// preemption.go: status of nodes where preemption cannot help.
pub const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
/// default_preemption.go `SelectVictimsOnNode`: a node without lower-priority pods.
pub const NO_VICTIMS: &str = "No preemption victims found for incoming pod";

/// What preemption decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Preemption {
    /// Evict `victims` (`namespace/name`) and nominate `node`.
    Nominated { node: String, victims: Vec<String> },
    /// The PostFilter message explaining why preemption cannot help.
    NotHelpful(String),
}

struct Candidate {
    slot: u32,
    /// `(key, priority, timestamp)` of each victim.
    victims: Vec<(String, i32, i64)>,
}

/// Status of one node in the preemption dry run, for the message.
enum DryRun {
    NotHelpful,
    NoVictims,
    Filter(Failure),
}

/// `Evaluator.Preempt` for `pod` after a failed cycle (`rejected_all`: PreFilter rejected it).
pub fn preempt(s: &mut Scheduler, pod: &PodInfo, rejected_all: bool) -> Preemption {
    if pod.preemption_never {
        return Preemption::NotHelpful(
            "preemption: not eligible due to preemptionPolicy=Never.".into(),
        );
    }
    let num_all = s.cluster().num_nodes();
    let failures = s.last_failures();
    let mut statuses: Vec<DryRun> = Vec::new();
    // nodesWherePreemptionMightHelp: only Unschedulable (not ...AndUnresolvable) nodes.
    let potential: Vec<u32> = if rejected_all {
        Vec::new()
    } else {
        failures
            .iter()
            .filter(|(_, f)| f.code == Code::Unschedulable)
            .map(|(slot, _)| *slot)
            .collect()
    };
    statuses.extend((0..num_all.saturating_sub(potential.len())).map(|_| DryRun::NotHelpful));
    let mut candidates = Vec::new();
    if !potential.is_empty() {
        let n = potential.len();
        let num_candidates = (n * MIN_CANDIDATE_NODES_PERCENTAGE / 100)
            .max(MIN_CANDIDATE_NODES_ABSOLUTE)
            .min(n);
        let offset = s.rng_mut().below(n as u64) as usize;
        for i in 0..n {
            if candidates.len() >= num_candidates {
                break;
            }
            let Some(&slot) = potential.get((offset + i) % n) else {
                break;
            };
            match select_victims_on_node(s, pod, slot) {
                Ok(c) => candidates.push(c),
                Err(st) => statuses.push(st),
            }
        }
    }
    match pick_one_node(&candidates) {
        Some(c) => Preemption::Nominated {
            node: s
                .cluster()
                .node(c.slot)
                .map(|n| n.name.clone())
                .unwrap_or_default(),
            victims: c.victims.iter().map(|(k, _, _)| k.clone()).collect(),
        },
        None => {
            let mut d = Diagnosis::default();
            let mut not_helpful = 0usize;
            let mut no_victims = 0usize;
            for st in &statuses {
                match st {
                    DryRun::NotHelpful => not_helpful += 1,
                    DryRun::NoVictims => no_victims += 1,
                    DryRun::Filter(f) => d.add(f),
                }
            }
            let interner = &s.cluster().interner;
            let mut parts: Vec<String> = d
                .histogram
                .iter()
                .map(|(r, c)| format!("{c} {}", r.render(interner)))
                .collect();
            if not_helpful > 0 {
                parts.push(format!("{not_helpful} {NOT_HELPFUL}"));
            }
            if no_victims > 0 {
                parts.push(format!("{no_victims} {NO_VICTIMS}"));
            }
            parts.sort();
            let mut msg = format!("preemption: 0/{num_all} nodes are available:");
            if !parts.is_empty() {
                msg.push_str(&format!(" {}.", parts.join(", ")));
            }
            Preemption::NotHelpful(msg)
        }
    }
}

/// `SelectVictimsOnNode`: remove every lower-priority pod; if the pod then fits, add back the
/// most important ones while it still fits. The table is restored afterwards.
fn select_victims_on_node(
    s: &mut Scheduler,
    pod: &PodInfo,
    slot: u32,
) -> Result<Candidate, DryRun> {
    let Some(node) = s.cluster().node(slot) else {
        return Err(DryRun::NotHelpful);
    };
    let mut pool: Vec<String> = node
        .pods
        .iter()
        .filter_map(|&p| s.cluster().pod(p))
        .filter(|p| p.info.priority < pod.priority)
        .map(|p| p.info.key.clone())
        .collect();
    if pool.is_empty() {
        return Err(DryRun::NoVictims);
    }
    let mut removed = Vec::with_capacity(pool.len());
    for key in pool.drain(..) {
        if let Ok(entry) = s.cluster_mut().remove_pod(&key) {
            removed.push(entry);
        }
    }
    if let Some(f) = s.filter_on(pod, slot) {
        restore(s, removed, slot);
        return Err(DryRun::Filter(f));
    }
    // MoreImportantPod: higher priority first, then the older one.
    removed.sort_by(|a, b| {
        b.info
            .priority
            .cmp(&a.info.priority)
            .then(a.info.timestamp.cmp(&b.info.timestamp))
    });
    let mut victims = Vec::new();
    for entry in removed {
        let key = entry.info.key.clone();
        if s.cluster_mut()
            .add_pod(entry.info.clone(), slot, entry.assumed)
            .is_err()
        {
            continue;
        }
        // Reprieve the pod unless putting it back breaks the fit.
        if s.filter_on(pod, slot).is_some() {
            if let Ok(e) = s.cluster_mut().remove_pod(&key) {
                victims.push(e);
            }
        }
    }
    let summary = victims
        .iter()
        .map(|e| (e.info.key.clone(), e.info.priority, e.info.timestamp))
        .collect();
    restore(s, victims, slot);
    Ok(Candidate {
        slot,
        victims: summary,
    })
}

fn restore(s: &mut Scheduler, entries: Vec<crate::cluster::PodEntry>, slot: u32) {
    for e in entries {
        // Re-adding what was just removed cannot collide.
        let _ = s.cluster_mut().add_pod(e.info, slot, e.assumed);
    }
}

/// `pickOneNodeForPreemption` without PDBs: lowest highest-victim priority, then lowest sum of
/// priorities, then fewest victims, then the latest start of the highest-priority victim, then
/// the first candidate.
fn pick_one_node(candidates: &[Candidate]) -> Option<&Candidate> {
    let key = |c: &Candidate| {
        let highest = c.victims.iter().map(|v| v.1).max().unwrap_or(i32::MIN);
        // Sum of priorities shifted to be positive (preemption.go adds MaxInt32 + 1).
        let sum: i64 = c
            .victims
            .iter()
            .map(|v| i64::from(v.1) + i64::from(i32::MAX) + 1)
            .sum();
        let earliest_of_highest = c
            .victims
            .iter()
            .filter(|v| v.1 == highest)
            .map(|v| v.2)
            .min()
            .unwrap_or(i64::MAX);
        (
            highest,
            sum,
            c.victims.len(),
            std::cmp::Reverse(earliest_of_highest),
        )
    };
    let mut best: Option<&Candidate> = None;
    for c in candidates {
        if best.is_none_or(|b| key(c) < key(b)) {
            best = Some(c);
        }
    }
    best
}
