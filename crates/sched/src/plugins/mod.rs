//! One module per scheduler plugin, named as in `pkg/scheduler/framework/plugins/`.

pub mod node_resources_fit;
