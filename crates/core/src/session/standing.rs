//! The events that still stand in a session (each at its latest version, amendments
//! and undone events left out), with the state kept before every `CHECKPOINT`th: what a
//! correction replays from, "undo last hand" looks for and the club's history counts.

use serde_json::Value;

use super::{Core, Counted, EventKind, Fold};

/// An event that still stands (its latest version), with the state before it when kept.
#[derive(Clone)]
pub(super) struct Standing {
    /// The event's 0-based index in the session.
    pub(super) index: usize,
    /// The event as compact JSON, parsed again only when a correction replays it.
    pub(super) event: Box<str>,
    /// Whether it is a deal ([`crate::rules::Engine::is_deal`]), for "undo last hand".
    pub(super) deal: bool,
    /// Whether its row has running scores (`scores_after`).
    pub(super) scored: bool,
    /// The state before it, kept for one standing event in `CHECKPOINT`.
    pub(super) before: Option<Box<Core>>,
    /// What the club's history counts of it, folded afresh.
    pub(super) counted: Counted,
}

impl Standing {
    /// The event parsed again; were it not to parse, the `Null` is refused as "not an object".
    pub(super) fn event(&self) -> Value {
        serde_json::from_str(&self.event).unwrap_or(Value::Null)
    }
}

impl Fold {
    /// The event at `index` as it stands; `None` if undone, an amendment, or absent.
    pub fn standing_event(&self, index: usize) -> Option<Value> {
        self.standing_slot(index)
            .map(|slot| self.standing[slot].event())
    }

    /// Whether the event at `index` stands ([`Fold::standing_event`] without reading it).
    pub fn stands(&self, index: usize) -> bool {
        self.standing_slot(index).is_some()
    }

    /// The kind of the standing event at `index`; `None` if undone, an amendment, or absent.
    pub fn standing_kind(&self, index: usize) -> Option<EventKind> {
        let row = self.row_of.get(&index).and_then(|&r| self.rows.get(r))?;
        self.stands(index).then_some(row.kind)
    }

    /// The position of event `index` among the standing ones.
    pub(super) fn standing_slot(&self, index: usize) -> Option<usize> {
        self.standing.binary_search_by_key(&index, |s| s.index).ok()
    }

    /// The last standing deal: what "undo last hand" undoes.
    pub fn last_standing_hand(&self) -> Option<usize> {
        match self.standing.iter().rev().find(|s| s.deal) {
            Some(s) => Some(s.index),
            None => self.earlier_deal.map(|(index, _)| index),
        }
    }

    /// What the club's history counts of each standing event held, in order, as a fresh
    /// fold of them would make it.
    pub fn counted(&self) -> impl Iterator<Item = &Counted> {
        self.standing.iter().map(|s| &s.counted)
    }
}
