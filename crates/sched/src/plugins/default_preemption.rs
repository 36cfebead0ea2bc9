//! DefaultPreemption (defaultpreemption/default_preemption.go): see `crate::preemption`.

use crate::events::ClusterEvent;

pub const NAME: &str = "DefaultPreemption";

/// `EventsToRegister` (defaultpreemption/default_preemption.go): does not reject in Filter;
/// registers nothing.
pub const EVENTS_TO_REGISTER: &[ClusterEvent] = &[];
