//! DefaultPreemption (defaultpreemption/default_preemption.go): see `crate::preemption`.

pub const NAME: &str = "DefaultPreemption";
