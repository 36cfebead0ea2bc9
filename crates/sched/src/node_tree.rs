//! Node order as kube-scheduler's `nodeTree` (pkg/scheduler/backend/cache/node_tree.go): nodes
//! grouped by zone in insertion order, listed round-robin across zones, so that the adaptive
//! "first N feasible nodes" search spreads over zones.

use crate::intern::Sym;

/// A zone key: `(region, zone)` label values (`utilnode.GetZoneKey`); `None` = no zone labels.
pub type ZoneKey = Option<(Sym, Sym)>;

#[derive(Debug, Default, Clone)]
pub struct NodeTree {
    zones: Vec<(ZoneKey, Vec<u32>)>,
    num_nodes: usize,
    list: Vec<u32>,
    dirty: bool,
}

impl NodeTree {
    pub fn add(&mut self, zone: ZoneKey, slot: u32) {
        match self.zones.iter_mut().find(|(z, _)| *z == zone) {
            Some((_, nodes)) => {
                if nodes.contains(&slot) {
                    return;
                }
                nodes.push(slot);
            }
            None => self.zones.push((zone, vec![slot])),
        }
        self.num_nodes += 1;
        self.dirty = true;
    }

    pub fn remove(&mut self, zone: ZoneKey, slot: u32) {
        let Some(zi) = self.zones.iter().position(|(z, _)| *z == zone) else {
            return;
        };
        let Some((_, nodes)) = self.zones.get_mut(zi) else {
            return;
        };
        let Some(ni) = nodes.iter().position(|&s| s == slot) else {
            return;
        };
        nodes.remove(ni);
        if nodes.is_empty() {
            self.zones.remove(zi);
        }
        self.num_nodes -= 1;
        self.dirty = true;
    }

    /// `nodeTree.list()`: one node from each zone in turn.
    pub fn list(&mut self) -> &[u32] {
        self.refresh();
        &self.list
    }

    /// The list as last refreshed.
    pub fn cached(&self) -> &[u32] {
        &self.list
    }

    /// Rebuilds the list if nodes were added or removed.
    pub fn refresh(&mut self) {
        if self.dirty {
            self.list.clear();
            let mut index = 0;
            while self.list.len() < self.num_nodes {
                let mut any = false;
                for (_, nodes) in &self.zones {
                    if let Some(&slot) = nodes.get(index) {
                        self.list.push(slot);
                        any = true;
                    }
                }
                if !any {
                    break;
                }
                index += 1;
            }
            self.dirty = false;
        }
    }

    pub fn len(&self) -> usize {
        self.num_nodes
    }

    pub fn is_empty(&self) -> bool {
        self.num_nodes == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_round_robin_across_zones() {
        let mut t = NodeTree::default();
        let (a, b) = (Some((1, 10)), Some((1, 11)));
        for (z, s) in [(a, 0), (a, 1), (a, 2), (b, 3), (None, 4)] {
            t.add(z, s);
        }
        assert_eq!(t.list(), &[0, 3, 4, 1, 2]);
        t.remove(b, 3);
        assert_eq!(t.list(), &[0, 4, 1, 2]);
        assert_eq!(t.len(), 4);
    }
}
