//! What the fold takes: an event as a document writes it, or a hand as its form typed it.

use serde_json::{Map, Value};

use super::EventKind;
use crate::rules::hand_form::FormHand;

/// An event to fold: as a document writes it (the API, the store), or a hand as its form
/// typed it, which the engine applies without reading its JSON back.
#[derive(Debug, Clone, Copy)]
pub enum Entry<'a> {
    /// The event as the session document writes it.
    Written(&'a Value),
    /// A hand from its form; its document form is what the store keeps.
    Typed(&'a FormHand),
}

impl<'a> Entry<'a> {
    /// The event as the session document writes it.
    pub fn written(self) -> &'a Value {
        match self {
            Entry::Written(raw) => raw,
            Entry::Typed(hand) => &hand.written,
        }
    }
}

impl<'a> From<&'a Value> for Entry<'a> {
    fn from(raw: &'a Value) -> Entry<'a> {
        Entry::Written(raw)
    }
}

impl<'a> From<&'a FormHand> for Entry<'a> {
    fn from(hand: &'a FormHand) -> Entry<'a> {
        Entry::Typed(hand)
    }
}

/// An event read for a step: its kind, its document form, and the form's typed hand.
#[derive(Clone, Copy)]
pub(super) struct Read<'a> {
    pub(super) kind: EventKind,
    pub(super) object: &'a Map<String, Value>,
    pub(super) typed: Option<&'a FormHand>,
    /// Nobody will read the step's words ([`crate::rules::Ctx::quiet`]).
    pub(super) quiet: bool,
}

impl<'a> Read<'a> {
    /// An event made here, never typed by a form (a `close` to preview).
    pub(super) fn plain(kind: EventKind, object: &'a Map<String, Value>) -> Read<'a> {
        Read {
            kind,
            object,
            typed: None,
            quiet: false,
        }
    }
}

/// An event to record, owned ([`Entry`] borrows one).
#[derive(Debug, Clone)]
pub enum NewEvent {
    /// The event as the session document writes it (the API, a form's undo or close).
    Written(Value),
    /// A hand from its form.
    Typed(FormHand),
}

impl NewEvent {
    /// The event, borrowed for the fold.
    pub fn entry(&self) -> Entry<'_> {
        match self {
            NewEvent::Written(raw) => Entry::Written(raw),
            NewEvent::Typed(hand) => Entry::Typed(hand),
        }
    }

    /// The event as the session document writes it, for the store and the answer.
    pub fn written(&self) -> &Value {
        self.entry().written()
    }

    /// [`NewEvent::written`], owned.
    pub fn into_written(self) -> Value {
        match self {
            NewEvent::Written(raw) => raw,
            NewEvent::Typed(hand) => hand.written,
        }
    }
}

impl From<Value> for NewEvent {
    fn from(raw: Value) -> NewEvent {
        NewEvent::Written(raw)
    }
}

impl From<FormHand> for NewEvent {
    fn from(hand: FormHand) -> NewEvent {
        NewEvent::Typed(hand)
    }
}

impl<'a> From<&'a NewEvent> for Entry<'a> {
    fn from(event: &'a NewEvent) -> Entry<'a> {
        event.entry()
    }
}
