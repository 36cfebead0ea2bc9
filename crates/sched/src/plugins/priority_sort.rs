//! PrioritySort (queuesort/priority_sort.go): higher priority first, then earlier timestamp.

use crate::pod::PodSpec;
use std::cmp::Ordering;

pub const NAME: &str = "PrioritySort";

/// `PrioritySort.Less`: true when `a` should be scheduled before `b`.
pub fn less(a: &PodSpec, b: &PodSpec) -> bool {
    a.priority > b.priority || (a.priority == b.priority && a.timestamp < b.timestamp)
}

/// Orders a batch as the scheduling queue would pop it (stable for full ties).
pub fn sort(pods: &mut [PodSpec]) {
    pods.sort_by(|a, b| {
        if less(a, b) {
            Ordering::Less
        } else if less(b, a) {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(name: &str, priority: i32, timestamp: i64) -> PodSpec {
        PodSpec {
            name: name.into(),
            priority,
            timestamp,
            ..PodSpec::default()
        }
    }

    // priority_sort_test.go TestLess: "p1.priority greater than p2.priority", "p1.priority is
    // equal to p2.priority, and p1 is added to schedulingQ earlier than p2".
    #[test]
    fn higher_priority_then_older_first() {
        assert!(less(&pod("a", 2, 5), &pod("b", 1, 1)));
        assert!(!less(&pod("a", 1, 1), &pod("b", 2, 5)));
        assert!(less(&pod("a", 1, 1), &pod("b", 1, 2)));
        let mut v = vec![pod("low", 0, 0), pod("late", 5, 9), pod("early", 5, 1)];
        sort(&mut v);
        let names: Vec<_> = v.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["early", "late", "low"]);
    }
}
