//! What `Scheduler::explain` returns: every node's verdict per filter plugin (Kubernetes' reason
//! strings), raw / normalized / weighted scores per score plugin, and the final choice.

/// One plugin's filter verdict on one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterVerdict {
    pub plugin: &'static str,
    /// "Success", "Unschedulable", "UnschedulableAndUnresolvable" or "Skip".
    pub code: &'static str,
    pub reasons: Vec<String>,
}

/// One plugin's score on one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginScore {
    pub plugin: &'static str,
    pub weight: i64,
    /// The plugin's PreScore returned Skip: it contributes nothing.
    pub skipped: bool,
    pub raw: i64,
    pub normalized: i64,
    pub weighted: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeExplanation {
    pub node: String,
    /// Every enabled filter plugin's verdict (all run, not only up to the first failure).
    pub filters: Vec<FilterVerdict>,
    /// All filters pass.
    pub feasible: bool,
    /// The scheduler's search looked at this node (it stops after numFeasibleNodesToFind).
    pub examined: bool,
    /// Scores, when this node was among the scored feasible nodes.
    pub scores: Vec<PluginScore>,
    pub total: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// `namespace/name`.
    pub pod: String,
    /// Nodes in the scheduler's snapshot order.
    pub nodes: Vec<NodeExplanation>,
    pub num_feasible_nodes_to_find: usize,
    /// The node the scheduler would choose now.
    pub chosen: Option<String>,
    /// The FailedScheduling message when no node fits.
    pub message: Option<String>,
}
